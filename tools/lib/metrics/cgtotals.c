// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup families for meas-exporter: the module's per-cgroup totals
 * of class 15 (MEAS_CMD_CGROUP_GET's dump, over generic netlink; no
 * CAP_SYS_ADMIN, no exits multicast), summed into groups of bounded
 * number, each labelled with what its path names.
 *
 * Cardinality is what costs a Prometheus server (issue 36): so a group
 * is a cgroup path cut to a depth (deeper cgroups add to their ancestor
 * at that depth), at most max_groups groups are admitted, in the order
 * they are first seen, and kept for the exporter's life (a series does
 * not come and go with the ranking of a scrape); any other cgroup adds
 * to the group "(other)", counted; and a group with nothing counted and
 * no live thread has no series (no empty series).
 *
 * The totals are the module's, exact at each read; a group's counters
 * drop only when the module gives a removed cgroup's entry to another
 * (its table full): Prometheus takes that as a counter reset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define CG_OTHER	"(other)"

static struct {
	struct meas_nl *nl;
	unsigned int depth;
	unsigned int max;
	char **admitted;	/* the groups admitted, kept */
	unsigned int nadm;
} cgt;

int mx_cgroups_start(unsigned int depth, unsigned int max_groups)
{
	int err = 0;

	cgt.nl = meas_nl_open(&err);
	if (!cgt.nl)
		return err;
	cgt.depth = depth;
	cgt.max = max_groups;
	cgt.admitted = calloc(max_groups ? max_groups : 1,
			      sizeof(*cgt.admitted));
	if (!cgt.admitted) {
		meas_nl_close(cgt.nl);
		cgt.nl = NULL;
		return -ENOMEM;
	}
	return 0;
}

void mx_cgroups_stop(void)
{
	unsigned int i;

	for (i = 0; i < cgt.nadm; i++)
		free(cgt.admitted[i]);
	free(cgt.admitted);
	if (cgt.nl)
		meas_nl_close(cgt.nl);
	memset(&cgt, 0, sizeof(cgt));
}

/* @path cut to the configured depth, into @buf. */
static void cg_cut(const char *path, char *buf, size_t len)
{
	const char *p = path;
	unsigned int n = 0;
	size_t k;

	while (*p && (p = strchr(p + 1, '/')) && ++n < cgt.depth)
		;
	k = p && *p ? (size_t)(p - path) : strlen(path);
	if (k >= len)
		k = len - 1;
	memcpy(buf, path, k);
	buf[k] = '\0';
}

/* The group of @name, admitted or "(other)": its index or -1 (memory). */
static int cg_group(struct mx_cg_read *r, const char *name)
{
	struct mx_cg_group *g;
	unsigned int i;
	bool known = false;

	for (i = 0; i < r->ng; i++)
		if (!strcmp(r->g[i].path, name))
			return (int)i;
	for (i = 0; i < cgt.nadm && !known; i++)
		known = !strcmp(cgt.admitted[i], name);
	if (!known && strcmp(name, CG_OTHER)) {
		if (cgt.nadm >= cgt.max) {
			r->capped++;
			return cg_group(r, CG_OTHER);
		}
		cgt.admitted[cgt.nadm] = strdup(name);
		if (!cgt.admitted[cgt.nadm])
			return -1;
		cgt.nadm++;
	}
	if (r->ng == r->cap) {
		unsigned int cap = r->cap ? r->cap * 2 : 64;

		g = realloc(r->g, cap * sizeof(*g));
		if (!g)
			return -1;
		r->g = g;
		r->cap = cap;
	}
	g = &r->g[r->ng];
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s", name);
	mx_cgname_classify(name, &g->names);
	return (int)r->ng++;
}

static int cg_rec(const struct meas_cgroup_hdr *hdr,
		  const struct meas_cgroup_rec *rec, const char *rpath,
		  void *arg)
{
	struct mx_cg_read *r = arg;
	char cut[MX_CG_PATH_LEN];
	const char *path = rpath;
	unsigned int k;
	int i;

	if (hdr) {
		r->hidden = hdr->hidden;
		r->overflow_threads = hdr->overflow_threads;
		return 0;
	}
	if (rec->flags & MEAS_CG_OVERFLOW)
		path = "(overflow)";
	else if (!(rec->flags & MEAS_CG_REMOVED) || !path || !*path)
		path = mx_cgmap_path(rec->id);
	if (!path)
		path = "(unknown)";
	if (path[0] == '/' && cgt.depth)
		cg_cut(path, cut, sizeof(cut));
	else
		snprintf(cut, sizeof(cut), "%s", path);
	i = cg_group(r, cut);
	if (i < 0)
		return -ENOMEM;
	r->g[i].threads += rec->threads;
	for (k = 0; k < MEAS_PROC_ITEMS; k++)
		r->g[i].v[k] += rec->item[k];
	return 0;
}

/* No empty series: a group with nothing counted and no thread goes. */
static void cg_drop_empty(struct mx_cg_read *r)
{
	unsigned int i, o = 0;
	size_t k;

	for (i = 0; i < r->ng; i++) {
		bool empty = !r->g[i].threads;

		for (k = 0; k < mx_cg_nseries && empty; k++)
			if (mx_cg_series[k].item >= 0 &&
			    r->g[i].v[mx_cg_series[k].item])
				empty = false;
		if (!empty)
			r->g[o++] = r->g[i];
	}
	r->ng = o;
}

/**
 * mx_cgroups_read() - the groups as the module's totals give them now
 * @r: filled in; @r->g grows as needed and is kept between reads
 *
 * Return: 0, -ENODATA when class 15 is not enabled, or another negative
 * errno; -ENOTCONN when the groups were not started.
 */
int mx_cgroups_read(struct mx_cg_read *r)
{
	int err;

	if (!cgt.nl)
		return -ENOTCONN;
	r->ng = 0;
	r->capped = 0;
	err = meas_nl_cgroup_dump(cgt.nl, cg_rec, r);
	if (err)
		return err;
	cg_drop_empty(r);
	return 0;
}

/* A series' value in group @g. */
uint64_t mx_cg_value(const struct mx_cg_group *g, const struct mx_cg_series *s)
{
	if (s->item == MX_CG_THREADS)
		return g->threads;
	return g->v[s->item] - (s->minus >= 0 ? g->v[s->minus] : 0);
}
