/* SPDX-License-Identifier: GPL-2.0 */
/* update.c: UPDATESTATISTICS, for the ioctl (custom_ioctl.c) */
#ifndef _MEAS_CUSTOM_UPDATE_H
#define _MEAS_CUSTOM_UPDATE_H

#include <linux/types.h>

int meas_update_one(int class, int subclass, s64 entry, s64 item,
		    u32 flags, s64 value);

#endif /* _MEAS_CUSTOM_UPDATE_H */
