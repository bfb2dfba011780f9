// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer between the probes of a task measurement and its writer: a
 * ring of fixed-size events under one raw spinlock, so that samples,
 * system calls and mapping changes keep the order they happened in.
 * Probes never wait: a full ring drops the event and counts it, and the
 * writer reports the count in a LOST record.  The load information
 * written at an exec may wait for room instead (meas_taskring_put_wait).
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/file.h>
#include <linux/sched.h>
#include "task.h"

int meas_taskring_init(struct meas_task_ring *r, unsigned int kib)
{
	u32 slots = rounddown_pow_of_two(max_t(u64, 64,
				(u64)kib * 1024 / sizeof(*r->ev)));

	r->ev = kvcalloc(slots, sizeof(*r->ev), GFP_KERNEL | __GFP_NOWARN);
	if (!r->ev)
		return -ENOMEM;
	raw_spin_lock_init(&r->lock);
	init_waitqueue_head(&r->space);
	r->mask = slots - 1;
	r->head = 0;
	r->tail = 0;
	r->lost = 0;
	return 0;
}

/* Drops the references events still hold; the ring is not in use. */
void meas_taskring_free(struct meas_task_ring *r)
{
	while (r->tail != r->head)
		meas_taskring_ev_release(&r->ev[r->tail++ & r->mask]);
	kvfree(r->ev);
	r->ev = NULL;
}

void meas_taskring_ev_release(struct meas_task_ev *e)
{
	if (e->file)
		fput(e->file);
	e->file = NULL;
}

/*
 * Add @e; any context.  On a full ring the event is dropped and counted,
 * and its file reference released.
 */
bool meas_taskring_put(struct meas_task_ring *r, const struct meas_task_ev *e)
{
	unsigned long flags;
	bool ok;

	raw_spin_lock_irqsave(&r->lock, flags);
	ok = r->head - r->tail <= r->mask;
	if (ok)
		r->ev[r->head++ & r->mask] = *e;
	else
		r->lost++;
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (!ok && e->file)
		fput(e->file);
	return ok;
}

static bool ring_has_room(struct meas_task_ring *r)
{
	return READ_ONCE(r->head) - READ_ONCE(r->tail) <= r->mask;
}

/*
 * Add @e from a context that may sleep, waiting up to a second at a time
 * for the writer to make room; a fatal signal or a writer that does not
 * drain ends the wait and the event is counted as lost.
 */
bool meas_taskring_put_wait(struct meas_task *m, const struct meas_task_ev *e)
{
	struct meas_task_ring *r = &m->ring;
	int tries = 10;

	while (!ring_has_room(r) && tries--) {
		if (!test_and_set_bit(MEAS_TASK_KICKED, &m->bits))
			queue_work(meas_task_wq, &m->drain);
		if (wait_event_killable_timeout(r->space, ring_has_room(r),
						HZ) < 0)
			break;
	}
	return meas_taskring_put(r, e);
}

/*
 * Move up to @n events, oldest first, to @out; *@lost gets the events
 * dropped since the last call (they were newer than all of those taken).
 */
unsigned int meas_taskring_take(struct meas_task_ring *r,
				struct meas_task_ev *out, unsigned int n,
				u64 *lost)
{
	unsigned long flags;
	unsigned int i = 0;

	raw_spin_lock_irqsave(&r->lock, flags);
	while (i < n && r->tail != r->head)
		out[i++] = r->ev[r->tail++ & r->mask];
	*lost = 0;
	if (r->tail == r->head) {
		*lost = r->lost;
		r->lost = 0;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (i)
		wake_up_all(&r->space);
	return i;
}
