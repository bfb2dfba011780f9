// SPDX-License-Identifier: GPL-2.0
/*
 * READACTIVE: filtered reads of class 15 after NonStop Measure's
 * MEASREADACTIVE.  Entity descriptors select processes (match.c); their
 * records go into the caller's buffer and the bytes written are
 * returned.  A buffer too small for every record gets
 * MEAS_RA_BUFTOOSMALL with the size needed, and nothing is written.  An
 * entity index names a record's entry and generation: passed back, it
 * reaches that entry directly, and a stale one is told.
 *
 * A read of every process walks the table twice, in steps of 1024 slots
 * under meas_sir each: once to count what the descriptors select, then,
 * if it fits, to copy it through a buffer of 64 KiB.  Neither the memory
 * nor the hold of one read grows with the table or the caller's buffer.
 * Should more records be selected the second time (the table full and
 * its slots reused meanwhile), the read ends with MEAS_RA_BUFTOOSMALL
 * and the records that fitted written.
 */
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include "logic/match.h"
#include "core/ctl.h"
#include "core/class.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "proctab.h"
#include "procread.h"
#include "filter.h"

/* Slots one hold of meas_sir walks, and records one step buffers, at most. */
#define FILTER_STEP_SLOTS	1024
#define FILTER_STEP_RECS	(SZ_64K / sizeof(struct meas_proc_rec))

/**
 * struct filter_call - one READACTIVE call
 * @k: the caller's struct
 * @d: its descriptors, checked
 * @recs: a step's records, FILTER_STEP_RECS at most
 * @rec: the record being composed
 * @room: records the caller's buffer holds
 * @n: records selected
 * @v: the caller, decided once
 * @gen: the generation of class 15's region walked
 * @slot: the next slot to walk
 * @hwm: the last
 * @index: the entity index of the first record
 * @recsize: bytes of each record in the caller's buffer
 */
struct filter_call {
	struct meas_readactive *k;
	struct meas_entity_desc *d;
	struct meas_proc_rec *recs;
	struct meas_proc_rec *rec;
	u64 room;
	u64 n;
	struct proc_viewer v;
	u64 gen;
	u32 slot;
	u32 hwm;
	s64 index;
	u32 recsize;
};

/* Compose a slot and keep it if the descriptors select it. */
static bool filter_one(struct proc_tab *tab, const struct proc_viewer *v,
		       struct filter_call *c, u32 slot, u32 *gen,
		       struct meas_proc_rec *rec)
{
	char comm[MEAS_PROC_COMM_LEN + 1];
	struct meas_match_ent ent;

	if (!meas_procread_entry(tab, v, slot, rec->item, gen))
		return false;
	memcpy(comm, &rec->item[MEAS_P_COMMAND], MEAS_PROC_COMM_LEN);
	comm[MEAS_PROC_COMM_LEN] = '\0';
	ent.pid = rec->item[MEAS_P_PID];
	ent.cpu = rec->item[MEAS_P_LAST_CPU];
	ent.uid = rec->item[MEAS_P_UID];
	ent.comm = comm;
	if (!meas_match_select(c->d, c->k->ndesc, &ent))
		return false;
	rec->size = c->recsize;
	rec->slot = slot;
	rec->index = (u64)*gen << 32 | slot;
	return true;
}

/*
 * Copy @n records to the caller's buffer from record @done on, each of
 * the size the caller asked for: the items that fit.
 */
static int filter_copy(struct filter_call *c, u64 done, u32 n)
{
	u8 __user *dst = u64_to_user_ptr(c->k->buf);
	u32 i;

	if (c->recsize == sizeof(*c->recs))
		return copy_to_user(dst + done * c->recsize, c->recs,
				    n * sizeof(*c->recs)) ? -EFAULT : 0;
	for (i = 0; i < n; i++)
		if (copy_to_user(dst + (done + i) * c->recsize, &c->recs[i],
				 c->recsize))
			return -EFAULT;
	return 0;
}

/* Under meas_sir: the record an entity index names. */
static int filter_index(struct filter_call *c)
{
	struct proc_tab *tab = meas_proc_table;
	s64 idx = c->k->entity_index;
	u32 gen;

	if (!tab)
		return MEAS_RA_NOTMEASURING;
	meas_procread_viewer(&c->v, false);
	if (idx < 0 || !filter_one(tab, &c->v, c, lower_32_bits(idx), &gen,
				   c->rec) || gen != upper_32_bits(idx))
		return MEAS_RA_CANNOTACCESS;
	c->n = 1;
	if (c->room)
		c->recs[0] = *c->rec;
	return c->room ? MEAS_RA_OK : MEAS_RA_BUFTOOSMALL;
}

/*
 * Under meas_sir: walk FILTER_STEP_SLOTS slots at most from c->slot,
 * counting the records selected; with @buf, keep those the caller's
 * buffer has room for, up to a step's buffer, their number in *@nbuf.
 */
