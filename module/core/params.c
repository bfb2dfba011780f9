// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters.  They are read when a class region is formatted, so
 * a change takes effect at the next first enabler of a class.
 */
#include <linux/moduleparam.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/meas.h>
#include "params.h"

unsigned int meas_param_max_region_kib = 256 * 1024;
module_param_named(max_region_kib, meas_param_max_region_kib, uint, 0644);
MODULE_PARM_DESC(max_region_kib,
		 "Largest class region in KiB; above it STARTSTATISTICS returns 4 (default 262144)");

unsigned int meas_param_max_disks = 64;
module_param_named(max_disks, meas_param_max_disks, uint, 0644);
MODULE_PARM_DESC(max_disks,
		 "Disks that get an entry in class 0 subclasses 1 and 4 (default 64)");

/* ---- disks and the I/O trace (blk.c, iotrace.c; Documentation/io.rst) */

unsigned int meas_param_max_tapes = 8;
module_param_named(max_tapes, meas_param_max_tapes, uint, 0644);
MODULE_PARM_DESC(max_tapes,
		 "Entries for SCSI tapes in class 0 subclass 3 (default 8)");

/* An unsigned parameter that must stay within [min, max]. */
static int param_set_bounded(const char *val, const struct kernel_param *kp,
			     unsigned int min, unsigned int max)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (v < min || v > max)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

unsigned int meas_param_io_records = 4096;

static int io_records_set(const char *val, const struct kernel_param *kp)
{
	return param_set_bounded(val, kp, MEAS_IO_RECORDS_MIN, 1U << 24);
}

static const struct kernel_param_ops io_records_ops = {
	.set	= io_records_set,
	.get	= param_get_uint,
};

module_param_cb(io_records, &io_records_ops, &meas_param_io_records, 0644);
MODULE_PARM_DESC(io_records,
		 "Records of the class 14 ring, 256..16777216 (default 4096)");

unsigned int meas_param_io_track = 4096;

static int io_track_set(const char *val, const struct kernel_param *kp)
{
	return param_set_bounded(val, kp, 64, 1U << 22);
}

static const struct kernel_param_ops io_track_ops = {
	.set	= io_track_set,
	.get	= param_get_uint,
};

module_param_cb(io_track, &io_track_ops, &meas_param_io_track, 0644);
MODULE_PARM_DESC(io_track,
		 "Requests in flight the block probes follow, 64..4194304, rounded up to a power of two (default 4096)");

/* ---- task measurement (task.c; Documentation/task.rst) ------------- */

unsigned int meas_param_max_tasks = 16;

static int max_tasks_set(const char *val, const struct kernel_param *kp)
{
	return param_set_bounded(val, kp, 1, 1024);
}

static const struct kernel_param_ops max_tasks_ops = {
	.set	= max_tasks_set,
	.get	= param_get_uint,
};

module_param_cb(max_tasks, &max_tasks_ops, &meas_param_max_tasks, 0644);
MODULE_PARM_DESC(max_tasks,
		 "Processes measured at once, 1..1024; beyond, TASK_START returns NPS0065 (default 16)");

unsigned int meas_param_max_tasks_per_user = 4;

module_param_cb(max_tasks_per_user, &max_tasks_ops,
		&meas_param_max_tasks_per_user, 0644);
MODULE_PARM_DESC(max_tasks_per_user,
		 "Processes one user without CAP_PERFMON or CAP_SYS_ADMIN measures at once, 1..1024; beyond, TASK_START returns NPS0065 (default 4)");

unsigned int meas_param_task_ring_kib = 1024;

static int task_ring_set(const char *val, const struct kernel_param *kp)
{
	return param_set_bounded(val, kp, 64, 65536);
}

static const struct kernel_param_ops task_ring_ops = {
	.set	= task_ring_set,
	.get	= param_get_uint,
};

module_param_cb(task_ring_kib, &task_ring_ops, &meas_param_task_ring_kib,
		0644);
MODULE_PARM_DESC(task_ring_kib,
		 "Buffer of each task measurement in KiB (64 bytes an event), 64..65536 (default 1024)");
