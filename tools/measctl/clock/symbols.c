// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: symbols for profile.c.  /proc/kallsyms gives kernel function
 * start addresses (no sizes: a function runs to the next symbol).  A
 * process's executable mappings give, for a user address, the object
 * file and the file offset; the object's program headers turn the offset
 * into a link-time address, and its symbol table into a function.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock/symbols.h"

struct ksym {
	uint64_t addr;
	char *name;
	char *module;
};

struct ksyms {
	struct ksym *s;
	size_t n;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int ksyms_add(struct ksyms *k, size_t *cap, uint64_t addr,
		     const char *name, const char *module)
{
	struct ksym *s;

	if (k->n == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		s = realloc(k->s, *cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		k->s = s;
	}
	s = &k->s[k->n];
	s->addr = addr;
	s->name = strdup(name);
	s->module = module ? strdup(module) : NULL;
	if (!s->name)
		return -ENOMEM;
	k->n++;
	return 0;
}

struct ksyms *ksyms_load(void)
{
	char line[512], name[256], module[128];
	struct ksyms *k = calloc(1, sizeof(*k));
	unsigned long long addr;
	bool any = false;
	size_t cap = 0;
	FILE *f;
	char type;
	int n;

	f = fopen("/proc/kallsyms", "re");
	if (!k || !f)
		goto fail;
	while (fgets(line, sizeof(line), f)) {
		module[0] = '\0';
		n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name,
			   module);
		if (n < 3 || !ksym_is_text(type))
			continue;
		any |= addr != 0;
		if (ksyms_add(k, &cap, addr, name, n == 4 ? module : NULL))
			goto fail;
	}
	fclose(f);
	f = NULL;
	if (!any)	/* kptr_restrict: every address reads 0 */
		goto fail;
	qsort(k->s, k->n, sizeof(*k->s), ksym_cmp);
	return k;
fail:
	if (f)
		fclose(f);
	ksyms_free(k);
	return NULL;
}

void ksyms_free(struct ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++) {
		free(k->s[i].name);
		free(k->s[i].module);
	}
	free(k->s);
	free(k);
}

const char *ksyms_find(const struct ksyms *k, uint64_t ip, const char **module)
{
	size_t lo = 0, hi;

	*module = NULL;
	if (!k || !k->n || ip < k->s[0].addr)
		return NULL;
	hi = k->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	*module = k->s[lo].module;
	return k->s[lo].name;
}

/* ---- mappings ---- */

static int umap_add(struct pmaps *p, size_t *cap, const struct umap *u)
{
	struct umap *m;

	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		m = realloc(p->m, *cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		p->m = m;
	}
	p->m[p->n++] = *u;
	return 0;
}

/* One line of maps: "start-end perms offset dev inode   path". */
static bool umap_parse(const char *line, struct umap *u)
{
	unsigned long long s, e, off;
	char perms[8];
	int pos = 0;
	const char *path;

	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off,
		   &pos) < 4 || !pos || perms[2] != 'x')
		return false;
	path = line + pos;
	u->start = s;
	u->end = e;
	u->pgoff = off;
	u->path = strndup(path, strcspn(path, "\n"));
	if (!u->path)
		return false;
	if (!u->path[0]) {
		free(u->path);
		u->path = strdup("[anon]");
	}
	return !!u->path;
}

struct pmaps *pmaps_capture(pid_t tgid, const char *comm)
{
	struct pmaps *p = calloc(1, sizeof(*p));
	char path[64], line[4352];
	size_t cap = 0;
	struct umap u;
	FILE *f;

	if (!p)
		return NULL;
	p->tgid = tgid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	f = fopen(path, "re");
	if (!f) {
		free(p);
		return NULL;
	}
	while (fgets(line, sizeof(line), f))
		if (umap_parse(line, &u) && umap_add(p, &cap, &u))
			free(u.path);
	fclose(f);
	return p;
}

void pmaps_free(struct pmaps *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->m[i].path);
	free(p->m);
	free(p);
}

const struct umap *pmaps_find(const struct pmaps *p, uint64_t ip)
{
	size_t i;

	for (i = 0; p && i < p->n; i++)
		if (ip >= p->m[i].start && ip < p->m[i].end)
			return &p->m[i];
	return NULL;
}

/* ---- ELF symbol tables ---- */

struct fsym {
	uint64_t value, size;
	char *name;
};

struct fseg {
	uint64_t off, filesz, vaddr;
};

struct elfobj {
	char *path;
	struct fsym *syms;
	size_t nsyms;
	struct fseg *segs;
	size_t nsegs;
	struct elfobj *next;
};

struct elfcache {
	struct elfobj *objs;
};

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

