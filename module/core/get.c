// SPDX-License-Identifier: GPL-2.0
/*
 * GETSTATISTICS and FGETSTATISTICS: copy items of a subclass to the
 * caller.  The items are snapshot into a kernel buffer under meas_sir, so
 * the region can be neither half-formatted nor freed while it is read,
 * and copied out after the mutex is released: a caller whose buffer
 * faults slowly (userfaultfd, FUSE) cannot hold up START, STOP or the
 * cleanup of closing files.
 */
#include <linux/uaccess.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/meas.h>
#include "class.h"
#include "ctl.h"
#include "get.h"
#include "logic/rescode.h"

/* The checked path: MPE IV's codes (order: Documentation/mpe-differences.rst). */
static int get_range(struct meas_class *cls, const struct meas_get *arg,
		     u64 *word, u64 *n)
{
	struct meas_sub_view view;
	int rc;

	rc = meas_layout_find(cls->region, cls->words, arg->class,
			      arg->subclass, &view);
	if (!rc)
		rc = meas_check_get(&view, arg->startingitem, arg->wordcount,
				    arg->buflen);
	if (rc)
		return rc;
	*word = view.base + MEAS_HEADER_WORDS + arg->startingitem;
	*n = arg->wordcount;
	return MEAS_GET_OK;
}

/* The fast path: no descriptive checks, but never outside the subclass. */
static void fget_range(struct meas_class *cls, const struct meas_get *arg,
		       u64 *word, u64 *n)
{
	struct meas_sub_view view;

	if (meas_layout_find(cls->region, cls->words, arg->class,
			     arg->subclass, &view) ||
	    !meas_clamp_fget(&view, arg->startingitem, arg->wordcount,
			     arg->buflen, word, n))
		*n = 0;
}

/* Under meas_sir: check, then snapshot the range into *snap. */
static int get_snapshot(struct meas_get *arg, u64 **snap, u64 *n)
{
	bool fast = arg->flags & MEAS_GET_FAST;
	struct meas_class *cls;
	u64 word = 0;
	int rc = MEAS_GET_OK;

	*n = 0;
	cls = meas_ctl_class(arg->class);
	if (!cls)
		rc = fast ? MEAS_GET_OK : MEAS_GET_NOTENABLED;
	else if (fast)
		fget_range(cls, arg, &word, n);
	else
		rc = get_range(cls, arg, &word, n);
	if (!*n)
		return rc;
	*snap = kvmalloc_array(*n, sizeof(u64), GFP_KERNEL);
	if (!*snap)
		return -ENOMEM;
	if (cls->ops->snap) {
		cls->ops->snap(cls, word, *n, *snap);
		return rc;
	}
	cls->ops->fold(cls);
	memcpy(*snap, cls->region + word, *n * sizeof(u64));
	return rc;
}

/**
 * meas_get_stats() - GETSTATISTICS or, with MEAS_GET_FAST, FGETSTATISTICS
 * @arg: the request, validated as a struct; result and words are set
 *
 * Return: 0 or the errno of arg->result (Documentation/uapi.rst); -EFAULT
 * when the destination cannot be written, -EINTR on a fatal signal,
 * -ENOMEM when no snapshot buffer can be had.
 */
int meas_get_stats(struct meas_get *arg)
{
	bool fast = arg->flags & MEAS_GET_FAST;
	u64 *snap = NULL, n;
	int rc;

	arg->words = 0;
	if (!fast && (arg->class < 0 || arg->class >= MEAS_NR_CLASSES)) {
		arg->result = MEAS_GET_BADCLASS;
		return meas_rc_errno(MEAS_RC_GET, MEAS_GET_BADCLASS);
	}
	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	rc = get_snapshot(arg, &snap, &n);
	mutex_unlock(&meas_sir);
	if (rc < 0)
		return rc;
	arg->result = rc;
	if (n && copy_to_user(u64_to_user_ptr(arg->buf), snap,
			      n * sizeof(u64))) {
		arg->result = fast ? MEAS_GET_OK : MEAS_GET_BOUNDS;
		rc = -EFAULT;
	} else {
		arg->words = n;
		rc = meas_rc_errno(MEAS_RC_GET, rc);
	}
	kvfree(snap);
	return rc;
}
