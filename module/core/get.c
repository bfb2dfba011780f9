// SPDX-License-Identifier: GPL-2.0
/*
 * GETSTATISTICS and FGETSTATISTICS: copy items of a subclass to the
 * caller.  The items are snapshot into a kernel buffer under meas_sir, so
 * the region can be neither half-formatted nor freed while it is read,
 * and copied out after the mutex is released: a caller whose buffer
 * faults slowly (userfaultfd, FUSE) cannot hold up START, STOP or the
 * cleanup of closing files.
 *
 * One hold of meas_sir snapshots GET_STEP_WORDS words at most, into a
 * buffer of that size: a GET of a whole class 15 table (13 MB with the
 * default 32768 entries) is copied in steps, each ending at an entry
 * boundary, so that neither the memory one request holds nor the time
 * it keeps meas_sir from the others grows with its size.  Each step is
 * consistent in itself; a region disabled (or made anew) between two
 * steps ends the copy with MEAS_GET_NOTENABLED and the words copied.
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

/* The most words one hold of meas_sir snapshots: 64 KiB. */
#define GET_STEP_WORDS	(SZ_64K / sizeof(u64))

/**
 * struct get_copy - a GET in progress
 * @view: the subclass
 * @gen: the generation of the region being read
 * @word: next region word
 * @left: words still to copy
 * @buf: GET_STEP_WORDS words at most
 */
struct get_copy {
	struct meas_sub_view view;
	u64 gen;
	u64 word;
	u64 left;
	u64 *buf;
};

/* The checked path: MPE IV's codes (order: Documentation/mpe-differences.rst). */
static int get_range(struct meas_class *cls, const struct meas_get *arg,
		     struct get_copy *c)
{
	int rc;

	rc = meas_layout_find(cls->region, cls->words, arg->class,
			      arg->subclass, &c->view);
	if (!rc)
		rc = meas_check_get(&c->view, arg->startingitem,
				    arg->wordcount, arg->buflen);
	if (rc)
		return rc;
	c->word = c->view.base + MEAS_HEADER_WORDS + arg->startingitem;
	c->left = arg->wordcount;
	return MEAS_GET_OK;
}

/* The fast path: no descriptive checks, but never outside the subclass. */
static void fget_range(struct meas_class *cls, const struct meas_get *arg,
		       struct get_copy *c)
{
	if (meas_layout_find(cls->region, cls->words, arg->class,
			     arg->subclass, &c->view) ||
	    !meas_clamp_fget(&c->view, arg->startingitem, arg->wordcount,
			     arg->buflen, &c->word, &c->left))
		c->left = 0;
}

/* Under meas_sir: check, and find what to copy. */
static int get_find(struct meas_get *arg, struct get_copy *c)
{
	bool fast = arg->flags & MEAS_GET_FAST;
	struct meas_class *cls;

	c->left = 0;
	cls = meas_ctl_class(arg->class);
	if (!cls)
		return fast ? MEAS_GET_OK : MEAS_GET_NOTENABLED;
	c->gen = cls->gen;
	if (fast) {
		fget_range(cls, arg, c);
		return MEAS_GET_OK;
	}
	return get_range(cls, arg, c);
}

/*
 * Under meas_sir: the next @n words into c->buf.  False if the region
 * they were to come from is gone.
 */
static bool get_step(int class, struct get_copy *c, u64 n)
{
	struct meas_class *cls = meas_ctl_class(class);

	if (!cls || cls->gen != c->gen)
		return false;
	if (cls->ops->snap) {
		cls->ops->snap(cls, c->word, n, c->buf);
		return true;
	}
	cls->ops->fold(cls);
	memcpy(c->buf, cls->region + c->word, n * sizeof(u64));
	return true;
}

/*
 * Copy what get_find() found, step by step.  Return: 0, -EINTR, -EFAULT,
 * or 1 when the region went away; arg->words counts what was copied.
 */
static int get_copy_out(struct meas_get *arg, struct get_copy *c)
{
	u64 __user *dst = u64_to_user_ptr(arg->buf);
	bool gone = false;
	u64 n;

	while (c->left) {
		n = meas_layout_step(&c->view, c->word, c->left,
				     GET_STEP_WORDS);
		if (arg->words) {	/* the first step was taken with the checks */
			if (mutex_lock_killable(&meas_sir))
				return -EINTR;
			gone = !get_step(arg->class, c, n);
			mutex_unlock(&meas_sir);
			if (gone)
				return 1;
		}
		if (copy_to_user(dst + arg->words, c->buf, n * sizeof(u64)))
			return -EFAULT;
		arg->words += n;
		c->word += n;
		c->left -= n;
		if (c->left && fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
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
	struct get_copy c = { 0 };
	int rc, err;

	arg->words = 0;
	if (!fast && (arg->class < 0 || arg->class >= MEAS_NR_CLASSES)) {
		arg->result = MEAS_GET_BADCLASS;
		return meas_rc_errno(MEAS_RC_GET, MEAS_GET_BADCLASS);
	}
	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	rc = get_find(arg, &c);
	if (c.left) {
		c.buf = kvmalloc_array(min_t(u64, c.left, GET_STEP_WORDS),
				       sizeof(u64), GFP_KERNEL);
		if (c.buf)
			get_step(arg->class, &c,
				 meas_layout_step(&c.view, c.word, c.left,
						  GET_STEP_WORDS));
	}
	mutex_unlock(&meas_sir);
	if (c.left && !c.buf)
		return -ENOMEM;
	arg->result = rc;
	err = c.left ? get_copy_out(arg, &c) : 0;
	kvfree(c.buf);
	if (err == -EFAULT)
		arg->result = fast ? MEAS_GET_OK : MEAS_GET_BOUNDS;
	if (err == 1) {
		arg->result = fast ? MEAS_GET_OK : MEAS_GET_NOTENABLED;
		err = 0;
	}
	return err ?: meas_rc_errno(MEAS_RC_GET, arg->result);
}
