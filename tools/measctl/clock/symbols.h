/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: resolving sampled instruction pointers (profile.c).  Kernel
 * addresses through /proc/kallsyms; user addresses through the
 * executable mappings of /proc/PID/maps, captured while the process runs,
 * to an object file and offset, and to a function where the object's
 * ELF symbol table (.symtab, else .dynsym) has one.
 */
#ifndef MEASCTL_SYMBOLS_H
#define MEASCTL_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- kernel ---- */

struct ksyms;

/* NULL if /proc/kallsyms is unreadable or shows no addresses. */
struct ksyms *ksyms_load(void);
void ksyms_free(struct ksyms *k);
/* The function containing @ip, and its module (NULL: the kernel). */
const char *ksyms_find(const struct ksyms *k, uint64_t ip,
		       const char **module);

/* ---- user: mappings of a process ---- */

struct umap {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	char *path;		/* file, or "[vdso]" and the like */
};

struct pmaps {
	pid_t tgid;
	char comm[16];		/* the command the mappings belong to */
	struct umap *m;		/* executable mappings, by address */
	size_t n;
};

/* Executable mappings of @tgid now; NULL if it is gone. */
struct pmaps *pmaps_capture(pid_t tgid, const char *comm);
void pmaps_free(struct pmaps *p);
const struct umap *pmaps_find(const struct pmaps *p, uint64_t ip);

/* ---- user: ELF symbol tables, one per object file ---- */

struct elfcache;

struct elfcache *elfcache_new(void);
void elfcache_free(struct elfcache *c);
/* The function at file offset @off of @path, NULL if none is known. */
const char *elfcache_find(struct elfcache *c, const char *path, uint64_t off);

#endif /* MEASCTL_SYMBOLS_H */
