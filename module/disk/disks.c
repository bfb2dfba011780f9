// SPDX-License-Identifier: GPL-2.0
/*
 * Class 0's disks and tapes: subclasses 1 (disks), 3 (tapes), 4 (disk
 * transfers) and 5 (latencies), which the definition of class 0
 * (classes.c) composes with subclass 0.  Attached, the per-CPU rows the
 * probes (blk.c) count into are allocated and published to the block
 * unit; the fold adds them up into the region under meas_sir, each
 * device in the entry its table (devtab.c) gave it, and writes the
 * LDEVTAB of FORMATSEG.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/meas.h>
#include "core/class.h"
#include "core/ctl.h"
#include "core/params.h"
#include "core/inject.h"
#include "blk.h"
#include "devtab.h"
#include "disks.h"

/* Where a subclass of class 0 lies, whatever its header says now. */
struct disks_place {
	u64 *e0;	/* its entry 0 */
	u64 ent0size;
	u64 entsize;
	u64 cap;	/* entries after entry 0 the region has room for */
	u64 base;	/* word offset of entry 0 */
};

static bool disks_place(struct meas_class *cls, int sub,
			struct disks_place *p)
{
	u64 *r = cls->region, cbase = r[MEAS_XDS_W_CLASS0 + MEAS_CLASS_GLOBAL];
	u64 end = sub + 1 < (int)r[cbase] ? cbase + r[cbase + 2 + sub] :
					     cls->words;

	p->base = cbase + r[cbase + 1 + sub];
	p->e0 = r + p->base;
	p->ent0size = p->e0[2];
	p->entsize = p->e0[1];
	if (WARN_ON_ONCE(end < p->base + p->ent0size || !p->entsize))
		return false;
	p->cap = (end - p->base - p->ent0size) / p->entsize;
	return true;
}

static u64 *disks_entry(const struct disks_place *p, u64 e)
{
	return e ? p->e0 + p->ent0size + (e - 1) * p->entsize :
		   p->e0 + MEAS_HEADER_WORDS;
}

/* Clear the items of entry 0 and of every entry in use. */
static void disks_clear(const struct disks_place *p, u64 items)
{
	u64 used = min(p->e0[0] - 1, p->cap), e;

	for (e = 0; e <= used; e++)
		memset(disks_entry(p, e), 0, items * sizeof(u64));
}

/* The LDEVTAB of FORMATSEG: slot k maps a device to its entry's word. */
static void disks_ldev(struct meas_class *cls, u64 k, u64 key,
		       const u64 *entry)
{
	u64 *slot = cls->region + MEAS_XDS_HDR_WORDS + 2 * k;

	slot[0] = key;
	slot[1] = entry - cls->region;
}

/* The disk subclasses: 1 (activity), 4 (transfers), 5 (latencies). */
struct disks_subs {
	struct disks_place disc;
	struct disks_place xfer;
	struct disks_place lat;
};

/* Add the counters of one disk slot into its entries of subclasses 1, 4, 5. */
static u64 disks_fold_slot(struct meas_class *cls, struct meas_blk *blk,
			   struct meas_blk_c0 *c0, u32 slot, u64 key,
			   u64 entry, const struct disks_subs *p)
{
	u64 sum[MEAS_ROW_WORDS] = { 0 }, *d, *x, *l;

	if (entry > p->disc.cap)
		entry = 0;
	meas_blk_sum_row(c0->rows, slot, MEAS_ROW_WORDS, sum);
	d = disks_entry(&p->disc, entry);
	x = disks_entry(&p->xfer, entry);
	l = disks_entry(&p->lat, entry);
	meas_blk_row_fold(sum, d, x, l);
	x[MEAS_C0_XFER_INFLIGHT] += meas_blk_inflight(blk, slot);
	if (!entry)
		return 0;
	d[MEAS_C0_DISC_DEV] = key;
	x[MEAS_C0_XFER_DEV] = key;
	l[MEAS_C0_LAT_DEV] = key;
	disks_ldev(cls, entry - 1, key, d);
	return entry;
}

static void disks_fold_disks(struct meas_class *cls, struct meas_blk *blk,
			     struct meas_blk_c0 *c0)
{
	struct meas_devtab *t = &blk->disks;
	struct disks_subs p;
	u64 last = 0, e;
	u32 i;

	if (!disks_place(cls, MEAS_C0_SUB_DISC, &p.disc) ||
	    !disks_place(cls, MEAS_C0_SUB_XFER, &p.xfer) ||
	    !disks_place(cls, MEAS_C0_SUB_LAT, &p.lat))
		return;
	disks_clear(&p.disc, MEAS_C0_DISC_ITEMS);
	disks_clear(&p.xfer, MEAS_C0_XFER_ITEMS);
	disks_clear(&p.lat, MEAS_C0_LAT_ITEMS);
	for (i = 0; i < t->slots; i++) {
		u64 key = READ_ONCE(t->keys[i]);

		e = key ? READ_ONCE(t->entry[i]) : 0;
		if (e)		/* else not claimed, or its number not yet out */
			last = max(last, disks_fold_slot(cls, blk, c0, i, key,
							 e, &p));
	}
	disks_fold_slot(cls, blk, c0, t->slots, 0, 0, &p);
	p.disc.e0[0] = last + 1;
	p.xfer.e0[0] = last + 1;
	p.lat.e0[0] = last + 1;
}