static bool elf_in(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

static void elf_segments(struct elfobj *o, const unsigned char *b, size_t size,
			 const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph;
	size_t i;

	if (eh->e_phentsize != sizeof(*ph) ||
	    !elf_in(size, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(*ph)))
		return;
	ph = (const Elf64_Phdr *)(b + eh->e_phoff);
	o->segs = calloc(eh->e_phnum, sizeof(*o->segs));
	if (!o->segs)
		return;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		o->segs[o->nsegs].off = ph[i].p_offset;
		o->segs[o->nsegs].filesz = ph[i].p_filesz;
		o->segs[o->nsegs].vaddr = ph[i].p_vaddr;
		o->nsegs++;
	}
}

/* The functions of one symbol table section. */
static void elf_symtab(struct elfobj *o, const unsigned char *b, size_t size,
		       const Elf64_Shdr *sh, const Elf64_Shdr *strsh)
{
	const Elf64_Sym *sym;
	const char *str;
	size_t i, n;

	if (sh->sh_entsize != sizeof(*sym) || !elf_in(size, sh->sh_offset, sh->sh_size) ||
	    !elf_in(size, strsh->sh_offset, strsh->sh_size) || !strsh->sh_size)
		return;
	sym = (const Elf64_Sym *)(b + sh->sh_offset);
	str = (const char *)b + strsh->sh_offset;
	n = sh->sh_size / sizeof(*sym);
	o->syms = calloc(n, sizeof(*o->syms));
	if (!o->syms)
		return;
	for (i = 0; i < n; i++) {
		unsigned int type = ELF64_ST_TYPE(sym[i].st_info);

		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    !sym[i].st_value || sym[i].st_name >= strsh->sh_size ||
		    !memchr(str + sym[i].st_name, '\0',
			    strsh->sh_size - sym[i].st_name))
			continue;
		o->syms[o->nsyms].value = sym[i].st_value;
		o->syms[o->nsyms].size = sym[i].st_size;
		o->syms[o->nsyms].name = strdup(str + sym[i].st_name);
		if (o->syms[o->nsyms].name)
			o->nsyms++;
	}
	qsort(o->syms, o->nsyms, sizeof(*o->syms), fsym_cmp);
}

/* Parse a 64-bit ELF file: its loadable segments and functions. */
static void elf_parse(struct elfobj *o, const unsigned char *b, size_t size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
	const Elf64_Shdr *sh, *pick = NULL;
	size_t i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return;
	elf_segments(o, b, size, eh);
	if (eh->e_shentsize != sizeof(*sh) ||
	    !elf_in(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)))
		return;
	sh = (const Elf64_Shdr *)(b + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			pick = &sh[i];
		else if (sh[i].sh_type == SHT_DYNSYM && !pick)
			pick = &sh[i];
	}
	if (pick && pick->sh_link < eh->e_shnum)
		elf_symtab(o, b, size, pick, &sh[pick->sh_link]);
}

static struct elfobj *elf_load(const char *path)
{
	struct elfobj *o = calloc(1, sizeof(*o));
	struct stat st;
	void *b;
	int fd;

	if (!o)
		return NULL;
	o->path = strdup(path);
	if (path[0] != '/')
		return o;	/* [vdso], [anon]: no file */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return o;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		b = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (b != MAP_FAILED) {
			elf_parse(o, b, st.st_size);
			munmap(b, st.st_size);
		}
	}
	close(fd);
	return o;
}

struct elfcache *elfcache_new(void)
{
	return calloc(1, sizeof(struct elfcache));
}

void elfcache_free(struct elfcache *c)
{
	struct elfobj *o, *next;
	size_t i;

	if (!c)
		return;
	for (o = c->objs; o; o = next) {
		next = o->next;
		for (i = 0; i < o->nsyms; i++)
			free(o->syms[i].name);
		free(o->syms);
		free(o->segs);
		free(o->path);
		free(o);
	}
	free(c);
}

static struct elfobj *elfcache_get(struct elfcache *c, const char *path)
{
	struct elfobj *o;

	for (o = c->objs; o; o = o->next)
		if (o->path && !strcmp(o->path, path))
			return o;
	o = elf_load(path);
	if (o) {
		o->next = c->objs;
		c->objs = o;
	}
	return o;
}

const char *elfcache_find(struct elfcache *c, const char *path, uint64_t off)
{
	struct elfobj *o = elfcache_get(c, path);
	uint64_t vaddr = 0;
	size_t i, lo = 0, hi;
	bool mapped = false;

	if (!o || !o->nsyms)
		return NULL;
	for (i = 0; i < o->nsegs && !mapped; i++) {
		if (off >= o->segs[i].off &&
		    off < o->segs[i].off + o->segs[i].filesz) {
			vaddr = o->segs[i].vaddr + off - o->segs[i].off;
			mapped = true;
		}
	}
	if (!mapped || vaddr < o->syms[0].value)
		return NULL;
	hi = o->nsyms;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->syms[mid].value <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	/* Sized symbols must contain the address; aliases share a start. */
	while (lo > 0 && o->syms[lo - 1].value == o->syms[lo].value &&
	       !o->syms[lo].size)
		lo--;
	if (o->syms[lo].size && vaddr >= o->syms[lo].value + o->syms[lo].size)
		return NULL;
	return o->syms[lo].name;
}
