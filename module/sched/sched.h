/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.c: class 0's subclass 0, from the scheduler tracepoints, and the
 * hook the scheduler events of classes 0 and 15 share.  The definition of
 * class 0 (classes.c) composes it with the disks.
 */
#ifndef _MEAS_SCHED_SCHED_H
#define _MEAS_SCHED_SCHED_H

#include <linux/types.h>
#include "core/class.h"

int meas_sched_init(void);
int meas_sched_attach(struct meas_class *cls);
void meas_sched_detach(struct meas_class *cls);
void meas_sched_fold(struct meas_class *cls);
void meas_sched_sum(u64 *out);

#endif /* _MEAS_SCHED_SCHED_H */
