// SPDX-License-Identifier: GPL-2.0
/*
 * measctl cgroup: the cgroup tree with class 15's counters, as atop's G
 * view, systemd-cgtop and below show it, from the module's per-cgroup
 * totals (cgsnap.c).  Each row is a cgroup and its subtree: on cgroup v2
 * only leaves (and the root) hold processes, so a slice's row is what
 * its services did.  Once: the totals since class 15 was enabled, which
 * count every process that lived there, exited or moved away included.
 * With -i or -n: what each did in each interval, as top (the periodic
 * runner, replay/view.c).  Over generic netlink, so a user outside
 * group meas sees the cgroups whose processes they may see.  With
 * --archive: the intervals of a PCP archive of meas.cgroup.* (pmdameas
 * -C, replay/cgreplay.c), whose paths the agent cut to its depth and
 * which hold only the items of its series: a column or JSON member
 * whose items the archive lacks is shown "-" or left out, not as 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "metrics.h"
#include "cli/cli.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "replay/view.h"
#include "proc/proc.h"
#include "cgroup/cgroup.h"

#define CG_INTERVAL_MIN		0.05
#define CG_INTERVAL_MAX		86400.0
#define CG_DEPTH_DEFAULT	3
#define CG_PATH_LEN		4096

enum cg_key {
	CG_KEY_CPU, CG_KEY_WAIT, CG_KEY_LAUNCHES, CG_KEY_STOPS, CG_KEY_DISC,
	CG_KEY_IO, CG_KEY_TERMINAL, CG_KEY_IMPEDED, CG_KEY_READS,
	CG_KEY_WRITES, CG_KEY_BYTES, CG_KEY_LATENCY, CG_KEY_THREADS,
	CG_KEY_PATH,
};

/* The sort keys: a word and the item it sorts by (-1: computed). */
static const struct {
	const char *name;
	int item;
} cg_keys[] = {
	[CG_KEY_CPU] = { "cpu", MEAS_P_CPU_TIME },
	[CG_KEY_WAIT] = { "wait", MEAS_P_PAUSE_ACTIVE },
	[CG_KEY_LAUNCHES] = { "launches", MEAS_P_LAUNCHES },
	[CG_KEY_STOPS] = { "stops", -1 },
	[CG_KEY_DISC] = { "disc", MEAS_P_PAUSE_DISC },
	[CG_KEY_IO] = { "io", MEAS_P_PAUSE_IO },
	[CG_KEY_TERMINAL] = { "terminal", MEAS_P_PAUSE_TERMINAL },
	[CG_KEY_IMPEDED] = { "impeded", MEAS_P_PAUSE_IMPEDED },
	[CG_KEY_READS] = { "reads", MEAS_P_DISC_READS },
	[CG_KEY_WRITES] = { "writes", MEAS_P_DISC_WRITES },
	[CG_KEY_BYTES] = { "bytes", MEAS_P_DISC_BYTES },
	[CG_KEY_LATENCY] = { "latency", -1 },
	[CG_KEY_THREADS] = { "threads", -1 },
	[CG_KEY_PATH] = { "path", -1 },
};

struct cg_args {
	struct view_opts v;	/* -i, -n */
	bool periodic;		/* -i or -n given */
	char root[CG_PATH_LEN];	/* the subtree shown */
	unsigned int depth;	/* levels below it; 0: every level */
	enum cg_key key;
	uint64_t lines;		/* rows shown, 0: all */
	struct meas_nl *nl;
	/* an interval's rows: node indexes of the later snapshot, values */
	const struct cg_snap *a, *b;
	uint64_t (*val)[MEAS_PROC_ITEMS];
	int *order;
	size_t nrows;
};

static uint64_t cg_stops(const uint64_t *v)
{
	return proc_stops(v);
}

/*
 * The disc latency as the cgroup's threads felt it: the mean time a
 * thread paused for disc per stop for disc (items 40 / (18 + 19)), in
 * ns; -1 with no such stop.  It is the wait of the thread, queueing and
 * merging included, not the device's service time (class 14's).
 */
