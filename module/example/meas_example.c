// SPDX-License-Identifier: GPL-2.0
/*
 * meas_example: a client of meas.ko, and the model for kernel code that
 * wants counters of its own (Documentation/custom.rst, "Writing a client
 * module").
 *
 * At load it defines class 8 (parameter class) with two subclasses:
 *
 *   0 "events", one entry:   0 execs          counter  sched_process_exec
 *                            1 last-exec-pid  gauge    replaced each exec
 *                            2 ticks          counter  an hrtimer, hardirq
 *   1 "cpu", one entry per possible CPU (entry = CPU number + 1):
 *                            0 execs, 1 ticks counters
 *
 * and updates them from two event sources of its own: the
 * sched_process_exec tracepoint, bound by name, and a hard-interrupt
 * hrtimer every tick_us microseconds.  Tools enable, read and disable the
 * class with STARTSTATISTICS, GETSTATISTICS and STOPSTATISTICS like any
 * other; while it is not enabled every update returns 1 and costs a
 * lookup.  The checked entry point is used where the arguments come from
 * events, the fast one where they cannot be wrong.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/hrtimer.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#include <linux/atomic.h>
#include <trace/events/sched.h>
#include "meas_api.h"
#include "core/compat.h"

#define EX_SUB_EVENTS	0
#define EX_SUB_CPU	1

#define EX_EXECS	0
#define EX_LAST_PID	1
#define EX_TICKS	2

#define EX_CPU_EXECS	0
#define EX_CPU_TICKS	1

#define EX_TICK_MIN_US	1000

static int example_class = 8;
module_param_named(class, example_class, int, 0444);
MODULE_PARM_DESC(class, "Class to define, 1..13 (default 8)");

static unsigned int tick_us = 10000;
module_param(tick_us, uint, 0444);
MODULE_PARM_DESC(tick_us, "Period of the timer in microseconds, at least 1000 (default 10000)");

/*
 * Updates that returned a code other than 0 (done) or 1 (class not
 * enabled): a bug in this client.  The selftests check it stays 0.
 */
static atomic_t example_errors = ATOMIC_INIT(0);
module_param_named(errors, example_errors.counter, int, 0444);
MODULE_PARM_DESC(errors, "Updates refused for bad arguments (should be 0)");

static const struct meas_item_desc example_event_items[] = {
	[EX_EXECS]	= { "execs",		MEAS_ITEM_COUNTER },
	[EX_LAST_PID]	= { "last-exec-pid",	MEAS_ITEM_GAUGE },
	[EX_TICKS]	= { "ticks",		MEAS_ITEM_COUNTER },
};

static const struct meas_item_desc example_cpu_items[] = {
	[EX_CPU_EXECS]	= { "execs",		MEAS_ITEM_COUNTER },
	[EX_CPU_TICKS]	= { "ticks",		MEAS_ITEM_COUNTER },
};

static struct tracepoint *example_tp;
static struct hrtimer example_timer;

static void example_check(int rc)
{
	if (rc != MEAS_UPDATE_OK && rc != MEAS_UPDATE_NOTENABLED)
		atomic_inc(&example_errors);
}

/*
 * sched_process_exec.  A probe may be preempted: since the 7 series,
 * tracepoints call their probes in an SRCU-fast section, not with
 * preemption off, and exec runs preemptible.  The CPU whose entry is
 * counted is held from get_cpu() to put_cpu().
 */
static void example_probe_exec(void *data, struct task_struct *p,
			       pid_t old_pid, struct linux_binprm *bprm)
{
	int cpu;

	example_check(meas_update_statistics(example_class, EX_SUB_EVENTS, 1,
					     EX_EXECS, false, 1, false));
	example_check(meas_update_statistics(example_class, EX_SUB_EVENTS, 1,
					     EX_LAST_PID, true,
					     task_pid_nr(p), false));
	/* One entry per possible CPU: the entry cannot be out of range. */
	cpu = get_cpu();
	meas_fupdate_statistics(example_class, EX_SUB_CPU, cpu + 1,
				EX_CPU_EXECS, false, 1, false);
	put_cpu();
}