static int filter_walk(struct filter_call *c, bool first, u32 *nbuf)
{
	struct proc_tab *tab = meas_proc_table;
	struct meas_class *cls = meas_ctl_class(MEAS_CLASS_PROC);
	u32 steps, gen;

	if (!tab || !cls || (!first && cls->gen != c->gen))
		return MEAS_RA_NOTMEASURING;
	if (first) {
		c->gen = cls->gen;
		meas_procread_viewer(&c->v, false);
		c->hwm = meas_procread_hwm(tab);
	}
	for (steps = 0; c->slot <= c->hwm && steps < FILTER_STEP_SLOTS;
	     steps++) {
		if (!filter_one(tab, &c->v, c, c->slot++, &gen, c->rec))
			continue;
		if (!c->n++)
			c->index = c->rec->index;
		if (!nbuf || c->n > c->room)
			continue;
		c->recs[(*nbuf)++] = *c->rec;
		if (*nbuf == FILTER_STEP_RECS)
			break;
	}
	return MEAS_RA_OK;
}

/*
 * One pass over the table, counting, or copying (@copy) to the caller's
 * buffer.  Return: a MEAS_RA_* code, or -EINTR, -EFAULT.
 */
static int filter_pass(struct filter_call *c, bool copy)
{
	u64 done = 0;
	u32 nbuf;
	int rc;

	c->n = 0;
	c->slot = 1;
	do {
		nbuf = 0;
		if (mutex_lock_killable(&meas_sir))
			return -EINTR;
		rc = filter_walk(c, !copy && c->slot == 1,
				 copy ? &nbuf : NULL);
		mutex_unlock(&meas_sir);
		if (rc)
			return rc;
		if (nbuf && filter_copy(c, done, nbuf))
			return -EFAULT;
		done += nbuf;
	} while (c->slot <= c->hwm);
	return c->n > c->room ? MEAS_RA_BUFTOOSMALL : MEAS_RA_OK;
}

/* READACTIVE on a validated struct and checked descriptors. */
static int filter_read(struct filter_call *c)
{
	struct meas_readactive *k = c->k;
	int rc;

	c->rec = kmalloc(sizeof(*c->rec), GFP_KERNEL);
	c->recs = kvmalloc_array(FILTER_STEP_RECS, sizeof(*c->recs),
				 GFP_KERNEL | __GFP_NOWARN);
	if (!c->rec || !c->recs)
		return -ENOMEM;
	c->index = -1;
	if (k->entity_index != -1) {
		if (mutex_lock_killable(&meas_sir))
			return -EINTR;
		rc = filter_index(c);
		mutex_unlock(&meas_sir);
		if (rc == MEAS_RA_OK && filter_copy(c, 0, 1))
			return -EFAULT;
		c->index = c->n ? c->rec->index : -1;
	} else {
		rc = filter_pass(c, false);
		if (rc == MEAS_RA_OK)
			rc = filter_pass(c, true);
	}
	if (rc < 0)
		return rc;
	k->result = rc;
	if (rc == MEAS_RA_BUFTOOSMALL || rc == MEAS_RA_OK) {
		k->bytesret = c->n * c->recsize;
		k->records = c->n;
	}
	if (rc == MEAS_RA_OK)
		k->entity_index = c->n ? c->index : -1;
	return meas_rc_errno(MEAS_RC_READACTIVE, rc);
}

/* Copy in and check the descriptors. */
static int filter_descs(struct filter_call *c)
{
	u32 i;

	if (!c->k->ndesc || c->k->ndesc > MEAS_RA_MAX_DESC)
		return MEAS_RA_BADDESC;
	c->d = memdup_user(u64_to_user_ptr(c->k->descs),
			   c->k->ndesc * sizeof(*c->d));
	if (IS_ERR(c->d)) {
		int err = PTR_ERR(c->d);

		c->d = NULL;
		return err;
	}
	for (i = 0; i < c->k->ndesc; i++)
		if (meas_check_desc(&c->d[i]))
			return MEAS_RA_BADDESC;
	return MEAS_RA_OK;
}

/**
 * meas_filter_ioctl() - MEAS_IOC_READACTIVE
 * @u: the user's struct meas_readactive
 *
 * Return: 0 or the errno of the result (uapi/linux/meas.h).
 */
long meas_filter_ioctl(void __user *u)
{
	struct meas_readactive k;
	struct filter_call c = { .k = &k };
	long usize, rc;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_READACTIVE_SIZE_VER0, u, &k.flags,
			       0, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	c.recsize = k.recsize ?: MEAS_PROC_REC_SIZE_VER0;
	if (k.pad || k.pad2 || c.recsize % sizeof(u64) ||
	    c.recsize < MEAS_PROC_REC_SIZE_VER0 ||
	    c.recsize > sizeof(struct meas_proc_rec))
		return -EINVAL;
	k.bytesret = 0;
	k.records = 0;
	c.room = k.bufsize / c.recsize;
	rc = filter_descs(&c);
	if (rc < 0)
		goto out;
	if (rc) {
		k.result = rc;
		rc = meas_uarg_copy_out(u, &k, sizeof(k), usize,
					meas_rc_errno(MEAS_RC_READACTIVE, rc));
		goto out;
	}
	rc = filter_read(&c);
	if (rc != -EFAULT && rc != -EINTR && rc != -ENOMEM)
		rc = meas_uarg_copy_out(u, &k, sizeof(k), usize, rc);
out:
	kvfree(c.recs);
	kfree(c.rec);
	kfree(c.d);
	return rc;
}
