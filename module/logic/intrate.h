/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GETINTRATE: the interval the shared clock grants for an interval asked.
 * Pure arithmetic without kernel dependency, so that the host unit tests
 * (selftests/unit) build this same file.
 */
#ifndef _MEAS_INTRATE_H
#define _MEAS_INTRATE_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
/* The host unit tests bring u32, s32 and bool themselves. */

/**
 * struct meas_intrate - what GETINTRATE returns
 * @granted: the interval granted, ms: @base * @quotient (IMS out)
 * @base: the clock interrupt interval, a divisor of 100 ms (INT)
 * @quotient: interrupts of @base per call of the collector (QN)
 */
struct meas_intrate {
	u32 granted;
	u32 base;
	u32 quotient;
};

bool meas_intrate_valid(s32 ms);
void meas_getintrate(u32 ms, struct meas_intrate *r);

#endif /* _MEAS_INTRATE_H */
