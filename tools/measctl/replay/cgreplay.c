// SPDX-License-Identifier: GPL-2.0
/*
 * measctl cgroup --archive: the cgroup tree rebuilt from a frame of a
 * PCP archive of meas.cgroup.* (pmdameas -C), so that a replay prints
 * through the code that prints live (cgroup/cgview.c).  A metric per
 * series of the per-cgroup table (tools/lib/metrics/families.c, named
 * by pcpname.c as the agent names them); an instance per cgroup path as
 * the agent cut it (to MX_CG_DEPTH_DEFAULT levels, deeper cgroups added
 * to their ancestor, spaces as "_"), holding that cgroup's own counters.
 * The tree is made from the paths (cgroup/cgtree.c): a slice that is no
 * instance gets a node, and each node the sums of its subtree.
 *
 * Only the items of the series have values: the others, and those of a
 * metric the archive did not record, are marked absent, not zero.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "replay/archive.h"
#include "replay/replay.h"
#include "metrics.h"
#include "cgroup/cgtree.h"

int replay_open_cgroup(struct cmd_ctx *ctx, const struct arch_opts *o,
		       struct replay *r)
{
	char name[128];
	size_t k;
	int rc = EXIT_OK;

	memset(r, 0, sizeof(*r));
	r->names = calloc(mx_cg_nseries, sizeof(*r->names));
	r->item = calloc(mx_cg_nseries, sizeof(*r->item));
	if (!r->names || !r->item)
		rc = fail(ctx, ENOMEM, "no memory");
	for (k = 0; rc == EXIT_OK && k < mx_cg_nseries; k++) {
		mx_pcp_cgroup_name(name, sizeof(name), &mx_cg_series[k]);
		rc = replay_push(ctx, r, name, NULL, (int)k);
	}
	return replay_start(ctx, o, r, rc);
}

/*
 * The values of metric @m (series @se) into the nodes of their paths;
 * a series less another (@minus) is added back, in the second pass.
 */
static int replay_cg_metric(struct replay *r, size_t m,
			    const struct mx_cg_series *se, struct cg_snap *s)
{
	size_t k, n = arch_count(r->a, m);
	struct cg_node *node;
	const char *path;
	uint64_t v;
	int i;

	for (k = 0; k < n; k++) {
		v = arch_value(r->a, m, k, NULL, &path);
		if (!path)
			continue;
		i = cg_snap_node(s, path);
		if (i < 0)
			return -ENOMEM;
		node = &s->node[i];
		if (se->item == MX_CG_THREADS)
			node->threads = v;
		else
			node->own[se->item] = v + (se->minus != MX_NONE ?
						   node->own[se->minus] : 0);
	}
	return 0;
}

/* Series @se has values in the frame: so has the item it gives. */
static void replay_cg_have(struct cg_snap *s, const struct mx_cg_series *se)
{
	if (se->item == MX_CG_THREADS)
		s->have_threads = true;
	else if (se->minus == MX_NONE || s->have[se->minus])
		s->have[se->item] = true;
}

int replay_cgroup(struct replay *r, struct cg_snap *s)
{
	const struct mx_cg_series *se;
	bool any = false, derived;
	int pass, err;
	size_t m;

	if (cg_snap_init(s))
		return -ENOMEM;
	s->replayed = true;
	for (pass = 0; pass < 2; pass++)
		for (m = 0; m < r->n; m++) {
			se = &mx_cg_series[r->item[m]];
			derived = se->minus != MX_NONE;
			if (derived != pass || !arch_count(r->a, m))
				continue;
			any = true;
			replay_cg_have(s, se);
			err = replay_cg_metric(r, m, se, s);
			if (err) {
				cg_snap_free(s);
				return err;
			}
		}
	if (!any) {
		cg_snap_free(s);
		return -ENODATA;
	}
	cg_snap_sums(s);
	replay_stamp(r, &s->t_ns, &s->when);
	return 0;
}
