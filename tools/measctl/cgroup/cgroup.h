/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the cgroups (cgsnap.c): a snapshot of the module's per-cgroup
 * totals (MEAS_CMD_CGROUP_GET's dump, over generic netlink, open to
 * users outside group meas), laid out as the tree of cgroup paths
 * (cgtree.h) with each cgroup's own totals and its subtree's; and the
 * --cgroup PATH filter of the process and I/O views, which covers the
 * subtree.
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
#include "cgroup/cgtree.h"

/* The pseudo-paths of the overflow entry and of an ID with no path. */
#define CG_OVERFLOW_PATH	"(overflow)"

/* Read every cgroup the caller may see: 0, or EXIT_FAIL (reported). */
int cg_snap_take(const struct cmd_ctx *ctx, struct meas_nl *nl,
		 struct cg_snap *s);
/* Open the netlink family, or report why not: NULL. */
struct meas_nl *cg_nl_open(const struct cmd_ctx *ctx);

/* A subtree's counters @v over @secs: three lines of text, or JSON. */
void cg_delta_text(FILE *f, const char *path, const uint64_t *v, double secs);
/* The counters of @v by item name; only those @a and @b have. */
void cg_json_items(struct json *j, const char *key, const uint64_t *v,
		   const struct cg_snap *a, const struct cg_snap *b);

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