static int64_t cg_disc_lat(const uint64_t *v)
{
	uint64_t n = v[MEAS_P_STOP_DISC_BLOCKED] + v[MEAS_P_STOP_DISC_UNBLOCKED];

	return n ? (int64_t)(v[MEAS_P_PAUSE_DISC] / n) : -1;
}

static uint64_t cg_keyval(const struct cg_args *t, int i)
{
	int item = cg_keys[t->key].item;

	if (t->key == CG_KEY_STOPS)
		return cg_stops(t->val[i]);
	if (t->key == CG_KEY_LATENCY)
		return (uint64_t)(cg_disc_lat(t->val[i]) + 1);
	if (t->key == CG_KEY_THREADS)
		return t->b->node[i].threads;
	return item >= 0 ? t->val[i][item] : 0;
}

static struct cg_args *cg_sorting;

/* Siblings: the larger value first, then by path. */
static int cg_cmp(const void *pa, const void *pb)
{
	const struct cg_args *t = cg_sorting;
	int a = *(const int *)pa, b = *(const int *)pb;
	uint64_t x, y;

	if (t->key != CG_KEY_PATH) {
		x = cg_keyval(t, a);
		y = cg_keyval(t, b);
		if (x != y)
			return x < y ? 1 : -1;
	}
	return strcmp(t->b->node[a].path, t->b->node[b].path);
}

/* The rows below node @i, depth first, each level sorted. */
static void cg_walk(struct cg_args *t, int i, unsigned int lvl)
{
	const struct cg_snap *b = t->b;
	size_t k, n = 0, first;

	t->order[t->nrows++] = i;
	if (t->depth && lvl >= t->depth)
		return;
	first = t->nrows;
	for (k = (size_t)i + 1; k < b->nn; k++)
		if (b->node[k].parent == i)
			t->order[first + n++] = (int)k;
	cg_sorting = t;
	qsort(t->order + first, n, sizeof(int), cg_cmp);
	/* move the children out of the way, as each takes its subtree */
	{
		int *kids = malloc((n ? n : 1) * sizeof(int));

		if (!kids)
			return;
		memcpy(kids, t->order + first, n * sizeof(int));
		for (k = 0; k < n; k++)
			cg_walk(t, kids[k], lvl + 1);
		free(kids);
	}
}

/* The values of each node of @b over the interval from @a (NULL: all). */
static void cg_values(struct cg_args *t, const struct cg_snap *a,
		      const struct cg_snap *b)
{
	size_t i;

	for (i = 0; i < b->nn; i++)
		cg_node_delta(a, b, i, t->val[i]);
}

static double cg_pct(uint64_t ns, double secs)
{
	return rate_pct(ns, secs, 1);
}

/* A count, or a rate in a periodic view. */
static double cg_rate(const struct cg_args *t, uint64_t v, double secs)
{
	return t->periodic ? rate_per_s(v, secs) : (double)v;
}