/*
 * The probe has the prototype this kernel declares for sched_process_exec
 * (a client binds it by name, as meas does: see MEAS_TP() in core/tp.h).
 */
static_assert(sizeof(register_trace_sched_process_exec(example_probe_exec,
						       NULL)));

/* Runs in hard interrupt context (HRTIMER_MODE_REL_HARD). */
static enum hrtimer_restart example_tick(struct hrtimer *timer)
{
	example_check(meas_update_statistics(example_class, EX_SUB_EVENTS, 1,
					     EX_TICKS, false, 1, false));
	meas_fupdate_statistics(example_class, EX_SUB_CPU,
				smp_processor_id() + 1, EX_CPU_TICKS, false, 1,
				false);
	hrtimer_forward_now(timer, ns_to_ktime((u64)tick_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void example_tp_match(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		example_tp = tp;
}

/*
 * meas_custom_define() and _remove() return MEAS_DEFINE_* codes.  A class
 * that is taken fails the load with EBUSY, not EEXIST: init_module()
 * keeps EEXIST for "this module is loaded already", and the module
 * loader of the 7 series turns an init's -EEXIST into -EBUSY itself.
 */
static int example_errno(int rc)
{
	switch (rc) {
	case MEAS_DEFINE_EXISTS:
		return -EBUSY;
	case MEAS_DEFINE_NOMEM:
		return -ENOMEM;
	default:
		return -EINVAL;
	}
}

static int example_define(void)
{
	const struct meas_subclass_desc subs[] = {
		[EX_SUB_EVENTS] = {
			.name = "events", .entries = 1,
			.items = ARRAY_SIZE(example_event_items),
			.item = example_event_items,
		},
		[EX_SUB_CPU] = {
			.name = "cpu", .entries = nr_cpu_ids,
			.items = ARRAY_SIZE(example_cpu_items),
			.item = example_cpu_items,
		},
	};
	const struct meas_class_desc desc = {
		.name = "example", .nsub = ARRAY_SIZE(subs), .sub = subs,
	};
	int rc;

	/* Everything is copied: desc can live on the stack. */
	rc = meas_custom_define(example_class, &desc, 0);
	if (rc) {
		pr_err("cannot define class %d: code %d\n", example_class, rc);
		return example_errno(rc);
	}
	return 0;
}

static int __init example_init(void)
{
	int err;

	if (tick_us < EX_TICK_MIN_US)
		tick_us = EX_TICK_MIN_US;
	/* Out-of-tree code cannot take the tracepoint's address: by name. */
	for_each_kernel_tracepoint(example_tp_match, NULL);
	if (!example_tp)
		return -ENOENT;
	err = example_define();
	if (err)
		return err;
	err = tracepoint_probe_register(example_tp, example_probe_exec, NULL);
	if (err)
		goto remove_class;
	meas_hrtimer_setup(&example_timer, example_tick, CLOCK_MONOTONIC,
			   HRTIMER_MODE_REL_HARD);
	hrtimer_start(&example_timer, ns_to_ktime((u64)tick_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	return 0;

remove_class:
	meas_custom_remove(example_class);
	return err;
}

/*
 * Stop the event sources and wait for running probes before the class
 * goes.  If a tool still has the class enabled, its definition stays
 * (meas holds nothing of this module) until the tool disables it and
 * removes it: measctl undefine.
 */
static void __exit example_exit(void)
{
	int rc;

	hrtimer_cancel(&example_timer);
	tracepoint_probe_unregister(example_tp, example_probe_exec, NULL);
	tracepoint_synchronize_unregister();
	rc = meas_custom_remove(example_class);
	if (rc)
		pr_info("class %d stays defined (code %d): it is enabled\n",
			example_class, rc);
}

module_init(example_init);
module_exit(example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("meas example client: a user-defined class updated from a tracepoint and a timer");
MODULE_AUTHOR("The meas developers");
