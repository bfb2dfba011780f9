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
#include <linux/meas.h>
#include "core/class.h"
#include "logic/blklogic.h"
#include "sched/sched.h"
#include "disk/disks.h"
#include "proc/proc.h"
#include "proc/procread.h"
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

/*
 * Class 15, the process statistics (MEASPROCXDS): its table and probes
 * (proc/proc.c) and its part of the scheduler hook (sched/sched.c).  The
 * switch hook comes before the fork probe: a child the fork probe enters
 * must meet the hook at its final switch-out, which unlinks its record.
 */
static int class15_attach(struct meas_class *cls)
{
	struct proc_tab *tab;
	int rc = meas_proc_prepare(cls, &tab);

	if (rc)
		return rc;
	if (meas_hook_attach_proc(tab)) {
		rc = MEAS_START_NOLOCK;
		goto end_table;
	}
	rc = meas_proc_start(tab);
	if (rc)
		goto detach_hook;
	cls->priv = tab;
	return MEAS_START_OK;

detach_hook:
	meas_hook_detach_proc();
end_table:
	meas_proc_end(tab);
	return rc;
}

static void class15_detach(struct meas_class *cls)
{
	struct proc_tab *tab = cls->priv;

	meas_proc_stop(tab);
	meas_hook_detach_proc();
	meas_proc_end(tab);
	cls->priv = NULL;
}

/* Reads go through snap, which adds the live threads; nothing to fold. */
static void class15_fold(struct meas_class *cls)
{
}

const struct meas_class_ops meas_class15_ops = {
	.name	= "process",
	.shape	= meas_proc_shape,
	.attach	= class15_attach,
	.detach	= class15_detach,
	.fold	= class15_fold,
	.snap	= meas_procread_snap,
};
