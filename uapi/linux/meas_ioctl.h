/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: every ioctl number of /dev/meas, in one table (included by
 * <linux/meas.h> and <linux/meas_task.h>).  Each area has a block of
 * sixteen numbers; a new ioctl takes the next free number of its area's
 * block, and no number is ever reused.
 */
#ifndef _UAPI_LINUX_MEAS_IOCTL_H
#define _UAPI_LINUX_MEAS_IOCTL_H

#include <linux/ioctl.h>

#define MEAS_IOC_TYPE		0xE8

/* 0x00..0x0f: START, STOP, GET, INFO (meas_core.h) */
#define MEAS_IOC_START		_IO(MEAS_IOC_TYPE, 0x00)
#define MEAS_IOC_STOP		_IO(MEAS_IOC_TYPE, 0x01)
#define MEAS_IOC_GET		_IO(MEAS_IOC_TYPE, 0x02)
#define MEAS_IOC_INFO		_IO(MEAS_IOC_TYPE, 0x03)

/* 0x10..0x1f: the I/O trace (meas_io.h) */
#define MEAS_IOC_IOTRACE_READ	_IO(MEAS_IOC_TYPE, 0x10)

/* 0x20..0x2f: the shared clock (meas_clock.h) */
#define MEAS_IOC_GETCLOCK	_IO(MEAS_IOC_TYPE, 0x20)
#define MEAS_IOC_GIVECLOCK	_IO(MEAS_IOC_TYPE, 0x21)
#define MEAS_IOC_CLOCKINFO	_IO(MEAS_IOC_TYPE, 0x22)

/* 0x30..0x3f: user-defined classes (meas_custom.h) */
#define MEAS_IOC_DEFINE		_IO(MEAS_IOC_TYPE, 0x30)
#define MEAS_IOC_UNDEFINE	_IO(MEAS_IOC_TYPE, 0x31)
#define MEAS_IOC_DESCRIBE	_IO(MEAS_IOC_TYPE, 0x32)
#define MEAS_IOC_UPDATE		_IO(MEAS_IOC_TYPE, 0x33)

/* 0x40..0x4f: class 15 (meas_proc.h) */
#define MEAS_IOC_GETPROCSTATS	_IO(MEAS_IOC_TYPE, 0x40)
#define MEAS_IOC_READACTIVE	_IO(MEAS_IOC_TYPE, 0x41)

/* 0x50..0x5f: task measurement (meas_task.h) */
#define MEAS_IOC_TASK_START	_IO(MEAS_IOC_TYPE, 0x50)
#define MEAS_IOC_TASK_STOP	_IO(MEAS_IOC_TYPE, 0x51)

#endif /* _UAPI_LINUX_MEAS_IOCTL_H */
