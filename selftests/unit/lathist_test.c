// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/logic/lathist.h, the bucket arithmetic of the
 * I/O latency histograms (class 0 subclass 5): the same file the module
 * is built from.
 */
#include <stdint.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/lathist.h"

#define LAST	(MEAS_C0_LAT_BUCKETS - 1)

/* A bucket's bound belongs to it; one more nanosecond is the next one's. */
TEST(bounds_are_inclusive)
{
	unsigned int b;

	for (b = 0; b < LAST; b++) {
		u64 bound = MEAS_C0_LAT_BOUND_NS(b);

		EXPECT_EQ(b, meas_lat_bucket(bound));
		EXPECT_EQ(b + 1, meas_lat_bucket(bound + 1));
		if (b)
			EXPECT_EQ(b, meas_lat_bucket(MEAS_C0_LAT_BOUND_NS(b - 1) + 1));
	}
}

TEST(small_and_huge_latencies)
{
	EXPECT_EQ(0, meas_lat_bucket(0));
	EXPECT_EQ(0, meas_lat_bucket(1));
	EXPECT_EQ(0, meas_lat_bucket(1023));
	EXPECT_EQ(0, meas_lat_bucket(1024));
	EXPECT_EQ(1, meas_lat_bucket(1025));
	EXPECT_EQ(1, meas_lat_bucket(2048));
	/* bucket 24 ends at 2^34 ns, about 17.2 s; the last holds the rest */
	EXPECT_EQ(LAST - 1, meas_lat_bucket(1ULL << 34));
	EXPECT_EQ(LAST, meas_lat_bucket((1ULL << 34) + 1));
	EXPECT_EQ(LAST, meas_lat_bucket(1ULL << 40));
	EXPECT_EQ(LAST, meas_lat_bucket(UINT64_MAX));
}

/* Walking every power of two and its neighbours: monotone, no gap. */
TEST(monotone_without_gaps)
{
	unsigned int prev = 0, b;
	int k, d;

	for (k = 0; k < 64; k++)
		for (d = -1; d <= 1; d++) {
			u64 ns = (1ULL << k) + d;

			if (k == 63 && d == 1)
				continue;
			b = meas_lat_bucket(ns);
			ASSERT_LE(prev, b);
			ASSERT_GE(prev + 1, b);
			ASSERT_GT(MEAS_C0_LAT_BUCKETS, b);
			if (b < LAST)
				ASSERT_GE(MEAS_C0_LAT_BOUND_NS(b), ns);
			if (b)
				ASSERT_LT(MEAS_C0_LAT_BOUND_NS(b - 1), ns);
			prev = b;
		}
	EXPECT_EQ(LAST, prev);
}

/* The operations' blocks tile the entry after the device number. */
TEST(items_tile_the_entry)
{
	unsigned int op, it, next = 1;

	for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++)
		for (it = 0; it < MEAS_C0_LAT_OP_ITEMS; it++)
			EXPECT_EQ(next++, meas_lat_item(op, it));
	EXPECT_EQ(MEAS_C0_LAT_ITEMS, next);
	EXPECT_EQ(117, MEAS_C0_LAT_ITEMS);
	EXPECT_EQ(MEAS_C0_LAT_OP(MEAS_C0_LAT_FLUSH) + MEAS_C0_LAT_BUCKET0 + LAST,
		  MEAS_C0_LAT_ITEMS - 1);
}

TEST_HARNESS_MAIN