static void cg_text_head(const struct cg_args *t, uint64_t interval,
			 double secs)
{
	const struct meas_cgroup_hdr *h = &t->b->hdr;
	const char *r = t->periodic ? "/s" : "";
	char l[16], s[16], rd[16], wr[16];

	/* live on a terminal: in place; a replay scrolls, as a log does */
	if (t->periodic && !t->b->replayed && isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	if (t->periodic)
		printf("measctl cgroup  interval %llu  %.3f s", (unsigned long long)interval, secs);
	else
		printf("measctl cgroup  since class 15 was enabled, %.3f s", secs);
	if (t->b->replayed)
		printf("  cgroups %zu  replayed: paths cut to %u levels by pmdameas\n",
		       t->b->nn, MX_CG_DEPTH_DEFAULT);
	else
		printf("  cgroups %u  removed %u  hidden %u  overflow threads %llu\n",
		       h->used, h->removed, h->hidden,
		       (unsigned long long)h->overflow_threads);
	snprintf(l, sizeof(l), "LAUNCH%s", r);
	snprintf(s, sizeof(s), "STOPS%s", r);
	snprintf(rd, sizeof(rd), "READ%s", r);
	snprintf(wr, sizeof(wr), "WRITE%s", r);
	printf("%6s %6s %9s %9s %6s %8s %6s %6s %6s %8s %8s %8s %8s %8s %5s %s\n",
	       "%CPU", "%WAIT", l, s, "%DISC", "DISC-MS", "%IO", "%TERM",
	       "%IMP", "TMO", rd, wr, t->periodic ? "RBYTE/s" : "R-BYTES",
	       t->periodic ? "WBYTE/s" : "W-BYTES", "THR", "CGROUP");
}

/* The stop reasons STOPS adds up (proc_stops()). */
static const int cg_stop_items[] = {
	MEAS_P_STOP_DISC_BLOCKED, MEAS_P_STOP_DISC_UNBLOCKED,
	MEAS_P_STOP_BLOCKED_IO, MEAS_P_STOP_TERMINAL, MEAS_P_STOP_IMPEDED,
	MEAS_P_STOP_TIMED_OUT, MEAS_P_STOP_PREEMPTED, MEAS_P_STOP_JOBCTL,
	MEAS_P_STOP_EXIT,
};

/* Whether item @k has a value over the interval (a replay may lack it). */
static bool cg_has(const struct cg_args *t, int k)
{
	return cg_have(t->a, t->b, (size_t)k);
}

static bool cg_has_stops(const struct cg_args *t)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(cg_stop_items); k++)
		if (!cg_has(t, cg_stop_items[k]))
			return false;
	return true;
}

/* DISC-MS's items: the time paused for disc and the stops for it. */
static bool cg_has_dlat(const struct cg_args *t)
{
	return cg_has(t, MEAS_P_PAUSE_DISC) &&
	       cg_has(t, MEAS_P_STOP_DISC_BLOCKED) &&
	       cg_has(t, MEAS_P_STOP_DISC_UNBLOCKED);
}

#define CG_CELL		24
enum cg_col {
	CG_C_CPU, CG_C_WAIT, CG_C_LAUNCH, CG_C_STOPS, CG_C_DISC, CG_C_IO,
	CG_C_DLAT, CG_C_TERM, CG_C_IMP, CG_C_TMO, CG_C_READ, CG_C_WRITE, CG_C_RBYTES,
	CG_C_WBYTES, CG_C_THR, CG_C_NR,
};

/* A cell: @x with @prec decimals, or "-" when its items have no value. */
static void cg_cell(char *c, bool have, double x, int prec)
{
	if (have)
		snprintf(c, CG_CELL, "%.*f", prec, x);
	else
		snprintf(c, CG_CELL, "-");
}

/* A cell of the time item @k as a share of the interval. */
static void cg_cell_pct(const struct cg_args *t, char *c, const uint64_t *v,
			int k, double secs)
{
	cg_cell(c, cg_has(t, k), cg_pct(v[k], secs), 1);
}

/* A cell of the count item @k, or its rate. */
static void cg_cell_count(const struct cg_args *t, char *c,
			  const uint64_t *v, int k, double secs)
{
	cg_cell(c, cg_has(t, k), cg_rate(t, v[k], secs), 0);
}

static void cg_cell_bytes(const struct cg_args *t, char *c, bool have,
			  uint64_t x, double secs)
{
	if (have)
		proc_bytes((uint64_t)cg_rate(t, x, secs), c, CG_CELL);
	else
		snprintf(c, CG_CELL, "-");
}

