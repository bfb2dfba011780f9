/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time base of the live views (watch, iostat, top, run): rates and
 * shares of an interval are taken against the kernel's clock of the two
 * reads, which is the clock of the time items themselves, not against a
 * clock of measctl's (pure logic: selftests/unit/rate_test.c).
 */
#ifndef MEASCTL_RATE_H
#define MEASCTL_RATE_H

#include <stdint.h>

/* When a snapshot was read. */
struct rate_when {
	uint64_t start;		/* kernel clock, ns, when the read began */
	uint64_t end;		/* and when it ended; both 0 before ABI 2 */
	uint64_t mono;		/* CLOCK_MONOTONIC once it returned */
};

/*
 * Seconds from @a to @b: from the start of the first read to the end of
 * the second, on the kernel's clock, so that no time item's change, which
 * is taken at a moment within each read, exceeds it.  A module without
 * the kernel's stamps (older ABI) gets measctl's own clock.
 */
double rate_interval_s(const struct rate_when *a, const struct rate_when *b);

/* @count per second over @secs; 0 for an empty interval. */
double rate_per_s(uint64_t count, double secs);

/* @ns as a percentage of @secs x @n (n CPUs, or n = 1); 0 if empty. */
double rate_pct(uint64_t ns, double secs, unsigned int n);

#endif /* MEASCTL_RATE_H */
