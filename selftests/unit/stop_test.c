// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/logic/stop.h: the stop reason of a context
 * switch, as class 0 and class 15 count it.  The order of precedence is
 * the contract: exit, then preemption, then job control, then the kind
 * of sleep, told apart by I/O wait.
 */
#include "kselftest_harness.h"
#include "logic/stop.h"

#define ALL_SW	(MEAS_SW_PREEMPT | MEAS_SW_DEAD | MEAS_SW_JOBCTL | \
		 MEAS_SW_UNINTR | MEAS_SW_IOWAIT)

TEST(sleeps)
{
	EXPECT_EQ(MEAS_STOP_IMPEDED, meas_stop_classify(0));
	EXPECT_EQ(MEAS_STOP_DISC_UNBLOCKED, meas_stop_classify(MEAS_SW_IOWAIT));
	EXPECT_EQ(MEAS_STOP_BLOCKED, meas_stop_classify(MEAS_SW_UNINTR));
	EXPECT_EQ(MEAS_STOP_DISC_BLOCKED,
		  meas_stop_classify(MEAS_SW_UNINTR | MEAS_SW_IOWAIT));
}

/* Each of exit, preemption and job control wins over what comes after. */
TEST(precedence)
{
	unsigned int sw;

	for (sw = 0; sw <= ALL_SW; sw++) {
		enum meas_stop r = meas_stop_classify(sw);

		/* the harness's EXPECT_* are statements: braces */
		if (sw & MEAS_SW_DEAD) {
			EXPECT_EQ(MEAS_STOP_EXITED, r);
		} else if (sw & MEAS_SW_PREEMPT) {
			EXPECT_EQ(MEAS_STOP_PREEMPTED, r);
		} else if (sw & MEAS_SW_JOBCTL) {
			EXPECT_EQ(MEAS_STOP_JOBCTL, r);
		} else {
			EXPECT_NE(MEAS_STOP_JOBCTL, r);
			EXPECT_NE(MEAS_STOP_EXITED, r);
			EXPECT_NE(MEAS_STOP_PREEMPTED, r);
		}
	}
}

/* The switch probes index arrays with the result: always in bounds. */
TEST(in_bounds)
{
	unsigned int sw;

	for (sw = 0; sw < 256; sw++)
		EXPECT_GT(MEAS_STOP_NR, meas_stop_classify(sw));
}

TEST_HARNESS_MAIN
