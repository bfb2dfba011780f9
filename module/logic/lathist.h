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
#include <linux/meas.h>

/* Inline: the completion probe calls these for every request. */

/**
 * meas_lat_bucket() - the bucket of a request that took @ns nanoseconds
 * @ns: from its entering the queue to its completion
 *
 * Bucket b holds MEAS_C0_LAT_BOUND_NS(b - 1) < @ns <= MEAS_C0_LAT_BOUND_NS(b),
 * bucket 0 everything up to its bound, and the last bucket everything
 * above the bound of the one before: the bounds are inclusive, as a
 * Prometheus "le" is.  One count of leading zeros, no loop, no division.
 *
 * Return: 0..MEAS_C0_LAT_BUCKETS - 1.
 */
static inline unsigned int meas_lat_bucket(u64 ns)
{
	unsigned int bits;

	if (ns <= MEAS_C0_LAT_BOUND_NS(0))
		return 0;
	/* bits of ns - 1: the least k with ns <= 2^k */
	bits = 64 - __builtin_clzll(ns - 1);
	if (bits - MEAS_C0_LAT_SHIFT0 >= MEAS_C0_LAT_BUCKETS)
		return MEAS_C0_LAT_BUCKETS - 1;
	return bits - MEAS_C0_LAT_SHIFT0;
}

/**
 * meas_lat_item() - an item of an operation's block in a subclass 5 entry
 * @op: MEAS_C0_LAT_READ .. MEAS_C0_LAT_FLUSH
 * @item: MEAS_C0_LAT_COUNT, _UNTIMED, _SUM_NS, or MEAS_C0_LAT_BUCKET0 + b
 *
 * Return: the item number in the entry, 1..MEAS_C0_LAT_ITEMS - 1.
 */
static inline unsigned int meas_lat_item(unsigned int op, unsigned int item)
{
	return MEAS_C0_LAT_OP(op) + item;
}

#endif /* _MEAS_LATHIST_H */
