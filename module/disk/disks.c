// SPDX-License-Identifier: GPL-2.0
/*
 * The device tables of the block unit (INITVDT, FINDDEVICES and the
 * LDEVTAB of FORMATSEG): which disk, or tape, counts in which entry of
 * class 0.
 *
 * A table is open-addressed and keyed by the device number.  The first
 * probe that sees a device claims a free slot with one cmpxchg and then
 * takes the next entry number; every later lookup of that device is a
 * few plain reads.  The counters are kept per slot, so a lookup never
 * waits for the entry number: the fold, under meas_sir, places each
 * slot's counters in its entry, or in entry 0 when the entry is beyond
 * the region's capacity.
 */
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/meas.h>
#include "core/class.h"
#include "core/compat.h"
#include "core/params.h"
#include "blk.h"

/**
 * meas_devtab_init() - allocate an empty device table
 * @t: the table
 * @limit: entries it may hand out
 *
 * Return: 0 or -ENOMEM.
 */
int meas_devtab_init(struct meas_devtab *t, u32 limit)
{
	t->slots = meas_devtab_slots(limit);
	t->shift = 64 - ilog2(t->slots);
	t->limit = limit;
	atomic_set(&t->claims, 0);
	/* A failure is an answer to STARTSTATISTICS, not a kernel problem. */
	t->keys = kvcalloc(t->slots, sizeof(*t->keys),
			   GFP_KERNEL | __GFP_NOWARN);
	t->entry = kvcalloc(t->slots, sizeof(*t->entry),
			    GFP_KERNEL | __GFP_NOWARN);
	if (t->keys && t->entry)
		return 0;
	meas_devtab_free(t);
	return -ENOMEM;
}

void meas_devtab_free(struct meas_devtab *t)
{
	kvfree(t->keys);
	kvfree(t->entry);
	t->keys = NULL;
	t->entry = NULL;
}

/* The slot won: take the next entry number, for the fold to find. */
static u32 devtab_won(struct meas_devtab *t, u32 i)
{
	WRITE_ONCE(t->entry[i], atomic_inc_return(&t->claims));
	return i;
}

/**
 * meas_devtab_find() - the slot of a device, claimed on first sight
 * @t: the table
 * @key: the device, not 0
 *
 * Lock-free and O(1): the table is at most about half full.  Once @limit
 * entries are out, unknown devices claim nothing and share the last row.
 * Two CPUs may both pass the limit check; the extra entries they take are
 * above the region's capacity and count in entry 0.
 *
 * Return: the slot, or @t->slots when the device has none.
 */
u32 meas_devtab_find(struct meas_devtab *t, u64 key)
{
	u32 mask = t->slots - 1, i = meas_hash_home(key, t->slots), n;
	u64 cur;

	for (n = 0; n < t->slots; n++, i = (i + 1) & mask) {
		cur = READ_ONCE(t->keys[i]);
		if (cur == key)
			return i;
		if (cur)
			continue;
		if (atomic_read(&t->claims) >= t->limit)
			break;
		cur = cmpxchg(&t->keys[i], 0, key);
		if (!cur)
			return devtab_won(t, i);
		if (cur == key)
			return i;
	}
	return t->slots;
}

static int key_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whole disks with a size, from the block device inodes: the kernel does
 * not export its list of disks.  The list lock keeps each inode, and with
 * a whole disk's inode its gendisk, from being freed while we look.
 */
static size_t disks_scan(u64 *keys, size_t max)
{
	struct super_block *sb = blockdev_superblock;
	struct inode *inode;
	size_t n = 0;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		struct block_device *bdev = I_BDEV(inode);
		struct gendisk *disk = bdev->bd_disk;
		bool gone;

		spin_lock(&inode->i_lock);
		gone = meas_inode_state(inode) & (I_FREEING | I_WILL_FREE | I_NEW);
		spin_unlock(&inode->i_lock);
		if (gone || bdev_is_partition(bdev) || !disk ||
		    !disk_live(disk) || !get_capacity(disk))
			continue;
		if (keys && n < max)
			keys[n] = meas_disk_key(disk);
		n++;
	}
	spin_unlock(&sb->s_inode_list_lock);
	return n;
}

/**
 * meas_disks_claim_present() - give the disks present now their entries
 * @t: the disk table
 *
 * In device-number order, so that the entries of a machine's disks are
 * the same from one start to the next.  Disks of size 0 (an unbound loop
 * device) get an entry at their first request, as hot-added disks do.
 */
void meas_disks_claim_present(struct meas_devtab *t)
{
	size_t n = disks_scan(NULL, 0), i;
	u64 *keys;

	if (!n)
		return;
	keys = kvmalloc_array(n, sizeof(*keys), GFP_KERNEL);
	if (!keys)
		return;		/* they get their entries at first sight */
	n = min(n, disks_scan(keys, n));
	sort(keys, n, sizeof(*keys), key_cmp, NULL);
	for (i = 0; i < n; i++)
		meas_devtab_find(t, keys[i]);
	kvfree(keys);
}

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

/**
 * meas_disks_fold() - write the disk and tape counters into class 0
 * @cls: class 0, enabled; called with meas_sir held
 * @blk: the block unit
 * @c0: its class 0 counters
 *
 * Clears and rebuilds the entries in use, entry 0, the headers (the
 * number of entries grows as devices appear) and the device table.
 */
void meas_disks_fold(struct meas_class *cls, struct meas_blk *blk,
		     struct meas_blk_c0 *c0)
{
	u64 devslots = cls->region[MEAS_XDS_W_DEVSLOTS];

	disks_fold_disks(cls, blk, c0);
	disks_fold_tapes(cls, blk, c0, devslots);
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
