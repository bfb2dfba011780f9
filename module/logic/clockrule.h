/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules of GETCLOCK and GIVECLOCK: which check comes first, what a
 * call does, and the geometry of the clock's buffer.  Pure logic without
 * kernel dependency, built into the host unit tests as well.
 */
#ifndef _MEAS_CLOCKRULE_H
#define _MEAS_CLOCKRULE_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include "intrate.h"

/**
 * struct meas_clock_view - the clock as a call sees it
 * @owned: the clock has an owner
 * @mine: the caller is the owner
 * @ticking: the timers are armed
 * @collector: the owner's collector, 0 when free
 */
struct meas_clock_view {
	bool owned;
	bool mine;
	bool ticking;
	u32 collector;
};

/* What a granted call does, as bits. */
#define MEAS_CLOCK_DO_TAKE	0x1	/* owner, collector, buffer, descriptor */
#define MEAS_CLOCK_DO_TICK	0x2	/* arm the timers at the granted interval */
#define MEAS_CLOCK_DO_PAUSE	0x4	/* cancel the timers, keep the rest */
#define MEAS_CLOCK_DO_RELEASE	0x8	/* cancel, give everything up */

int meas_clock_rule_get(const struct meas_clock_view *v, s32 intrate,
			u32 collector, u32 known, struct meas_intrate *rate,
			unsigned int *todo);
int meas_clock_rule_give(const struct meas_clock_view *v, u32 collector,
			 unsigned int *todo);

/**
 * struct meas_clockbuf_geom - where things lie in a clock buffer
 * @records: records per ring, a power of two
 * @wakeup: unread records of a ring that wake a reader
 * @ring_offset: offset of the ring counters
 * @data_offset: offset of ring 0's records, page aligned
 * @stride: bytes of one ring's records
 * @size: bytes of the whole buffer, page aligned
 */
struct meas_clockbuf_geom {
	u64 records;
	u64 wakeup;
	u64 ring_offset;
	u64 data_offset;
	u64 stride;
	u64 size;
};

/* Results of meas_clock_rule_buffer(); all but OK are GETCLOCK code 6. */
#define MEAS_CLOCKBUF_OK	0
#define MEAS_CLOCKBUF_BADSIZE	1	/* records or wakeup out of range */
#define MEAS_CLOCKBUF_TOOBIG	2	/* above the byte limit */

int meas_clock_rule_buffer(u32 records, u32 wakeup, u32 record_size,
			   u32 nr_rings, u64 page_size, u64 max_bytes,
			   struct meas_clockbuf_geom *g);

#endif /* _MEAS_CLOCKRULE_H */
