// SPDX-License-Identifier: GPL-2.0
/*
 * The per-cgroup totals as a tree of paths (cgtree.h).  A cgroup no
 * thread ever ran in (a slice above its services) has no entry of its
 * own, in the module's table or in an archive, so the tree is built from
 * the paths: each path makes its node and the nodes of its ancestors,
 * and each node's subtree totals are its own plus its children's.  The
 * deltas of an interval go by path, so that two reads (or two frames of
 * an archive) need not list their cgroups in the same order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/cgtree.h"

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

int cg_snap_node(struct cg_snap *s, const char *path)
{
	char parent[4096];
	struct cg_node *n;
	int i, p = -1;

	i = cg_snap_find(s, path);
	if (i >= 0)
		return i;
	if (strcmp(path, "/")) {
		cg_parent_path(path, parent, sizeof(parent));
		p = cg_snap_node(s, parent);
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

int cg_snap_init(struct cg_snap *s)
{
	memset(s, 0, sizeof(*s));
	return cg_snap_node(s, "/") < 0 ? -ENOMEM : 0;
}

/* Subtree sums: descendants come after their ancestors. */
void cg_snap_sums(struct cg_snap *s)
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

bool cg_have(const struct cg_snap *a, const struct cg_snap *b, size_t k)
{
	if (k >= MEAS_PROC_ITEMS)
		return false;
	return b->have[k] && (!a || a->have[k]);
}
