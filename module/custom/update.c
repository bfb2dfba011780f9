// SPDX-License-Identifier: GPL-2.0
/*
 * UPDATESTATISTICS and FUPDATESTATISTICS: change one item of an enabled
 * user-defined class, from any context, hard interrupts included.
 *
 * The path takes no lock and allocates nothing: with preemption off (an
 * RCU read-side section that also pins the CPU) it finds the class's
 * storage in meas_custom_live[], checks the arguments against the
 * definition and changes the item:
 *  - a counter item: an add goes to this CPU's word with a local (not
 *    bus-locked) add, so many CPUs adding to one item never share a cache
 *    line and lose nothing; a replace, rare, sets the shared base so that
 *    base plus the sum of the CPUs' words is the new value, under a lock
 *    and a sequence count that readers retry on;
 *  - a gauge item: one atomic word, added to or set.
 * Documentation/custom.rst explains the choice.  The fold reads the items
 * back (custom.c, custom_value()); the storage is custom.c's, this path
 * only finds it.
 */
#include <linux/export.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/bits.h>
#include "meas_api.h"
#include "custom.h"
#include "update.h"

/*
 * Replace a counter: base = value - sum of the CPUs' words.  An add that
 * runs meanwhile on another CPU is either in the sum (it came before the
 * replace) or not (it comes after): none is lost, none is counted twice.
 */
static void update_counter_set(struct custom_live *live, u64 index,
			       u64 value)
{
	unsigned long flags;
	u64 sum = 0;
	int cpu;

	raw_spin_lock_irqsave(&live->lock, flags);
	write_seqcount_begin(&live->seq);
	for_each_possible_cpu(cpu)
		sum += local64_read(&live->cpu[cpu][index]);
	atomic64_set(&live->shared[index], value - sum);
	write_seqcount_end(&live->seq);
	raw_spin_unlock_irqrestore(&live->lock, flags);
}

/* Called with preemption off. */
static void update_apply(struct custom_live *live, u64 index, u8 kind,
			 bool replace, s64 value)
{
	if (kind == MEAS_ITEM_GAUGE) {
		if (replace)
			atomic64_set(&live->shared[index], value);
		else
			atomic64_add(value, &live->shared[index]);
	} else if (replace) {
		update_counter_set(live, index, value);
	} else {
		local64_add(value, &live->cpu[smp_processor_id()][index]);
	}
}

static int update(int class, int subclass, s64 entry, s64 item,
		  bool replace, s64 value, bool dbl, bool fast)
{
	struct custom_live *live;
	u64 index, kind;
	int rc = MEAS_UPDATE_OK;

	if (!meas_custom_update_class_ok(class))
		return MEAS_UPDATE_BADCLASS;
	preempt_disable();
	live = rcu_dereference_sched(meas_custom_live[class]);
	if (!live) {
		rc = READ_ONCE(meas_custom_defined) & BIT(class) ?
		     MEAS_UPDATE_NOTENABLED : MEAS_UPDATE_BADCLASS;
	} else if (fast) {
		if (meas_custom_clamp_fupdate(&live->def->shape, subclass,
					      entry, item, &index, &kind))
			update_apply(live, index, live->def->kind[kind],
				     replace, value);
	} else {
		rc = meas_custom_check_update(&live->def->shape, subclass,
					      entry, item, dbl, &index, &kind);
		if (!rc)
			update_apply(live, index, live->def->kind[kind],
				     replace, value);
	}
	preempt_enable();
	return rc;
}

/**
 * meas_update_one() - MEAS_IOC_UPDATE
 * @class: class number
 * @subclass: subclass number
 * @entry: entry number
 * @item: startingitem
 * @flags: MEAS_UPDATE_* flags
 * @value: valuechange
 *
 * Return: a MEAS_UPDATE_* code; always 0 with MEAS_UPDATE_FAST.
 */
int meas_update_one(int class, int subclass, s64 entry, s64 item,
		    u32 flags, s64 value)
{
	bool fast = flags & MEAS_UPDATE_FAST;
	int rc;

	rc = update(class, subclass, entry, item, flags & MEAS_UPDATE_NEWVALUE,
		    value, flags & MEAS_UPDATE_DOUBLE, fast);
	return fast ? MEAS_UPDATE_OK : rc;
}

int meas_update_statistics(int class, int subclass, s64 entry,
			   s64 startingitem, bool newvalueflag,
			   s64 valuechange, bool doubleitemflag)
{
	return update(class, subclass, entry, startingitem, newvalueflag,
		      valuechange, doubleitemflag, false);
}
EXPORT_SYMBOL_GPL(meas_update_statistics);

int meas_fupdate_statistics(int class, int subclass, s64 entry,
			    s64 startingitem, bool newvalueflag,
			    s64 valuechange, bool doubleitemflag)
{
	update(class, subclass, entry, startingitem, newvalueflag,
	       valuechange, doubleitemflag, true);
	return MEAS_UPDATE_OK;
}
EXPORT_SYMBOL_GPL(meas_fupdate_statistics);
