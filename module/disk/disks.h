/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disks.c: class 0's subclasses 1, 3, 4 and 5 (disks, tapes, transfers,
 * latencies), which the definition of class 0 (classes.c) composes with
 * subclass 0.
 */
#ifndef _MEAS_DISK_DISKS_H
#define _MEAS_DISK_DISKS_H

#include <linux/types.h>

struct meas_class;

int meas_disks_attach(struct meas_class *cls);
void meas_disks_detach(struct meas_class *cls);
void meas_disks_fold(struct meas_class *cls);
u32 meas_disks_capacity(void);
u32 meas_tapes_capacity(void);

#endif /* _MEAS_DISK_DISKS_H */