/* The cells of node @i's row. */
static void cg_cells(const struct cg_args *t, int i, double secs,
		     char c[CG_C_NR][CG_CELL])
{
	const uint64_t *v = t->val[i];

	cg_cell_pct(t, c[CG_C_CPU], v, MEAS_P_CPU_TIME, secs);
	cg_cell_pct(t, c[CG_C_WAIT], v, MEAS_P_PAUSE_ACTIVE, secs);
	cg_cell_count(t, c[CG_C_LAUNCH], v, MEAS_P_LAUNCHES, secs);
	cg_cell(c[CG_C_STOPS], cg_has_stops(t), cg_rate(t, cg_stops(v), secs),
		0);
	cg_cell_pct(t, c[CG_C_DISC], v, MEAS_P_PAUSE_DISC, secs);
	cg_cell(c[CG_C_DLAT], cg_has_dlat(t) && cg_disc_lat(v) >= 0,
		(double)cg_disc_lat(v) / 1e6, 3);
	cg_cell_pct(t, c[CG_C_IO], v, MEAS_P_PAUSE_IO, secs);
	cg_cell_pct(t, c[CG_C_TERM], v, MEAS_P_PAUSE_TERMINAL, secs);
	cg_cell_pct(t, c[CG_C_IMP], v, MEAS_P_PAUSE_IMPEDED, secs);
	cg_cell_count(t, c[CG_C_TMO], v, MEAS_P_STOP_TIMED_OUT, secs);
	cg_cell_count(t, c[CG_C_READ], v, MEAS_P_DISC_READS, secs);
	cg_cell_count(t, c[CG_C_WRITE], v, MEAS_P_DISC_WRITES, secs);
	cg_cell_bytes(t, c[CG_C_RBYTES], cg_has(t, MEAS_P_DISC_READ_BYTES),
		      v[MEAS_P_DISC_READ_BYTES], secs);
	cg_cell_bytes(t, c[CG_C_WBYTES], cg_has(t, MEAS_P_DISC_BYTES) &&
		      cg_has(t, MEAS_P_DISC_READ_BYTES),
		      v[MEAS_P_DISC_BYTES] - v[MEAS_P_DISC_READ_BYTES], secs);
	cg_cell(c[CG_C_THR], t->b->have_threads,
		(double)t->b->node[i].threads, 0);
}

static void cg_text(const struct cg_args *t, uint64_t interval, double secs)
{
	const struct cg_snap *b = t->b;
	unsigned int base = b->node[t->order[0]].level;
	char c[CG_C_NR][CG_CELL], label[MX_CGN_UNIT_LEN + 32];
	const char *last;
	struct mx_cgname nm;
	size_t r;
	int i;

	cg_text_head(t, interval, secs);
	for (r = 0; r < t->nrows && (!t->lines || r < t->lines); r++) {
		i = t->order[r];
		cg_cells(t, i, secs, c);
		last = strrchr(b->node[i].path, '/');
		last = last && last[1] ? last + 1 : b->node[i].path;
		mx_cgname_classify(b->node[i].path, &nm);
		mx_cgname_label(&nm, b->node[i].path, label, sizeof(label));
		printf("%6s %6s %9s %9s %6s %8s %6s %6s %6s %8s %8s %8s %8s %8s %5s %*s%s%s%s%s%s\n",
		       c[CG_C_CPU], c[CG_C_WAIT], c[CG_C_LAUNCH], c[CG_C_STOPS],
		       c[CG_C_DISC], c[CG_C_DLAT], c[CG_C_IO], c[CG_C_TERM], c[CG_C_IMP],
		       c[CG_C_TMO], c[CG_C_READ], c[CG_C_WRITE],
		       c[CG_C_RBYTES], c[CG_C_WBYTES], c[CG_C_THR],
		       (int)(2 * (b->node[i].level - base)), "",
		       r ? last : b->node[i].path,
		       strcmp(label, last) ? "  [" : "",
		       strcmp(label, last) ? label : "",
		       strcmp(label, last) ? "]" : "",
		       b->node[i].flags & MEAS_CG_REMOVED ? " (removed)" : "");
	}
	fflush(stdout);
}

