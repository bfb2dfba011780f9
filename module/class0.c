// SPDX-License-Identifier: GPL-2.0
/*
 * Class 0, the global statistics (MEASSTATXDS): the shape of its region
 * and the units that fill it.  Subclass 0 comes from sched.c; the disk,
 * line printer and tape subclasses have their entry 0 and, for now, no
 * device entries; the device table that will map block devices to their
 * entries is reserved, max_disks slots.
 */
#include "core.h"

static void class0_shape(struct meas_class_spec *spec)
{
	static const u64 entsize[MEAS_C0_NR_SUBCLASSES] = {
		[MEAS_C0_SUB_FIXED]	= MEAS_C0_FIXED_ITEMS,
		[MEAS_C0_SUB_DISC]	= MEAS_C0_DISC_ITEMS,
		[MEAS_C0_SUB_LP]	= MEAS_C0_LP_ITEMS,
		[MEAS_C0_SUB_TAPE]	= MEAS_C0_TAPE_ITEMS,
	};
	unsigned int i;

	spec->nsub = MEAS_C0_NR_SUBCLASSES;
	spec->devslots = meas_param_max_disks;
	for (i = 0; i < MEAS_C0_NR_SUBCLASSES; i++) {
		spec->sub[i].entries = 1;
		spec->sub[i].entsize = entsize[i];
		spec->sub[i].ent0size = MEAS_HEADER_WORDS;
	}
	spec->sub[MEAS_C0_SUB_FIXED].entries = 2;
}

const struct meas_class_ops meas_class0_ops = {
	.name	= "global",
	.shape	= class0_shape,
	.attach	= meas_sched_attach,
	.detach	= meas_sched_detach,
	.fold	= meas_sched_fold,
};