static void disks_fold_tapes(struct meas_class *cls, struct meas_blk *blk,
			     struct meas_blk_c0 *c0, u64 devslots)
{
	struct meas_devtab *t = &blk->tapes;
	u64 sum[MEAS_TAPE_ROW_WORDS], last = 0, e, *d;
	struct disks_place tape;
	u32 i, j;

	if (!disks_place(cls, MEAS_C0_SUB_TAPE, &tape))
		return;
	disks_clear(&tape, MEAS_C0_TAPE_ITEMS);
	for (i = 0; i <= t->slots; i++) {
		u64 key = i < t->slots ? READ_ONCE(t->keys[i]) : 0;

		e = key ? READ_ONCE(t->entry[i]) : 0;
		if (i < t->slots && !e)
			continue;
		if (e > tape.cap)
			e = 0;
		memset(sum, 0, sizeof(sum));
		meas_blk_sum_row(c0->tape_rows, i, MEAS_TAPE_ROW_WORDS, sum);
		d = disks_entry(&tape, e);
		for (j = 1; j < MEAS_C0_TAPE_ITEMS; j++)
			d[j] += sum[j];
		if (!e)
			continue;
		d[MEAS_C0_UNIT_DEV] = key;
		disks_ldev(cls, devslots - tape.cap + e - 1, key, d);
		last = max(last, e);
	}
	tape.e0[0] = last + 1;
}

/*
 * Clear and rebuild the entries in use, entry 0, the headers (the number
 * of entries grows as devices appear) and the device table; meas_sir
 * held.
 */
static void disks_fold(struct meas_class *cls, struct meas_blk *blk,
		       struct meas_blk_c0 *c0)
{
	u64 devslots = cls->region[MEAS_XDS_W_DEVSLOTS];

	disks_fold_disks(cls, blk, c0);
	disks_fold_tapes(cls, blk, c0, devslots);
}

/* ---- the class 0 counters: attach and detach --------------------------- */

static void disks_c0_free(struct meas_blk_c0 *c0)
{
	meas_pcpu_rows_free(c0->rows);
	meas_pcpu_rows_free(c0->tape_rows);
	kfree(c0);
}

static struct meas_blk_c0 *disks_c0_alloc(struct meas_blk *b)
{
	struct meas_blk_c0 *c0;

	if (meas_inject_io(MEAS_START_NODST))
		return NULL;
	c0 = kzalloc(sizeof(*c0), GFP_KERNEL);
	if (!c0)
		return NULL;
	c0->rows = meas_pcpu_rows_alloc((b->disks.slots + 1) *
					(size_t)MEAS_ROW_WORDS);
	c0->tape_rows = meas_pcpu_rows_alloc((b->tapes.slots + 1) *
					     (size_t)MEAS_TAPE_ROW_WORDS);
	if (c0->rows && c0->tape_rows)
		return c0;
	disks_c0_free(c0);
	return NULL;
}

/**
 * meas_disks_attach() - count disks and tapes for class 0
 * @cls: class 0, its region formatted
 *
 * The disks present now get their entries now, in device-number order.
 *
 * Return: MEAS_START_OK, MEAS_START_NODST or MEAS_START_NOLOCK.
 */
int meas_disks_attach(struct meas_class *cls)
{
	struct meas_blk_c0 *c0;
	struct meas_blk *b;
	int rc;

	b = meas_blk_get(MEAS_BLK_USER_C0, &rc);
	if (!b)
		return rc;
	c0 = disks_c0_alloc(b);
	if (!c0) {
		meas_blk_put(MEAS_BLK_USER_C0);
		return MEAS_START_NODST;
	}
	meas_devtab_claim_present(&b->disks);
	rcu_assign_pointer(b->c0, c0);
	disks_fold(cls, b, c0);
	return MEAS_START_OK;
}

/**
 * meas_disks_detach() - stop counting for class 0
 * @cls: class 0
 */
void meas_disks_detach(struct meas_class *cls)
{
	struct meas_blk *b = meas_blk_live();
	struct meas_blk_c0 *c0 = rcu_dereference_protected(b->c0,
					lockdep_is_held(&meas_sir));

	RCU_INIT_POINTER(b->c0, NULL);
	synchronize_rcu();	/* the probes run with preemption off */
	disks_c0_free(c0);
	meas_blk_put(MEAS_BLK_USER_C0);
}

/**
 * meas_disks_fold() - write the disk and tape counters into class 0
 * @cls: class 0, enabled; called with meas_sir held
 */
void meas_disks_fold(struct meas_class *cls)
{
	struct meas_blk *b = meas_blk_live();
	struct meas_blk_c0 *c0;

	if (WARN_ON_ONCE(!b))
		return;
	c0 = rcu_dereference_protected(b->c0, lockdep_is_held(&meas_sir));
	disks_fold(cls, b, c0);
}

/**
 * meas_disks_capacity() - disk entries of a class 0 region formatted now
 *
 * The device table of a running block unit (class 14 may run already)
 * fixes it; otherwise the max_disks parameter does.  Called with
 * meas_sir held.
 */
u32 meas_disks_capacity(void)
{
	struct meas_blk *blk = meas_blk_live();

	return blk ? blk->disks.limit : READ_ONCE(meas_param_max_disks);
}

/* Tape entries, likewise from max_tapes. */
u32 meas_tapes_capacity(void)
{
	struct meas_blk *blk = meas_blk_live();

	return blk ? blk->tapes.limit : READ_ONCE(meas_param_max_tapes);
}
