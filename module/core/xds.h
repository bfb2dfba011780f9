/* SPDX-License-Identifier: GPL-2.0 */
/* xds.c: allocation and formatting of a class region (the XDS) */
#ifndef _MEAS_CORE_XDS_H
#define _MEAS_CORE_XDS_H

#include <linux/types.h>
#include "class.h"

int meas_xds_create(struct meas_class *cls, int class);
void meas_xds_destroy(struct meas_class *cls);
u64 *meas_xds_entry(struct meas_class *cls, int class, int subclass,
		    u64 entry);

#endif /* _MEAS_CORE_XDS_H */
