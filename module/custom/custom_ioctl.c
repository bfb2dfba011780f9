// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctls of user-defined classes: MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE,
 * MEAS_IOC_DESCRIBE and MEAS_IOC_UPDATE (UPDATESTATISTICS).  The structs
 * are read and checked here, the work is done by custom.c and update.c.
 */
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/stddef.h>
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include "core/uarg.h"
#include "logic/rescode.h"
#include "custom.h"
#include "update.h"
#include "custom_ioctl.h"

/* Answer a DEFINE, UNDEFINE or DESCRIBE with its code and errno. */
static long ioctl_define_reply(void __user *u, struct meas_define *k,
			       long usize, int rc, long err)
{
	if (rc < 0)
		return rc;
	k->result = rc;
	return meas_uarg_copy_out(u, k, sizeof(*k), usize,
				  err ?: meas_rc_errno(MEAS_RC_DEFINE, rc));
}

/* The item definitions of a checked DEFINE, in kernel memory. */
static int ioctl_define_items(const struct meas_define *k,
			      struct meas_item_def **items)
{
	*items = NULL;
	if (!k->items)
		return MEAS_DEFINE_OK;
	*items = kvmalloc_array(k->nitems, sizeof(**items), GFP_KERNEL);
	if (!*items)
		return MEAS_DEFINE_NOMEM;
	if (copy_from_user(*items, u64_to_user_ptr(k->items),
			   k->nitems * sizeof(**items)))
		return -EFAULT;
	return MEAS_DEFINE_OK;
}

static long ioctl_define(struct meas_define *k, void __user *u)
{
	struct meas_custom_shape shape;
	struct meas_item_def *items;
	long usize;
	int rc;

	usize = meas_uarg_copy_in(k, sizeof(*k), MEAS_DEFINE_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	if (k->flags & ~MEAS_DEFINE_REPLACE)
		return -EOPNOTSUPP;
	if (k->pad || memchr_inv(k->reserved, 0, sizeof(k->reserved)))
		return -EINVAL;
	if (!perfmon_capable())
		return -EPERM;
	/* The shape first: it bounds the item definitions to read. */
	rc = meas_custom_check_define(k, &shape);
	if (rc)
		return ioctl_define_reply(u, k, usize, rc, 0);
	rc = ioctl_define_items(k, &items);
	if (!rc)
		rc = meas_custom_install(k, items, true);
	kvfree(items);
	return ioctl_define_reply(u, k, usize, rc, 0);
}

static long ioctl_undefine(struct meas_define *k, void __user *u)
{
	size_t rest = offsetof(struct meas_define, nsub);
	long usize;

	usize = meas_uarg_copy_in(k, sizeof(*k), MEAS_DEFINE_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	if (k->flags)
		return -EOPNOTSUPP;
	if (memchr_inv((char *)k + rest, 0, sizeof(*k) - rest))
		return -EINVAL;
	if (!perfmon_capable())
		return -EPERM;
	return ioctl_define_reply(u, k, usize,
				  meas_custom_uninstall(k->class, true), 0);
}

static long ioctl_describe(struct meas_define *k, void __user *u)
{
	struct meas_item_def *items;
	u64 where, room;
	long usize, err = 0;
	int rc, class;

	usize = meas_uarg_copy_in(k, sizeof(*k), MEAS_DEFINE_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	if (k->flags)
		return -EOPNOTSUPP;
	where = k->items;
	room = k->nitems;
	class = k->class;
	/* Every field but size, class, items and nitems is output. */
	memset(k, 0, sizeof(*k));
	k->size = usize;
	k->class = class;
	k->items = where;
	rc = meas_custom_describe(k, &items);
	if (!rc && where && copy_to_user(u64_to_user_ptr(where), items,
					 min(room, k->nitems) * sizeof(*items)))
		err = -EFAULT;
	kvfree(items);
	return ioctl_define_reply(u, k, usize, rc, err);
}

static long ioctl_update(void __user *u)
{
	const u32 known = MEAS_UPDATE_FAST | MEAS_UPDATE_NEWVALUE |
			  MEAS_UPDATE_DOUBLE;
	struct meas_update k;
	long usize;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_UPDATE_SIZE_VER0, u, &k.flags,
			       known, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (k.pad)
		return -EINVAL;
	if (!perfmon_capable())
		return -EPERM;
	k.result = meas_update_one(k.class, k.subclass, k.entry,
				   k.startingitem, k.flags, k.valuechange);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize,
				  meas_rc_errno(MEAS_RC_UPDATE, k.result));
}

/**
 * meas_custom_ioctl() - the ioctls of user-defined classes
 * @cmd: MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE, MEAS_IOC_DESCRIBE or
 *	MEAS_IOC_UPDATE
 * @u: the user's struct
 *
 * Return: 0 or a negative errno (Documentation/custom.rst).
 */
long meas_custom_ioctl(unsigned int cmd, void __user *u)
{
	struct meas_define *k;
	long ret;

	BUILD_BUG_ON(sizeof(struct meas_define) != MEAS_DEFINE_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct meas_update) != MEAS_UPDATE_SIZE_VER0);
	BUILD_BUG_ON(MEAS_CUSTOM_MAX_SUBCLASSES != MEAS_MAX_SUBCLASSES);
	if (cmd == MEAS_IOC_UPDATE)
		return ioctl_update(u);
	/* 728 bytes: not on the stack. */
	k = kmalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	switch (cmd) {
	case MEAS_IOC_DEFINE:
		ret = ioctl_define(k, u);
		break;
	case MEAS_IOC_UNDEFINE:
		ret = ioctl_undefine(k, u);
		break;
	case MEAS_IOC_DESCRIBE:
		ret = ioctl_describe(k, u);
		break;
	default:
		ret = -ENOTTY;
	}
	kfree(k);
	return ret;
}
