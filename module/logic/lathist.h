/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the I/O latency histograms (class 0 subclass 5): which
 * power-of-two bucket a latency falls in, and where an operation's
 * items lie in an entry.  No kernel dependency: the host unit tests
 * (selftests/unit/lathist_test.c) build this file as it is.
 */
#ifndef _MEAS_LATHIST_H
#define _MEAS_LATHIST_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

unsigned int meas_lat_bucket(u64 ns);
unsigned int meas_lat_item(unsigned int op, unsigned int item);

#endif /* _MEAS_LATHIST_H */
