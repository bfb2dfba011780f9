// SPDX-License-Identifier: GPL-2.0
/*
 * The device tables of the block unit (INITVDT, FINDDEVICES): which
 * disk, or tape, counts in which entry of class 0.
 *
 * A table is open-addressed and keyed by the device number.  The first
 * probe that sees a device claims a free slot with one cmpxchg and then
 * takes the next entry number; every later lookup of that device is a
 * few plain reads.  The counters are kept per slot, so a lookup never
 * waits for the entry number: the fold (disks.c), under meas_sir, places
 * each slot's counters in its entry, or in entry 0 when the entry is
 * beyond the region's capacity.  A unit of its own, below the probes
 * (blk.c) and the fold that both use it.
 */
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include "core/compat.h"
#include "devtab.h"

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
static size_t devtab_scan(u64 *keys, size_t max)
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
 * meas_devtab_claim_present() - give the disks present now their entries
 * @t: the disk table
 *
 * In device-number order, so that the entries of a machine's disks are
 * the same from one start to the next.  Disks of size 0 (an unbound loop
 * device) get an entry at their first request, as hot-added disks do.
 */
void meas_devtab_claim_present(struct meas_devtab *t)
{
	size_t n = devtab_scan(NULL, 0), i;
	u64 *keys;

	if (!n)
		return;
	keys = kvmalloc_array(n, sizeof(*keys), GFP_KERNEL);
	if (!keys)
		return;		/* they get their entries at first sight */
	n = min(n, devtab_scan(keys, n));
	sort(keys, n, sizeof(*keys), key_cmp, NULL);
	for (i = 0; i < n; i++)
		meas_devtab_find(t, keys[i]);
	kvfree(keys);
}
