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
#include <linux/meas.h>
#include "layout.h"

/* Queue lengths 0..5 have a bucket each; the last holds 6 or more. */
#define MEAS_QLEN_LAST		(MEAS_C0_DISC_QLEN_BUCKETS - 1)

unsigned int meas_blk_unit_item(unsigned int op);

/*
 * What the block probes call for every request is inline: a call costs
 * a request more than these bodies (Documentation/performance.rst).
 */
/**
 * meas_blk_bucket() - the queue-length bucket of a request
 * @inflight: requests of the same disk already in flight at its insert
 *
 * Return: the bucket, 0..MEAS_QLEN_LAST; the last one counts 6 or more.
 */
static inline unsigned int meas_blk_bucket(u64 inflight)
{
	return inflight < MEAS_QLEN_LAST ? (unsigned int)inflight :
					   MEAS_QLEN_LAST;
}

static inline bool meas_blk_op_is_read(unsigned int op)
{
	return op == MEAS_IO_OP_READ;
}

static inline bool meas_blk_op_is_write(unsigned int op)
{
	return op == MEAS_IO_OP_WRITE || op == MEAS_IO_OP_ZONE_APPEND;
}

/* Operations that free or zero sectors without transferring data. */
static inline bool meas_blk_op_is_discard(unsigned int op)
{
	return op == MEAS_IO_OP_DISCARD || op == MEAS_IO_OP_SECURE_ERASE ||
	       op == MEAS_IO_OP_WRITE_ZEROES;
}

/* Reads: swap-in, then the asynchronous interfaces, then readahead. */
static inline unsigned int meas_blk_read_item(u32 flags)
{
	if (flags & MEAS_IO_F_SWAP)
		return MEAS_C0_DISC_READ_SWAP;
	if (flags & (MEAS_IO_F_NOWAIT | MEAS_IO_F_POLLED))
		return MEAS_C0_DISC_READ_NOWAIT;
	if (flags & MEAS_IO_F_RAHEAD)
		return MEAS_C0_DISC_READ_ASYNC;
	return MEAS_C0_DISC_READ_SYNC;
}

/* Writes: forced, then background, then asynchronous interfaces, sync. */
static inline unsigned int meas_blk_write_item(u32 flags)
{
	if (flags & (MEAS_IO_F_FUA | MEAS_IO_F_PREFLUSH))
		return MEAS_C0_DISC_WRITE_FORCED;
	if (flags & (MEAS_IO_F_SWAP | MEAS_IO_F_BACKGROUND))
		return MEAS_C0_DISC_WRITE_BACKGROUND;
	if (flags & (MEAS_IO_F_NOWAIT | MEAS_IO_F_POLLED))
		return MEAS_C0_DISC_WRITE_NOWAIT;
	if (flags & MEAS_IO_F_SYNC)
		return MEAS_C0_DISC_WRITE_SYNC;
	return MEAS_C0_DISC_WRITE_ASYNC;
}

/**
 * meas_blk_disc_item() - the subclass 1 item a completed request counts in
 * @op: MEAS_IO_OP_*
 * @flags: MEAS_IO_F_* of the request
 *
 * Every read lands in exactly one read item, every write in exactly one
 * write item, and everything else is a control operation.
 *
 * Return: a MEAS_C0_DISC_* item number, 2..10 or 13.
 */
static inline unsigned int meas_blk_disc_item(unsigned int op, u32 flags)
{
	if (meas_blk_op_is_read(op))
		return meas_blk_read_item(flags);
	if (meas_blk_op_is_write(op))
		return meas_blk_write_item(flags);
	return MEAS_C0_DISC_CONTROL;
}

/*
 * A disk's counters, as a CPU keeps them per request (blk.c): by kind of
 * operation, so that a completion adds to as few words as can be, and
 * the items that follow from others (reads, timed reads, the sums of
 * times per group) are made when class 0 is read (meas_blk_row_fold()).
 *
 * The kinds split the operations both by subclass 4's reads and writes
 * and by subclass 5's groups (the groups of /proc/diskstats):
 */
#define MEAS_BLK_K_READ		0	/* reads: group read */
#define MEAS_BLK_K_WRITE	1	/* writes, zone appends: group write */
#define MEAS_BLK_K_DISCARD	2	/* discards: group discard */
#define MEAS_BLK_K_FLUSH	3	/* flushes: group flush */
#define MEAS_BLK_K_CTL_WRITE	4	/* zeroes, erases, zone close/reset: write */
#define MEAS_BLK_K_CTL_READ	5	/* zone open/finish, others: group read */
#define MEAS_BLK_K_NONE		6	/* passthrough: in no group */
#define MEAS_BLK_KINDS		7

