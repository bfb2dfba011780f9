// SPDX-License-Identifier: GPL-2.0
/*
 * GETPROCSTATS and FGETPROCSTATS, specified by MPE IV and never
 * implemented there: the items of one process entry, or of every entry,
 * copied to the caller.  As for GETSTATISTICS, the items are composed
 * into a kernel buffer under meas_sir and copied out after it is
 * released.
 */
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sched/clock.h>
#include "proc.h"
#include "logic/proccheck.h"
#include "core/ctl.h"
#include "core/uarg.h"
#include "logic/rescode.h"

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

/*
 * Entry 0, composed first, has the clock at the start of the read; an
 * allpins read gets the clock at its end too, once every entry's times are
 * taken, if the caller asked for that word.
 */
static void procstats_stamp_end(const struct meas_procstats *k, u64 items,
				u64 *snap)
{
	if (k->allpins && k->firstitem <= MEAS_P0_CLOCK_END &&
	    k->firstitem + items > MEAS_P0_CLOCK_END)
		snap[MEAS_P0_CLOCK_END - k->firstitem] = local_clock();
}

/* Under meas_sir: check, then compose the items into *snap. */
static int procstats_snapshot(struct meas_procstats *k, u64 **snap, u64 *n)
{
	bool fast = k->flags & MEAS_PROCSTATS_FAST;
	struct proc_tab *tab = meas_proc_table;
	u64 e[MEAS_PROC_ITEMS], items, nent, need, i;
	struct proc_viewer v;
	int rc;

	if (!tab)
		return fast ? MEAS_PROC_OK : MEAS_PROC_NOTENABLED;
	meas_procread_viewer(&v, false);
	nent = k->allpins ? (u64)meas_procread_hwm(tab) + 1 : 1;
	if (!k->allpins && !procstats_pin(tab, &v, k, e))
		return fast ? MEAS_PROC_OK : MEAS_PROC_BADPIN;
	if (fast) {
		if (!meas_clamp_fprocstats(k->firstitem, k->wordcount,
					   MEAS_PROC_ITEMS, nent, k->buflen,
					   &items, &nent))
			return MEAS_PROC_OK;
	} else {
		rc = meas_check_procstats(k->firstitem, k->wordcount,
					  MEAS_PROC_ITEMS, nent, k->buflen,
					  &need);
		if (rc == MEAS_PROC_BOUNDS)
			k->words = need;
		if (rc)
			return rc;
		items = k->wordcount;
	}
	k->entries = nent;
	if (!items)
		return MEAS_PROC_OK;
	*snap = kvmalloc_array(nent * items, sizeof(u64), GFP_KERNEL);
	if (!*snap)
		return -ENOMEM;
	for (i = 0; i < nent; i++) {
		if (k->allpins)
			procstats_any(tab, &v, i, e);
		memcpy(*snap + i * items, e + k->firstitem,
		       items * sizeof(u64));
	}
	*n = nent * items;
	procstats_stamp_end(k, items, *snap);
	return MEAS_PROC_OK;
}

/* GETPROCSTATS on a validated struct: result, words and entries set. */
static int procstats(struct meas_procstats *k)
{
	bool fast = k->flags & MEAS_PROCSTATS_FAST;
	u64 *snap = NULL, n = 0;
	int rc;

	k->words = 0;
	k->entries = 0;
	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	rc = procstats_snapshot(k, &snap, &n);
	mutex_unlock(&meas_sir);
	if (rc < 0)
		return rc;
	k->result = rc;
	if (n && copy_to_user(u64_to_user_ptr(k->buf), snap,
			      n * sizeof(u64))) {
		k->result = fast ? MEAS_PROC_OK : MEAS_PROC_BOUNDS;
		k->entries = 0;
		rc = -EFAULT;
	} else {
		if (n)
			k->words = n;
		rc = meas_rc_errno(MEAS_RC_PROCSTATS, rc);
	}
	kvfree(snap);
	return rc;
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
