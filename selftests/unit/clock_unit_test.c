// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the shared clock's pure logic: GETINTRATE for every
 * interval from 5 to 1000 ms (module/logic/intrate.c), the order of the checks
 * of GETCLOCK and GIVECLOCK and the buffer geometry (module/logic/clockrule.c).
 * The same files the module is built from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/intrate.h"
#include "logic/clockrule.h"

/*
 * GETINTRATE restated independently from MPE IV's description: special
 * cases by table; otherwise the largest divisor of 100 (100, 50, 25, 20,
 * 10, 5) whose nearest multiple is close enough, where "close" means the
 * remainder below is at most the tolerance or the distance above is
 * strictly less; ties of the two distances round down.
 */
static unsigned int ref_grant(unsigned int ims, unsigned int *base)
{
	static const unsigned int divisors[] = { 100, 50, 25, 20, 10, 5 };
	unsigned int tol = ims < 60 ? 5 : ims / 10;
	size_t i;

	if (ims <= 7 || (ims >= 13 && ims <= 17)) {
		*base = 5;
		return 5 * ((ims + 2) / 5);
	}
	if (ims <= 12 || ims == 30 || ims == 70) {
		*base = 10;
		return 10 * ((ims + 2) / 10);
	}
	if (ims <= 22) {
		*base = 20;
		return 20;
	}
	for (i = 0; i < sizeof(divisors) / sizeof(divisors[0]); i++) {
		unsigned int d = divisors[i];
		unsigned int lo = ims / d * d, hi = lo + d;

		if (ims - lo <= tol || hi - ims < tol) {
			*base = d;
			return ims - lo <= hi - ims ? lo : hi;
		}
	}
	*base = 0;
	return 0;
}

TEST(intrate_every_request_5_to_1000)
{
	struct meas_intrate r;
	unsigned int ms, base, want, tol, checked = 0;

	for (ms = MEAS_CLOCK_MIN_MS; ms <= MEAS_CLOCK_MAX_MS; ms++) {
		memset(&r, 0xff, sizeof(r));
		meas_getintrate(ms, &r);
		want = ref_grant(ms, &base);
		ASSERT_EQ(want, r.granted) TH_LOG("request %u ms", ms);
		ASSERT_EQ(base, r.base) TH_LOG("request %u ms", ms);
		ASSERT_EQ(r.base * r.quotient, r.granted);
		ASSERT_EQ(0, 100 % r.base);
		ASSERT_LE(1, r.quotient);
		ASSERT_LE(MEAS_CLOCK_MIN_MS, r.granted);
		ASSERT_GE(MEAS_CLOCK_MAX_MS, r.granted);
		/* MPE IV's tolerance: 5 ms below 60 ms, else a tenth. */
		tol = ms < 60 ? 5 : ms / 10;
		ASSERT_GE(tol, r.granted > ms ? r.granted - ms : ms - r.granted)
			TH_LOG("request %u granted %u", ms, r.granted);
		checked++;
	}
	ASSERT_EQ(996, checked);
}

/* Values worked out by hand from MPE IV's procedure. */
TEST(intrate_hand_checked)
{
	static const struct { unsigned int ms, granted, base, q; } v[] = {
		{ 5, 5, 5, 1 }, { 7, 5, 5, 1 }, { 8, 10, 10, 1 },
		{ 12, 10, 10, 1 }, { 13, 15, 5, 3 }, { 17, 15, 5, 3 },
		{ 18, 20, 20, 1 }, { 22, 20, 20, 1 }, { 23, 25, 25, 1 },
		{ 29, 25, 25, 1 }, { 30, 30, 10, 3 }, { 31, 30, 10, 3 },
		{ 35, 30, 10, 3 }, { 36, 40, 20, 2 }, { 47, 50, 50, 1 },
		{ 60, 60, 20, 3 }, { 70, 70, 10, 7 }, { 73, 75, 25, 3 },
		{ 99, 100, 100, 1 }, { 100, 100, 100, 1 }, { 150, 150, 50, 3 },
		{ 333, 300, 100, 3 }, { 999, 1000, 100, 10 },
		{ 1000, 1000, 100, 10 },
	};
	struct meas_intrate r;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		meas_getintrate(v[i].ms, &r);
		EXPECT_EQ(v[i].granted, r.granted) TH_LOG("request %u", v[i].ms);
		EXPECT_EQ(v[i].base, r.base) TH_LOG("request %u", v[i].ms);
		EXPECT_EQ(v[i].q, r.quotient) TH_LOG("request %u", v[i].ms);
	}
}

TEST(intrate_valid_range)
{
	EXPECT_FALSE(meas_intrate_valid(-1));
	EXPECT_FALSE(meas_intrate_valid(0));
	EXPECT_FALSE(meas_intrate_valid(4));
	EXPECT_TRUE(meas_intrate_valid(5));
	EXPECT_TRUE(meas_intrate_valid(1000));
	EXPECT_FALSE(meas_intrate_valid(1001));
	EXPECT_FALSE(meas_intrate_valid(INT32_MIN));
	EXPECT_FALSE(meas_intrate_valid(INT32_MAX));
}

