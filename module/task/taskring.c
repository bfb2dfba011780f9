// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer between the probes of a task measurement and its writer:
 * one ring of fixed-size events per CPU, without a lock.  A probe writes
 * only the ring of the CPU it runs on, with interrupts off (a CPU clock's
 * sample may interrupt a system call's probe); the writer, one at a time
 * under m->wlock, takes the events of every ring merged in the order of
 * their keys, the local_clock() each event was put at, as perf merges
 * its per-CPU buffers.  Probes never wait: a full ring drops the event
 * and counts it, and the writer reports the count in a LOST record.  The
 * load information written at an exec may wait for room instead
 * (meas_tasktab_put_wait()).
 *
 * An event put on one CPU may carry an earlier key than one already put
 * on another and not yet be visible to the writer: each ring says when
 * its CPU is inside a put (@busy) and the key it put last, and the writer
 * takes no event later than the earliest key such a CPU may still put
 * (meas_taskring_take()); what it leaves waits for its next pass.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/irqflags.h>
#include "taskring.h"

/* Events of each CPU's ring: a share of the measurement's KiB, >= 64. */
static u32 ring_slots(unsigned int kib)
{
	u64 all = (u64)kib * 1024 / sizeof(struct meas_task_ev);

	return rounddown_pow_of_two(max_t(u64, 64,
					  all / num_possible_cpus()));
}

int meas_taskring_init(struct meas_task_ring *r, unsigned int kib)
{
	int cpu;

	r->mask = ring_slots(kib) - 1;
	init_waitqueue_head(&r->space);
	r->cpu = alloc_percpu_gfp(struct meas_task_pcpu,
				  GFP_KERNEL | __GFP_NOWARN);
	r->take = kcalloc(nr_cpu_ids, sizeof(*r->take),
			  GFP_KERNEL | __GFP_NOWARN);
	if (!r->cpu || !r->take)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct meas_task_pcpu *pc = per_cpu_ptr(r->cpu, cpu);

		pc->ev = kvzalloc_node(array_size(r->mask + 1,
						  sizeof(*pc->ev)),
				       GFP_KERNEL | __GFP_NOWARN,
				       cpu_to_node(cpu));
		if (!pc->ev)
			return -ENOMEM;
	}
	return 0;
}

/* Drops the references events still hold; the ring is not in use. */
void meas_taskring_free(struct meas_task_ring *r)
{
	int cpu;

	if (r->cpu) {
		for_each_possible_cpu(cpu) {
			struct meas_task_pcpu *pc = per_cpu_ptr(r->cpu, cpu);

			if (!pc->ev)
				continue;
			while (pc->tail != pc->head)
				meas_taskring_ev_release(&pc->ev[pc->tail++ &
								 r->mask]);
			kvfree(pc->ev);
		}
		free_percpu(r->cpu);
	}
	kfree(r->take);
	r->cpu = NULL;
	r->take = NULL;
}

void meas_taskring_ev_release(struct meas_task_ev *e)
{
	if (e->file)
		fput(e->file);
	e->file = NULL;
}

/*
 * Add @e; any context.  On a full ring the event is dropped and counted,
 * and its file reference released.  Its time, if 0, is when it was put.
 */
bool meas_taskring_put(struct meas_task_ring *r, const struct meas_task_ev *e)
{
	struct meas_task_ev *slot;
	unsigned long irq;
	u64 key;

	slot = meas_taskring_begin(r, &irq);
	if (!slot) {
		if (e->file)
			fput(e->file);
		return false;
	}
	key = slot->key;
	*slot = *e;
	slot->key = key;
	if (!slot->time)
		slot->time = key;
	meas_taskring_commit(r, slot, irq);
	return true;
}

/*
 * The latest key the writer may take now: a CPU inside a put may still
 * publish a key no earlier than the one it put last, and one that starts
 * a put now a key no earlier than now.  (On a machine whose CPUs' clocks
 * differ, an event may still come before one of another CPU's already
 * written, by up to the difference, as in perf's merge.)
 */
static u64 ring_watermark(struct meas_task_ring *r)
{
	u64 wm = local_clock(), last;
	int cpu;

	/* pairs with the barrier of meas_taskring_begin() */
	smp_mb();
	for_each_possible_cpu(cpu) {
		struct meas_task_pcpu *pc = per_cpu_ptr(r->cpu, cpu);

		/* a put seen ended: its event is seen (the acquire) */
		if (!smp_load_acquire(&pc->busy))
			continue;
		last = READ_ONCE(pc->last);
		if (last < wm)
			wm = last;
	}
	return wm;
}

/**
 * meas_taskring_take() - the next events, oldest first, without a copy
 * @r: the ring
 * @out: up to @n pointers to events, each in its ring's slot
 * @n: how many at most
 * @lost: out: the events dropped, on the CPUs whose events this take
 *	emptied, since they were last reported (they were newer than all
 *	of those taken)
 * @all: every event, whatever its key: no put is under way or will come
 *	(the measurement's last pass)
 *
 * The writer (under m->wlock) emits the events @out points to, then gives
 * their slots back with meas_taskring_give_back() before the next take.
 *
 * Return: the number of events in @out.
 */
unsigned int meas_taskring_take(struct meas_task_ring *r,
				struct meas_task_ev **out,
				unsigned int n, u64 *lost, bool all)
{
	u64 wm = all ? U64_MAX : ring_watermark(r), best, bound, key;
	unsigned int i = 0, na = 0, a, pick;
	struct meas_taskring_take *t;
	int cpu;

	/* the CPUs with events to take, each with where it stands */
	for_each_possible_cpu(cpu) {
		t = &r->take[na];
		t->pc = per_cpu_ptr(r->cpu, cpu);
		t->tail = t->pc->tail;
		/* pairs with the commit's release: the events before the count */
		t->head = smp_load_acquire(&t->pc->head);
		na++;
	}
	r->ntake = na;
	/*
	 * Each ring is in key order (a CPU's clock does not go back): take
	 * from the ring with the earliest next key as long as its keys come
	 * before every other ring's next one, and before the watermark.
	 */
	while (i < n) {
		pick = na;
		best = U64_MAX;
		bound = wm;
		for (a = 0; a < na; a++) {
			t = &r->take[a];
			if (t->tail == t->head)
				continue;
			key = t->pc->ev[t->tail & r->mask].key;
			if (key < best) {
				if (best < bound)
					bound = best;
				best = key;
				pick = a;
			} else if (key < bound) {
				bound = key;
			}
		}
		if (pick == na || best > wm)
			break;
		t = &r->take[pick];
		do {
			out[i++] = &t->pc->ev[t->tail++ & r->mask];
		} while (i < n && t->tail != t->head &&
			 t->pc->ev[t->tail & r->mask].key <= bound);
	}
	*lost = 0;
	for (a = 0; a < na; a++) {
		t = &r->take[a];
		if (t->tail == t->head) {
			key = READ_ONCE(t->pc->lost);
			*lost += key - t->pc->lost_seen;
			t->pc->lost_seen = key;
		}
	}
	return i;
}

/**
 * meas_taskring_give_back() - free the slots of the events last taken
 * @r: the ring
 *
 * After the events of meas_taskring_take() are written and released.
 */
void meas_taskring_give_back(struct meas_task_ring *r)
{
	unsigned int a;

	for (a = 0; a < r->ntake; a++)
		/* the reads of the slots before a producer reuses them */
		smp_store_release(&r->take[a].pc->tail, r->take[a].tail);
	r->ntake = 0;
	wake_up_all(&r->space);
}