static void cg_json_names(struct json *j, const char *path)
{
	char label[MX_CGN_UNIT_LEN + 32];
	struct mx_cgname n;

	mx_cgname_classify(path, &n);
	json_str(j, "name", mx_cgname_label(&n, path, label, sizeof(label)));
	if (n.unit[0])
		json_str(j, "unit", n.unit);
	if (n.container_id[0]) {
		json_str(j, "container_id", n.container_id);
		json_bool(j, "conmon", n.conmon);
	}
	if (n.runtime)
		json_str(j, "runtime", n.runtime);
	if (n.pod_uid[0])
		json_str(j, "pod_uid", n.pod_uid);
	if (n.qos)
		json_str(j, "qos", n.qos);
}

static void cg_json_node(struct json *j, const struct cg_args *t, int i,
			 double secs)
{
	const struct cg_node *n = &t->b->node[i];
	const uint64_t *v = t->val[i];

	json_obj_begin(j, NULL);
	json_str(j, "path", n->path);
	if (n->id || (n->flags & MEAS_CG_OVERFLOW))
		json_u64(j, "id", n->id);
	else
		json_null(j, "id");
	json_u64(j, "level", n->level);
	cg_json_names(j, n->path);
	/* an archive knows no removal: the member is left out */
	if (!t->b->replayed)
		json_bool(j, "removed", n->flags & MEAS_CG_REMOVED);
	if (t->b->have_threads)
		json_u64(j, "threads", n->threads);
	if (cg_has(t, MEAS_P_CPU_TIME)) {
		json_u64(j, "cpu_ns", v[MEAS_P_CPU_TIME]);
		json_double(j, "cpu_pct", cg_pct(v[MEAS_P_CPU_TIME], secs));
	}
	if (cg_has(t, MEAS_P_PAUSE_ACTIVE))
		json_double(j, "wait_pct", cg_pct(v[MEAS_P_PAUSE_ACTIVE], secs));
	if (cg_has(t, MEAS_P_LAUNCHES))
		json_u64(j, "launches", v[MEAS_P_LAUNCHES]);
	if (cg_has_dlat(t) && cg_disc_lat(v) < 0)
		json_null(j, "disc_wait_per_stop_ns");
	else if (cg_has_dlat(t))
		json_u64(j, "disc_wait_per_stop_ns", (uint64_t)cg_disc_lat(v));
	cg_json_items(j, "items", v, t->a, t->b);
	json_obj_end(j);
}

static void cg_json_rows(struct json *j, const struct cg_args *t,
			 double secs)
{
	size_t r;

	json_arr_begin(j, "cgroups");
	for (r = 0; r < t->nrows && (!t->lines || r < t->lines); r++)
		cg_json_node(j, t, t->order[r], secs);
	json_arr_end(j);
}

static void cg_json(const struct cg_args *t, uint64_t interval, double secs,
		    const struct timespec *at)
{
	const struct meas_cgroup_hdr *h = &t->b->hdr;
	struct json j;
	char ts[64];

	meas_timestamp(ts, sizeof(ts), at);
	json_doc_begin(&j, stdout, "cgroup");
	if (t->periodic)
		json_u64(&j, "interval", interval);
	json_str(&j, "time", ts);
	json_double(&j, "elapsed_s", secs);
	json_str(&j, "root", t->root);
	if (t->b->replayed) {
		/* the table's counts are not in an archive; its paths cut */
		json_str(&j, "archive", t->v.arch.path);
		json_u64(&j, "path_depth", MX_CG_DEPTH_DEFAULT);
		cg_json_rows(&j, t, secs);
		json_doc_end(&j);
		return;
	}
	json_u64(&j, "slots", h->slots);
	json_u64(&j, "used", h->used);
	json_u64(&j, "removed", h->removed);
	json_u64(&j, "hidden", h->hidden);
	json_u64(&j, "overflow_threads", h->overflow_threads);
	json_u64(&j, "overflow_folds", h->overflow_folds);
	json_u64(&j, "reused", h->reused);
	cg_json_rows(&j, t, secs);
	json_doc_end(&j);
}

