/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the arithmetic of a flame graph, pure (no I/O), shared by
 * profile --svg, task report --svg and run --html, unit-tested on the
 * host (selftests/unit/flame_test.c).  Folded stacks ("a;b;c" with a
 * count) merge into a tree whose root, "all", holds every sample; each
 * node spans the samples of its stacks, its children side by side in
 * name order, so that the same call chain is one box however often it
 * was sampled.  flamesvg.c draws it.
 */
#ifndef MEASCTL_FLAME_H
#define MEASCTL_FLAME_H

#include <stddef.h>
#include <stdint.h>

#define FLAME_NONE		((size_t)-1)
#define FLAME_MAX_DEPTH		1024	/* frames in one stack, beyond: EINVAL */

struct flame_node {
	char *name;
	uint64_t count;		/* samples here and in every callee */
	uint64_t self;		/* samples with this frame as the leaf */
	uint64_t x;		/* samples left of it, after flame_layout() */
	unsigned int depth;	/* 0: the root */
	size_t parent, child, next;	/* first child, next sibling */
};

struct flame {
	struct flame_node *n;	/* n[0] is the root, "all" */
	size_t nn, cap;
	unsigned int max_depth;
};

/* 0 or -ENOMEM. */
int flame_init(struct flame *f);
void flame_free(struct flame *f);
/*
 * Add @count samples of @stack, frames outermost first, separated by ';'.
 * 0, -EINVAL (an empty frame, more than FLAME_MAX_DEPTH frames, a count of
 * 0 or a total above UINT64_MAX), -ENOMEM.  Nothing changes on an error.
 */
int flame_add(struct flame *f, const char *stack, uint64_t count);
/* A folded line "a;b;c 12": 0, -EINVAL for anything else, -ENOMEM. */
int flame_add_line(struct flame *f, const char *line);
/* Order children by name and place every node (x).  Idempotent. */
void flame_layout(struct flame *f);

/*
 * Geometry: the box of a node @x, @w samples wide, when @x0 .. @x0 + @w0
 * fills @width pixels starting at @left0.  Returns its width in pixels,
 * its left edge in @left.
 */
double flame_px(uint64_t x, uint64_t w, uint64_t x0, uint64_t w0,
		double left0, double width, double *left);
/*
 * The label that fits @px pixels of characters @char_px wide, with 3 px
 * margins: the name, or its start and "..", or "" when fewer than three
 * characters fit.  Into @buf of @len bytes.
 */
void flame_fit(const char *name, double px, double char_px, char *buf,
	       size_t len);

#endif /* MEASCTL_FLAME_H */
