// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the live views' time base (tools/measctl/cli/rate.c).
 * A simulated kernel stamps each read with its clock before and after,
 * and composes every time item at some moment within the read, as
 * meas.ko does (class 0 items 96-97, class 15 entry 0 words 18-19).
 * Whatever the order and the length of the reads, and however fast the
 * kernel's clock runs against CLOCK_MONOTONIC, no share of one interval
 * exceeds its bound: 100% for a thread, 100% x CPUs for the system.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "cli/rate.h"

/* A read from @start taking @len ns; measctl's clock is @mono. */
static struct rate_when when(uint64_t start, uint64_t len, uint64_t mono)
{
	struct rate_when w = { start, start + len, mono };

	return w;
}

/*
 * The case of issue 19: a thread asleep through the interval, whose
 * paused time is the kernel's clock from its entry's moment in one read
 * to its moment in the next; the kernel's clock runs 0.4% faster than
 * CLOCK_MONOTONIC.  Against measctl's clock that was 100.4%.
 */
TEST(sleeping_thread_is_at_most_100)
{
	uint64_t k0 = 5000000000ULL, k1 = k0 + 2008000000ULL;
	struct rate_when a = when(k0, 300000, 1000000000ULL);
	struct rate_when b = when(k1, 100000, 3000000000ULL);
	/* read a composed the entry late, read b early */
	uint64_t paused = (k1 + 1000) - (k0 + 299000);
	double old = 100.0 * paused / 1e9 / ((b.mono - a.mono) / 1e9);
	double secs = rate_interval_s(&a, &b);

	EXPECT_GT(old, 100.0);	/* what measctl showed */
	EXPECT_LE(rate_pct(paused, secs, 1), 100.0);
	EXPECT_GT(rate_pct(paused, secs, 1), 99.9);
}

/*
 * Two random reads, the second up to @gap ns after the first ends, each
 * up to @maxlen ns long; measctl's clock runs at half the kernel's rate.
 */
static void two_reads(unsigned int *seed, uint64_t gap, uint64_t maxlen,
		      struct rate_when *a, struct rate_when *b)
{
	uint64_t a0 = 1000000 + rand_r(seed) % 1000000000;

	*a = when(a0, rand_r(seed) % maxlen, 7);
	*b = when(a->end + 1 + rand_r(seed) % gap, rand_r(seed) % maxlen,
		  7 + (a->end - a0) / 2);
}

/* A moment within the read @w, where the kernel took an item. */
static uint64_t moment(unsigned int *seed, const struct rate_when *w)
{
	return w->start + rand_r(seed) % (w->end - w->start + 1);
}

/* Random reads and entry moments: each thread within 100%. */
TEST(any_entry_moment_within_the_reads)
{
	struct rate_when a, b;
	unsigned int seed = 19, i;
	uint64_t ea;

	for (i = 0; i < 100000; i++) {
		two_reads(&seed, 2000000000, 5000000, &a, &b);
		ea = moment(&seed, &a);
		ASSERT_LE(rate_pct(moment(&seed, &b) - ea,
				   rate_interval_s(&a, &b), 1), 100.0);
	}
}

/* The system: CPUs' idle and busy time summed, within 100% x CPUs. */
TEST(system_within_cpus)
{
	unsigned int seed = 7, cpus = 4, c, i;
	struct rate_when a, b;
	uint64_t total, ea;

	for (i = 0; i < 10000; i++) {
		two_reads(&seed, 100000000, 1000000, &a, &b);
		/* each CPU's time is folded up to its own clock's moment */
		for (total = 0, c = 0; c < cpus; c++) {
			ea = moment(&seed, &a);
			total += moment(&seed, &b) - ea;
		}
		ASSERT_LE(rate_pct(total, rate_interval_s(&a, &b), cpus),
			  100.0);
	}
}

/* A module before ABI 2 has no stamps: measctl's own clock. */
TEST(no_stamps_uses_measctl_clock)
{
	struct rate_when a = { 0, 0, 1000000000ULL };
	struct rate_when b = { 0, 0, 1500000000ULL };

	EXPECT_EQ(0.5, rate_interval_s(&a, &b));
	EXPECT_EQ(50.0, rate_pct(250000000ULL, 0.5, 1));
	EXPECT_EQ(25.0, rate_pct(250000000ULL, 0.5, 2));
}

TEST(empty_interval_is_zero)
{
	struct rate_when a = { 0, 0, 5 }, b = { 0, 0, 5 };

	EXPECT_EQ(0.0, rate_interval_s(&a, &b));
	EXPECT_EQ(0.0, rate_pct(1000, 0, 1));
	EXPECT_EQ(0.0, rate_pct(1000, 1, 0));
	EXPECT_EQ(0.0, rate_per_s(1000, 0));
	EXPECT_EQ(2000.0, rate_per_s(1000, 0.5));
}

TEST_HARNESS_MAIN