/* One interval, @a (NULL: since the class was enabled) to @b. */
static int cg_show(struct cmd_ctx *ctx, uint64_t n, const void *sa,
		   const void *sb, const struct timespec *at, void *data)
{
	const struct cg_snap *a = sa, *b = sb;
	struct cg_args *t = data;
	struct timespec now;
	double secs;
	int root;

	free(t->val);
	free(t->order);
	t->a = a;
	t->b = b;
	t->nrows = 0;
	t->val = calloc(b->nn, sizeof(*t->val));
	t->order = calloc(b->nn, sizeof(*t->order));
	if (!t->val || !t->order)
		return fail(ctx, ENOMEM, "no memory for %zu cgroups", b->nn);
	cg_values(t, a, b);
	if (a) {
		secs = rate_interval_s(&a->when, &b->when);
	} else {
		clock_gettime(CLOCK_REALTIME, &now);
		secs = ((double)now.tv_sec * 1e9 + now.tv_nsec -
			(double)b->hdr.started) / 1e9;
	}
	root = cg_snap_find(b, t->root);
	if (root < 0) {
		if (!a)
			return fail(ctx, ENOENT, "no totals under %s (no process counted there, or none you may see)",
				    t->root);
		return EXIT_OK;
	}
	cg_walk(t, root, 0);
	if (ctx->json)
		cg_json(t, n, secs, at);
	else
		cg_text(t, n, secs);
	return EXIT_OK;
}

static int cg_take(struct cmd_ctx *ctx, int fd, void *s, void *data)
{
	struct cg_args *t = data;

	(void)fd;
	return cg_snap_take(ctx, t->nl, s);
}

/* A replay: the cgroups of the archive's frames (pmdameas -C), as live. */
static int cg_frame(struct cmd_ctx *ctx, struct replay *r, const void *prev,
		    void *s, void *data)
{
	int err = replay_cgroup(r, s);

	(void)prev;
	(void)data;
	if (err == -ENODATA)
		return VIEW_SKIP;	/* no cgroup in this frame */
	if (err)
		return fail(ctx, -err, "replaying the cgroups");
	return EXIT_OK;
}

static uint64_t cg_taken(const void *s)
{
	return ((const struct cg_snap *)s)->t_ns;
}

static void cg_release(void *s)
{
	cg_snap_free(s);
}

static const struct view_ops cg_ops = {
	.size = sizeof(struct cg_snap),
	.open = replay_open_cgroup,
	.what = "meas.cgroup",
	.hint = " (was pmdameas run with -C?)",
	.take = cg_take,
	.frame = cg_frame,
	.taken = cg_taken,
	.show = cg_show,
	.release = cg_release,
};

/*
 * Class 15 held enabled while a periodic view runs, when the caller may
 * (group meas); a user outside it reads what someone else enabled.
 */
static int cg_hold(struct cmd_ctx *ctx)
{
	int fd = meas_open();

	if (fd < 0)
		return -1;
	if (proc_hold(ctx, fd, "the live view")) {
		close(fd);
		return -2;
	}
	return fd;
}

static int cg_do(struct cmd_ctx *ctx, struct cg_args *t)
{
	struct cg_snap s;
	sigset_t set;
	int fd = -1, rc;

	if (t->v.arch.path)
		return view_replay(ctx, &t->v, &cg_ops, t);
	t->nl = cg_nl_open(ctx);
	if (!t->nl)
		return EXIT_FAIL;
	if (!t->periodic) {
		rc = cg_snap_take(ctx, t->nl, &s);
		if (!rc)
			rc = cg_show(ctx, 0, NULL, &s, NULL, t);
		cg_snap_free(&s);
		goto out;
	}
	meas_block_stop_signals(&set);
	fd = cg_hold(ctx);
	if (fd == -2) {
		rc = EXIT_FAIL;
		goto out;
	}
	rc = view_live(ctx, fd, &set, &t->v, &cg_ops, t);
	if (fd >= 0)
		close(fd);
out:
	meas_nl_close(t->nl);
	return rc;
}

