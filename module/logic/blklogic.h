/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the disk and I/O trace units: which item a completed
 * request counts in, the queue-length histogram, the hashing of the
 * device and request tables, the arithmetic of the class 14 ring and its
 * reader, and the shapes of the disk subclasses and of class 14.  No
 * kernel dependency: the host unit tests (selftests/unit) build this file
 * as it is.
 */
#ifndef _MEAS_BLKLOGIC_H
#define _MEAS_BLKLOGIC_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include "layout.h"

/* Queue lengths 0..5 have a bucket each; the last holds 6 or more. */
#define MEAS_QLEN_LAST		(MEAS_C0_DISC_QLEN_BUCKETS - 1)

unsigned int meas_blk_bucket(u64 inflight);
unsigned int meas_blk_disc_item(unsigned int op, u32 flags);
bool meas_blk_op_is_read(unsigned int op);
bool meas_blk_op_is_write(unsigned int op);
bool meas_blk_op_is_discard(unsigned int op);
unsigned int meas_blk_unit_item(unsigned int op);

/* Open addressing: slot counts are powers of two. */
u32 meas_hash_slots(u64 want);
u32 meas_hash_home(u64 key, u32 slots);
u32 meas_devtab_slots(u32 max_entries);

/**
 * struct meas_ring_span - what a reader takes from one partition
 * @lost: records between the old cursor and the first one returned
 * @first: position of the first record returned
 * @end: position after the last record returned (@first if none)
 * @cursor: the new cursor
 */
struct meas_ring_span {
	u64 lost;
	u64 first;
	u64 end;
	u64 cursor;
};

u64 meas_ring_oldest(u64 head, u64 cap);
u64 meas_ring_start(u64 cursor, u64 head, u64 cap);
void meas_ring_settle(u64 cursor, u64 start, u64 taken, u64 started,
		      u64 cap, struct meas_ring_span *span);
u64 meas_ring_entry(u32 part, u64 pos, u64 per_part);

/**
 * struct meas_merge_head - the next record of one partition, for a merge
 * @key: its completion time
 * @left: records the partition still offers; 0 when it is exhausted
 */
struct meas_merge_head {
	u64 key;
	u64 left;
};

int meas_merge_pick(const struct meas_merge_head *h, u32 n);

u64 meas_io_per_part(u64 records, u32 parts);
void meas_io_shape(struct meas_class_spec *spec, u32 parts, u64 per_part);
void meas_c0_disk_shape(struct meas_class_spec *spec, u64 disks, u64 tapes);

#endif /* _MEAS_BLKLOGIC_H */
