/* SPDX-License-Identifier: GPL-2.0 */
/* dev.c: /dev/meas, its open files and the ioctl dispatch */
#ifndef _MEAS_DEV_H
#define _MEAS_DEV_H

int meas_dev_register(void);
void meas_dev_unregister(void);

#endif /* _MEAS_DEV_H */
