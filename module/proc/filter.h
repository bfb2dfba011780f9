/* SPDX-License-Identifier: GPL-2.0 */
/* filter.c: READACTIVE, for the ioctl dispatch (dev.c) */
#ifndef _MEAS_PROC_FILTER_H
#define _MEAS_PROC_FILTER_H

#include <linux/compiler.h>

long meas_filter_ioctl(void __user *u);

#endif /* _MEAS_PROC_FILTER_H */
