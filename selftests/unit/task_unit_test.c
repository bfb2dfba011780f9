// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the pure logic of task measurement: module/logic/taskcheck.c
 * (START and STOP arguments, the errno of each code, record sizes and the
 * test for a meas task file).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kselftest_harness.h"
#include "logic/taskcheck.h"

static struct meas_task_start good(void)
{
	struct meas_task_start k;

	memset(&k, 0, sizeof(k));
	k.size = sizeof(k);
	k.pcounter_ms = 1;
	k.flags = MEAS_TASK_SVC;
	k.load_info = MEAS_TASK_LOAD_DETAILED;
	return k;
}

TEST(start_arguments)
{
	struct meas_task_start k = good();

	EXPECT_EQ(0, meas_taskcheck_start(&k));
	k.pcounter_ms = 0;
	EXPECT_EQ(0, meas_taskcheck_start(&k));
	k.pcounter_ms = MEAS_TASK_PCOUNTER_MAX;
	EXPECT_EQ(0, meas_taskcheck_start(&k));
	k.pcounter_ms = MEAS_TASK_PCOUNTER_MAX + 1;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	k = good();
	k.load_info = 2;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	k = good();
	k.pid = -1;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	k = good();
	k.flags = MEAS_TASK_SVC | MEAS_TASK_OWNED;
	EXPECT_EQ(0, meas_taskcheck_start(&k));
	k.flags = 0x4;
	EXPECT_EQ(-EOPNOTSUPP, meas_taskcheck_start(&k));
	k = good();
	k.pad = 1;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	k = good();
	k.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	k = good();
	k.reserved[3] = 1ULL << 63;
	EXPECT_EQ(-EINVAL, meas_taskcheck_start(&k));
	/* unknown flags win over bad fields: the struct is not understood */
	k.flags = 0x80;
	EXPECT_EQ(-EOPNOTSUPP, meas_taskcheck_start(&k));
}

TEST(stop_arguments)
{
	struct meas_task_stop k;

	memset(&k, 0, sizeof(k));
	k.size = sizeof(k);
	EXPECT_EQ(0, meas_taskcheck_stop(&k));
	k.pid = -5;
	EXPECT_EQ(-EINVAL, meas_taskcheck_stop(&k));
	k.pid = 0;
	k.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, meas_taskcheck_stop(&k));
	k.reserved[1] = 0;
	k.flags = 1;
	EXPECT_EQ(-EOPNOTSUPP, meas_taskcheck_stop(&k));
}

TEST(object_record_sizes)
{
	size_t head = sizeof(struct meas_trec_object);

	EXPECT_EQ(64, head);
	EXPECT_EQ(head + 8, meas_taskcheck_object_size(1));
	EXPECT_EQ(head + 8, meas_taskcheck_object_size(8));
	EXPECT_EQ(head + 16, meas_taskcheck_object_size(9));
	EXPECT_EQ(head + 4096, meas_taskcheck_object_size(4096));
	/* the largest path still fits the record's 16-bit size */
	EXPECT_GT(65536, meas_taskcheck_object_size(MEAS_TASK_PATH_MAX));
}

TEST(is_taskfile)
{
	struct meas_trec_session s;
	char junk[32] = "#!/bin/sh\necho not ours\n";

	memset(&s, 0, sizeof(s));
	s.h.type = MEAS_TREC_SESSION;
	s.h.size = sizeof(s);
	memcpy(s.magic, MEAS_TASK_MAGIC, 8);
	EXPECT_TRUE(meas_taskcheck_is_taskfile(&s, 0));	/* empty */
	EXPECT_TRUE(meas_taskcheck_is_taskfile(&s, 24));
	EXPECT_FALSE(meas_taskcheck_is_taskfile(&s, 23));	/* too short */
	EXPECT_FALSE(meas_taskcheck_is_taskfile(junk, sizeof(junk)));
	s.h.size = 20;
	EXPECT_FALSE(meas_taskcheck_is_taskfile(&s, 24));
	s.h.size = sizeof(s);
	s.h.type = MEAS_TREC_END;
	EXPECT_FALSE(meas_taskcheck_is_taskfile(&s, 24));
	s.h.type = MEAS_TREC_SESSION;
	s.magic[7] = 'X';
	EXPECT_FALSE(meas_taskcheck_is_taskfile(&s, 24));
}

TEST_HARNESS_MAIN
