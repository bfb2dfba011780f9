/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devtab.c: the device tables, which device counts in which entry of
 * class 0.  The probes (blk.c) look devices up, the fold (disks.c) reads
 * the entries.
 */
#ifndef _MEAS_DISK_DEVTAB_H
#define _MEAS_DISK_DEVTAB_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/blkdev.h>
#include <linux/meas.h>
#include "logic/blklogic.h"

/* No device-table slot: the request has no disk, or no tape. */
#define MEAS_NOSLOT		U32_MAX

/**
 * struct meas_devtab - open-addressed map from a device to its counters
 * @slots: slots, a power of two, at least 2; row @slots counts what found
 *	no slot
 * @shift: 64 - log2(@slots), for meas_hash_home_shift()
 * @limit: entries that may be handed out (max_disks or max_tapes)
 * @claims: entries handed out so far
 * @keys: the device of each slot, 0 while free; claimed with cmpxchg
 * @entry: the entry number of each slot, 1.., written once by the
 *	claimer right after it won the slot (0 until then)
 *
 * Keys are never removed, so a probe sequence never breaks; a lookup of a
 * known device is a few plain reads.  An entry above the capacity of the
 * class 0 region counts into entry 0.
 */
struct meas_devtab {
	u32 slots;
	u32 shift;
	u32 limit;
	atomic_t claims;
	u64 *keys;
	u32 *entry;
};

int meas_devtab_init(struct meas_devtab *t, u32 limit);
void meas_devtab_free(struct meas_devtab *t);
u32 meas_devtab_find(struct meas_devtab *t, u64 key);

/*
 * The slot of a device, the common case inline: a known device in its
 * home slot (the table is at most two-thirds full), one multiplication,
 * one read.  Every entering request looks its disk up.
 */
static inline u32 meas_devtab_slot(struct meas_devtab *t, u64 key)
{
	u32 i = meas_hash_home_shift(key, t->shift);

	if (likely(READ_ONCE(t->keys[i]) == key))
		return i;
	return meas_devtab_find(t, key);
}

/* The device number of a whole disk, as items show it (every request). */
static inline u64 meas_disk_key(struct gendisk *disk)
{
	return MEAS_DEV(disk->major, disk->first_minor);
}

void meas_devtab_claim_present(struct meas_devtab *t);

#endif /* _MEAS_DISK_DEVTAB_H */
