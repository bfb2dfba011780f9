// SPDX-License-Identifier: GPL-2.0
/*
 * GETPROCSTATS and FGETPROCSTATS, specified by MPE IV and never
 * implemented there: the items of one process entry, or of every entry,
 * copied to the caller.  As for GETSTATISTICS, the items are composed
 * into a kernel buffer under meas_sir and copied out after it is
 * released, in steps of 64 KiB.  Entry 0, composed first, has the clock
 * at the start of the read; an allpins read gets the clock at its end
 * too, once every entry's times are taken.
 */
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sched/clock.h>
#include "logic/proccheck.h"
#include "core/ctl.h"
#include "core/class.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "proctab.h"
#include "procread.h"
#include "procstats.h"

/*
 * The entry of the pin, composed into @e.  Entries the caller may not see
 * are no entries: the pin is bad.
 */
static bool procstats_pin(struct proc_tab *tab, const struct proc_viewer *v,
			  const struct meas_procstats *k, u64 *e)
{
	u32 slot, gen;

	if (!k->pin) {
		meas_procread_header(tab, e, false);
		return true;
	}
	if (k->pin < 0)
		return false;
	if (k->flags & MEAS_PROCSTATS_SLOT)
		slot = (u32)k->pin <= tab->nslots ? k->pin : 0;
	else
		slot = meas_procread_find(tab, v, k->pin);
	return slot && meas_procread_entry(tab, v, slot, e, &gen);
}

/* Entry @ent of an allpins read, into @e. */
static void procstats_any(struct proc_tab *tab, const struct proc_viewer *v,
			  u32 ent, u64 *e)
{
	u32 gen;

	if (ent)
		meas_procread_entry(tab, v, ent, e, &gen);
	else
		meas_procread_header(tab, e, false);
}

/* The most words one hold of meas_sir composes: 64 KiB, whole entries. */
#define PROCSTATS_STEP_WORDS	(SZ_64K / sizeof(u64))

/**
 * struct procstats_copy - a GETPROCSTATS in progress
 * @v: the caller, decided once
 * @gen: the generation of class 15's region being read
 * @items: words of each entry copied
 * @nent: entries
 * @done: entries copied
 * @step: entries one step composes
 * @buf: @step entries of @items words
 */
struct procstats_copy {
	struct proc_viewer v;
	u64 gen;
	u64 items;
	u64 nent;
	u64 done;
	u64 step;
	u64 *buf;
};

/* Under meas_sir: the next step's entries into c->buf; their count. */
static u64 procstats_step(struct proc_tab *tab, const struct meas_procstats *k,
			  struct procstats_copy *c)
{
	u64 e[MEAS_PROC_ITEMS], i, n = min(c->step, c->nent - c->done);

	for (i = 0; i < n; i++) {
		procstats_any(tab, &c->v, c->done + i, e);
		memcpy(c->buf + i * c->items, e + k->firstitem,
		       c->items * sizeof(u64));
	}
	return n;
}

/*
 * Under meas_sir: check; then the pin's entry, or the first step of an
 * allpins read, composed into c->buf.  Return: a MEAS_PROC_* code, or
 * -ENOMEM; c->items is 0 when there is nothing to copy.
 */
static int procstats_first(struct meas_procstats *k, struct procstats_copy *c,
			   u64 *n)
{
	bool fast = k->flags & MEAS_PROCSTATS_FAST;
	struct proc_tab *tab = meas_proc_table;
	u64 e[MEAS_PROC_ITEMS], need;
	int rc;

	c->items = 0;
	if (!tab)
		return fast ? MEAS_PROC_OK : MEAS_PROC_NOTENABLED;
	c->gen = meas_ctl_class(MEAS_CLASS_PROC)->gen;
	meas_procread_viewer(&c->v, false);
	c->nent = k->allpins ? (u64)meas_procread_hwm(tab) + 1 : 1;
	if (!k->allpins && !procstats_pin(tab, &c->v, k, e))
		return fast ? MEAS_PROC_OK : MEAS_PROC_BADPIN;
	if (fast) {
		if (!meas_clamp_fprocstats(k->firstitem, k->wordcount,
					   MEAS_PROC_ITEMS, c->nent, k->buflen,
					   &c->items, &c->nent))
			return MEAS_PROC_OK;
	} else {
		rc = meas_check_procstats(k->firstitem, k->wordcount,
					  MEAS_PROC_ITEMS, c->nent, k->buflen,
					  &need);
		if (rc == MEAS_PROC_BOUNDS)
			k->words = need;
		if (rc)
			return rc;
		c->items = k->wordcount;
	}
	k->entries = c->nent;
	if (!c->items)
		return MEAS_PROC_OK;
	c->step = max_t(u64, 1, PROCSTATS_STEP_WORDS / c->items);
	c->buf = kvmalloc_array(min(c->nent, c->step) * c->items, sizeof(u64),
				GFP_KERNEL | __GFP_NOWARN);
	if (!c->buf)
		return -ENOMEM;
	if (k->allpins) {
		*n = procstats_step(tab, k, c);
	} else {
		memcpy(c->buf, e + k->firstitem, c->items * sizeof(u64));
		*n = 1;
	}
	return MEAS_PROC_OK;
}

