/* SPDX-License-Identifier: GPL-2.0 */
/* taskfile.c: a task measurement's file: opening, records, the writer */
#ifndef _MEAS_TASK_TASKFILE_H
#define _MEAS_TASK_TASKFILE_H

#include <linux/types.h>
#include <linux/compiler.h>

struct meas_task;
struct meas_task_ev;
struct task_struct;
struct work_struct;
struct file;

int meas_taskfile_alloc(struct meas_task *m);
void meas_taskfile_free(struct meas_task *m);
char *meas_taskfile_path(const char __user *upath, int vpid, int *code,
			 int *file_errno);
int meas_taskfile_open(const char *path, bool std, int *file_errno,
		       struct file **fp);
void meas_taskfile_use(struct meas_task *m, struct file *f);
void meas_taskfile_session(struct meas_task *m);
void meas_taskfile_emit(struct meas_task *m, const struct meas_task_ev *e);
int meas_taskfile_flush(struct meas_task *m);
void meas_taskfile_drain(struct meas_task *m);
void meas_taskfile_drain_work(struct work_struct *w);
void meas_taskfile_end(struct meas_task *m, u64 cpu_ns);
void meas_taskfile_close(struct meas_task *m);
void meas_taskfile_root(struct meas_task *m, struct task_struct *t);
bool meas_taskfile_uses(struct meas_task *m, struct file *f);

#endif /* _MEAS_TASK_TASKFILE_H */
