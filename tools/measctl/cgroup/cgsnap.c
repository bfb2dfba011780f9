// SPDX-License-Identifier: GPL-2.0
/*
 * The module's per-cgroup totals, read as a tree of paths (cgtree.c).
 * The module's table holds the cgroups threads counted in, each with
 * its parent's ID; a cgroup no thread ever ran in (a slice above its
 * services) has no entry, so the tree is built from the paths instead:
 * each entry's path (cgmap's walk of /sys/fs/cgroup for a live cgroup,
 * the module's copy for a removed one) makes its node and the nodes of
 * its ancestors.
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
	i = cg_snap_node(f->s, path);
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

	if (cg_snap_init(s))
		return fail(ctx, ENOMEM, "no memory for the cgroups");
	s->have_threads = true;
	memset(s->have, true, sizeof(s->have));
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
	cg_snap_sums(s);
	return 0;
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
void cg_json_items(struct json *j, const char *key, const uint64_t *v,
		   const struct cg_snap *a, const struct cg_snap *b)
{
	const char *name;
	unsigned int k;

	json_obj_begin(j, key);
	for (k = 0; k < MEAS_PROC_ITEMS; k++) {
		name = meas_proc_item_name(k);
		if (name && meas_proc_item_is_counter(k) && cg_have(a, b, k))
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
