// SPDX-License-Identifier: GPL-2.0
/*
 * measctl profile: run a command (or watch the whole system for a while)
 * under the shared clock's call-stack sampler and report the top
 * programs and the top functions, folded "program;frame;...;leaf count"
 * lines for flame-graph tools, or a flame graph of its own (--svg).
 * --no-stacks (or a module without the call-stack sampler) samples
 * program counters only: "program;function count".
 *
 * The clock is taken without ticking (GETCLOCK with interval 0), the
 * command forked and held on a pipe, the clock started, the command let
 * go.  Every 100 ms the records are read; the mappings of each process
 * seen are captured then, while it lives.  At the end the clock pauses
 * (GIVECLOCK(0)), the rest is read, the clock released, and only then are
 * the addresses resolved, so that reading symbol tables costs the
 * profile nothing.  With a command, the report covers the command and its
 * descendants (those still alive when first sampled); --all reports
 * every process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "pictures/picture.h"
#include "clock/symbols.h"
#include "cli/dev.h"
#include "cli/interval.h"

#define PROF_DEF_MS		10
#define PROF_DEF_SECONDS	5.0
#define PROF_MAX_SECONDS	86400.0
#define PROF_DEF_TOP		10
#define PROF_READ_MS		100

struct prof_args {
	uint64_t interval;
	double duration;
	uint64_t top;
	uint64_t records;
	bool all;
	bool folded;
	bool nostacks;
	const char *svg;
	bool duration_set;
	const char *output;
	char **cmd;
};

/* One sample kept for resolution after the run. */
struct prof_sample {
	struct meas_clock_pc pc;
	uint64_t *frame;	/* nk kernel frames, then nu user frames */
	uint16_t nk, nu;	/* innermost first */
	int maps;		/* index in prof.maps, -1 if none */
	bool in_scope;
};

/* A process seen: its mappings and whether it belongs to the command. */
struct prof_proc {
	pid_t tgid;
	int maps;		/* latest capture, -1 if none */
	int scope;		/* -1 unknown, 0 no, 1 yes */
	unsigned int round;	/* read round of the latest capture */
};

struct prof {
	const struct prof_args *a;
	pid_t child;		/* the command, 0 when watching */
	struct prof_sample *s;
	size_t ns, cap;
	struct prof_proc *procs;
	size_t nprocs, capprocs;
	struct pmaps **maps;
	size_t nmaps, capmaps;
	unsigned int round;
	uint32_t collector;	/* MEAS_COLLECTOR_STACK, or _PC */
	size_t recsize;		/* bytes of its record */
	uint64_t *per_cpu;	/* samples of each CPU */
	unsigned int ncpu;	/* entries of per_cpu */
	uint64_t lost, missed, ticks;
	uint32_t granted;
	unsigned int cpus;
	uint64_t t0, t1;
	int status;		/* the command's wait status */
	bool reaped;		/* status is set */
	int exit_code;
};

static volatile sig_atomic_t prof_stop;

