// SPDX-License-Identifier: GPL-2.0
/*
 * STARTSTATISTICS and STOPSTATISTICS: the class table, the global
 * enabled mask (GCLASSENABLEDMASK) and the per-class enabler counts.
 * Each open file carries its own mask (PCLASSENABLEDMASK); the caller
 * passes it in.  meas_sir serialises every change, as the MEASSIR did.
 */
#include <linux/bitops.h>
#include <linux/mutex.h>
#include <linux/meas.h>
#include "class.h"
#include "ctl.h"
#include "xds.h"
#include "tp.h"
#include "inject.h"

/* MEASSIR: serialises start, stop, reads and the class table */
DEFINE_MUTEX(meas_sir);

static struct meas_class meas_classes[MEAS_NR_CLASSES];
static u32 meas_global_mask;

static u32 ctl_defined_mask(void)
{
	u32 mask = 0;
	int c;

	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (meas_classes[c].ops)
			mask |= BIT(c);
	return mask;
}

/* The first enabler acquires and formats the region, then attaches it. */
static int ctl_enable_class(int c)
{
	struct meas_class *cls = &meas_classes[c];
	int rc;

	if (cls->enablers) {
		cls->enablers++;
		return MEAS_START_OK;
	}
	rc = meas_xds_create(cls, c);
	if (rc)
		return rc;
	rc = cls->ops->attach(cls);
	if (rc) {
		meas_xds_destroy(cls);
		return rc;
	}
	cls->enablers = 1;
	meas_global_mask |= BIT(c);
	return MEAS_START_OK;
}

/* The last disabler detaches the probes before the region goes. */
static void ctl_disable_class(int c)
{
	struct meas_class *cls = &meas_classes[c];

	if (--cls->enablers)
		return;
	meas_global_mask &= ~BIT(c);
	cls->ops->detach(cls);
	meas_xds_destroy(cls);
}

static void ctl_disable_mask(u32 mask)
{
	unsigned long bits = mask;
	int c;

	for_each_set_bit(c, &bits, MEAS_NR_CLASSES)
		ctl_disable_class(c);
}

/**
 * meas_ctl_start() - STARTSTATISTICS
 * @file_mask: the calling file's enabled mask, updated
 * @mask: classes to enable
 * @global: out: the global mask after the call
 *
 * Either every class of @mask is enabled for the file or, on error,
 * nothing changes.
 *
 * Return: a MEAS_START_* code.
 */
int meas_ctl_start(u32 *file_mask, u64 mask, u32 *global)
{
	unsigned long todo;
	u32 done = 0;
	int c, rc;

	mutex_lock(&meas_sir);
	rc = meas_check_start_mask(mask, ctl_defined_mask());
	todo = rc ? 0 : mask & ~*file_mask;
	for_each_set_bit(c, &todo, MEAS_NR_CLASSES) {
		rc = ctl_enable_class(c);
		if (rc)
			break;
		done |= BIT(c);
	}
	if (rc)
		ctl_disable_mask(done);
	else
		*file_mask |= done;
	*global = meas_global_mask;
	mutex_unlock(&meas_sir);
	return rc;
}

/**
 * meas_ctl_stop() - STOPSTATISTICS
 * @file_mask: the calling file's enabled mask, updated
 * @mask: classes to disable; bits the file did not enable are ignored
 * @global: out: the global mask after the call
 *
 * Return: a MEAS_STOP_* code.
 */
int meas_ctl_stop(u32 *file_mask, u64 mask, u32 *global)
{
	int rc;

	mutex_lock(&meas_sir);
	rc = meas_check_stop_mask(mask);
	if (!rc) {
		ctl_disable_mask(mask & *file_mask);
		*file_mask &= ~(u32)mask;
	}
	*global = meas_global_mask;
	mutex_unlock(&meas_sir);
	return rc;
}

/**
 * meas_ctl_info() - fill in the state of the facility
 * @file_mask: the calling file's enabled mask
 * @info: zeroed reply
 */
void meas_ctl_info(u32 file_mask, struct meas_info *info)
{
	int c;

	mutex_lock(&meas_sir);
	info->version = meas_inject_abi(MEAS_ABI_VERSION);
	info->global_mask = meas_global_mask;
	info->file_mask = file_mask;
	info->defined_mask = ctl_defined_mask();
	info->probes = meas_tp_probes;
	for (c = 0; c < MEAS_NR_CLASSES; c++) {
		info->enablers[c] = meas_classes[c].enablers;
		info->region_bytes[c] = meas_classes[c].words * sizeof(u64);
	}
	mutex_unlock(&meas_sir);
}

/**
 * meas_ctl_class() - the class table entry of an enabled class
 * @class: class number, any value
 *
 * Called with meas_sir held.
 *
 * Return: the class, or NULL if @class is out of range or not enabled.
 */
struct meas_class *meas_ctl_class(int class)
{
	lockdep_assert_held(&meas_sir);
	if (class < 0 || class >= MEAS_NR_CLASSES ||
	    !(meas_global_mask & BIT(class)))
		return NULL;
	return &meas_classes[class];
}

/**
 * meas_ctl_define() - make a class exist
 * @class: class number
 * @ops: its operations
 *
 * Called at module init, before /dev/meas exists.
 */
void meas_ctl_define(int class, const struct meas_class_ops *ops)
{
	meas_classes[class].ops = ops;
}

/* ---- run-time definitions, for user-defined classes (custom.c) ---- */

/**
 * meas_ctl_ops() - the operations of a class
 * @class: class number, 0..15
 *
 * Called with meas_sir held.
 *
 * Return: its ops, NULL if the class is not defined.
 */
const struct meas_class_ops *meas_ctl_ops(int class)
{
	lockdep_assert_held(&meas_sir);
	return meas_classes[class].ops;
}

/**
 * meas_ctl_redefine() - define, redefine or remove a class at run time
 * @class: class number, 0..15
 * @ops: its operations, NULL to remove it
 * @priv: its private data, what @ops finds in struct meas_class.priv
 *
 * Called with meas_sir held.  A class in use keeps its definition.
 *
 * Return: 0, or -EBUSY if the class is enabled.
 */
int meas_ctl_redefine(int class, const struct meas_class_ops *ops,
		      void *priv)
{
	struct meas_class *cls = &meas_classes[class];

	lockdep_assert_held(&meas_sir);
	if (cls->enablers)
		return -EBUSY;
	cls->ops = ops;
	cls->priv = priv;
	return 0;
}

/* ---- in-kernel enablers, for the shared clock's collectors (clock.c) ---- */

/**
 * meas_ctl_start_internal() - enable classes for a user inside the module
 * @mask: classes to enable
 *
 * Each call counts as one more enabler of every class of @mask, like an
 * open file, until the matching meas_ctl_stop_internal().  Takes meas_sir.
 *
 * Return: a MEAS_START_* code; on error nothing changed.
 */
int meas_ctl_start_internal(u32 mask)
{
	u32 mine = 0, global;

	return meas_ctl_start(&mine, mask, &global);
}

/**
 * meas_ctl_stop_internal() - undo meas_ctl_start_internal()
 * @mask: the same classes
 */
void meas_ctl_stop_internal(u32 mask)
{
	u32 mine = mask, global;

	meas_ctl_stop(&mine, mask, &global);
}
