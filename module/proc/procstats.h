/* SPDX-License-Identifier: GPL-2.0 */
/* procstats.c: GETPROCSTATS, for the ioctl dispatch (dev.c) */
#ifndef _MEAS_PROC_PROCSTATS_H
#define _MEAS_PROC_PROCSTATS_H

#include <linux/compiler.h>

long meas_procstats_ioctl(void __user *u);

#endif /* _MEAS_PROC_PROCSTATS_H */
