/* SPDX-License-Identifier: GPL-2.0 */
/*
 * taskring.c: the buffer between the probes of a task measurement and
 * its writer, one ring per CPU; the probes' side inline.
 */
#ifndef _MEAS_TASK_TASKRING_H
#define _MEAS_TASK_TASKRING_H

#include <linux/types.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/wait.h>
#include <asm/barrier.h>

struct file;

/*
 * One event between a probe and the writer.  @file holds a reference
 * (OBJECT, MAP) that the writer drops once it has the path.
 */
struct meas_task_ev {
	u16 type;		/* MEAS_TREC_* */
	u16 prot;		/* OBJECT, MAP: MEAS_TREC_PROT_* */
	u32 tid;
	u64 key;		/* when it was put: the writer's merge order */
	u64 time;
	u64 a, b, c;		/* per type: taskfile.c says which */
	u32 gen;
	u32 flags;
	struct file *file;
	const char *name;	/* special mappings: a static name */
};

/*
 * One CPU's ring (taskring.c): its CPU's probes write @head, @busy,
 * @last and @lost; the writer @tail and @lost_seen.
 */
struct meas_task_pcpu {
	u32 head;		/* free running */
	u32 busy;		/* the CPU is inside a put */
	u64 last;		/* the key it put last */
	u64 lost;		/* events it dropped */
	struct meas_task_ev *ev;
	u32 tail ____cacheline_aligned;	/* free running */
	u64 lost_seen;		/* @lost reported in LOST records */
};

/* where one CPU's ring stands in a take of the writer */
struct meas_taskring_take {
	struct meas_task_pcpu *pc;
	u32 tail, head;
};

/* the rings: one per CPU, no lock; the writer merges them by key */
struct meas_task_ring {
	struct meas_task_pcpu __percpu *cpu;
	u32 mask;		/* slots - 1 of each, a power of two */
	wait_queue_head_t space;	/* producers that may sleep */
	struct meas_taskring_take *take;	/* the writer's, per CPU */
	unsigned int ntake;
};

int meas_taskring_init(struct meas_task_ring *r, unsigned int kib);
void meas_taskring_free(struct meas_task_ring *r);

/**
 * meas_taskring_begin() - a slot of this CPU's ring to write an event in
 * @r: the ring
 * @irq: out: the interrupt state to give meas_taskring_commit()
 *
 * Any context; interrupts are off from here to the commit.  The slot's
 * key and time are set (local_clock(), read once); the caller writes
 * every other field in place.  On a full ring the event is counted as
 * lost, and nothing is to be committed.  Inline: every system call
 * under SVC statistics puts one.
 *
 * Return: the slot, or NULL.
 */
static inline struct meas_task_ev *
meas_taskring_begin(struct meas_task_ring *r, unsigned long *irq)
{
	struct meas_task_pcpu *pc;
	struct meas_task_ev *e;
	u32 head;

	local_irq_save(*irq);
	pc = this_cpu_ptr(r->cpu);
	WRITE_ONCE(pc->busy, 1);
	/* the writer that misses this put sees it busy: the key comes after */
	smp_mb();
	head = pc->head;
	if (head - READ_ONCE(pc->tail) > r->mask) {
		WRITE_ONCE(pc->lost, pc->lost + 1);
		/* the count before the end of the put: the writer's acquire */
		smp_store_release(&pc->busy, 0);
		local_irq_restore(*irq);
		return NULL;
	}
	e = &pc->ev[head & r->mask];
	e->key = local_clock();
	e->time = e->key;
	return e;
}

/**
 * meas_taskring_commit() - publish the event meas_taskring_begin() gave
 * @r: the ring
 * @e: the event, written
 * @irq: what meas_taskring_begin() saved
 */
static inline void meas_taskring_commit(struct meas_task_ring *r,
					struct meas_task_ev *e,
					unsigned long irq)
{
	struct meas_task_pcpu *pc = this_cpu_ptr(r->cpu);

	/* Pairs with the writer's acquire: the event before its count. */
	smp_store_release(&pc->head, pc->head + 1);
	WRITE_ONCE(pc->last, e->key);
	/* the event and @last before the end of the put: the writer's acquire */
	smp_store_release(&pc->busy, 0);
	local_irq_restore(irq);
}

bool meas_taskring_put(struct meas_task_ring *r, const struct meas_task_ev *e);
unsigned int meas_taskring_take(struct meas_task_ring *r,
				struct meas_task_ev **out,
				unsigned int n, u64 *lost, bool all);
void meas_taskring_give_back(struct meas_task_ring *r);

/* Room in the ring of the CPU the caller runs on now. */
static inline bool meas_taskring_has_room(struct meas_task_ring *r)
{
	struct meas_task_pcpu *pc = raw_cpu_ptr(r->cpu);

	return READ_ONCE(pc->head) - READ_ONCE(pc->tail) <= r->mask;
}

/*
 * Whether the writer should run: inline, as the probes ask at each event,
 * of the ring of the CPU they run on (preemption is off).  A hint, so
 * START asks it too, preemptible: of the ring of the CPU it ran on a
 * moment ago (raw_cpu_ptr(); DEBUG_PREEMPT flagged this_cpu_ptr() there).
 */
static inline bool meas_taskring_half_full(struct meas_task_ring *r)
{
	struct meas_task_pcpu *pc = raw_cpu_ptr(r->cpu);

	return READ_ONCE(pc->head) - READ_ONCE(pc->tail) > r->mask / 2;
}

void meas_taskring_ev_release(struct meas_task_ev *e);

#endif /* _MEAS_TASK_TASKRING_H */
