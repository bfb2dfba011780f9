// SPDX-License-Identifier: GPL-2.0
/* The time base of the live views: see rate.h. */
#include "cli/rate.h"

double rate_interval_s(const struct rate_when *a, const struct rate_when *b)
{
	if (a->start && b->end > a->start)
		return (double)(b->end - a->start) / 1e9;
	return b->mono > a->mono ? (double)(b->mono - a->mono) / 1e9 : 0;
}

double rate_per_s(uint64_t count, double secs)
{
	return secs > 0 ? (double)count / secs : 0;
}

double rate_pct(uint64_t ns, double secs, unsigned int n)
{
	return secs > 0 && n ? 100.0 * ((double)ns / 1e9) / (secs * n) : 0;
}