#define KNOWN	((1U << MEAS_COLLECTOR_PC) | (1U << MEAS_COLLECTOR_SNAP))

static const struct meas_clock_view v_free = { 0 };
static const struct meas_clock_view v_other = { .owned = true,
						.collector = 1 };
static const struct meas_clock_view v_mine = { .owned = true, .mine = true,
					       .collector = 1 };
static const struct meas_clock_view v_ticking = { .owned = true,
						  .mine = true,
						  .ticking = true,
						  .collector = 1 };

static int get(const struct meas_clock_view *v, int rate, unsigned int coll,
	       unsigned int *todo, struct meas_intrate *r)
{
	return meas_clock_rule_get(v, rate, coll, KNOWN, r, todo);
}

TEST(getclock_first_time_user)
{
	struct meas_intrate r;
	unsigned int todo;

	EXPECT_EQ(MEAS_GETCLOCK_OK, get(&v_free, 0, 1, &todo, &r));
	EXPECT_EQ(MEAS_CLOCK_DO_TAKE, todo);
	EXPECT_EQ(MEAS_GETCLOCK_OK, get(&v_free, 23, 2, &todo, &r));
	EXPECT_EQ(MEAS_CLOCK_DO_TAKE | MEAS_CLOCK_DO_TICK, todo);
	EXPECT_EQ(25, r.granted);
}

