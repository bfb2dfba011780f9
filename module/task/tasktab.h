/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tasktab.c: the table of running task measurements as the probes see
 * it: finding one by its process, references, the end from atomic
 * context, and the workqueue of the writers and the ends.
 */
#ifndef _MEAS_TASK_TASKTAB_H
#define _MEAS_TASK_TASKTAB_H

#include <linux/types.h>

struct meas_task;
struct meas_task_ev;
struct task_struct;
struct workqueue_struct;

extern struct workqueue_struct *meas_tasktab_wq;

int meas_tasktab_init(void);
void meas_tasktab_exit(void);
void meas_tasktab_add(struct meas_task *m);
void meas_tasktab_del(struct meas_task *m);
struct meas_task *meas_tasktab_find(const struct task_struct *p);
void meas_tasktab_get(struct meas_task *m);
void meas_tasktab_put(struct meas_task *m);
void meas_tasktab_end_async(struct meas_task *m, u32 reason);
bool meas_tasktab_may_see_exec(struct meas_task *m, struct task_struct *t);
bool meas_tasktab_put_wait(struct meas_task *m, const struct meas_task_ev *e);

#endif /* _MEAS_TASK_TASKTAB_H */
