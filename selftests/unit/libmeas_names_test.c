// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of libmeas's naming functions that measctl does not
 * call but the library's users may: disk and transfer item names,
 * collector names, class 15 time items.
 */
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "libmeas.h"

TEST(disc_and_xfer_item_names)
{
	EXPECT_STREQ("device", meas_c0_disc_item_name(MEAS_C0_DISC_DEV));
	EXPECT_STREQ("device", meas_c0_xfer_item_name(MEAS_C0_XFER_DEV));
	EXPECT_STREQ("reads", meas_c0_xfer_item_name(MEAS_C0_XFER_READS));
	EXPECT_STREQ("read-bytes",
		     meas_c0_xfer_item_name(MEAS_C0_XFER_READ_BYTES));
	EXPECT_EQ(NULL, meas_c0_disc_item_name(MEAS_C0_DISC_ITEMS));
	EXPECT_EQ(NULL, meas_c0_xfer_item_name(MEAS_C0_XFER_ITEMS));
	EXPECT_EQ(NULL, meas_c0_xfer_item_name(~0U));
}

/* Every collector GETCLOCK knows has a name; collector 0 has none. */
TEST(collector_names)
{
	EXPECT_STREQ("pc", meas_collector_name(MEAS_COLLECTOR_PC));
	EXPECT_STREQ("snapshot", meas_collector_name(MEAS_COLLECTOR_SNAP));
	EXPECT_STREQ("stack", meas_collector_name(MEAS_COLLECTOR_STACK));
	EXPECT_EQ(NULL, meas_collector_name(MEAS_COLLECTOR_NONE));
	EXPECT_EQ(NULL, meas_collector_name(MEAS_COLLECTOR_STACK + 1));
}

TEST(proc_time_items)
{
	EXPECT_TRUE(meas_proc_item_is_time(MEAS_P_CPU_TIME));
	EXPECT_TRUE(meas_proc_item_is_time(MEAS_P_PAUSE_ACTIVE));
	EXPECT_TRUE(meas_proc_item_is_time(MEAS_P_PAUSE_JOBCTL));
	EXPECT_FALSE(meas_proc_item_is_time(MEAS_P_LAUNCHES));
	EXPECT_FALSE(meas_proc_item_is_time(MEAS_PROC_ITEMS));
}

TEST_HARNESS_MAIN
