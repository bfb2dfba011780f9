/* SPDX-License-Identifier: GPL-2.0 */
/*
 * custom_ioctl.c: DEFINE, UNDEFINE, DESCRIBE and UPDATE, for the ioctl
 * dispatch (dev.c)
 */
#ifndef _MEAS_CUSTOM_IOCTL_H
#define _MEAS_CUSTOM_IOCTL_H

#include <linux/compiler.h>

long meas_custom_ioctl(unsigned int cmd, void __user *u);

#endif /* _MEAS_CUSTOM_IOCTL_H */
