// SPDX-License-Identifier: GPL-2.0
/*
 * measctl's cgroup tree (tools/measctl/cgroup/cgtree.c): paths to nodes
 * with their ancestors, subtree sums, deltas by path, and which items
 * an interval has, as the live view and the replay of an archive use
 * them.
 */
#include <errno.h>
#include <string.h>
#include "kselftest_harness.h"
#include "cgroup/cgtree.h"

/* A replayed instance: its path and own CPU time, as the agent gave it. */
static int put(struct cg_snap *s, const char *path, uint64_t cpu,
	       uint64_t threads)
{
	int i = cg_snap_node(s, path);

	if (i >= 0) {
		s->node[i].own[MEAS_P_CPU_TIME] = cpu;
		s->node[i].threads = threads;
	}
	return i;
}

TEST(ancestors_are_made_and_come_first)
{
	struct cg_snap s;
	int svc, slice, i;

	ASSERT_EQ(0, cg_snap_init(&s));
	svc = put(&s, "/system.slice/nginx.service", 5, 2);
	ASSERT_GE(svc, 0);
	slice = cg_snap_find(&s, "/system.slice");
	ASSERT_GE(slice, 0);
	EXPECT_LT(slice, svc);
	EXPECT_EQ(0, cg_snap_find(&s, "/"));
	EXPECT_EQ(slice, s.node[svc].parent);
	EXPECT_EQ(0, s.node[slice].parent);
	EXPECT_EQ(-1, s.node[0].parent);
	EXPECT_EQ(2U, s.node[svc].level);
	EXPECT_EQ(0U, s.node[slice].id);
	/* a path seen again is the same node */
	EXPECT_EQ(svc, cg_snap_node(&s, "/system.slice/nginx.service"));
	EXPECT_EQ(-1, cg_snap_find(&s, "/user.slice"));
	/* a pseudo-path of the agent, "(other)", hangs from the root */
	i = put(&s, "(other)", 1, 0);
	ASSERT_GE(i, 0);
	EXPECT_EQ(0, s.node[i].parent);
	EXPECT_EQ(1U, s.node[i].level);
	cg_snap_free(&s);
	EXPECT_EQ(0U, s.nn);
}

TEST(subtree_sums)
{
	struct cg_snap s;
	int slice;

	ASSERT_EQ(0, cg_snap_init(&s));
	put(&s, "/", 1, 1);
	put(&s, "/system.slice/a.service", 10, 1);
	put(&s, "/system.slice/b.service", 20, 3);
	put(&s, "/user.slice", 100, 4);
	cg_snap_sums(&s);
	slice = cg_snap_find(&s, "/system.slice");
	EXPECT_EQ(30U, s.node[slice].sum[MEAS_P_CPU_TIME]);
	EXPECT_EQ(0U, s.node[slice].own[MEAS_P_CPU_TIME]);
	EXPECT_EQ(4U, s.node[slice].threads);
	EXPECT_EQ(131U, s.node[0].sum[MEAS_P_CPU_TIME]);
	EXPECT_EQ(9U, s.node[0].threads);
	cg_snap_free(&s);
}

/* Many paths: the hash grows and every node is still found. */
TEST(many_paths)
{
	char p[64];
	struct cg_snap s;
	int k;

	ASSERT_EQ(0, cg_snap_init(&s));
	for (k = 0; k < 500; k++) {
		snprintf(p, sizeof(p), "/s%d.slice/u%d.service", k % 7, k);
		ASSERT_GE(put(&s, p, (uint64_t)k, 1), 0);
	}
	EXPECT_EQ(1U + 7U + 500U, s.nn);
	for (k = 0; k < 500; k++) {
		snprintf(p, sizeof(p), "/s%d.slice/u%d.service", k % 7, k);
		EXPECT_GE(cg_snap_find(&s, p), 0);
	}
	cg_snap_sums(&s);
	EXPECT_EQ(500U * 499U / 2, s.node[0].sum[MEAS_P_CPU_TIME]);
	cg_snap_free(&s);
}

/*
 * Deltas go by path, whatever the order of the two frames; a cgroup new
 * in the later frame counts from 0; a counter that dropped reads 0.
 */
TEST(deltas_by_path)
{
	struct cg_snap a, b;
	uint64_t v[MEAS_PROC_ITEMS];
	int i;

	ASSERT_EQ(0, cg_snap_init(&a));
	ASSERT_EQ(0, cg_snap_init(&b));
	put(&a, "/x.slice/one.service", 100, 1);
	put(&a, "/x.slice/gone.service", 50, 1);
	put(&b, "/x.slice/new.service", 7, 1);
	put(&b, "/x.slice/one.service", 160, 1);
	put(&b, "/x.slice/gone.service", 20, 0);
	cg_snap_sums(&a);
	cg_snap_sums(&b);
	i = cg_snap_find(&b, "/x.slice/one.service");
	cg_node_delta(&a, &b, (size_t)i, v);
	EXPECT_EQ(60U, v[MEAS_P_CPU_TIME]);
	i = cg_snap_find(&b, "/x.slice/new.service");
	cg_node_delta(&a, &b, (size_t)i, v);
	EXPECT_EQ(7U, v[MEAS_P_CPU_TIME]);
	i = cg_snap_find(&b, "/x.slice/gone.service");
	cg_node_delta(&a, &b, (size_t)i, v);
	EXPECT_EQ(0U, v[MEAS_P_CPU_TIME]);
	i = cg_snap_find(&b, "/x.slice");
	cg_node_delta(&a, &b, (size_t)i, v);
	EXPECT_EQ(37U, v[MEAS_P_CPU_TIME]);	/* 187 - 150 */
	cg_node_delta(NULL, &b, (size_t)i, v);
	EXPECT_EQ(187U, v[MEAS_P_CPU_TIME]);
	cg_snap_free(&a);
	cg_snap_free(&b);
}

/* An item has a value over an interval only if both ends have one. */
TEST(items_absent_stay_absent)
{
	struct cg_snap a, b;

	ASSERT_EQ(0, cg_snap_init(&a));
	ASSERT_EQ(0, cg_snap_init(&b));
	EXPECT_FALSE(cg_have(NULL, &b, MEAS_P_CPU_TIME));
	b.have[MEAS_P_CPU_TIME] = true;
	EXPECT_TRUE(cg_have(NULL, &b, MEAS_P_CPU_TIME));
	EXPECT_FALSE(cg_have(&a, &b, MEAS_P_CPU_TIME));
	a.have[MEAS_P_CPU_TIME] = true;
	EXPECT_TRUE(cg_have(&a, &b, MEAS_P_CPU_TIME));
	EXPECT_FALSE(cg_have(&a, &b, MEAS_P_LAUNCHES));
	EXPECT_FALSE(cg_have(&a, &b, MEAS_PROC_ITEMS));
	cg_snap_free(&a);
	cg_snap_free(&b);
}

TEST_HARNESS_MAIN
