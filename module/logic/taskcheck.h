/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task measurement argument checks and record arithmetic: pure, no kernel
 * dependency, built into the module and into the host unit tests.
 */
#ifndef _MEAS_TASKCHECK_H
#define _MEAS_TASKCHECK_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include <linux/meas_task.h>

int meas_taskcheck_start(const struct meas_task_start *k);
int meas_taskcheck_stop(const struct meas_task_stop *k);
u32 meas_taskcheck_object_size(u32 name_len);
bool meas_taskcheck_is_taskfile(const void *head, u32 len);

#endif /* _MEAS_TASKCHECK_H */
