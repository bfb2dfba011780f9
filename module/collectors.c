// SPDX-License-Identifier: GPL-2.0
/*
 * The collectors the shared clock serves, by MEAS_COLLECTOR_*: the
 * clock's own (clock/collect_pc.c, clock/collect_stack.c) and the
 * snapshot collector, which reads class 0's counters (sched/) and so is
 * composed here, above both areas.
 *
 * The snapshot collector: once a tick, the lowest-numbered ticking CPU
 * copies class 0 subclass 0 into its ring, a time series of the 100 fixed
 * counters taken on one clock, from which rates follow.  Class 0 is
 * enabled, as one more enabler, from the GETCLOCK that takes the clock to
 * its release, so that the counters run on between pauses.
 *
 * GETSTATISTICS sums the per-CPU counters under meas_sir, which a tick
 * cannot take.  The tick calls the same sum, meas_sched_sum(), which
 * needs no lock: each CPU's counters are single words read once, and the
 * time items with the state of the running segment are read under that
 * CPU's sequence count, whose writers all run with interrupts off, so a
 * tick never spins on a writer it interrupted.  The per-CPU area lives as
 * long as class 0 is enabled, which outlasts every tick.
 */
#include <linux/bits.h>
#include <linux/string.h>
#include <linux/meas.h>
#include "core/ctl.h"
#include "sched/sched.h"
#include "clock/clock.h"
#include "collectors.h"

static int snap_prepare(void)
{
	if (meas_ctl_start_internal(BIT(MEAS_CLASS_GLOBAL)))
		return MEAS_GETCLOCK_NOCODE;
	return MEAS_GETCLOCK_OK;
}

static void snap_unprepare(void)
{
	meas_ctl_stop_internal(BIT(MEAS_CLASS_GLOBAL));
}

static void snap_tick(struct meas_clockbuf *buf, unsigned int cpu, u64 missed)
{
	struct meas_clock_snap *rec;
	u64 idx;

	/* System-wide data: one record a tick, not one per CPU. */
	if (cpu != meas_clock_leader())
		return;
	rec = meas_clockbuf_begin(buf, cpu, missed, &idx);
	memset(rec->item, 0, sizeof(rec->item));
	meas_sched_sum(rec->item);
	meas_clockbuf_commit(buf, cpu, rec, idx);
}

static const struct meas_collector collect_snap = {
	.id		= MEAS_COLLECTOR_SNAP,
	.name		= "snapshot",
	.record_size	= sizeof(struct meas_clock_snap),
	.prepare	= snap_prepare,
	.unprepare	= snap_unprepare,
	.tick		= snap_tick,
};

const struct meas_collector *const meas_collectors[MEAS_CLOCK_COLLECTORS] = {
	[MEAS_COLLECTOR_PC]	= &meas_collect_pc,
	[MEAS_COLLECTOR_SNAP]	= &collect_snap,
	[MEAS_COLLECTOR_STACK]	= &meas_collect_stack,
};
