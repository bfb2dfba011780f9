/* SPDX-License-Identifier: GPL-2.0 */
/*
 * taskprobe.c: the probes of task measurement, the CPU clock's events,
 * for task.c's start and end
 */
#ifndef _MEAS_TASK_TASKPROBE_H
#define _MEAS_TASK_TASKPROBE_H

#include <linux/types.h>

struct meas_task;
struct task_struct;

void meas_taskprobe_init(void);
void meas_taskprobe_exit(void);
int meas_taskprobe_get(struct meas_task *m);
void meas_taskprobe_put(struct meas_task *m);
int meas_taskprobe_events(struct meas_task *m, struct task_struct *leader);
u64 meas_taskprobe_release_events(struct meas_task *m);

#endif /* _MEAS_TASK_TASKPROBE_H */
