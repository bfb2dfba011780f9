/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GETPROCSTATS argument checks: pure arithmetic, no kernel dependency,
 * built into the module and into the host unit tests (selftests/unit).
 */
#ifndef _MEAS_PROCCHECK_H
#define _MEAS_PROCCHECK_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

int meas_check_procstats(s64 first, s64 count, u64 entsize, u64 entries,
			 u64 buflen, u64 *need);
bool meas_clamp_fprocstats(s64 first, s64 count, u64 entsize, u64 entries,
			   u64 buflen, u64 *items, u64 *nent);

#endif /* _MEAS_PROCCHECK_H */