/* Where bytes go: subclass 4 items 3, 4 and 5, or nowhere. */
#define MEAS_BLK_B_READ		0
#define MEAS_BLK_B_WRITE	1
#define MEAS_BLK_B_DISCARD	2
#define MEAS_BLK_B_NONE		3
#define MEAS_BLK_B_NR		4

/*
 * The words of one disk's row: subclass 1's items as they are (word =
 * item), then bytes, service time, and per kind the queue times of the
 * timed requests, the completions not timed and (kinds other than reads
 * and writes, which subclass 1 counts already) the completions; then the
 * latency buckets of each group.
 */
#define MEAS_ROW_DISC		0
#define MEAS_ROW_BYTES		MEAS_C0_DISC_ITEMS
#define MEAS_ROW_SERVICE	(MEAS_ROW_BYTES + MEAS_BLK_B_NR)
#define MEAS_ROW_NS		(MEAS_ROW_SERVICE + 1)
#define MEAS_ROW_UNTIMED	(MEAS_ROW_NS + MEAS_BLK_KINDS)
#define MEAS_ROW_DONE		(MEAS_ROW_UNTIMED + MEAS_BLK_KINDS)
#define MEAS_ROW_BUCKET		(MEAS_ROW_DONE + MEAS_BLK_KINDS)
#define MEAS_ROW_WORDS		(MEAS_ROW_BUCKET + \
				 MEAS_C0_LAT_NR_OPS * MEAS_C0_LAT_BUCKETS)

/* The subclass 5 group of a kind, or MEAS_C0_LAT_NR_OPS for none. */
static inline unsigned int meas_blk_kind_group(unsigned int kind)
{
	static const unsigned char group[MEAS_BLK_KINDS] = {
		[MEAS_BLK_K_READ] = MEAS_C0_LAT_READ,
		[MEAS_BLK_K_WRITE] = MEAS_C0_LAT_WRITE,
		[MEAS_BLK_K_DISCARD] = MEAS_C0_LAT_DISCARD,
		[MEAS_BLK_K_FLUSH] = MEAS_C0_LAT_FLUSH,
		[MEAS_BLK_K_CTL_WRITE] = MEAS_C0_LAT_WRITE,
		[MEAS_BLK_K_CTL_READ] = MEAS_C0_LAT_READ,
		[MEAS_BLK_K_NONE] = MEAS_C0_LAT_NR_OPS,
	};

	return group[kind];
}

/* Where a request's bytes count, by its MEAS_IO_OP_*. */
static inline unsigned int meas_blk_bytes_of(unsigned int op)
{
	if (meas_blk_op_is_read(op))
		return MEAS_BLK_B_READ;
	if (meas_blk_op_is_write(op))
		return MEAS_BLK_B_WRITE;
	if (meas_blk_op_is_discard(op))
		return MEAS_BLK_B_DISCARD;
	return MEAS_BLK_B_NONE;
}

void meas_blk_row_fold(const u64 *row, u64 *disc, u64 *xfer, u64 *lat);

/*
 * The same with the shift, 64 - log2(slots), known: what a table keeps
 * so that its every lookup is one multiplication and one shift.
 */
static inline u32 meas_hash_home_shift(u64 key, unsigned int shift)
{
	return (u32)((key * 0x61c8864680b583ebULL) >> shift);
}

/**
 * meas_hash_home() - first slot to probe for a key
 * @key: the key (a device number, a pointer)
 * @slots: slots of the table, a power of two
 *
 * Multiplicative hashing: the top bits of the product with the 64-bit
 * golden ratio, so that keys differing only in low bits (minors,
 * neighbouring pointers) spread over the table.
 */
static inline u32 meas_hash_home(u64 key, u32 slots)
{
	unsigned int bits = __builtin_ctz(slots);

	if (!bits)
		return 0;
	return meas_hash_home_shift(key, 64 - bits);
}

/**
 * meas_ring_entry() - entry number of a position in a partition
 * @part: the partition
 * @pos: the position, 0 for its first record
 * @per_part: records per partition
 */
static inline u64 meas_ring_entry(u32 part, u64 pos, u64 per_part)
{
	return 1 + (u64)part * per_part + pos % per_part;
}

/* Open addressing: slot counts are powers of two. */
u32 meas_hash_slots(u64 want);
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
