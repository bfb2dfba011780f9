/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Class 0, the global class: class0.c defines it (MEASSTATXDS), sched.c
 * counts its subclass 0 from the scheduler tracepoints.
 */
#ifndef _MEAS_SCHED_SCHED_H
#define _MEAS_SCHED_SCHED_H

#include <linux/types.h>
#include "core/class.h"

extern const struct meas_class_ops meas_class0_ops;

int meas_sched_init(void);
int meas_sched_attach(struct meas_class *cls);
void meas_sched_detach(struct meas_class *cls);
void meas_sched_fold(struct meas_class *cls);
void meas_sched_sum(u64 *out);

#endif /* _MEAS_SCHED_SCHED_H */
