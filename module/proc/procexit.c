// SPDX-License-Identifier: GPL-2.0
/*
 * Exit records of class 15.  A process exits at the final switch-out of
 * its last thread, inside the scheduler, where nothing may allocate or
 * send.  There its slot and generation go into a ring (proctab.c, under
 * the table lock, which that path holds) and an irq_work is raised; the
 * irq_work queues a work item, which numbers each record and multicasts
 * it to the "exits" group of the generic netlink family.
 *
 * The sequence number counts every exit since class 15 was enabled, also
 * those the full ring could not take or whose slot went to a new process
 * before the record was sent: a listener sees a gap of that many.  Those
 * losses are counted in entry 0.
 */
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include "core/compat.h"
#include "proctab.h"
#include "procread.h"
#include "genl.h"
#include "procexit.h"

static void procexit_kick(struct irq_work *w)
{
	struct proc_tab *tab = container_of(w, struct proc_tab, kick);

	queue_work(meas_unbound_wq, &tab->work);
}

/* Number what the full ring dropped, so that listeners see the gap. */
static void procexit_count_lost(struct proc_tab *tab)
{
	u64 lost = READ_ONCE(tab->ring_lost);

	if (lost == tab->ring_lost_seen)
		return;
	WRITE_ONCE(tab->exit_seq, tab->exit_seq + lost - tab->ring_lost_seen);
	WRITE_ONCE(tab->exit_lost,
		   tab->exit_lost + lost - tab->ring_lost_seen);
	tab->ring_lost_seen = lost;
}

static void procexit_work(struct work_struct *w)
{
	struct proc_tab *tab = container_of(w, struct proc_tab, work);
	struct meas_proc_rec *rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	u32 tail, head, slot, gen;
	u64 v, cgid;

	for (;;) {
		procexit_count_lost(tab);
		tail = tab->ring_tail;
		/* Pairs with the producer: entries up to head are written. */
		head = smp_load_acquire(&tab->ring_head);
		if (tail == head)
			break;
		v = tab->ring[tail & tab->ring_mask];
		/* The entry is read before the producer may reuse it. */
		smp_store_release(&tab->ring_tail, tail + 1);
		slot = lower_32_bits(v);
		gen = upper_32_bits(v);
		WRITE_ONCE(tab->exit_seq, tab->exit_seq + 1);
		if (!rec || !meas_procread_final(tab, slot, gen, &cgid, rec) ||
		    meas_genl_send_exit(rec, cgid, tab->exit_seq) == -ENOMEM)
			WRITE_ONCE(tab->exit_lost, tab->exit_lost + 1);
		cond_resched();
	}
	kfree(rec);
}

/**
 * meas_procexit_init() - prepare the exit path of a new table
 * @tab: the table
 */
void meas_procexit_init(struct proc_tab *tab)
{
	init_irq_work(&tab->kick, procexit_kick);
	INIT_WORK(&tab->work, procexit_work);
}

/**
 * meas_procexit_stop() - send what is queued; nothing queues any more
 * @tab: the table, its probes unregistered and synchronised
 */
void meas_procexit_stop(struct proc_tab *tab)
{
	irq_work_sync(&tab->kick);
	flush_work(&tab->work);
	/* The work may have been queued before the last kick ran. */
	procexit_work(&tab->work);
}
