// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the flame graph's arithmetic (tools/measctl/pictures/flame.c):
 * folding stacks into a tree, the order and place of the boxes, the
 * geometry of a zoom, the labels that fit, and bad input changing nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "pictures/flame.h"

static size_t child(const struct flame *f, size_t parent, const char *name)
{
	size_t c;

	for (c = f->n[parent].child; c != FLAME_NONE; c = f->n[c].next)
		if (!strcmp(f->n[c].name, name))
			return c;
	return FLAME_NONE;
}

/* The node at the end of "a;b;c", FLAME_NONE if there is none. */
static size_t node(const struct flame *f, const char *path)
{
	char buf[256], *save, *tok;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ";", &save); tok && n != FLAME_NONE;
	     tok = strtok_r(NULL, ";", &save))
		n = child(f, n, tok);
	return n;
}

TEST(fold_merges_common_prefixes)
{
	struct flame f;
	size_t a, b;

	ASSERT_EQ(0, flame_init(&f));
	ASSERT_EQ(0, flame_add(&f, "prog;main;outer;inner", 5));
	ASSERT_EQ(0, flame_add(&f, "prog;main;outer", 2));
	ASSERT_EQ(0, flame_add(&f, "prog;main;other", 3));
	ASSERT_EQ(0, flame_add(&f, "prog;main;outer;inner", 1));
	/* all, prog, main, outer, inner, other */
	EXPECT_EQ(6, f.nn);
	EXPECT_EQ(11, f.n[0].count);
	EXPECT_EQ(0, f.n[0].self);
	EXPECT_EQ(4, f.max_depth);
	a = node(&f, "prog;main;outer");
	b = node(&f, "prog;main;outer;inner");
	ASSERT_NE(FLAME_NONE, a);
	ASSERT_NE(FLAME_NONE, b);
	EXPECT_EQ(8, f.n[a].count);
	EXPECT_EQ(2, f.n[a].self);
	EXPECT_EQ(6, f.n[b].count);
	EXPECT_EQ(6, f.n[b].self);
	EXPECT_EQ(4, f.n[b].depth);
	EXPECT_EQ(11, f.n[node(&f, "prog;main")].count);
	flame_free(&f);
}

/* The same name under different callers is a different box. */
TEST(same_name_other_caller)
{
	struct flame f;

	ASSERT_EQ(0, flame_init(&f));
	ASSERT_EQ(0, flame_add(&f, "p;a;leaf", 1));
	ASSERT_EQ(0, flame_add(&f, "p;b;leaf", 1));
	EXPECT_NE(node(&f, "p;a;leaf"), node(&f, "p;b;leaf"));
	EXPECT_EQ(6, f.nn);
	flame_free(&f);
}

/* Children side by side in name order; each within its parent. */
TEST(layout_name_order_and_nesting)
{
	struct flame f;
	size_t i, p;

	ASSERT_EQ(0, flame_init(&f));
	ASSERT_EQ(0, flame_add(&f, "p;zeta", 4));
	ASSERT_EQ(0, flame_add(&f, "p;alpha;x", 3));
	ASSERT_EQ(0, flame_add(&f, "p;mid", 2));
	ASSERT_EQ(0, flame_add(&f, "q", 1));
	ASSERT_EQ(0, flame_add(&f, "p;alpha;a", 1));
	flame_layout(&f);
	EXPECT_EQ(0, f.n[node(&f, "p")].x);
	EXPECT_EQ(10, f.n[node(&f, "q")].x);
	EXPECT_EQ(0, f.n[node(&f, "p;alpha")].x);
	EXPECT_EQ(0, f.n[node(&f, "p;alpha;a")].x);
	EXPECT_EQ(1, f.n[node(&f, "p;alpha;x")].x);
	EXPECT_EQ(4, f.n[node(&f, "p;mid")].x);
	EXPECT_EQ(6, f.n[node(&f, "p;zeta")].x);
	for (i = 1; i < f.nn; i++) {
		p = f.n[i].parent;
		EXPECT_LE(f.n[p].x, f.n[i].x);
		EXPECT_LE(f.n[i].x + f.n[i].count, f.n[p].x + f.n[p].count);
		EXPECT_EQ(f.n[p].depth + 1, f.n[i].depth);
	}
	/* again: the same places */
	flame_layout(&f);
	EXPECT_EQ(6, f.n[node(&f, "p;zeta")].x);
	EXPECT_EQ(1, f.n[node(&f, "p;alpha;x")].x);
	flame_free(&f);
}

