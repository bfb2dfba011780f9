/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctl.c: the class table, STARTSTATISTICS and STOPSTATISTICS.  meas_sir
 * is the SIR that serialises starting, stopping and defining classes.
 */
#ifndef _MEAS_CORE_CTL_H
#define _MEAS_CORE_CTL_H

#include <linux/types.h>
#include <linux/mutex.h>
#include "class.h"

struct meas_info;

extern struct mutex meas_sir;
int meas_ctl_start(u32 *file_mask, u64 mask, u32 *global);
int meas_ctl_stop(u32 *file_mask, u64 mask, u32 *global);
void meas_ctl_info(u32 file_mask, struct meas_info *info);
struct meas_class *meas_ctl_class(int class);
void meas_ctl_define(int class, const struct meas_class_ops *ops);
/* for user-defined classes (custom.c); called with meas_sir held */
const struct meas_class_ops *meas_ctl_ops(int class);
int meas_ctl_redefine(int class, const struct meas_class_ops *ops,
		      void *priv);
/* for the shared clock (clock.c): classes enabled by no file */
int meas_ctl_start_internal(u32 mask);
void meas_ctl_stop_internal(u32 mask);

#endif /* _MEAS_CORE_CTL_H */
