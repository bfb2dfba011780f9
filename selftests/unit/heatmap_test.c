// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the I/O latency heat map's arithmetic
 * (tools/measctl/pictures/heatmap.c): latency rows, time columns, per-disk grids,
 * requests without an issue time, and the colour scale.
 */
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "pictures/heatmap.h"

TEST(rows_are_powers_of_two_of_us)
{
	EXPECT_EQ(0, hm_row(0));
	EXPECT_EQ(0, hm_row(999));	/* below 1 us */
	EXPECT_EQ(0, hm_row(1999));	/* [1, 2) us */
	EXPECT_EQ(1, hm_row(2000));
	EXPECT_EQ(1, hm_row(3999));
	EXPECT_EQ(2, hm_row(4000));
	EXPECT_EQ(8, hm_row(256000));	/* 256 us */
	EXPECT_EQ(8, hm_row(511999));
	EXPECT_EQ(9, hm_row(512000));
	EXPECT_EQ(HM_ROWS - 1, hm_row(UINT64_MAX));
	EXPECT_EQ(0, hm_row_low_ns(0));
	EXPECT_EQ(2000, hm_row_low_ns(1));
	EXPECT_EQ(256000, hm_row_low_ns(8));
	/* every latency lies in its row's range */
	for (uint64_t ns = 1000; ns < 10000000000ULL; ns = ns * 3 / 2) {
		unsigned int r = hm_row(ns);

		EXPECT_LE(hm_row_low_ns(r), ns);
		if (r < HM_ROWS - 1)
			EXPECT_GT(hm_row_low_ns(r + 1), ns);
	}
}

TEST(cells_by_time_and_latency_per_disk)
{
	unsigned int lo, hi;
	struct heatmap h;
	uint64_t sum = 0;
	int c, r;

	hm_init(&h);
	/* 0 .. 5.999999999 s: 60 columns of 100 ms */
	ASSERT_EQ(0, hm_add(&h, "nullb0", 1000000000ULL, 300000));
	ASSERT_EQ(0, hm_add(&h, "nullb0", 6999999999ULL, 300000));
	ASSERT_EQ(0, hm_add(&h, "nullb0", 1050000000ULL, 300000));
	ASSERT_EQ(0, hm_add(&h, "nullb0", 1100000000ULL, 5000));
	ASSERT_EQ(0, hm_add(&h, "vda", 4000000000ULL, 2000000));
	hm_fold(&h);
	EXPECT_EQ(2, h.ndisk);
	EXPECT_EQ(1000000000ULL, h.t0);
	EXPECT_EQ(100000000ULL, h.col_ns);
	EXPECT_STREQ("nullb0", h.disk[0].name);
	EXPECT_EQ(4, h.disk[0].count);
	EXPECT_EQ(2, h.disk[0].cell[0][8]);
	EXPECT_EQ(1, h.disk[0].cell[1][2]);
	EXPECT_EQ(1, h.disk[0].cell[HM_COLS - 1][8]);
	EXPECT_EQ(2, h.disk[0].max);
	EXPECT_EQ(1, h.disk[1].cell[30][10]);
	for (c = 0; c < HM_COLS; c++)
		for (r = 0; r < HM_ROWS; r++)
			sum += h.disk[0].cell[c][r] + h.disk[1].cell[c][r];
	EXPECT_EQ(5, sum);
	hm_rows_used(&h.disk[0], &lo, &hi);
	EXPECT_EQ(2, lo);
	EXPECT_EQ(8, hi);
	/* folding again gives the same */
	hm_fold(&h);
	EXPECT_EQ(2, h.disk[0].cell[0][8]);
	hm_free(&h);
}

TEST(one_instant_and_nothing)
{
	unsigned int lo, hi;
	struct heatmap h;

	hm_init(&h);
	hm_fold(&h);
	EXPECT_EQ(0, h.ndisk);
	EXPECT_LT(0, h.col_ns);
	ASSERT_EQ(0, hm_add(&h, "sda", 5, 1000));
	ASSERT_EQ(0, hm_add(&h, "sda", 5, 1000));
	hm_fold(&h);
	EXPECT_EQ(1, h.col_ns);
	EXPECT_EQ(2, h.disk[0].cell[0][0]);
	memset(h.disk[0].cell, 0, sizeof(h.disk[0].cell));
	hm_rows_used(&h.disk[0], &lo, &hi);
	EXPECT_EQ(0, lo);
	EXPECT_EQ(0, hi);
	hm_free(&h);
}

TEST(untimed_requests_counted_not_drawn)
{
	struct heatmap h;

	hm_init(&h);
	EXPECT_EQ(0, hm_add_request(&h, "sda", 0, 100));
	EXPECT_EQ(0, hm_add_request(&h, "sda", 200, 100));
	EXPECT_EQ(0, hm_add_request(&h, "sda", 100, 300100));
	EXPECT_EQ(2, h.untimed);
	EXPECT_EQ(1, h.nrec);
	EXPECT_EQ(300000, h.rec[0].lat_ns);
	hm_free(&h);
}

TEST(colour_scale)
{
	unsigned int a[3], b[3], c[3], w[3];

	hm_colour(0, 10, w);
	EXPECT_EQ(255, w[0]);
	EXPECT_EQ(255, w[1]);
	EXPECT_EQ(255, w[2]);
	hm_colour(1, 100, a);
	hm_colour(10, 100, b);
	hm_colour(100, 100, c);
	/* pale yellow to dark red: darker with the count */
	EXPECT_EQ(255, a[0]);
	EXPECT_EQ(237, a[1]);
	EXPECT_EQ(128, c[0]);
	EXPECT_EQ(0, c[1]);
	EXPECT_GT(a[1], b[1]);
	EXPECT_GT(b[1], c[1]);
	/* one cell alone is the darkest */
	hm_colour(1, 1, a);
	EXPECT_EQ(128, a[0]);
	/* above max: the darkest */
	hm_colour(200, 100, b);
	EXPECT_EQ(128, b[0]);
}

TEST_HARNESS_MAIN
