/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel series meas supports, dkms.conf's MEAS_KERNEL_MIN to
 * MEAS_KERNEL_MAX (passed in by tools/Makefile), and whether a kernel
 * release is one of them (pure logic: selftests/unit/kernrange_test.c).
 */
#ifndef MEASCTL_KERNRANGE_H
#define MEASCTL_KERNRANGE_H

#include <stdbool.h>

/* The series of release @rel as one number (7.3.4+deb13-amd64: 7003), or -1. */
int kernel_series(const char *rel);

/* Whether release @rel is of a series from @min to @max ("6.1", "7.3"). */
bool kernel_in_range(const char *rel, const char *min, const char *max);

#endif