TEST(getclock_code4_before_code2)
{
	struct meas_intrate r;
	unsigned int todo = 99;

	/* An invalid collector is code 4 even when the clock is taken. */
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR, get(&v_other, 10, 3, &todo, &r));
	EXPECT_EQ(0, todo);
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR, get(&v_free, 10, 31, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR, get(&v_free, 10, 32, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR,
		  get(&v_free, 10, UINT32_MAX, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_INUSE, get(&v_other, 10, 1, &todo, &r));
	/* The owner naming a collector again: the clock is in use. */
	EXPECT_EQ(MEAS_GETCLOCK_INUSE, get(&v_mine, 10, 1, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_INUSE, get(&v_ticking, 0, 2, &todo, &r));
	EXPECT_EQ(0, todo);
}

TEST(getclock_code9_collector0_not_owner)
{
	struct meas_intrate r;
	unsigned int todo = 99;

	/* 9 comes before any check of the interval. */
	EXPECT_EQ(MEAS_GETCLOCK_NOTOWNER, get(&v_free, 10, 0, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_NOTOWNER, get(&v_free, 0, 0, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_NOTOWNER, get(&v_other, 2000, 0, &todo, &r));
	EXPECT_EQ(0, todo);
}

TEST(getclock_owner_restarts)
{
	struct meas_intrate r;
	unsigned int todo;

	EXPECT_EQ(MEAS_GETCLOCK_OK, get(&v_mine, 50, 0, &todo, &r));
	EXPECT_EQ(MEAS_CLOCK_DO_TICK, todo);
	EXPECT_EQ(50, r.granted);
	/* Initialising again without a collector: code 4, no change. */
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR, get(&v_mine, 0, 0, &todo, &r));
	EXPECT_EQ(0, todo);
	EXPECT_EQ(MEAS_GETCLOCK_BADCOLLECTOR, get(&v_ticking, 0, 0, &todo, &r));
}

TEST(getclock_code10_before_code3)
{
	struct meas_intrate r;
	unsigned int todo = 99;

	EXPECT_EQ(MEAS_GETCLOCK_NORESET, get(&v_ticking, 20, 0, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_NORESET, get(&v_ticking, 2000, 0, &todo, &r));
	EXPECT_EQ(MEAS_GETCLOCK_NORESET, get(&v_ticking, -5, 0, &todo, &r));
	EXPECT_EQ(0, todo);
}

TEST(getclock_code3_rate_range)
{
	static const int bad[] = { -1, 1, 4, 1001, INT32_MAX, INT32_MIN };
	struct meas_intrate r;
	unsigned int todo = 99;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(MEAS_GETCLOCK_BADRATE, get(&v_free, bad[i], 1, &todo, &r));
		EXPECT_EQ(0, todo);
		EXPECT_EQ(MEAS_GETCLOCK_BADRATE, get(&v_mine, bad[i], 0, &todo, &r));
		EXPECT_EQ(0, todo);
	}
}

TEST(giveclock_rules)
{
	unsigned int todo = 99;

	EXPECT_EQ(MEAS_GIVECLOCK_NOTOWNER, meas_clock_rule_give(&v_free, 0, &todo));
	EXPECT_EQ(0, todo);
	EXPECT_EQ(MEAS_GIVECLOCK_NOTOWNER, meas_clock_rule_give(&v_other, 1, &todo));
	EXPECT_EQ(MEAS_GIVECLOCK_NOTOWNER, meas_clock_rule_give(&v_other, 0, &todo));
	EXPECT_EQ(MEAS_GIVECLOCK_OK, meas_clock_rule_give(&v_ticking, 0, &todo));
	EXPECT_EQ(MEAS_CLOCK_DO_PAUSE, todo);
	/* Pausing a paused clock: granted, nothing to do. */
	EXPECT_EQ(MEAS_GIVECLOCK_OK, meas_clock_rule_give(&v_mine, 0, &todo));
	EXPECT_EQ(0, todo);
	EXPECT_EQ(MEAS_GIVECLOCK_BADCOLLECTOR, meas_clock_rule_give(&v_mine, 2, &todo));
	EXPECT_EQ(0, todo);
	EXPECT_EQ(MEAS_GIVECLOCK_OK, meas_clock_rule_give(&v_ticking, 1, &todo));
	EXPECT_EQ(MEAS_CLOCK_DO_RELEASE, todo);
}

TEST(buffer_geometry)
{
	struct meas_clockbuf_geom g;

	ASSERT_EQ(MEAS_CLOCKBUF_OK, meas_clock_rule_buffer(0, 0, 64, 2, 4096,
							    1 << 30, &g));
	EXPECT_EQ(MEAS_CLOCK_DEF_RECORDS, g.records);
	EXPECT_EQ(1, g.wakeup);
	EXPECT_EQ(sizeof(struct meas_clockbuf_head), g.ring_offset);
	EXPECT_EQ(4096, g.data_offset);
	EXPECT_EQ(MEAS_CLOCK_DEF_RECORDS * 64, g.stride);
	EXPECT_EQ(4096 + 2 * g.stride, g.size);
	/* Rounded up to a power of two; wakeup up to the rounded size. */
	ASSERT_EQ(MEAS_CLOCKBUF_OK, meas_clock_rule_buffer(100, 128, 832, 3,
							    4096, 1 << 30, &g));
	EXPECT_EQ(128, g.records);
	EXPECT_EQ(128, g.wakeup);
	EXPECT_EQ(0, g.size % 4096);
	EXPECT_LE(4096 + 3 * 128 * 832, g.size);
	EXPECT_EQ(MEAS_CLOCKBUF_BADSIZE, meas_clock_rule_buffer(100, 129, 832, 3,
								 4096, 1 << 30, &g));
	EXPECT_EQ(MEAS_CLOCKBUF_BADSIZE, meas_clock_rule_buffer(15, 0, 64, 2,
								 4096, 1 << 30, &g));
	ASSERT_EQ(MEAS_CLOCKBUF_OK, meas_clock_rule_buffer(16, 0, 64, 2, 4096,
							    1 << 30, &g));
	EXPECT_EQ(16, g.records);
	EXPECT_EQ(MEAS_CLOCKBUF_BADSIZE,
		  meas_clock_rule_buffer(0x80000001U, 0, 64, 2, 4096,
					 UINT64_MAX, &g));
	ASSERT_EQ(MEAS_CLOCKBUF_OK,
		  meas_clock_rule_buffer(0x80000000U, 0, 832, 8192, 4096,
					 UINT64_MAX, &g));
	EXPECT_EQ((uint64_t)0x80000000U * 832, g.stride);
	/* Byte limit: exactly at the limit is allowed. */
	ASSERT_EQ(MEAS_CLOCKBUF_OK, meas_clock_rule_buffer(16, 0, 64, 2, 4096,
							    8192, &g));
	EXPECT_EQ(8192, g.size);
	EXPECT_EQ(MEAS_CLOCKBUF_TOOBIG, meas_clock_rule_buffer(16, 0, 64, 2, 4096,
								8191, &g));
	/* Many CPUs: the counters spill over the first page. */
	ASSERT_EQ(MEAS_CLOCKBUF_OK, meas_clock_rule_buffer(16, 0, 64, 64, 4096,
							    1 << 30, &g));
	EXPECT_EQ(3 * 4096, g.data_offset);
}

TEST(uapi_sizes)
{
	EXPECT_EQ(MEAS_GETCLOCK_SIZE_VER0, sizeof(struct meas_getclock));
	EXPECT_EQ(MEAS_GIVECLOCK_SIZE_VER0, sizeof(struct meas_giveclock));
	EXPECT_EQ(MEAS_CLOCKINFO_SIZE_VER0, sizeof(struct meas_clockinfo));
	EXPECT_EQ(256, sizeof(struct meas_clockbuf_head));
	EXPECT_EQ(128, sizeof(struct meas_clockbuf_ring));
	EXPECT_EQ(32, sizeof(struct meas_clock_rec));
	EXPECT_EQ(64, sizeof(struct meas_clock_pc));
	EXPECT_EQ(32 + 8 * MEAS_C0_FIXED_ITEMS, sizeof(struct meas_clock_snap));
}

TEST_HARNESS_MAIN
