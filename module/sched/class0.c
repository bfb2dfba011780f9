// SPDX-License-Identifier: GPL-2.0
/*
 * Class 0, the global statistics (MEASSTATXDS): the shape of its region
 * and the units that fill it.  Subclass 0 comes from sched.c; subclasses
 * 1 (disks), 3 (tapes) and 4 (disk transfers) from the block unit
 * (blk.c, disks.c), which also fills the device table; subclass 2 (line
 * printers) has entry 0 only: Linux has no line printer on the block
 * layer.
 */
#include "core/class.h"
#include "sched.h"
#include "disk/blk.h"
#include "logic/blklogic.h"

/* Room for max_disks disks and max_tapes tapes (blklogic.c). */
static void class0_shape(struct meas_class_spec *spec)
{
	meas_c0_disk_shape(spec, meas_disks_capacity(), meas_tapes_capacity());
}

/* Subclass 0 first, then the disks and tapes; undone in reverse. */
static int class0_attach(struct meas_class *cls)
{
	int rc = meas_sched_attach(cls);

	if (rc)
		return rc;
	rc = meas_blk_c0_attach(cls);
	if (rc)
		meas_sched_detach(cls);
	return rc;
}

static void class0_detach(struct meas_class *cls)
{
	meas_blk_c0_detach(cls);
	meas_sched_detach(cls);
}

static void class0_fold(struct meas_class *cls)
{
	meas_sched_fold(cls);
	meas_blk_c0_fold(cls);
}

const struct meas_class_ops meas_class0_ops = {
	.name	= "global",
	.shape	= class0_shape,
	.attach	= class0_attach,
	.detach	= class0_detach,
	.fold	= class0_fold,
};
