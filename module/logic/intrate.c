// SPDX-License-Identifier: GPL-2.0
/*
 * GETINTRATE of MPE IV, to the millisecond.  The system clock interrupted
 * at a divisor of 100 ms and the collector ran every QN interrupts, so an
 * interval asked for is granted as the largest divisor of 100 ms, times a
 * quotient, that lies within a tolerance of it: 5 ms below 60 ms, a tenth
 * of the interval from 60 ms on.  A few short intervals are fixed by
 * table.  Linux timers could honour any interval; granting MPE IV's
 * keeps the intervals, and so the sampled data, comparable with MPE's.
 */
#include <linux/meas.h>
#include "intrate.h"

/* The divisors of 100 ms tried, largest first; 0 ends the list. */
static const u32 intrate_bases[] = { 100, 50, 25, 20, 10, 5, 0 };

/**
 * meas_intrate_valid() - whether an interval may be asked for
 * @ms: the interval asked, ms
 *
 * Return: true for MEAS_CLOCK_MIN_MS..MEAS_CLOCK_MAX_MS.
 */
bool meas_intrate_valid(s32 ms)
{
	return ms >= MEAS_CLOCK_MIN_MS && ms <= MEAS_CLOCK_MAX_MS;
}

/* The first base within the tolerance, rounded to its nearest multiple. */
static void intrate_search(u32 ms, struct meas_intrate *r)
{
	u32 tol = ms < 60 ? 5 : ms / 10;
	u32 i, q, below, above;

	for (i = 0; intrate_bases[i]; i++) {
		q = ms / intrate_bases[i];
		below = ms - q * intrate_bases[i];
		above = intrate_bases[i] - below;
		if (below <= tol || above < tol) {
			r->base = intrate_bases[i];
			r->quotient = below <= above ? q : q + 1;
			return;
		}
	}
}

/**
 * meas_getintrate() - the interval granted for @ms
 * @ms: the interval asked, valid by meas_intrate_valid()
 * @r: out: granted interval, clock base and quotient
 *
 * Base 5 always matches for a valid @ms (its remainder is at most 4), so
 * the quotient is at least 1 and the grant lies within 5..1000 ms.
 */
void meas_getintrate(u32 ms, struct meas_intrate *r)
{
	r->base = 5;
	r->quotient = 1;
	if ((ms >= 5 && ms <= 7) || (ms >= 13 && ms <= 17)) {
		r->quotient = (ms + 2) / 5;
	} else if ((ms >= 8 && ms <= 12) || ms == 30 || ms == 70) {
		r->base = 10;
		r->quotient = (ms + 2) / 10;
	} else if (ms >= 18 && ms <= 22) {
		r->base = 20;
	} else {
		intrate_search(ms, r);
	}
	r->granted = r->base * r->quotient;
}
