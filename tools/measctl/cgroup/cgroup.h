/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the cgroups (cgsnap.c): a snapshot of the module's per-cgroup
 * totals (MEAS_CMD_CGROUP_GET's dump, over generic netlink, open to
 * users outside group meas), laid out as the tree of cgroup paths with
 * each cgroup's own totals and its subtree's; and the --cgroup PATH
 * filter of the process and I/O views, which covers the subtree.
 */
#ifndef MEASCTL_CGROUP_H
#define MEASCTL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "libmeas.h"
#include "cli/cli.h"
#include "cli/rate.h"

/* The pseudo-paths of the overflow entry and of an ID with no path. */
#define CG_OVERFLOW_PATH	"(overflow)"

/**
 * struct cg_node - one cgroup of the tree
 * @path: below the cgroup2 mount ("/" the root; "(overflow)", or
 *	"(id N)" for a cgroup whose path is lost)
 * @id: its cgroup v2 ID; 0 for a cgroup with no entry (no thread ever
 *	counted in it, a slice above services) or the overflow entry
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
 * @hdr: the table's header
 * @node: the cgroups, node 0 the root; ancestors before descendants
 * @nn: their number
 * @cap: room in @node
 * @hash: path to index + 1, open addressing (@hcap a power of two)
 * @hcap: its size
 * @t_ns: CLOCK_MONOTONIC at the read
 * @when: the time base of deltas (the kernel's clock of the read)
 */
struct cg_snap {
	struct meas_cgroup_hdr hdr;
	struct cg_node *node;
	size_t nn, cap;
	unsigned int *hash;
	size_t hcap;
	uint64_t t_ns;
	struct rate_when when;
};

/* Read every cgroup the caller may see: 0, or EXIT_FAIL (reported). */
int cg_snap_take(const struct cmd_ctx *ctx, struct meas_nl *nl,
		 struct cg_snap *s);
void cg_snap_free(struct cg_snap *s);
/* The node of @path, or -1. */
int cg_snap_find(const struct cg_snap *s, const char *path);
/* Open the netlink family, or report why not: NULL. */
struct meas_nl *cg_nl_open(const struct cmd_ctx *ctx);

/* What node @i of @b did since @a (NULL: all), into @v (item numbers). */
void cg_node_delta(const struct cg_snap *a, const struct cg_snap *b,
		   size_t i, uint64_t *v);
/* A subtree's counters @v over @secs: three lines of text, or JSON. */
void cg_delta_text(FILE *f, const char *path, const uint64_t *v, double secs);
void cg_json_items(struct json *j, const char *key, const uint64_t *v);

/* Room for a --cgroup PATH argument. */
#define CG_PATH_ARG_LEN		4096

/* Whether @path is @root or below it ("/" covers every path). */
bool cg_under(const char *path, const char *root);
/*
 * A --cgroup argument: the path as the tree writes it (from the cgroup2
 * mount, leading "/", no trailing one; "/sys/fs/cgroup/..." is taken
 * too), into @out: EXIT_OK or a usage error.
 */
int cg_path_arg(struct cmd_ctx *ctx, const char *arg, char *out, size_t len);
/* Whether the cgroup of ID @id is @root or below it (paths of cgmap). */
bool cg_id_under(uint64_t id, const char *root);
/* The path of cgroup @id for a column, or "-" if unknown. */
const char *cg_id_path(uint64_t id);

#endif /* MEASCTL_CGROUP_H */
