// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the pure logic of class 15: module/logic/match.c (entity
 * descriptors, the '*' wildcard, include and exclude) and
 * module/logic/proccheck.c (GETPROCSTATS arguments).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/match.h"
#include "logic/proccheck.h"

static struct meas_entity_desc desc(int include)
{
	struct meas_entity_desc d;

	memset(&d, 0, sizeof(d));
	d.type = include ? MEAS_ENT_PROCESS : -MEAS_ENT_PROCESS;
	d.len = sizeof(d);
	d.pid = MEAS_ENT_ANY;
	d.cpu = MEAS_ENT_ANY;
	d.uid = MEAS_ENT_ANY;
	return d;
}

TEST(pattern_wildcards)
{
	EXPECT_TRUE(meas_match_pattern("", ""));
	EXPECT_FALSE(meas_match_pattern("", "a"));
	EXPECT_TRUE(meas_match_pattern("*", ""));
	EXPECT_TRUE(meas_match_pattern("*", "anything"));
	EXPECT_TRUE(meas_match_pattern("bash", "bash"));
	EXPECT_FALSE(meas_match_pattern("bash", "bash2"));
	EXPECT_FALSE(meas_match_pattern("bash", "bas"));
	EXPECT_TRUE(meas_match_pattern("kworker/*", "kworker/0:1H"));
	EXPECT_FALSE(meas_match_pattern("kworker/*", "kworke"));
	EXPECT_TRUE(meas_match_pattern("*sh", "bash"));
	EXPECT_TRUE(meas_match_pattern("*sh", "sh"));
	EXPECT_FALSE(meas_match_pattern("*sh", "shell"));
	EXPECT_TRUE(meas_match_pattern("a*b*c", "aXXbYYc"));
	EXPECT_TRUE(meas_match_pattern("a*b*c", "abc"));
	EXPECT_TRUE(meas_match_pattern("a*b*c", "abcbc"));
	EXPECT_FALSE(meas_match_pattern("a*b*c", "abcb"));
	EXPECT_TRUE(meas_match_pattern("**x**", "x"));
	EXPECT_TRUE(meas_match_pattern("*a*a*a*a*b", "aaaaaaaaaaaaaaab"));
	EXPECT_FALSE(meas_match_pattern("*a*a*a*a*b", "aaaaaaaaaaaaaaaa"));
}

TEST(descriptor_checks)
{
	struct meas_entity_desc d = desc(1);

	EXPECT_EQ(MEAS_RA_OK, meas_check_desc(&d));
	d = desc(0);
	EXPECT_EQ(MEAS_RA_OK, meas_check_desc(&d));
	d.type = 14;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d = desc(1);
	d.len--;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d = desc(1);
	d.pid = -2;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d = desc(1);
	d.cpu = -7;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d = desc(1);
	d.uid = 0x100000000LL;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d.uid = 0xffffffffLL;
	EXPECT_EQ(MEAS_RA_OK, meas_check_desc(&d));
	d = desc(1);
	d.reserved[1] = 1;
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d = desc(1);
	memset(d.name, 'x', sizeof(d.name));
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
	d.name[sizeof(d.name) - 1] = '\0';
	EXPECT_EQ(MEAS_RA_OK, meas_check_desc(&d));
	d = desc(1);
	strcpy(d.name, "ab");
	d.name[10] = 'z';
	EXPECT_EQ(MEAS_RA_BADDESC, meas_check_desc(&d));
}

TEST(descriptor_fields)
{
	struct meas_match_ent e = { .pid = 42, .cpu = 1, .uid = 1000,
				    .comm = "worker" };
	struct meas_entity_desc d = desc(1);

	EXPECT_TRUE(meas_match_desc(&d, &e));
	d.pid = 42;
	EXPECT_TRUE(meas_match_desc(&d, &e));
	d.pid = 43;
	EXPECT_FALSE(meas_match_desc(&d, &e));
	d = desc(1);
	d.cpu = 0;
	EXPECT_FALSE(meas_match_desc(&d, &e));
	d.cpu = 1;
	d.uid = 1000;
	strcpy(d.name, "w*r");
	EXPECT_TRUE(meas_match_desc(&d, &e));
	d.uid = 0;
	EXPECT_FALSE(meas_match_desc(&d, &e));
}

