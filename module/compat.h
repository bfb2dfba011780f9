/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between kernel versions, in one place.
 */
#ifndef _MEAS_COMPAT_H
#define _MEAS_COMPAT_H

#include <linux/version.h>
#include <linux/sched.h>

/*
 * sched_switch gained prev_state in 5.18; before, the state is read from
 * the task, which is what the scheduler itself passed on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define MEAS_SCHED_SWITCH_PROTO(data, preempt, prev, next, prev_state)	\
	void *data, bool preempt, struct task_struct *prev,		\
	struct task_struct *next, unsigned int prev_state
#define MEAS_PREV_STATE(prev, prev_state)	(prev_state)
#else
#define MEAS_SCHED_SWITCH_PROTO(data, preempt, prev, next, prev_state)	\
	void *data, bool preempt, struct task_struct *prev,		\
	struct task_struct *next
#define MEAS_PREV_STATE(prev, prev_state)	meas_task_state(prev)
#endif

/* task_struct.state became __state in 5.14. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 14, 0)
#define meas_task_state(p)	READ_ONCE((p)->__state)
#else
#define meas_task_state(p)	READ_ONCE((p)->state)
#endif

/* lock:contention_begin appeared in 5.19; its flags with it. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 19, 0)
#include <trace/events/lock.h>
#else
#define LCB_F_SPIN	(1U << 0)
#endif

#endif /* _MEAS_COMPAT_H */
