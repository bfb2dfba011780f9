// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/meas: the misc device, its open files and the ioctl dispatch.
 * Above the areas, beside main.c: it calls each area's ioctl handlers
 * and release hooks, so that core/ below them includes none.  Each open
 * file carries the classes it enabled; when its last reference
 * goes (close, exit, kill -9) they are stopped, as MORGUE did.
 */
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/string.h>
#include <linux/module.h>
#include <linux/meas_task.h>
#include <linux/meas.h>
#include "core/ctl.h"
#include "core/get.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "clock/clock.h"
#include "custom/custom_ioctl.h"
#include "proc/procstats.h"
#include "proc/filter.h"
#include "disk/iotrace.h"
#include "task/task.h"
#include "dev.h"

struct meas_file {
	u32 mask;	/* PCLASSENABLEDMASK */
	void *iocur;	/* class 14 reader's cursor (iotrace.c) */
};

static int dev_open(struct inode *inode, struct file *file)
{
	struct meas_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);

	if (!mf)
		return -ENOMEM;
	file->private_data = mf;
	return 0;
}

static int dev_release(struct inode *inode, struct file *file)
{
	struct meas_file *mf = file->private_data;
	u32 global;

	meas_task_release(file);	/* its MEAS_TASK_OWNED measurements */
	meas_clock_release(file);	/* the shared clock, if file owns it */
	meas_ctl_stop(&mf->mask, mf->mask, &global);
	meas_iotrace_release(mf->iocur);
	kfree(mf);
	return 0;
}

static long dev_startstop(struct meas_file *mf, void __user *u, bool start)
{
	struct meas_start k;
	long usize;
	int rc;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_START_SIZE_VER0, u, &k.flags,
			       0, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (!perfmon_capable())
		return -EPERM;
	if (start)
		rc = meas_ctl_start(&mf->mask, k.classmask, &k.global_mask);
	else
		rc = meas_ctl_stop(&mf->mask, k.classmask, &k.global_mask);
	k.result = rc;
	k.file_mask = mf->mask;
	return meas_uarg_copy_out(u, &k, sizeof(k), usize,
				  meas_rc_errno(start ? MEAS_RC_START :
						MEAS_RC_STOP, rc));
}

static long dev_get(void __user *u)
{
	struct meas_get k;
	long usize;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_GET_SIZE_VER0, u, &k.flags,
			       MEAS_GET_FAST, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (k.pad)
		return -EINVAL;
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, meas_get_stats(&k));
}

static long dev_getinfo(struct meas_file *mf, void __user *u)
{
	struct meas_info k;
	long usize;

	usize = meas_uarg_read_outonly(&k, sizeof(k), MEAS_INFO_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	meas_ctl_info(mf->mask, &k);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, 0);
}

static long dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct meas_file *mf = file->private_data;
	void __user *u = (void __user *)arg;

	switch (cmd) {
	case MEAS_IOC_START:
		return dev_startstop(mf, u, true);
	case MEAS_IOC_STOP:
		return dev_startstop(mf, u, false);
	case MEAS_IOC_GET:
		return dev_get(u);
	case MEAS_IOC_INFO:
		return dev_getinfo(mf, u);
	/* user-defined classes and UPDATESTATISTICS (custom_ioctl.c) */
	case MEAS_IOC_DEFINE:
	case MEAS_IOC_UNDEFINE:
	case MEAS_IOC_DESCRIBE:
	case MEAS_IOC_UPDATE:
		return meas_custom_ioctl(cmd, u);
	/* the shared clock: GETCLOCK, GIVECLOCK (clock.c) */
	case MEAS_IOC_GETCLOCK:
	case MEAS_IOC_GIVECLOCK:
	case MEAS_IOC_CLOCKINFO:
		return meas_clock_ioctl(file, cmd, u);
	/* class 15: GETPROCSTATS (procstats.c), READACTIVE (filter.c) */
	case MEAS_IOC_GETPROCSTATS:
		return meas_procstats_ioctl(u);
	case MEAS_IOC_READACTIVE:
		return meas_filter_ioctl(u);
	/* task measurement (task.c) */
	case MEAS_IOC_TASK_START:
	case MEAS_IOC_TASK_STOP:
		return meas_task_ioctl(file, cmd, u);
	/* class 14's streaming reader (iotrace.c) */
	case MEAS_IOC_IOTRACE_READ:
		return meas_iotrace_ioctl(&mf->iocur, u);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations meas_fops = {
	.owner		= THIS_MODULE,
	.open		= dev_open,
	.release	= dev_release,
	.unlocked_ioctl	= dev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice meas_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "meas",
	.fops	= &meas_fops,
	/*
	 * Root's alone until udev gives it to the group "meas"
	 * (tools/system/60-meas.rules, 0660): the misc class's devnode
	 * callback gives devtmpfs this mode, so a manual insmod, or the
	 * moment before udev runs, opens it to no one else.
	 */
	.mode	= 0600,
};

int meas_dev_register(void)
{
	return misc_register(&meas_misc);
}

void meas_dev_unregister(void)
{
	misc_deregister(&meas_misc);
}
