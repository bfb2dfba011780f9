/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the per-cgroup totals as a tree of paths (cgtree.c), whether
 * read from the module (cgsnap.c) or rebuilt from a PCP archive
 * (replay/cgreplay.c).  Pure logic: selftests/unit/cgtree_test.c.
 */
#ifndef MEASCTL_CGTREE_H
#define MEASCTL_CGTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/meas_proc.h>
#include "cli/rate.h"

/**
 * struct cg_node - one cgroup of the tree
 * @path: below the cgroup2 mount ("/" the root; "(overflow)", or
 *	"(id N)" for a cgroup whose path is lost)
 * @id: its cgroup v2 ID; 0 for a cgroup with no entry (no thread ever
 *	counted in it, a slice above services), the overflow entry, or a
 *	replayed cgroup (an archive holds paths only)
 * @flags: MEAS_CG_* of its entry
 * @level: components below the root
 * @parent: the parent's index, -1 for the root
 * @threads: live threads now, in it and below
 * @own: the entry's counters, at class 15's item numbers
 * @sum: the subtree's: its own and every descendant's
 */
struct cg_node {
	char *path;
	uint64_t id;
	uint32_t flags;
	unsigned int level;
	int parent;
	uint64_t threads;
	uint64_t own[MEAS_PROC_ITEMS];
	uint64_t sum[MEAS_PROC_ITEMS];
};

/**
 * struct cg_snap - the per-cgroup totals at one read
 * @hdr: the table's header (zero in a replay: no archive holds it)
 * @node: the cgroups, node 0 the root; ancestors before descendants
 * @nn: their number
 * @cap: room in @node
 * @hash: path to index + 1, open addressing (@hcap a power of two)
 * @hcap: its size
 * @t_ns: CLOCK_MONOTONIC at the read; in a replay, when it was recorded
 * @when: the time base of deltas (the kernel's clock of the read)
 * @replayed: rebuilt from a PCP archive, its paths cut to the agent's
 *	depth
 * @have: whether item k has a value (a replay has the items of the
 *	series pmdameas serves, and only those the archive recorded)
 * @have_threads: whether @threads has one
 */
struct cg_snap {
	struct meas_cgroup_hdr hdr;
	struct cg_node *node;
	size_t nn, cap;
	unsigned int *hash;
	size_t hcap;
	uint64_t t_ns;
	struct rate_when when;
	bool replayed;
	bool have[MEAS_PROC_ITEMS];
	bool have_threads;
};

/* An empty tree of every item, the root's node made: 0 or -ENOMEM. */
int cg_snap_init(struct cg_snap *s);
void cg_snap_free(struct cg_snap *s);
/* The node of @path, or -1. */
int cg_snap_find(const struct cg_snap *s, const char *path);
/*
 * The node of @path, made with the nodes of its ancestors if new (a
 * path not starting with '/' is a child of the root): its index, or -1
 * for want of memory.
 */
int cg_snap_node(struct cg_snap *s, const char *path);
/* Each node's subtree sums, once every node's own counters are in. */
void cg_snap_sums(struct cg_snap *s);

/* What node @i of @b did since @a (NULL: all), into @v (item numbers). */
void cg_node_delta(const struct cg_snap *a, const struct cg_snap *b,
		   size_t i, uint64_t *v);
/* Whether item @k has a value in both @a (NULL: none) and @b. */
bool cg_have(const struct cg_snap *a, const struct cg_snap *b, size_t k);

#endif /* MEASCTL_CGTREE_H */