TEST(folded_lines)
{
	struct flame f;

	ASSERT_EQ(0, flame_init(&f));
	EXPECT_EQ(0, flame_add_line(&f, "prog;main;f 12\n"));
	EXPECT_EQ(0, flame_add_line(&f, "prog;main 3"));
	EXPECT_EQ(0, flame_add_line(&f, "my prog;main 1"));
	EXPECT_EQ(16, f.n[0].count);
	EXPECT_EQ(1, f.n[node(&f, "my prog")].count);
	EXPECT_EQ(-EINVAL, flame_add_line(&f, "prog;main"));
	EXPECT_EQ(-EINVAL, flame_add_line(&f, "prog;main x"));
	EXPECT_EQ(-EINVAL, flame_add_line(&f, "prog;main 12x"));
	EXPECT_EQ(-EINVAL, flame_add_line(&f, "prog;main -1"));
	EXPECT_EQ(-EINVAL, flame_add_line(&f, " 5"));
	EXPECT_EQ(-EINVAL, flame_add_line(&f, "prog;main 99999999999999999999"));
	EXPECT_EQ(16, f.n[0].count);
	flame_free(&f);
}

/* Bad stacks: EINVAL, and the tree is as it was. */
TEST(bad_input_changes_nothing)
{
	char deep[4 * (FLAME_MAX_DEPTH + 1) + 1];
	struct flame f;
	size_t i;

	ASSERT_EQ(0, flame_init(&f));
	ASSERT_EQ(0, flame_add(&f, "p;a", 2));
	EXPECT_EQ(-EINVAL, flame_add(&f, "", 1));
	EXPECT_EQ(-EINVAL, flame_add(&f, "p;;a", 1));
	EXPECT_EQ(-EINVAL, flame_add(&f, "p;a;", 1));
	EXPECT_EQ(-EINVAL, flame_add(&f, ";p", 1));
	EXPECT_EQ(-EINVAL, flame_add(&f, "p;b", 0));
	EXPECT_EQ(-EINVAL, flame_add(&f, "p;b", UINT64_MAX));
	for (i = 0; i <= FLAME_MAX_DEPTH; i++)
		memcpy(deep + 4 * i, "abc;", 4);
	deep[sizeof(deep) - 2] = '\0';	/* FLAME_MAX_DEPTH + 1 frames */
	EXPECT_EQ(-EINVAL, flame_add(&f, deep, 1));
	deep[sizeof(deep) - 6] = '\0';	/* FLAME_MAX_DEPTH: fine */
	EXPECT_EQ(3, f.nn);
	EXPECT_EQ(2, f.n[0].count);
	EXPECT_EQ(2, f.max_depth);
	EXPECT_EQ(0, flame_add(&f, deep, 1));
	EXPECT_EQ(FLAME_MAX_DEPTH, f.max_depth);
	flame_free(&f);
}

TEST(geometry_full_and_zoomed)
{
	double left, w;

	/* all 200 samples in 1180 px from 10 */
	w = flame_px(50, 100, 0, 200, 10, 1180, &left);
	EXPECT_EQ(590, w);
	EXPECT_EQ(305, left);
	/* zoomed on [50, 150): that box fills the width */
	w = flame_px(50, 100, 50, 100, 10, 1180, &left);
	EXPECT_EQ(1180, w);
	EXPECT_EQ(10, left);
	w = flame_px(75, 25, 50, 100, 10, 1180, &left);
	EXPECT_EQ(295, w);
	EXPECT_EQ(305, left);
	/* nothing sampled: no width */
	w = flame_px(0, 0, 0, 0, 10, 1180, &left);
	EXPECT_EQ(0, w);
	EXPECT_EQ(10, left);
}

TEST(labels_fit)
{
	char buf[64];

	/* (px - 6) / 7 characters */
	flame_fit("meas_inner", 6 + 7 * 10, 7, buf, sizeof(buf));
	EXPECT_STREQ("meas_inner", buf);
	flame_fit("meas_inner", 6 + 7 * 9, 7, buf, sizeof(buf));
	EXPECT_STREQ("meas_in..", buf);
	flame_fit("meas_inner", 6 + 7 * 3, 7, buf, sizeof(buf));
	EXPECT_STREQ("m..", buf);
	flame_fit("meas_inner", 6 + 7 * 2.9, 7, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	flame_fit("meas_inner", 1, 7, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	flame_fit("meas_inner", 1000, 7, buf, 5);
	EXPECT_STREQ("meas", buf);
}

TEST_HARNESS_MAIN
