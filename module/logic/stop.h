/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a task left the CPU: the MPE IV stop reasons, as Linux shows them.
 * One classification for class 0 (sched.c), class 15 (proc.c) and the
 * class 15 enable scan (proctab.c).  Pure logic without kernel
 * dependency, so that the host unit tests build this same header; the
 * caller turns the task's state into MEAS_SW_* flags (sched/stop.h).
 */
#ifndef _MEAS_STOP_H
#define _MEAS_STOP_H

/* What the scheduler shows of the task that leaves the CPU */
#define MEAS_SW_PREEMPT	0x01	/* preempted, or its state is still TASK_RUNNING */
#define MEAS_SW_DEAD	0x02	/* TASK_DEAD: its final switch-out */
#define MEAS_SW_JOBCTL	0x04	/* __TASK_STOPPED or __TASK_TRACED */
#define MEAS_SW_UNINTR	0x08	/* TASK_UNINTERRUPTIBLE without TASK_NOLOAD */
#define MEAS_SW_IOWAIT	0x10	/* in_iowait: it waits for a block device */
#define MEAS_SW_ALL	0x1f	/* every flag above */

/**
 * enum meas_stop - the stop reason
 * @MEAS_STOP_PREEMPTED: still runnable (MPE: preempted)
 * @MEAS_STOP_EXITED: the task ended (Linux)
 * @MEAS_STOP_JOBCTL: stopped or traced (Linux)
 * @MEAS_STOP_DISC_BLOCKED: uninterruptible wait for disc I/O (MPE: disc
 *	blocked)
 * @MEAS_STOP_BLOCKED: other uninterruptible wait (MPE: miscellaneous
 *	blocked)
 * @MEAS_STOP_DISC_UNBLOCKED: interruptible wait for disc I/O (MPE: disc
 *	unblocked)
 * @MEAS_STOP_IMPEDED: other interruptible sleep (MPE: impeded)
 * @MEAS_STOP_NR: number of reasons
 */
enum meas_stop {
	MEAS_STOP_PREEMPTED,
	MEAS_STOP_EXITED,
	MEAS_STOP_JOBCTL,
	MEAS_STOP_DISC_BLOCKED,
	MEAS_STOP_BLOCKED,
	MEAS_STOP_DISC_UNBLOCKED,
	MEAS_STOP_IMPEDED,
	MEAS_STOP_NR
};

/**
 * meas_stop_classify() - the stop reason of a task leaving the CPU
 * @sw: MEAS_SW_* flags of the task
 *
 * The final switch-out of a task is its exit, whatever else is set; a
 * task that stays runnable was preempted; job control comes before the
 * kind of sleep, and I/O wait tells disc waits from the others: the order
 * of the checks is the definition.  Inline: it runs in every context
 * switch of classes 0 and 15, where the compiler folds it into the
 * computation of @sw (a call cost 17 instructions a switch).
 *
 * Return: the reason, a MEAS_STOP_* value below MEAS_STOP_NR.
 */
static inline enum meas_stop meas_stop_classify(unsigned int sw)
{
	if (sw & MEAS_SW_DEAD)
		return MEAS_STOP_EXITED;
	if (sw & MEAS_SW_PREEMPT)
		return MEAS_STOP_PREEMPTED;
	if (sw & MEAS_SW_JOBCTL)
		return MEAS_STOP_JOBCTL;
	if (sw & MEAS_SW_UNINTR)
		return sw & MEAS_SW_IOWAIT ? MEAS_STOP_DISC_BLOCKED :
					     MEAS_STOP_BLOCKED;
	return sw & MEAS_SW_IOWAIT ? MEAS_STOP_DISC_UNBLOCKED :
				     MEAS_STOP_IMPEDED;
}

#endif /* _MEAS_STOP_H */