/*
 * Copy the composed steps out, composing the next under meas_sir each
 * time.  Return: 0, -EFAULT, -EINTR, or 1 if class 15 went meanwhile.
 */
static int procstats_copy_out(struct meas_procstats *k,
			      struct procstats_copy *c, u64 n)
{
	u64 __user *dst = u64_to_user_ptr(k->buf);
	struct meas_class *cls;
	u64 now;

	for (;;) {
		if (copy_to_user(dst + c->done * c->items, c->buf,
				 n * c->items * sizeof(u64)))
			return -EFAULT;
		c->done += n;
		k->words = c->done * c->items;
		if (c->done == c->nent)
			break;
		if (mutex_lock_killable(&meas_sir))
			return -EINTR;
		cls = meas_ctl_class(MEAS_CLASS_PROC);
		n = cls && cls->gen == c->gen && meas_proc_table ?
		    procstats_step(meas_proc_table, k, c) : 0;
		mutex_unlock(&meas_sir);
		if (!n)
			return 1;
	}
	/* entry 0 says when the read ended, if the caller asked for it */
	if (k->allpins && k->firstitem <= MEAS_P0_CLOCK_END &&
	    k->firstitem + c->items > MEAS_P0_CLOCK_END) {
		now = local_clock();
		if (put_user(now, dst + MEAS_P0_CLOCK_END - k->firstitem))
			return -EFAULT;
	}
	return 0;
}

/*
 * GETPROCSTATS on a validated struct: result, words and entries set.  An
 * allpins read of the whole table (13 MB with the default 32768 entries)
 * is composed and copied in steps of 64 KiB, each under meas_sir: the
 * memory and the hold of one read do not grow with the table.  Class 15
 * disabled or enabled anew between two steps ends the read with
 * MEAS_PROC_NOTENABLED and the words copied.
 */
static int procstats(struct meas_procstats *k)
{
	bool fast = k->flags & MEAS_PROCSTATS_FAST;
	struct procstats_copy c = { 0 };
	u64 n = 0;
	int rc, err;

	k->words = 0;
	k->entries = 0;
	/* a process in its exit window leaves first, with no lock held */
	if (!k->allpins && k->pin > 0 && !(k->flags & MEAS_PROCSTATS_SLOT)) {
		meas_procread_viewer(&c.v, false);
		meas_procread_settle(&c.v, k->pin);
	}
	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	rc = procstats_first(k, &c, &n);
	mutex_unlock(&meas_sir);
	if (rc < 0) {
		kvfree(c.buf);
		return rc;
	}
	k->result = rc;
	err = c.items ? procstats_copy_out(k, &c, n) : 0;
	kvfree(c.buf);
	if (err == -EFAULT) {
		k->result = fast ? MEAS_PROC_OK : MEAS_PROC_BOUNDS;
		k->entries = 0;
		k->words = 0;
		return -EFAULT;
	}
	if (err == 1) {
		k->result = fast ? MEAS_PROC_OK : MEAS_PROC_NOTENABLED;
		err = 0;
	}
	return err ?: meas_rc_errno(MEAS_RC_PROCSTATS, k->result);
}

/**
 * meas_procstats_ioctl() - MEAS_IOC_GETPROCSTATS
 * @u: the user's struct meas_procstats
 *
 * Return: 0 or the errno of the result (uapi/linux/meas.h).
 */
long meas_procstats_ioctl(void __user *u)
{
	struct meas_procstats k;
	long usize;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_PROCSTATS_SIZE_VER0, u, &k.flags,
			       MEAS_PROCSTATS_FAST | MEAS_PROCSTATS_SLOT,
			       k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (k.allpins > 1 || k.pad)
		return -EINVAL;
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, procstats(&k));
}
