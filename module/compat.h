/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between kernel versions, in one place.  Kbuild detects the
 * features from the kernel's headers and defines MEAS_HAVE_*; sched.c
 * declares meas_probe_switch() before including this file.
 */
#ifndef _MEAS_COMPAT_H
#define _MEAS_COMPAT_H

#include <linux/sched.h>
#include <linux/bits.h>

/* task_struct.state became __state in 5.14. */
#ifdef MEAS_HAVE_TASK_STATE_UNDERSCORE
#define meas_task_state(p)	READ_ONCE((p)->__state)
#else
#define meas_task_state(p)	READ_ONCE((p)->state)
#endif

/*
 * sched_switch passes prev_state since 5.18; before, the probe reads the
 * state the scheduler acted on from the task itself.
 */
#ifdef MEAS_HAVE_SWITCH_PREV_STATE
#define MEAS_PROBE_SWITCH	meas_probe_switch
#else
static void meas_probe_switch_compat(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next)
{
	meas_probe_switch(data, preempt, prev, next, meas_task_state(prev));
}

#define MEAS_PROBE_SWITCH	meas_probe_switch_compat
#endif

/* lock:contention_begin and its flags appeared in 5.19. */
#ifdef MEAS_HAVE_CONTENTION_BEGIN
#include <trace/events/lock.h>
#else
#define LCB_F_SPIN	BIT(0)
#endif

#endif /* _MEAS_COMPAT_H */
