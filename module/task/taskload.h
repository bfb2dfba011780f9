/* SPDX-License-Identifier: GPL-2.0 */
/* taskload.c: load information, the executable mappings of the process */
#ifndef _MEAS_TASK_TASKLOAD_H
#define _MEAS_TASK_TASKLOAD_H

#include <linux/types.h>

struct meas_task;
struct mm_struct;

void meas_taskload_snapshot(struct meas_task *m, struct mm_struct *mm,
			    u32 kind, u32 gen, bool direct);
void meas_taskload_changed(struct meas_task *m, struct mm_struct *mm);
void meas_taskload_free(struct meas_task *m);

#endif /* _MEAS_TASK_TASKLOAD_H */
