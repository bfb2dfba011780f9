// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of measctl's kernel range (tools/measctl/cli/kernrange.c):
 * the series of a release as Debian and others name kernels, and which
 * are of the range.  The shell side of the same rule, meas-kernel, is
 * selftests/unit/kernel_range_test.sh.
 */
#include "kselftest_harness.h"
#include "cli/kernrange.h"

static const struct {
	const char *rel;
	int series;
} releases[] = {
	{ "6.1.0-56-amd64", 6001 },
	{ "6.12.117+deb12-rt-amd64", 6012 },
	{ "7.3.4+deb13-amd64", 7003 },
	{ "7.3", 7003 },
	{ "7.3-rc7", 7003 },
	{ "7.2.13+deb14-amd64", 7002 },
	{ "10.0.1", 10000 },
	{ "6", -1 },
	{ "", -1 },
	{ "amd64", -1 },
	{ "7.3x", -1 },
	{ "1234.1", -1 },
};

TEST(series_of_releases)
{
	size_t i;

	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		int want = releases[i].series;
		int got = kernel_series(releases[i].rel);

		if (got != want)
			TH_LOG("'%s': %d, not %d", releases[i].rel, got, want);
		EXPECT_EQ(want, got);
	}
}

TEST(range_is_inclusive_by_series)
{
	EXPECT_FALSE(kernel_in_range("6.0.19-amd64", "6.1", "7.3"));
	EXPECT_TRUE(kernel_in_range("6.1.0-56-amd64", "6.1", "7.3"));
	EXPECT_TRUE(kernel_in_range("6.16.3-amd64", "6.1", "7.3"));
	EXPECT_TRUE(kernel_in_range("7.0.1-amd64", "6.1", "7.3"));
	EXPECT_TRUE(kernel_in_range("7.3.99+deb13-rt-amd64", "6.1", "7.3"));
	EXPECT_FALSE(kernel_in_range("7.4.0-1-amd64", "6.1", "7.3"));
	EXPECT_FALSE(kernel_in_range("8.0.0", "6.1", "7.3"));
	/* a release that names no series is outside any range */
	EXPECT_FALSE(kernel_in_range("unknown", "6.1", "7.3"));
}

TEST_HARNESS_MAIN
