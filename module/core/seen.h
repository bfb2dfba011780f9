/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How far readers have shown a running state, so that its writer never
 * ends it earlier.  A state (a CPU's running segment, a thread's slice,
 * wait or pause) is written under a sequence count and ended on the
 * clock of the CPU that ends it; a reader adds the part so far on its
 * own CPU's clock.  Where sched_clock is unstable those clocks differ by
 * up to a tick, and without this a counter a reader showed could go back
 * (Documentation/class15.rst, "Time items never go back").
 */
#ifndef _MEAS_CORE_SEEN_H
#define _MEAS_CORE_SEEN_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <asm/barrier.h>

/**
 * meas_seen_end() - the end of a state, in its write section
 * @seen: how far readers showed it
 * @now: the writer's time
 *
 * The barrier orders the section's begin before the load, pairing with
 * meas_seen_raise()'s: either the reader sees the section begun and
 * retries, or this sees how far it went.
 *
 * Return: @now, or *@seen if that is later.
 */
static inline u64 meas_seen_end(const u64 *seen, u64 now)
{
	u64 s;

	/* the section's begin before the load: pairs with meas_seen_raise() */
	smp_mb();
	s = READ_ONCE(*seen);
	return s > now ? s : now;
}

/**
 * meas_seen_raise() - a reader showed the state up to @now
 * @seen: how far readers showed it
 * @now: the reader's time
 *
 * Called in the read section, before its retry check.
 */
static inline void meas_seen_raise(u64 *seen, u64 now)
{
	u64 old = READ_ONCE(*seen), cur;

	while (old < now) {
		cur = cmpxchg64(seen, old, now);
		if (cur == old)
			break;
		old = cur;
	}
	/* the store before the retry's load: pairs with meas_seen_end() */
	smp_mb();
}

#endif /* _MEAS_CORE_SEEN_H */
