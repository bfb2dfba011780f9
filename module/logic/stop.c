// SPDX-License-Identifier: GPL-2.0
/*
 * The stop reason of a context switch (stop.h): the order of the checks
 * is the definition.
 */
#include "stop.h"

/**
 * meas_stop_classify() - the stop reason of a task leaving the CPU
 * @sw: MEAS_SW_* flags of the task
 *
 * The final switch-out of a task is its exit, whatever else is set; a
 * task that stays runnable was preempted; job control comes before the
 * kind of sleep, and I/O wait tells disc waits from the others.
 *
 * Return: the reason, a MEAS_STOP_* value below MEAS_STOP_NR.
 */
enum meas_stop meas_stop_classify(unsigned int sw)
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
