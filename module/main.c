// SPDX-License-Identifier: GPL-2.0
/*
 * meas: the MPE IV measurement interface on Linux.  Init and exit only;
 * exit undoes init in reverse.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/meas.h>
#include "core/ctl.h"
#include "core/tp.h"
#include "sched/sched.h"
#include "clock/clock.h"
#include "custom/custom.h"
#include "proc/proc.h"
#include "proc/genl.h"
#include "disk/blk.h"
#include "disk/iotrace.h"
#include "task/task.h"
#include "classes.h"
#include "collectors.h"
#include "dev.h"

static int __init meas_init(void)
{
	int err;

	meas_tp_init();		/* before the units bind their probes */
	err = meas_sched_init();
	if (err)
		return err;
	err = meas_proc_init();
	if (err)
		return err;
	meas_ctl_define(MEAS_CLASS_GLOBAL, &meas_class0_ops);
	meas_blk_init();	/* disks and class 14: binds tracepoints */
	meas_ctl_define(MEAS_CLASS_IO, &meas_class14_ops);
	meas_ctl_define(MEAS_CLASS_PROC, &meas_class15_ops);
	err = meas_clock_init(meas_collectors);
	if (err)
		goto undefine_classes;
	err = meas_genl_register();
	if (err)
		goto clock_exit;
	err = meas_task_init();
	if (err)
		goto genl_unregister;
	err = meas_dev_register();
	if (err)
		goto task_exit;
	return 0;

task_exit:
	meas_task_exit();
genl_unregister:
	meas_genl_unregister();
clock_exit:
	meas_clock_exit();
undefine_classes:
	meas_ctl_define(MEAS_CLASS_PROC, NULL);
	meas_ctl_define(MEAS_CLASS_IO, NULL);
	meas_ctl_define(MEAS_CLASS_GLOBAL, NULL);
	return err;
}

/*
 * Every open file holds a module reference and stops its classes when it
 * is released, so by now no class is enabled and no class probe is
 * registered.  Task measurements outlive their files: their exit ends them.
 */
static void __exit meas_exit(void)
{
	meas_dev_unregister();
	meas_task_exit();	/* ends task measurements: they hold no file */
	meas_genl_unregister();
	meas_clock_exit();
	meas_custom_exit();
	meas_ctl_define(MEAS_CLASS_PROC, NULL);
	meas_ctl_define(MEAS_CLASS_IO, NULL);
	meas_ctl_define(MEAS_CLASS_GLOBAL, NULL);
}

module_init(meas_init);
module_exit(meas_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MPE IV measurement interface: statistics classes, GETSTATISTICS");
MODULE_AUTHOR("The meas developers");
MODULE_VERSION(MEAS_VERSION);