static void prof_on_signal(int sig)
{
	(void)sig;
	prof_stop = 1;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	void *q;

	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 256;
	q = realloc(p, *cap * size);
	if (!q) {
		fputs("measctl profile: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return q;
}

/* ---- processes: scope and mappings, while they live ---- */

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

static bool descends_from(pid_t pid, pid_t root)
{
	int depth;

	for (depth = 0; pid > 1 && depth < 64; depth++) {
		if (pid == root)
			return true;
		pid = parent_of(pid);
	}
	return false;
}

static struct prof_proc *prof_proc(struct prof *p, pid_t tgid)
{
	struct prof_proc *pp;
	size_t i;

	for (i = 0; i < p->nprocs; i++)
		if (p->procs[i].tgid == tgid)
			return &p->procs[i];
	p->procs = grow(p->procs, &p->capprocs, p->nprocs, sizeof(*p->procs));
	pp = &p->procs[p->nprocs++];
	pp->tgid = tgid;
	pp->maps = -1;
	pp->scope = -1;
	pp->round = 0;
	return pp;
}

static bool prof_in_scope(struct prof *p, const struct meas_clock_pc *pc)
{
	struct prof_proc *pp;

	if (p->a->all || !p->child)
		return true;
	if (pc->hdr.flags & MEAS_REC_IDLE || !pc->tgid)
		return false;
	pp = prof_proc(p, pc->tgid);
	if (pp->scope < 0)
		pp->scope = descends_from(pc->tgid, p->child);
	return pp->scope;
}

/* Mappings for a user address: captured again after an exec or a miss. */
static int prof_maps_for(struct prof *p, const struct meas_clock_pc *pc,
			 uint64_t uip)
{
	struct prof_proc *pp = prof_proc(p, pc->tgid);
	const struct pmaps *cur = pp->maps >= 0 ? p->maps[pp->maps] : NULL;
	struct pmaps *m;

	if (cur && !strncmp(cur->comm, pc->comm, sizeof(cur->comm)) &&
	    pmaps_find(cur, uip))
		return pp->maps;
	/* At most one capture a process per read round. */
	if (pp->round == p->round)
		return pp->maps;
	m = pmaps_capture(pc->tgid, pc->comm);
	pp->round = p->round;
	if (!m)
		return pp->maps;
	p->maps = grow(p->maps, &p->capmaps, p->nmaps, sizeof(*p->maps));
	p->maps[p->nmaps] = m;
	pp->maps = p->nmaps++;
	return pp->maps;
}

/* The frames of a record: its stacks, or the PC record's one address. */
static void prof_frames(struct prof *p, struct prof_sample *s,
			const void *rec)
{
	const struct meas_clock_stack *st = rec;
	const struct meas_clock_pc *pc = rec;
	unsigned int n;

	s->nk = 0;
	s->nu = 0;
	s->frame = NULL;
	if (p->collector == MEAS_COLLECTOR_STACK) {
		n = st->nr_kernel + st->nr_user;
		if (n > MEAS_CLOCK_STACK_FRAMES || !n)
			return;
		s->nk = st->nr_kernel;
		s->nu = st->nr_user;
	} else if (!(pc->hdr.flags & MEAS_REC_NOREGS)) {
		n = 1;
		s->nk = !(pc->hdr.flags & MEAS_REC_USER);
		s->nu = !s->nk;
	} else {
		return;
	}
	s->frame = malloc(n * sizeof(*s->frame));
	if (!s->frame) {
		fputs("measctl profile: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	if (p->collector == MEAS_COLLECTOR_STACK)
		memcpy(s->frame, st->frame, n * sizeof(*s->frame));
	else
		s->frame[0] = pc->ip;
}

static void prof_take(struct prof *p, const void *rec)
{
	const struct meas_clock_pc *pc = rec;
	struct prof_sample *s;

	if (pc->hdr.cpu < p->ncpu)
		p->per_cpu[pc->hdr.cpu]++;
	p->s = grow(p->s, &p->cap, p->ns, sizeof(*p->s));
	s = &p->s[p->ns++];
	s->pc = *pc;
	s->in_scope = prof_in_scope(p, pc);
	s->maps = -1;
	prof_frames(p, s, rec);
	if (s->in_scope && s->nu)
		s->maps = prof_maps_for(p, pc, s->frame[s->nk]);
}

/* Read what is there; 0, or -errno. */
static int prof_read(struct prof *p, int bfd)
{
	static struct meas_clock_stack buf[64];
	ssize_t n, i;

	p->round++;
	for (;;) {
		n = meas_clockbuf_read(bfd, buf, sizeof(buf));
		if (n == -EAGAIN || n == 0)
			return 0;
		if (n < 0)
			return n;
		for (i = 0; i < n / (ssize_t)p->recsize; i++)
			prof_take(p, (const char *)buf + i * p->recsize);
	}
}

/* ---- the run ---- */

static void __noreturn prof_child(char **cmd, int gate)
{
	char c;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	/* Wait until the clock ticks (or the parent gives up: EOF). */
	if (read(gate, &c, 1) != 1)
		_exit(EXIT_FAIL);
	close(gate);
	execvp(cmd[0], cmd);
	fprintf(stderr, "measctl profile: cannot run '%s': %s\n", cmd[0],
		strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static int prof_fork(struct cmd_ctx *ctx, struct prof *p, int *gate)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return fail(ctx, errno, "pipe");
	fflush(stdout);
	fflush(stderr);
	p->child = fork();
	if (p->child < 0) {
		close(fds[0]);
		close(fds[1]);
		return fail(ctx, errno, "fork");
	}
	if (!p->child) {
		close(fds[1]);
		prof_child(p->a->cmd, fds[0]);
	}
	close(fds[0]);
	*gate = fds[1];
	return EXIT_OK;
}

static bool prof_done(struct prof *p)
{
	pid_t w;

	if (prof_stop)
		return true;
	if (!p->child)
		return mono_ns() - p->t0 >= (uint64_t)(p->a->duration * 1e9);
	w = waitpid(p->child, &p->status, WNOHANG);
	p->reaped = w == p->child;
	return p->reaped;
}

/* Counters of the rings, from the read-only mapping. */
static void prof_counters(struct prof *p, int bfd)
{
	const struct meas_clockbuf_ring *r;
	struct meas_clockmap m;
	unsigned int cpu;

	if (meas_clockbuf_map(bfd, &m))
		return;
	for (cpu = 0; cpu < m.head->nr_rings; cpu++) {
		r = meas_clockbuf_ring(&m, cpu);
		p->lost += r->lost;
		p->missed += r->missed;
		p->ticks += r->ticks;
	}
	meas_clockbuf_unmap(&m);
}

static int prof_loop(struct cmd_ctx *ctx, struct prof *p, int bfd)
{
	struct pollfd pfd = { .fd = bfd, .events = POLLIN };
	int err;

	while (!prof_done(p)) {
		poll(&pfd, 1, PROF_READ_MS);
		err = prof_read(p, bfd);
		if (err)
			return fail(ctx, -err, "read of the clock buffer");
	}
	return EXIT_OK;
}

/* Take the clock, start it, let the command go, read until the end. */
static int prof_collect(struct cmd_ctx *ctx, struct prof *p, int fd)
{
	uint64_t ring = p->a->records ? p->a->records : MEAS_CLOCK_DEF_RECORDS;
	/* Reads come every 100 ms: no wake-up before a ring is half full. */
	struct meas_getclock g = { .collector = MEAS_COLLECTOR_STACK,
				   .records = p->a->records,
				   .wakeup = ring / 2 };
	int err, rc, gate = -1, bfd, result;

	if (p->a->nostacks)
		g.collector = MEAS_COLLECTOR_PC;
	err = meas_getclock(fd, &g);
	/* A module without call stacks: program counters only. */
	if (err && g.result == MEAS_GETCLOCK_BADCOLLECTOR &&
	    g.collector == MEAS_COLLECTOR_STACK) {
		warnx_ctx(ctx, "no call stacks from this module: program counters only");
		g.collector = MEAS_COLLECTOR_PC;
		g.intrate = 0;
		g.base_ms = 0;
		g.quotient = 0;
		err = meas_getclock(fd, &g);
	}
	p->collector = g.collector;
	p->recsize = g.collector == MEAS_COLLECTOR_STACK ?
		     sizeof(struct meas_clock_stack) :
		     sizeof(struct meas_clock_pc);
	if (err)
		return fail_call(ctx, "GETCLOCK", g.result, -err,
				 "GETCLOCK of the program-counter sampler");
	bfd = g.fd;
	fcntl(bfd, F_SETFL, O_NONBLOCK);
	if (p->a->cmd && prof_fork(ctx, p, &gate)) {
		rc = EXIT_FAIL;
		goto release;
	}
	memset(&g, 0, sizeof(g));
	g.intrate = p->a->interval;
	err = meas_getclock(fd, &g);
	if (err) {
		rc = fail_call(ctx, "GETCLOCK", g.result, -err,
			       "GETCLOCK at %llu ms",
			       (unsigned long long)p->a->interval);
		goto release;
	}
	p->granted = g.intrate;
	p->t0 = mono_ns();
	if (gate >= 0 && write(gate, "go", 1) != 1)
		warnx_ctx(ctx, "cannot start the command: %s", strerror(errno));
	rc = prof_loop(ctx, p, bfd);
	meas_giveclock(fd, 0, &result);
	p->t1 = mono_ns();
	err = rc ? 0 : prof_read(p, bfd);
	if (err)
		rc = fail(ctx, -err, "read of the clock buffer");
	prof_counters(p, bfd);
release:
	if (gate >= 0)
		close(gate);
	meas_giveclock(fd, p->collector, &result);
	close(bfd);
	return rc;
}

/* ---- the report ---- */

struct tally {
	char *key;
	char *program;		/* folded: the program part */
	uint64_t n;
	uint64_t procs;		/* programs: distinct processes */
	bool kernel;
};

struct tallies {
	struct tally *t;
	size_t n, cap;
};

static struct tally *tally_add(struct tallies *ts, const char *key)
{
	struct tally *t;
	size_t i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->t[i].key, key)) {
			ts->t[i].n++;
			return &ts->t[i];
		}
	ts->t = grow(ts->t, &ts->cap, ts->n, sizeof(*ts->t));
	t = &ts->t[ts->n++];
	memset(t, 0, sizeof(*t));
	t->key = strdup(key);
	t->n = 1;
	if (!t->key) {
		fputs("measctl profile: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return t;
}

static int tally_cmp(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void tallies_free(struct tallies *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		free(ts->t[i].key);
	free(ts->t);
}

static const char *basename_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * "function (object)", "function [kernel]", "object+0xoff", ...  A frame
 * past the first is a return address: its call is the byte before.
 */
static void prof_label(struct prof *p, const struct prof_sample *s,
		       unsigned int i, const struct ksyms *ks,
		       struct elfcache *ec, char *buf, size_t len)
{
	uint64_t ip = s->frame[i], at = ip - (i != 0 && i != s->nk), off;
	const char *fn, *mod;
	const struct umap *u = NULL;

	if (i >= s->nk && s->maps >= 0)
		u = pmaps_find(p->maps[s->maps], at);
	if (i < s->nk) {
		fn = ksyms_find(ks, at, &mod);
		if (fn)
			snprintf(buf, len, "%s [%s]", fn, mod ? mod : "kernel");
		else
			snprintf(buf, len, "0x%llx [kernel]",
				 (unsigned long long)ip);
	} else if (!u) {
		snprintf(buf, len, "0x%llx [unknown]", (unsigned long long)ip);
	} else {
		off = at - u->start + u->pgoff;
		fn = elfcache_find(ec, u->path, off);
		if (fn)
			snprintf(buf, len, "%s (%s)", fn, basename_of(u->path));
		else
			snprintf(buf, len, "%s+0x%llx", basename_of(u->path),
				 (unsigned long long)(off + (ip - at)));
	}
}

/* Flame-graph frames: no ';' or spaces; kernel frames end in _[k]. */
static void folded_frame(const char *label, bool kernel, char *buf, size_t len)
{
	/* "fn [kernel]" -> "fn_[k]", "fn (obj)" -> "fn", "obj+0x10" kept */
	size_t i, n = strcspn(label, " ");

	snprintf(buf, len, "%.*s%s", (int)n, label, kernel ? "_[k]" : "");
	for (i = 0; buf[i]; i++)
		if (buf[i] == ';' || buf[i] == ' ')
			buf[i] = '_';
}

struct prof_report {
	struct tallies programs, procs, functions, folded;
	uint64_t in_scope, idle;
};

static const char *prof_program(const struct meas_clock_pc *pc)
{
	return pc->hdr.flags & MEAS_REC_IDLE ? "[idle]" : pc->comm;
}

/* Append @frame to the folded key @key of @len bytes. */
static void folded_push(char *key, size_t len, const char *label, bool kernel)
{
	size_t used = strlen(key);
	char frame[512];

	folded_frame(label, kernel, frame, sizeof(frame));
	snprintf(key + used, len - used, ";%s", frame);
}

/* program;outermost user frame;...;innermost kernel frame */
static void prof_fold(struct prof *p, const struct prof_sample *s,
		      const struct ksyms *ks, struct elfcache *ec,
		      char *key, size_t len)
{
	char label[512];
	unsigned int i;
	size_t j;

	snprintf(key, len, "%s", prof_program(&s->pc));
	for (j = 0; key[j]; j++)
		if (key[j] == ' ' || key[j] == ';')
			key[j] = '_';
	if (!(s->nk + s->nu))
		folded_push(key, len, "[unknown]", false);
	if (s->pc.hdr.flags & MEAS_REC_UTRUNC)
		folded_push(key, len, "[truncated]", false);
	for (i = s->nk + s->nu; i-- > s->nk;) {
		prof_label(p, s, i, ks, ec, label, sizeof(label));
		folded_push(key, len, label, false);
	}
	if (s->pc.hdr.flags & MEAS_REC_KTRUNC)
		folded_push(key, len, "[truncated]", true);
	for (i = s->nk; i-- > 0;) {
		prof_label(p, s, i, ks, ec, label, sizeof(label));
		folded_push(key, len, label, true);
	}
}

static void prof_tally(struct prof *p, struct prof_report *r)
{
	struct elfcache *ec = elfcache_new();
	struct ksyms *ks = ksyms_load();
	static char key[64 * 1024];
	char label[512];
	struct tally *t;
	size_t i, j;

	for (i = 0; i < p->ns; i++) {
		const struct prof_sample *s = &p->s[i];

		if (!s->in_scope)
			continue;
		r->in_scope++;
		r->idle += !!(s->pc.hdr.flags & MEAS_REC_IDLE);
		tally_add(&r->programs, prof_program(&s->pc));
		snprintf(key, sizeof(key), "%s/%u", prof_program(&s->pc),
			 s->pc.tgid);
		tally_add(&r->procs, key);
		if (s->nk + s->nu)
			prof_label(p, s, 0, ks, ec, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "[unknown]");
		t = tally_add(&r->functions, label);
		t->kernel = s->nk;
		prof_fold(p, s, ks, ec, key, sizeof(key));
		tally_add(&r->folded, key);
	}
	for (i = 0; i < r->procs.n; i++) {
		*strrchr(r->procs.t[i].key, '/') = '\0';
		for (j = 0; j < r->programs.n; j++)
			if (!strcmp(r->programs.t[j].key, r->procs.t[i].key))
				r->programs.t[j].procs++;
	}
	qsort(r->programs.t, r->programs.n, sizeof(*r->programs.t), tally_cmp);
	qsort(r->functions.t, r->functions.n, sizeof(*r->functions.t), tally_cmp);
	qsort(r->folded.t, r->folded.n, sizeof(*r->folded.t), tally_cmp);
	ksyms_free(ks);
	elfcache_free(ec);
}

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * n / of : 0;
}

static void prof_head_text(FILE *f, const struct prof *p,
			   const struct prof_report *r)
{
	unsigned int cpu;

	fprintf(f, "measctl profile: ");
	if (p->a->cmd) {
		fprintf(f, "%s: ", p->a->cmd[0]);
		if (WIFSIGNALED(p->status))
			fprintf(f, "killed by signal %d, ", WTERMSIG(p->status));
		else
			fprintf(f, "exit status %d, ", p->exit_code);
	} else {
		fprintf(f, "whole system, ");
	}
	fprintf(f, "%.3f s, every %u ms on %u CPUs\n",
		(p->t1 - p->t0) / 1e9, p->granted, p->cpus);
	fprintf(f, "samples: %zu (", p->ns);
	for (cpu = 0; cpu < p->ncpu; cpu++)
		if (p->per_cpu[cpu])
			fprintf(f, "%scpu%u %llu", cpu ? ", " : "", cpu,
				(unsigned long long)p->per_cpu[cpu]);
	fprintf(f, "), reported %llu, idle %llu, lost %llu, missed ticks %llu\n",
		(unsigned long long)r->in_scope, (unsigned long long)r->idle,
		(unsigned long long)p->lost, (unsigned long long)p->missed);
	if (p->a->cmd && !p->a->all)
		fputs("reported: the command and its descendants (--all: every process)\n",
		      f);
}

static void prof_print_text(FILE *f, const struct prof *p,
			    const struct prof_report *r)
{
	size_t i;

	prof_head_text(f, p, r);
	fputs("\nTop programs:\n  samples      %  procs  program\n", f);
	for (i = 0; i < r->programs.n && i < p->a->top; i++)
		fprintf(f, "  %7llu  %5.1f  %5llu  %s\n",
			(unsigned long long)r->programs.t[i].n,
			pct(r->programs.t[i].n, r->in_scope),
			(unsigned long long)r->programs.t[i].procs,
			r->programs.t[i].key);
	fputs("\nTop functions:\n  samples      %  function\n", f);
	for (i = 0; i < r->functions.n && i < p->a->top; i++)
		fprintf(f, "  %7llu  %5.1f  %s\n",
			(unsigned long long)r->functions.t[i].n,
			pct(r->functions.t[i].n, r->in_scope),
			r->functions.t[i].key);
}

static void prof_print_folded(FILE *f, const struct prof_report *r)
{
	size_t i;

	for (i = 0; i < r->folded.n; i++)
		fprintf(f, "%s %llu\n", r->folded.t[i].key,
			(unsigned long long)r->folded.t[i].n);
}

static void prof_print_json(FILE *f, const struct prof *p,
			    const struct prof_report *r)
{
	struct json j;
	char **c;
	size_t i;

	json_doc_ok(&j, f, "profile", true);
	if (p->a->cmd) {
		json_arr_begin(&j, "argv");
		for (c = p->a->cmd; *c; c++)
			json_str(&j, NULL, *c);
		json_arr_end(&j);
		json_i64(&j, "exit_status", p->exit_code);
	}
	json_u64(&j, "interval_ms", p->granted);
	json_u64(&j, "cpus", p->cpus);
	json_double(&j, "elapsed_s", (p->t1 - p->t0) / 1e9);
	json_u64(&j, "samples", p->ns);
	json_arr_begin(&j, "per_cpu");
	for (i = 0; i < p->ncpu; i++)
		json_u64(&j, NULL, p->per_cpu[i]);
	json_arr_end(&j);
	json_u64(&j, "reported", r->in_scope);
	json_u64(&j, "idle", r->idle);
	json_u64(&j, "lost", p->lost);
	json_u64(&j, "missed_ticks", p->missed);
	json_bool(&j, "all", p->a->all || !p->a->cmd);
	json_arr_begin(&j, "programs");
	for (i = 0; i < r->programs.n && i < p->a->top; i++) {
		json_obj_begin(&j, NULL);
		json_str(&j, "program", r->programs.t[i].key);
		json_u64(&j, "processes", r->programs.t[i].procs);
		json_u64(&j, "samples", r->programs.t[i].n);
		json_double(&j, "percent", pct(r->programs.t[i].n, r->in_scope));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_arr_begin(&j, "functions");
	for (i = 0; i < r->functions.n && i < p->a->top; i++) {
		json_obj_begin(&j, NULL);
		json_str(&j, "function", r->functions.t[i].key);
		json_bool(&j, "kernel", r->functions.t[i].kernel);
		json_u64(&j, "samples", r->functions.t[i].n);
		json_double(&j, "percent", pct(r->functions.t[i].n, r->in_scope));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (p->a->folded) {
		json_arr_begin(&j, "folded");
		for (i = 0; i < r->folded.n; i++) {
			json_obj_begin(&j, NULL);
			json_str(&j, "stack", r->folded.t[i].key);
			json_u64(&j, "samples", r->folded.t[i].n);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_doc_end(&j);
}

static void prof_free(struct prof *p)
{
	size_t i;

	for (i = 0; i < p->nmaps; i++)
		pmaps_free(p->maps[i]);
	free(p->maps);
	free(p->procs);
	for (i = 0; i < p->ns; i++)
		free(p->s[i].frame);
	free(p->s);
	free(p->per_cpu);
}

/* The flame graph of the folded stacks, into @path. */
static int prof_svg(struct cmd_ctx *ctx, const struct prof *p,
		    const struct prof_report *r, const char *path)
{
	char title[256], sub[256];
	struct flame fl;
	FILE *out;
	size_t i;
	int err = 0;

	if (flame_init(&fl))
		return fail(ctx, ENOMEM, "flame graph");
	for (i = 0; i < r->folded.n && !err; i++)
		err = flame_add(&fl, r->folded.t[i].key, r->folded.t[i].n);
	if (err) {
		flame_free(&fl);
		return fail(ctx, -err, "flame graph");
	}
	snprintf(title, sizeof(title), "measctl profile: %s",
		 p->a->cmd ? p->a->cmd[0] : "whole system");
	snprintf(sub, sizeof(sub), "%llu samples every %u ms on %u CPUs, %s",
		 (unsigned long long)r->in_scope, p->granted, p->cpus,
		 p->collector == MEAS_COLLECTOR_STACK ? "call stacks" :
		 "program counters only");
	out = fopen(path, "we");
	if (!out) {
		flame_free(&fl);
		return fail(ctx, errno, "cannot write %s", path);
	}
	flame_svg(out, &fl, title, sub, true);
	flame_free(&fl);
	if (fclose(out))
		return fail(ctx, errno, "cannot write %s", path);
	return EXIT_OK;
}

static int prof_report(struct cmd_ctx *ctx, struct prof *p)
{
	struct prof_report r = { 0 };
	FILE *out = stdout;
	int rc = EXIT_OK;

	if (p->a->output) {
		out = fopen(p->a->output, "we");
		if (!out)
			return fail(ctx, errno, "cannot write %s", p->a->output);
	}
	prof_tally(p, &r);
	if (ctx->json)
		prof_print_json(out, p, &r);
	else if (p->a->folded)
		prof_print_folded(out, &r);
	else
		prof_print_text(out, p, &r);
	if (out != stdout && fclose(out))
		rc = fail(ctx, errno, "cannot write %s", p->a->output);
	fflush(stdout);
	if (!rc && p->a->svg)
		rc = prof_svg(ctx, p, &r, p->a->svg);
	tallies_free(&r.programs);
	tallies_free(&r.procs);
	tallies_free(&r.functions);
	tallies_free(&r.folded);
	return rc;
}

static void prof_wait_child(struct prof *p)
{
	if (p->child <= 0)
		return;
	/* Stopped by SIGTERM before the command ended: pass it on. */
	if (!p->reaped && prof_stop)
		kill(p->child, SIGTERM);
	if (!p->reaped)
		while (waitpid(p->child, &p->status, 0) < 0 && errno == EINTR)
			;
	if (WIFEXITED(p->status))
		p->exit_code = WEXITSTATUS(p->status);
	else if (WIFSIGNALED(p->status))
		p->exit_code = 128 + WTERMSIG(p->status);
	else
		p->exit_code = EXIT_FAIL;
}

static int prof_do(struct cmd_ctx *ctx, const struct prof_args *a)
{
	struct sigaction stop = { .sa_handler = prof_on_signal };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct prof p = { .a = a };
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int fd, rc;

	p.cpus = n > 0 ? n : 1;
	n = sysconf(_SC_NPROCESSORS_CONF);
	p.ncpu = n > 0 && n < 4096 ? n : 4096;
	p.per_cpu = calloc(p.ncpu, sizeof(*p.per_cpu));
	if (!p.per_cpu)
		return fail(ctx, ENOMEM, "profile");
	/*
	 * Watching: a signal ends the watch.  A command: like run, SIGINT
	 * and SIGQUIT go to the command, whose end ends the profile.
	 */
	sigemptyset(&stop.sa_mask);
	sigemptyset(&ign.sa_mask);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGINT, a->cmd ? &ign : &stop, NULL);
	if (a->cmd)
		sigaction(SIGQUIT, &ign, NULL);
	fd = open_dev(ctx);
	if (fd < 0)
		return EXIT_FAIL;
	rc = prof_collect(ctx, &p, fd);
	close(fd);
	prof_wait_child(&p);
	if (!rc)
		rc = prof_report(ctx, &p);
	prof_free(&p);
	if (rc)
		return rc;
	return a->cmd ? p.exit_code : EXIT_OK;
}

static int prof_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct prof_args *a = data;

	switch (id) {
	case 'i':
		if (parse_u64(arg, MEAS_CLOCK_MAX_MS, &a->interval) ||
		    a->interval < MEAS_CLOCK_MIN_MS)
			return usage_error(ctx, "bad interval '%s' (%d..%d ms)",
					   arg, MEAS_CLOCK_MIN_MS,
					   MEAS_CLOCK_MAX_MS);
		return EXIT_OK;
	case 'd':
		if (parse_seconds(arg, 0.001, PROF_MAX_SECONDS, &a->duration))
			return usage_error(ctx, "bad duration '%s' (0.001..%g s)",
					   arg, (double)PROF_MAX_SECONDS);
		a->duration_set = true;
		return EXIT_OK;
	case 'n':
		if (parse_u64(arg, UINT32_MAX, &a->top) || !a->top)
			return usage_error(ctx, "bad count '%s' (1 or more)", arg);
		return EXIT_OK;
	case 'r':
		if (parse_u64(arg, MEAS_CLOCK_MAX_RECORDS, &a->records) ||
		    a->records < MEAS_CLOCK_MIN_RECORDS)
			return usage_error(ctx, "bad record count '%s' (%d..%u)",
					   arg, MEAS_CLOCK_MIN_RECORDS,
					   MEAS_CLOCK_MAX_RECORDS);
		return EXIT_OK;
	case 'a':
		a->all = true;
		return EXIT_OK;
	case 'f':
		a->folded = true;
		return EXIT_OK;
	case 'S':
		a->nostacks = true;
		return EXIT_OK;
	case 'g':
		a->svg = arg;
		return EXIT_OK;
	default:
		a->output = arg;
		return EXIT_OK;
	}
}

static int cmd_profile(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "interval", 'i', OPT_ARG, 'i' },
		{ "duration", 'd', OPT_ARG, 'd' },
		{ "top", 'n', OPT_ARG, 'n' },
		{ "records", 'r', OPT_ARG, 'r' },
		{ "all", 'a', OPT_NONE, 'a' },
		{ "folded", 'f', OPT_NONE, 'f' },
		{ "no-stacks", 0, OPT_NONE, 'S' },
		{ "svg", 0, OPT_ARG, 'g' },
		{ "output", 'o', OPT_ARG, 'o' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct prof_args a = { .interval = PROF_DEF_MS,
			       .duration = PROF_DEF_SECONDS,
			       .top = PROF_DEF_TOP };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, true, prof_opt, &a);
	if (rc != OPT_END)
		return rc;
	if (st.rest < argc)
		a.cmd = argv + st.rest;
	if (a.cmd && a.duration_set)
		return usage_error(ctx, "-d is for watching the whole system, not with a command");
	if (!a.cmd && a.all)
		return usage_error(ctx, "--all is for a command; watching reports every process");
	return prof_do(ctx, &a);
}

const struct command profile_command = {
	.name = "profile",
	.fn = cmd_profile,
	.args = "[-i MS] [-d SECONDS] [-n TOP] [-r RECORDS] [--all] [--folded]\n"
		"    [--no-stacks] [--svg FILE] [-o FILE] [--] [CMD [ARGS...]]",
	.help = "sample the call stacks of every CPU every MS ms (default 10;\n"
		"    GETCLOCK) while CMD runs, or for SECONDS (default 5) over the\n"
		"    whole system; print the top programs and functions, or\n"
		"    'program;frame;...;leaf count' lines (--folded); --svg: also\n"
		"    write an interactive flame graph; --no-stacks: program\n"
		"    counters only.  With CMD: its processes only (--all: every\n"
		"    process); exits with CMD's status",
};