TEST(include_and_exclude)
{
	struct meas_match_ent a = { .pid = 1, .cpu = 0, .uid = 0,
				    .comm = "init" };
	struct meas_match_ent b = { .pid = 2, .cpu = 1, .uid = 1000,
				    .comm = "bash" };
	struct meas_entity_desc d[3];

	/* Only excludes: everything else is selected. */
	d[0] = desc(0);
	d[0].uid = 0;
	EXPECT_FALSE(meas_match_select(d, 1, &a));
	EXPECT_TRUE(meas_match_select(d, 1, &b));
	/* An include narrows; an exclude wins over it. */
	d[0] = desc(1);
	strcpy(d[0].name, "*");
	d[1] = desc(0);
	strcpy(d[1].name, "ba*");
	EXPECT_TRUE(meas_match_select(d, 2, &a));
	EXPECT_FALSE(meas_match_select(d, 2, &b));
	/* Two includes: either. */
	d[0] = desc(1);
	d[0].pid = 1;
	d[1] = desc(1);
	d[1].cpu = 1;
	d[2] = desc(1);
	d[2].pid = 99;
	EXPECT_TRUE(meas_match_select(d, 3, &a));
	EXPECT_TRUE(meas_match_select(d, 3, &b));
	EXPECT_FALSE(meas_match_select(&d[2], 1, &b));
}

TEST(procstats_checks_in_mpe_order)
{
	u64 need = 9;

	EXPECT_EQ(MEAS_PROC_OK, meas_check_procstats(0, 64, 64, 1, 512, &need));
	EXPECT_EQ(64, need);
	EXPECT_EQ(MEAS_PROC_BADITEM, meas_check_procstats(-1, 1, 64, 1, 512,
							  &need));
	EXPECT_EQ(MEAS_PROC_BADITEM, meas_check_procstats(64, 0, 64, 1, 512,
							  &need));
	/* The item is checked before the count. */
	EXPECT_EQ(MEAS_PROC_BADITEM, meas_check_procstats(64, -1, 64, 1, 512,
							  &need));
	EXPECT_EQ(MEAS_PROC_BADCOUNT, meas_check_procstats(63, 2, 64, 1, 512,
							   &need));
	EXPECT_EQ(MEAS_PROC_BADCOUNT, meas_check_procstats(0, -1, 64, 1, 512,
							   &need));
	EXPECT_EQ(MEAS_PROC_OK, meas_check_procstats(63, 1, 64, 1, 8, &need));
	EXPECT_EQ(MEAS_PROC_OK, meas_check_procstats(5, 0, 64, 1, 0, &need));
	EXPECT_EQ(0, need);
	/* The count is checked before the bounds; bounds say the need. */
	EXPECT_EQ(MEAS_PROC_BOUNDS, meas_check_procstats(0, 4, 64, 100, 3199,
							 &need));
	EXPECT_EQ(400, need);
	EXPECT_EQ(MEAS_PROC_OK, meas_check_procstats(0, 4, 64, 100, 3200,
						     &need));
	/* No overflow on absurd entry counts. */
	EXPECT_EQ(MEAS_PROC_BOUNDS,
		  meas_check_procstats(0, 64, 64, UINT64_MAX / 2, UINT64_MAX,
				       &need));
}

TEST(fast_procstats_clamps)
{
	u64 items = 9, nent = 9;

	EXPECT_TRUE(meas_clamp_fprocstats(60, 100, 64, 1, 512, &items, &nent));
	EXPECT_EQ(4, items);
	EXPECT_EQ(1, nent);
	EXPECT_FALSE(meas_clamp_fprocstats(-1, 1, 64, 1, 512, &items, &nent));
	EXPECT_FALSE(meas_clamp_fprocstats(64, 1, 64, 1, 512, &items, &nent));
	EXPECT_FALSE(meas_clamp_fprocstats(0, 0, 64, 1, 512, &items, &nent));
	EXPECT_FALSE(meas_clamp_fprocstats(0, -5, 64, 1, 512, &items, &nent));
	/* Whole entries only, as many as the buffer holds. */
	EXPECT_TRUE(meas_clamp_fprocstats(0, 64, 64, 10, 512 * 3 + 8, &items,
					  &nent));
	EXPECT_EQ(64, items);
	EXPECT_EQ(3, nent);
	EXPECT_FALSE(meas_clamp_fprocstats(0, 64, 64, 10, 511, &items, &nent));
	EXPECT_EQ(0, items);
	EXPECT_EQ(0, nent);
}

TEST_HARNESS_MAIN
