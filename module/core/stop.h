/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MEAS_SW_* flags of a task, for meas_stop_classify() (logic/stop.h):
 * what the switch probes of class 0 (sched.c) and class 15 (proc.c) and
 * the class 15 enable scan (proctab.c) read of a task's state.
 */
#ifndef _MEAS_CORE_STOP_H
#define _MEAS_CORE_STOP_H

#include <linux/sched.h>
#include "core/compat.h"
#include "logic/stop.h"

/* The flags a task state alone gives: @state as the scheduler saw it. */
static inline unsigned int meas_stop_state_flags(unsigned int state)
{
	unsigned int sw = 0;

	if (state & TASK_DEAD)
		sw |= MEAS_SW_DEAD;
	if (state & (__TASK_STOPPED | __TASK_TRACED))
		sw |= MEAS_SW_JOBCTL;
	if ((state & TASK_UNINTERRUPTIBLE) && !(state & TASK_NOLOAD))
		sw |= MEAS_SW_UNINTR;
	return sw;
}

/*
 * The flags of @prev leaving the CPU in sched_switch: a preempted task,
 * or one a signal kept awake (its state is TASK_RUNNING again), stays
 * runnable.
 */
static inline unsigned int meas_stop_switch_flags(bool preempt,
						  struct task_struct *prev,
						  unsigned int state)
{
	unsigned int sw = meas_stop_state_flags(state);

	if (preempt || meas_task_state(prev) == TASK_RUNNING)
		sw |= MEAS_SW_PREEMPT;
	if (prev->in_iowait)
		sw |= MEAS_SW_IOWAIT;
	return sw;
}

#endif /* _MEAS_CORE_STOP_H */
