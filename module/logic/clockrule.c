// SPDX-License-Identifier: GPL-2.0
/*
 * GETCLOCK and GIVECLOCK decide in MPE IV's order, here, before the
 * clock unit acts.  GETCLOCK: a caller naming a collector is a first-time
 * user (invalid collector 4, clock in use 2); one naming none must own
 * the clock (9).  An interval of 0 initialises and needs a collector (4).
 * Otherwise the rate may not be reset while the clock ticks (10), must be
 * 5..1000 ms (3), and GETINTRATE grants it.  A failed call changes
 * nothing: MPE IV's release of the clock when an owner initialises
 * without a collector is not reproduced.
 */
#include <linux/meas.h>
#include "clockrule.h"

/**
 * meas_clock_rule_get() - the checks of GETCLOCK
 * @v: the clock as the caller sees it
 * @intrate: interval asked, ms; 0 initialises
 * @collector: collector id, 0 for the owner's own
 * @known: bit n set when collector n exists (ids 1..31)
 * @rate: out: the grant, when @todo has MEAS_CLOCK_DO_TICK
 * @todo: out: MEAS_CLOCK_DO_* bits to carry out, 0 on error
 *
 * Return: a MEAS_GETCLOCK_* code.
 */
int meas_clock_rule_get(const struct meas_clock_view *v, s32 intrate,
			u32 collector, u32 known, struct meas_intrate *rate,
			unsigned int *todo)
{
	unsigned int take = 0;

	*todo = 0;
	if (collector) {
		if (collector >= 32 || !(known & (1U << collector)))
			return MEAS_GETCLOCK_BADCOLLECTOR;
		if (v->owned)
			return MEAS_GETCLOCK_INUSE;
		take = MEAS_CLOCK_DO_TAKE;
	} else if (!v->mine) {
		return MEAS_GETCLOCK_NOTOWNER;
	}
	if (!intrate) {
		if (!take)
			return MEAS_GETCLOCK_BADCOLLECTOR;
		*todo = take;
		return MEAS_GETCLOCK_OK;
	}
	/* Only an owner asking again can find the clock ticking. */
	if (v->ticking)
		return MEAS_GETCLOCK_NORESET;
	if (!meas_intrate_valid(intrate))
		return MEAS_GETCLOCK_BADRATE;
	meas_getintrate(intrate, rate);
	*todo = take | MEAS_CLOCK_DO_TICK;
	return MEAS_GETCLOCK_OK;
}

/**
 * meas_clock_rule_give() - the checks of GIVECLOCK
 * @v: the clock as the caller sees it
 * @collector: 0 to pause, the owner's collector to release
 * @todo: out: MEAS_CLOCK_DO_PAUSE, _RELEASE or 0
 *
 * Pausing a clock that does not tick is granted and does nothing.
 *
 * Return: a MEAS_GIVECLOCK_* code.
 */
int meas_clock_rule_give(const struct meas_clock_view *v, u32 collector,
			 unsigned int *todo)
{
	*todo = 0;
	if (!v->mine)
		return MEAS_GIVECLOCK_NOTOWNER;
	if (!collector) {
		if (v->ticking)
			*todo = MEAS_CLOCK_DO_PAUSE;
		return MEAS_GIVECLOCK_OK;
	}
	if (collector != v->collector)
		return MEAS_GIVECLOCK_BADCOLLECTOR;
	*todo = MEAS_CLOCK_DO_RELEASE;
	return MEAS_GIVECLOCK_OK;
}

static u64 rule_align(u64 v, u64 a)
{
	return (v + a - 1) / a * a;
}

static u64 rule_pow2(u64 v)
{
	u64 p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/**
 * meas_clock_rule_buffer() - check the buffer asked for and lay it out
 * @records: records per ring asked, 0 for MEAS_CLOCK_DEF_RECORDS
 * @wakeup: wake-up threshold asked, 0 for 1
 * @record_size: bytes of the collector's record
 * @nr_rings: rings, one per possible CPU
 * @page_size: bytes of a page
 * @max_bytes: largest buffer allowed
 * @g: out: the layout, when MEAS_CLOCKBUF_OK
 *
 * Return: MEAS_CLOCKBUF_OK, _BADSIZE (records outside
 * MEAS_CLOCK_MIN_RECORDS..MEAS_CLOCK_MAX_RECORDS, or @wakeup above the
 * ring after rounding) or _TOOBIG (above @max_bytes).
 */
int meas_clock_rule_buffer(u32 records, u32 wakeup, u32 record_size,
			   u32 nr_rings, u64 page_size, u64 max_bytes,
			   struct meas_clockbuf_geom *g)
{
	u64 n = records ? records : MEAS_CLOCK_DEF_RECORDS;
	u64 ctl;

	if (n < MEAS_CLOCK_MIN_RECORDS || n > MEAS_CLOCK_MAX_RECORDS)
		return MEAS_CLOCKBUF_BADSIZE;
	n = rule_pow2(n);
	if (wakeup > n)
		return MEAS_CLOCKBUF_BADSIZE;
	g->records = n;
	g->wakeup = wakeup ? wakeup : 1;
	g->ring_offset = sizeof(struct meas_clockbuf_head);
	ctl = g->ring_offset +
	      (u64)nr_rings * sizeof(struct meas_clockbuf_ring);
	g->data_offset = rule_align(ctl, page_size);
	g->stride = n * record_size;
	g->size = rule_align(g->data_offset + nr_rings * g->stride, page_size);
	return g->size > max_bytes ? MEAS_CLOCKBUF_TOOBIG : MEAS_CLOCKBUF_OK;
}
