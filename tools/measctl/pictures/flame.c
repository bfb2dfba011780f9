// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: folding stacks into a flame graph's tree and its geometry
 * (flame.h).  Pure: no I/O, so that the host unit tests check it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pictures/flame.h"

static int flame_reserve(struct flame *f, size_t more)
{
	struct flame_node *n;
	size_t cap;

	if (f->nn + more <= f->cap)
		return 0;
	cap = f->cap ? f->cap : 64;
	while (cap < f->nn + more)
		cap *= 2;
	n = realloc(f->n, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->n = n;
	f->cap = cap;
	return 0;
}

static int flame_new(struct flame *f, size_t parent, const char *name,
		     size_t len)
{
	struct flame_node *n = &f->n[f->nn];

	memset(n, 0, sizeof(*n));
	n->name = strndup(name, len);
	if (!n->name)
		return -ENOMEM;
	n->parent = parent;
	n->child = FLAME_NONE;
	n->next = FLAME_NONE;
	if (parent != FLAME_NONE) {
		n->depth = f->n[parent].depth + 1;
		n->next = f->n[parent].child;
		f->n[parent].child = f->nn;
	}
	f->nn++;
	return 0;
}

int flame_init(struct flame *f)
{
	memset(f, 0, sizeof(*f));
	if (flame_reserve(f, 1))
		return -ENOMEM;
	if (flame_new(f, FLAME_NONE, "all", 3)) {
		free(f->n);
		return -ENOMEM;
	}
	return 0;
}

void flame_free(struct flame *f)
{
	size_t i;

	for (i = 0; i < f->nn; i++)
		free(f->n[i].name);
	free(f->n);
	memset(f, 0, sizeof(*f));
}

static size_t flame_find(const struct flame *f, size_t parent,
			 const char *name, size_t len)
{
	size_t c;

	for (c = f->n[parent].child; c != FLAME_NONE; c = f->n[c].next)
		if (!strncmp(f->n[c].name, name, len) && !f->n[c].name[len])
			return c;
	return FLAME_NONE;
}

/* Frames of @stack, checked: their count, or -EINVAL. */
static int flame_frames(const char *stack)
{
	const char *p = stack, *e;
	int n = 0;

	for (;;) {
		e = strchr(p, ';');
		if (!e)
			e = p + strlen(p);
		if (e == p || ++n > FLAME_MAX_DEPTH)
			return -EINVAL;
		if (!*e)
			return n;
		p = e + 1;
	}
}

/* Undo the nodes made from @first on: they hang below older ones. */
static void flame_undo(struct flame *f, size_t first)
{
	size_t i;

	if (first < f->nn)
		f->n[f->n[first].parent].child = f->n[first].next;
	for (i = first; i < f->nn; i++)
		free(f->n[i].name);
	f->nn = first;
}

int flame_add(struct flame *f, const char *stack, uint64_t count)
{
	size_t path[FLAME_MAX_DEPTH + 1], first = f->nn, c, len;
	const char *p = stack;
	int depth, d;

	depth = flame_frames(stack);
	if (depth < 0 || !count || f->n[0].count > UINT64_MAX - count)
		return -EINVAL;
	if (flame_reserve(f, depth))
		return -ENOMEM;
	path[0] = 0;
	for (d = 1; d <= depth; d++) {
		len = strcspn(p, ";");
		c = flame_find(f, path[d - 1], p, len);
		if (c == FLAME_NONE) {
			if (flame_new(f, path[d - 1], p, len)) {
				flame_undo(f, first);
				return -ENOMEM;
			}
			c = f->nn - 1;
		}
		path[d] = c;
		p += len + 1;
	}
	for (d = 0; d <= depth; d++)
		f->n[path[d]].count += count;
	f->n[path[depth]].self += count;
	if ((unsigned int)depth > f->max_depth)
		f->max_depth = depth;
	return 0;
}

int flame_add_line(struct flame *f, const char *line)
{
	const char *sp = strrchr(line, ' ');
	unsigned long long v;
	char *stack, *end;
	int err;

	if (!sp || sp == line || sp[1] < '0' || sp[1] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(sp + 1, &end, 10);
	if (errno || (*end && *end != '\n') || (*end && end[1]))
		return -EINVAL;
	stack = strndup(line, sp - line);
	if (!stack)
		return -ENOMEM;
	err = flame_add(f, stack, v);
	free(stack);
	return err;
}

static const struct flame *sort_f;

static int by_name(const void *a, const void *b)
{
	return strcmp(sort_f->n[*(const size_t *)a].name,
		      sort_f->n[*(const size_t *)b].name);
}

/*
 * Children by name, each left of the next.  Nodes are made after their
 * parent, so one pass in index order places parents before children.
 */
void flame_layout(struct flame *f)
{
	size_t *kids, i, c, k, nk;
	uint64_t x;

	kids = malloc((f->nn ? f->nn : 1) * sizeof(*kids));
	sort_f = f;
	f->n[0].x = 0;
	for (i = 0; i < f->nn; i++) {
		nk = 0;
		for (c = f->n[i].child; c != FLAME_NONE; c = f->n[c].next)
			if (kids)
				kids[nk++] = c;
		if (kids && nk > 1) {
			qsort(kids, nk, sizeof(*kids), by_name);
			f->n[i].child = kids[0];
			for (k = 0; k + 1 < nk; k++)
				f->n[kids[k]].next = kids[k + 1];
			f->n[kids[nk - 1]].next = FLAME_NONE;
		}
		x = f->n[i].x;
		for (c = f->n[i].child; c != FLAME_NONE; c = f->n[c].next) {
			f->n[c].x = x;
			x += f->n[c].count;
		}
	}
	free(kids);
}

double flame_px(uint64_t x, uint64_t w, uint64_t x0, uint64_t w0,
		double left0, double width, double *left)
{
	if (!w0) {
		*left = left0;
		return 0;
	}
	*left = left0 + ((double)x - (double)x0) * width / (double)w0;
	return (double)w * width / (double)w0;
}

void flame_fit(const char *name, double px, double char_px, char *buf,
	       size_t len)
{
	double room = char_px > 0 ? (px - 6) / char_px : 0;
	size_t fit = room > 0 ? (size_t)room : 0, n = strlen(name);

	if (!len)
		return;
	buf[0] = '\0';
	if (fit < 3)
		return;
	if (n <= fit) {
		snprintf(buf, len, "%s", name);
		return;
	}
	snprintf(buf, len, "%.*s..", (int)(fit - 2), name);
}