static int cg_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct cg_args *t = data;
	uint64_t v;
	size_t k;

	switch (id) {
	case 'N':
		if (parse_u64(arg, UINT32_MAX, &t->lines))
			return usage_error(ctx, "bad number of lines '%s' (0 for all, or 1..%u)",
					   arg, UINT32_MAX);
		return EXIT_OK;
	case 'd':
		if (parse_u64(arg, MX_GRP_DEPTH_MAX, &v))
			return usage_error(ctx, "bad depth '%s' (0 for every level, or 1..%u)",
					   arg, MX_GRP_DEPTH_MAX);
		t->depth = (unsigned int)v;
		return EXIT_OK;
	case 's':
		for (k = 0; k < ARRAY_SIZE(cg_keys); k++)
			if (!strcmp(arg, cg_keys[k].name)) {
				t->key = (enum cg_key)k;
				return EXIT_OK;
			}
		return usage_error(ctx, "bad sort key '%s' (cpu, wait, launches, stops, disc, io, terminal, impeded, reads, writes, bytes, latency, threads, path)",
				   arg);
	case VIEW_OPT_ARCHIVE:
	case VIEW_OPT_INTERVAL:
	case VIEW_OPT_COUNT:
		t->periodic = true;
		break;
	}
	return view_opt(ctx, id, arg, &t->v);
}

/* -S, -T with --archive only; a PATH within the archive's depth. */
static int cg_replay_check(struct cmd_ctx *ctx, const struct cg_args *t)
{
	const char *p = t->root;
	unsigned int n = 0;

	if (arch_check(ctx, &t->v.arch))
		return EXIT_USAGE;
	if (!t->v.arch.path)
		return EXIT_OK;
	while ((p = strchr(p + 1, '/')))
		n++;
	if (strcmp(t->root, "/") && n + 1 > MX_CG_DEPTH_DEFAULT)
		return usage_error(ctx, "cgroup path '%s' is deeper than an archive's paths (pmdameas cuts them to %u levels)",
				   t->root, MX_CG_DEPTH_DEFAULT);
	return EXIT_OK;
}

static int cmd_cgroup(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "depth", 'd', OPT_ARG, 'd' },
		{ "lines", 'N', OPT_ARG, 'N' },
		{ "sort", 's', OPT_ARG, 's' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct cg_args t = {
		.v = { .interval = 2.0, .min = CG_INTERVAL_MIN,
		       .max = CG_INTERVAL_MAX },
		.root = "/",
		.depth = CG_DEPTH_DEFAULT,
		.key = CG_KEY_CPU,
	};
	struct opt_state st;
	int rc;

	rc = opt_parse_more(ctx, &st, argc, argv, opts, view_options,
			    cg_opt, &t);
	if (rc != OPT_END)
		return rc;
	if (st.npos > 1)
		return usage_error(ctx, "unexpected argument '%s' (one PATH at most)",
				   st.pos[1]);
	if (st.npos) {
		rc = cg_path_arg(ctx, st.pos[0], t.root, sizeof(t.root));
		if (rc)
			return rc;
	}
	rc = cg_replay_check(ctx, &t);
	if (rc)
		return rc;
	rc = cg_do(ctx, &t);
	free(t.val);
	free(t.order);
	return rc;
}

const struct command cgroup_command = {
	.name = "cgroup",
	.fn = cmd_cgroup,
	.args = "[PATH] [-d DEPTH] [-s KEY] [-N LINES]\n"
		"    [-i SECONDS] [-n COUNT] [--archive PATH [-S START] [-T FINISH]]",
	.help = "the cgroup tree below PATH (default /, DEPTH levels, default 3,\n"
		"    0 all), each cgroup with its subtree: %CPU, %WAIT, launches,\n"
		"    stops, paused % by reason, the mean disc wait per stop for disc,\n"
		"    timeouts, disc reads, writes and bytes, live threads, and its\n"
		"    unit, container or pod; siblings sorted by KEY (default cpu).\n"
		"    Once: the totals since class 15 was enabled; with -i or -n:\n"
		"    each interval's, per second; with --archive: each interval of\n"
		"    a PCP archive of meas.cgroup (pmdameas -C; paths cut to 3\n"
		"    levels, items it lacks shown -)",
};
