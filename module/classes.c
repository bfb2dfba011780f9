// SPDX-License-Identifier: GPL-2.0
/*
 * The classes whose parts live in more than one area, composed here,
 * above the areas, so that no area calls another for them.
 *
 * Class 0, the global statistics (MEASSTATXDS): the shape of its region
 * and the units that fill it.  Subclass 0 comes from the scheduler
 * counters (sched/sched.c); subclasses 1 (disks), 3 (tapes), 4 (disk
 * transfers) and 5 (latencies) from the block unit (disk/disks.c), which
 * also fills the device table; subclass 2 (line printers) has entry 0
 * only: Linux has no line printer on the block layer.
 */
#include "core/class.h"
#include "logic/blklogic.h"
#include "sched/sched.h"
#include "disk/disks.h"
#include "classes.h"

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
	rc = meas_disks_attach(cls);
	if (rc)
		meas_sched_detach(cls);
	return rc;
}

static void class0_detach(struct meas_class *cls)
{
	meas_disks_detach(cls);
	meas_sched_detach(cls);
}

static void class0_fold(struct meas_class *cls)
{
	meas_sched_fold(cls);
	meas_disks_fold(cls);
}

const struct meas_class_ops meas_class0_ops = {
	.name	= "global",
	.shape	= class0_shape,
	.attach	= class0_attach,
	.detach	= class0_detach,
	.fold	= class0_fold,
};
