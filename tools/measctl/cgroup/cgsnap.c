// SPDX-License-Identifier: GPL-2.0
/*
 * The per-cgroup totals as a tree of paths.  The module's table holds
 * the cgroups threads counted in, each with its parent's ID; a cgroup
 * no thread ever ran in (a slice above its services) has no entry, so
 * the tree is built from the paths instead: each entry's path (cgmap's
 * walk of /sys/fs/cgroup for a live cgroup, the module's copy for a
 * removed one) makes its node and the nodes of its ancestors, and each
 * node's subtree totals are its own plus its children's.
 *
 * A path has one node: a cgroup removed and made again under the same
 * name (a service restarted) adds its earlier entries to the new one's,
 * so that a service's totals run across its restarts for as long as the
 * table keeps the removed entries (Documentation/cgroup.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metrics.h"
#include "cli/cli.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "cgroup/cgroup.h"

static size_t cg_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static unsigned int *cg_hslot(const struct cg_snap *s, const char *path)
{
	size_t i = cg_hash(path) & (s->hcap - 1);

	while (s->hash[i] && strcmp(s->node[s->hash[i] - 1].path, path))
		i = (i + 1) & (s->hcap - 1);
	return &s->hash[i];
}

int cg_snap_find(const struct cg_snap *s, const char *path)
{
	return s->hcap ? (int)*cg_hslot(s, path) - 1 : -1;
}

/* Room for one more node and its hash slot: 0 or -ENOMEM. */
static int cg_room(struct cg_snap *s)
{
	struct cg_node *n;
	unsigned int *h;
	size_t i, cap;

	if (s->nn == s->cap) {
		cap = s->cap ? s->cap * 2 : 64;
		n = realloc(s->node, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->node = n;
		s->cap = cap;
	}
	if ((s->nn + 1) * 2 <= s->hcap)
		return 0;
	cap = s->hcap ? s->hcap * 2 : 128;
	h = calloc(cap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	free(s->hash);
	s->hash = h;
	s->hcap = cap;
	for (i = 0; i < s->nn; i++)
		*cg_hslot(s, s->node[i].path) = i + 1;
	return 0;
}

/* The parent of @path into @buf ("/" for a top-level or pseudo path). */
static void cg_parent_path(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash && path[0] == '/' ? (size_t)(slash - path) : 0;

	if (!n)
		n = 1;
	if (n >= len)
		n = len - 1;
	memcpy(buf, path[0] == '/' ? path : "/", n);
	buf[n] = '\0';
}

/* The node of @path, made with its ancestors if new: its index or -1. */
static int cg_node_get(struct cg_snap *s, const char *path)
{
	char parent[4096];
	struct cg_node *n;
	int i, p = -1;

	i = cg_snap_find(s, path);
	if (i >= 0)
		return i;
	if (strcmp(path, "/")) {
		cg_parent_path(path, parent, sizeof(parent));
		p = cg_node_get(s, parent);
		if (p < 0)
			return -1;
	}
	if (cg_room(s))
		return -1;
	n = &s->node[s->nn];
	memset(n, 0, sizeof(*n));
	n->path = strdup(path);
	if (!n->path)
		return -1;
	n->parent = p;
	n->level = p < 0 ? 0 : s->node[p].level + 1;
	*cg_hslot(s, path) = ++s->nn;
	return (int)s->nn - 1;
}

struct cg_fill {
	struct cg_snap *s;
	int err;
};

static int cg_rec(const struct meas_cgroup_hdr *hdr,
		  const struct meas_cgroup_rec *rec, const char *rpath,
		  void *arg)
{
	struct cg_fill *f = arg;
	const char *path = rpath;
	char pseudo[48];
	struct cg_node *n;
	unsigned int k;
	int i;

	if (hdr) {
		f->s->hdr = *hdr;
		return 0;
	}
	if (rec->flags & MEAS_CG_OVERFLOW) {
		path = CG_OVERFLOW_PATH;
	} else if (!(rec->flags & MEAS_CG_REMOVED) || !path || !*path) {
		path = mx_cgmap_path(rec->id);
		if (!path) {
			snprintf(pseudo, sizeof(pseudo), "(id %llu)",
				 (unsigned long long)rec->id);
			path = pseudo;
		}
	}
	i = cg_node_get(f->s, path);
	if (i < 0) {
		f->err = -ENOMEM;
		return 1;
	}
	n = &f->s->node[i];
	/* a live entry names the node before a removed one of its path */
	if (!n->id || (n->flags & MEAS_CG_REMOVED)) {
		n->id = rec->id;
		n->flags = rec->flags;
	}
	n->threads += rec->threads;
	for (k = 0; k < MEAS_PROC_ITEMS; k++)
		n->own[k] += rec->item[k];
	return 0;
}

/* Subtree sums: descendants come after their ancestors. */
static void cg_sums(struct cg_snap *s)
{
	size_t i, k;

	for (i = 0; i < s->nn; i++)
		memcpy(s->node[i].sum, s->node[i].own, sizeof(s->node[i].sum));
	for (i = s->nn; i-- > 1;) {
		struct cg_node *n = &s->node[i], *p = &s->node[n->parent];

		for (k = 0; k < MEAS_PROC_ITEMS; k++)
			p->sum[k] += n->sum[k];
		p->threads += n->threads;
	}
}

struct meas_nl *cg_nl_open(const struct cmd_ctx *ctx)
{
	struct meas_nl *nl;
	int err = 0;

	nl = meas_nl_open(&err);
	if (!nl)
		fail(ctx, -err, "cannot open the meas generic netlink family%s",
		     err == -ENOENT ? " (is the module loaded?)" : "");
	return nl;
}

int cg_snap_take(const struct cmd_ctx *ctx, struct meas_nl *nl,
		 struct cg_snap *s)
{
	struct cg_fill f = { .s = s };
	int err;

	memset(s, 0, sizeof(*s));
	if (cg_node_get(s, "/") < 0)
		return fail(ctx, ENOMEM, "no memory for the cgroups");
	err = meas_nl_cgroup_dump(nl, cg_rec, &f);
	s->t_ns = mono_ns();
	s->when.mono = s->t_ns;
	s->when.start = s->hdr.clock;
	s->when.end = s->hdr.clock;
	if (f.err)
		return fail(ctx, -f.err, "no memory for the cgroups");
	if (err == -ENODATA)
		return fail(ctx, ENODATA,
			    "class 15 is not enabled (run 'measctl start 15')");
	if (err == -EOPNOTSUPP)
		return fail(ctx, EOPNOTSUPP,
			    "the module keeps no per-cgroup totals (ABI 3 and later do)");
	if (err)
		return fail(ctx, -err, "reading the per-cgroup totals");
	cg_sums(s);
	return 0;
}

void cg_snap_free(struct cg_snap *s)
{
	size_t i;

	for (i = 0; i < s->nn; i++)
		free(s->node[i].path);
	free(s->node);
	free(s->hash);
	memset(s, 0, sizeof(*s));
}

/*
 * What node @i of @b did since @a (NULL: all it has): its subtree's
 * counters less those of the same path in @a.  A path's totals drop
 * when the table gives a removed entry of it to another cgroup: that
 * counter reads 0, never a wrapped difference.
 */
void cg_node_delta(const struct cg_snap *a, const struct cg_snap *b,
		   size_t i, uint64_t *v)
{
	int j = a ? cg_snap_find(a, b->node[i].path) : -1;
	uint64_t was;
	size_t k;

	for (k = 0; k < MEAS_PROC_ITEMS; k++) {
		was = j >= 0 ? a->node[j].sum[k] : 0;
		v[k] = b->node[i].sum[k] >= was ? b->node[i].sum[k] - was : 0;
	}
}

/* A subtree's delta as text: one line of what a service did. */
void cg_delta_text(FILE *f, const char *path, const uint64_t *v, double secs)
{
	fprintf(f, "cgroup %s: cpu %.3f s (%.1f%% of a CPU), runnable wait %.3f s, launches %llu, stops %llu\n",
		path, v[MEAS_P_CPU_TIME] / 1e9,
		rate_pct(v[MEAS_P_CPU_TIME], secs, 1),
		v[MEAS_P_PAUSE_ACTIVE] / 1e9,
		(unsigned long long)v[MEAS_P_LAUNCHES],
		(unsigned long long)(v[MEAS_P_STOP_DISC_BLOCKED] +
				     v[MEAS_P_STOP_DISC_UNBLOCKED] +
				     v[MEAS_P_STOP_BLOCKED_IO] +
				     v[MEAS_P_STOP_TERMINAL] +
				     v[MEAS_P_STOP_IMPEDED] +
				     v[MEAS_P_STOP_PREEMPTED] +
				     v[MEAS_P_STOP_JOBCTL] +
				     v[MEAS_P_STOP_EXIT]));
	fprintf(f, "  paused: disc %.3f s, other I/O %.3f s, terminal %.3f s, impeded %.3f s; timed out %llu, preempted %llu\n",
		v[MEAS_P_PAUSE_DISC] / 1e9, v[MEAS_P_PAUSE_IO] / 1e9,
		v[MEAS_P_PAUSE_TERMINAL] / 1e9, v[MEAS_P_PAUSE_IMPEDED] / 1e9,
		(unsigned long long)v[MEAS_P_STOP_TIMED_OUT],
		(unsigned long long)v[MEAS_P_STOP_PREEMPTED]);
	fprintf(f, "  disc: %llu reads, %llu writes, %llu bytes read, %llu written\n",
		(unsigned long long)v[MEAS_P_DISC_READS],
		(unsigned long long)v[MEAS_P_DISC_WRITES],
		(unsigned long long)v[MEAS_P_DISC_READ_BYTES],
		(unsigned long long)(v[MEAS_P_DISC_BYTES] -
				     v[MEAS_P_DISC_READ_BYTES]));
}

/* The counters of a subtree by class 15's item names, as @key. */
void cg_json_items(struct json *j, const char *key, const uint64_t *v)
{
	const char *name;
	unsigned int k;

	json_obj_begin(j, key);
	for (k = 0; k < MEAS_PROC_ITEMS; k++) {
		name = meas_proc_item_name(k);
		if (name && meas_proc_item_is_counter(k))
			json_u64(j, name, v[k]);
	}
	json_obj_end(j);
}

bool cg_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return true;
	return !strncmp(path, root, n) && (!path[n] || path[n] == '/');
}

#define CG_MOUNT	"/sys/fs/cgroup"

int cg_path_arg(struct cmd_ctx *ctx, const char *arg, char *out, size_t len)
{
	const char *p = arg;
	size_t n;

	if (!strncmp(p, CG_MOUNT, strlen(CG_MOUNT)) &&
	    (!p[strlen(CG_MOUNT)] || p[strlen(CG_MOUNT)] == '/'))
		p += strlen(CG_MOUNT);
	if (!*p)
		p = "/";
	if (*p != '/')
		return usage_error(ctx, "bad cgroup path '%s' (from the cgroup2 mount, starting with '/': /system.slice/nginx.service)",
				   arg);
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (n >= len)
		return usage_error(ctx, "cgroup path '%s' too long", arg);
	memcpy(out, p, n);
	out[n] = '\0';
	return EXIT_OK;
}

bool cg_id_under(uint64_t id, const char *root)
{
	const char *path = mx_cgmap_path(id);

	if (!strcmp(root, "/"))
		return true;
	return path && cg_under(path, root);
}

const char *cg_id_path(uint64_t id)
{
	const char *path = mx_cgmap_path(id);

	return path ? path : "-";
}
