// SPDX-License-Identifier: GPL-2.0
/*
 * READACTIVE: filtered reads of class 15 after NonStop Measure's
 * MEASREADACTIVE.  Entity descriptors select processes (match.c); their
 * records go into the caller's buffer and the bytes written are
 * returned.  A buffer too small for every record gets
 * MEAS_RA_BUFTOOSMALL with the size needed, and nothing is written.  An
 * entity index names a record's entry and generation: passed back, it
 * reaches that entry directly, and a stale one is told.
 */
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include "proc.h"
#include "logic/match.h"
#include "core/ctl.h"
#include "core/uarg.h"
#include "logic/rescode.h"

/**
 * struct filter_call - one READACTIVE call
 * @k: the caller's struct
 * @d: its descriptors, checked
 * @recs: the records selected, up to @room
 * @room: records the caller's buffer holds
 * @n: records selected
 */
struct filter_call {
	struct meas_readactive *k;
	struct meas_entity_desc *d;
	struct meas_proc_rec *recs;
	u64 room;
	u64 n;
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
	rec->size = sizeof(*rec);
	rec->slot = slot;
	rec->index = (u64)*gen << 32 | slot;
	return true;
}

/* Under meas_sir: select the records. */
static int filter_select(struct filter_call *c)
{
	struct proc_tab *tab = meas_proc_table;
	struct meas_proc_rec *rec;
	struct proc_viewer v;
	u32 slot, gen, hwm;
	s64 idx = c->k->entity_index;
	u64 cap;

	if (!tab)
		return MEAS_RA_NOTMEASURING;
	meas_procread_viewer(&v, false);
	hwm = meas_procread_hwm(tab);
	cap = min_t(u64, c->room, idx == -1 ? hwm : 1);
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	c->recs = cap ? kvmalloc_array(cap, sizeof(*rec), GFP_KERNEL) : NULL;
	if (!rec || (cap && !c->recs)) {
		kfree(rec);
		return -ENOMEM;
	}
	if (idx != -1) {
		slot = lower_32_bits(idx);
		if (idx < 0 || !filter_one(tab, &v, c, slot, &gen, rec) ||
		    gen != upper_32_bits(idx)) {
			kfree(rec);
			return MEAS_RA_CANNOTACCESS;
		}
		c->n = 1;
		if (cap)
			c->recs[0] = *rec;
	}
	for (slot = 1; idx == -1 && slot <= hwm; slot++) {
		if (!filter_one(tab, &v, c, slot, &gen, rec))
			continue;
		if (c->n < cap)
			c->recs[c->n] = *rec;
		c->n++;
	}
	kfree(rec);
	return c->n > c->room ? MEAS_RA_BUFTOOSMALL : MEAS_RA_OK;
}

/* READACTIVE on a validated struct and checked descriptors. */
static int filter_read(struct filter_call *c)
{
	struct meas_readactive *k = c->k;
	u64 bytes;
	int rc;

	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	rc = filter_select(c);
	mutex_unlock(&meas_sir);
	if (rc < 0)
		return rc;
	k->result = rc;
	bytes = c->n * sizeof(struct meas_proc_rec);
	if (rc == MEAS_RA_BUFTOOSMALL) {
		k->bytesret = bytes;
		k->records = c->n;
	} else if (rc == MEAS_RA_OK) {
		if (bytes && copy_to_user(u64_to_user_ptr(k->buf), c->recs,
					  bytes))
			return -EFAULT;
		k->bytesret = bytes;
		k->records = c->n;
		k->entity_index = c->n ? c->recs[0].index : -1;
	}
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
	if (k.pad)
		return -EINVAL;
	k.bytesret = 0;
	k.records = 0;
	c.room = k.bufsize / sizeof(struct meas_proc_rec);
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
	kfree(c.d);
	return rc;
}
