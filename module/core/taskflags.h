/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task's fixed ->flags bits, read while the kernel may be storing
 * others.  The kernel sets bits of the running task's ->flags with plain
 * stores (capable()'s PF_SUPERPRIV, the allocator's PF_MEMALLOC), and the
 * probes that read a task's flags run in the interrupts and switches
 * that may cut such a store in two: KCSAN reported capable() against the
 * switch probe.  PF_IDLE and PF_KTHREAD do not change while the probes
 * look (a CPU's idle task and a kernel thread have them from their
 * start), so their reads are data_race(): the bit read is never the one
 * being stored.
 */
#ifndef _MEAS_CORE_TASKFLAGS_H
#define _MEAS_CORE_TASKFLAGS_H

#include <linux/compiler.h>
#include <linux/sched.h>

/* is_idle_task() beside the kernel's stores to the other bits */
static __always_inline bool meas_taskflags_idle(const struct task_struct *p)
{
	/* PF_IDLE is fixed; other bits may be being stored (above) */
	return data_race(is_idle_task(p));
}

/* PF_KTHREAD beside the kernel's stores to the other bits */
static __always_inline bool meas_taskflags_kthread(const struct task_struct *p)
{
	/* PF_KTHREAD is fixed; other bits may be being stored (above) */
	return data_race(p->flags) & PF_KTHREAD;
}

#endif /* _MEAS_CORE_TASKFLAGS_H */
