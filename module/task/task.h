/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task.c: task measurement's ioctls and the files' measurements, for
 * the ioctl dispatch (dev.c), init and exit (main.c)
 */
#ifndef _MEAS_TASK_TASK_H
#define _MEAS_TASK_TASK_H

#include <linux/compiler.h>

struct file;

long meas_task_ioctl(struct file *file, unsigned int cmd, void __user *u);
void meas_task_release(struct file *file);
int meas_task_init(void);
void meas_task_exit(void);

#endif /* _MEAS_TASK_TASK_H */
