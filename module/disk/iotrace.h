/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iotrace.c: class 14, the I/O trace: the class, and its streaming
 * reader's ioctl and release (dev.c).  The completion probes write its
 * ring inline (ioring.h).
 */
#ifndef _MEAS_DISK_IOTRACE_H
#define _MEAS_DISK_IOTRACE_H

#include <linux/compiler.h>

extern const struct meas_class_ops meas_class14_ops;
long meas_iotrace_ioctl(void **state, void __user *u);
void meas_iotrace_release(void *state);

#endif /* _MEAS_DISK_IOTRACE_H */
