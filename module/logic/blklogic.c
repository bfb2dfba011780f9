// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of the disk and I/O trace units (blklogic.h), free of
 * kernel dependencies so that the host unit tests build the same file.
 */
#include <linux/meas.h>
#include "blklogic.h"

/**
 * meas_blk_unit_item() - the item of a tape or line printer entry
 * @op: MEAS_IO_OP_* of the completed request
 *
 * Return: MEAS_C0_UNIT_READS, MEAS_C0_UNIT_WRITES or MEAS_C0_UNIT_CONTROL.
 */
unsigned int meas_blk_unit_item(unsigned int op)
{
	if (meas_blk_op_is_read(op))
		return MEAS_C0_UNIT_READS;
	if (meas_blk_op_is_write(op))
		return MEAS_C0_UNIT_WRITES;
	return MEAS_C0_UNIT_CONTROL;
}

/* The subclass 1 items every completed read, or write, lands in one of. */
static const unsigned char blk_read_items[] = {
	MEAS_C0_DISC_READ_CODE, MEAS_C0_DISC_READ_SWAP, MEAS_C0_DISC_READ_SYNC,
	MEAS_C0_DISC_READ_ASYNC, MEAS_C0_DISC_READ_NOWAIT,
};

static const unsigned char blk_write_items[] = {
	MEAS_C0_DISC_WRITE_FORCED, MEAS_C0_DISC_WRITE_BACKGROUND,
	MEAS_C0_DISC_WRITE_SYNC, MEAS_C0_DISC_WRITE_ASYNC,
	MEAS_C0_DISC_WRITE_NOWAIT,
};

static u64 blk_sum_items(const u64 *row, const unsigned char *items,
			 unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += row[MEAS_ROW_DISC + items[i]];
	return sum;
}

/* a - b, or 0: a reader may see a CPU's row between two of its words */
static u64 blk_sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

/**
 * meas_blk_row_fold() - add a disk's row to its items
 * @row: MEAS_ROW_WORDS words, the sum of every CPU's row of the disk
 * @disc: its subclass 1 entry's items (from item 0)
 * @xfer: its subclass 4 entry's items
 * @lat: its subclass 5 entry's items
 *
 * What a completion did not count is made here: the reads and writes
 * (the sums of their subclass 1 items), the timed ones (less those not
 * timed), the sums of times over the kinds, the count of each group.
 * Item 0 of each entry (the device) and subclass 4's in-flight count
 * are the caller's.
 */
void meas_blk_row_fold(const u64 *row, u64 *disc, u64 *xfer, u64 *lat)
{
	u64 reads = blk_sum_items(row, blk_read_items,
				  sizeof(blk_read_items));
	u64 writes = blk_sum_items(row, blk_write_items,
				   sizeof(blk_write_items));
	unsigned int i, k, g;
	u64 done, *l;

	for (i = 1; i < MEAS_C0_DISC_ITEMS; i++)
		disc[i] += row[MEAS_ROW_DISC + i];
	xfer[MEAS_C0_XFER_READS] += reads;
	xfer[MEAS_C0_XFER_WRITES] += writes;
	xfer[MEAS_C0_XFER_READ_BYTES] += row[MEAS_ROW_BYTES + MEAS_BLK_B_READ];
	xfer[MEAS_C0_XFER_WRITE_BYTES] += row[MEAS_ROW_BYTES +
					       MEAS_BLK_B_WRITE];
	xfer[MEAS_C0_XFER_DISCARD_BYTES] += row[MEAS_ROW_BYTES +
						 MEAS_BLK_B_DISCARD];
	xfer[MEAS_C0_XFER_READ_NS] += row[MEAS_ROW_NS + MEAS_BLK_K_READ];
	xfer[MEAS_C0_XFER_WRITE_NS] += row[MEAS_ROW_NS + MEAS_BLK_K_WRITE];
	xfer[MEAS_C0_XFER_READS_TIMED] +=
		blk_sub0(reads, row[MEAS_ROW_UNTIMED + MEAS_BLK_K_READ]);
	xfer[MEAS_C0_XFER_WRITES_TIMED] +=
		blk_sub0(writes, row[MEAS_ROW_UNTIMED + MEAS_BLK_K_WRITE]);
	xfer[MEAS_C0_XFER_SERVICE_NS] += row[MEAS_ROW_SERVICE];
	for (k = 0; k < MEAS_BLK_KINDS; k++) {
		xfer[MEAS_C0_XFER_QUEUE_NS] += row[MEAS_ROW_NS + k];
		xfer[MEAS_C0_XFER_UNTRACKED] += row[MEAS_ROW_UNTIMED + k];
		g = meas_blk_kind_group(k);
		if (g >= MEAS_C0_LAT_NR_OPS)
			continue;
		done = k == MEAS_BLK_K_READ ? reads :
		       k == MEAS_BLK_K_WRITE ? writes : row[MEAS_ROW_DONE + k];
		l = lat + MEAS_C0_LAT_OP(g);
		l[MEAS_C0_LAT_COUNT] += done;
		l[MEAS_C0_LAT_UNTIMED] += row[MEAS_ROW_UNTIMED + k];
		l[MEAS_C0_LAT_SUM_NS] += row[MEAS_ROW_NS + k];
	}
	for (g = 0; g < MEAS_C0_LAT_NR_OPS; g++)
		for (i = 0; i < MEAS_C0_LAT_BUCKETS; i++)
			lat[MEAS_C0_LAT_OP(g) + MEAS_C0_LAT_BUCKET0 + i] +=
				row[MEAS_ROW_BUCKET + g * MEAS_C0_LAT_BUCKETS +
				    i];
}

/**
 * meas_hash_slots() - slots of an open-addressed table
 * @want: slots wanted
 *
 * Return: the least power of two that is at least @want and at least 2,
 * at most 2^31.
 */
u32 meas_hash_slots(u64 want)
{
	u32 slots = 2;

	while (slots < want && slots < (1U << 31))
		slots <<= 1;
	return slots;
}

/**
 * meas_devtab_slots() - slots of the device table for @max_entries disks
 * @max_entries: disks that may get an entry
 *
 * At least half again as many slots as entries, so that the table is at
 * most two-thirds full (a few more claims may race past the limit) and a
 * probe for an unknown device ends on a free slot after a few steps.
 */
u32 meas_devtab_slots(u32 max_entries)
{
	return meas_hash_slots((u64)max_entries + max_entries / 2 + 2);
}

/**
 * meas_ring_oldest() - oldest position a partition still holds
 * @head: records the partition has written
 * @cap: records it holds
 */
u64 meas_ring_oldest(u64 head, u64 cap)
{
	return head > cap ? head - cap : 0;
}

/**
 * meas_ring_start() - first position a reader can still take
 * @cursor: the reader's cursor in the partition
 * @head: records the partition has written, read before the copy
 * @cap: records it holds
 */
u64 meas_ring_start(u64 cursor, u64 head, u64 cap)
{
	u64 oldest = meas_ring_oldest(head, cap);

	if (cursor > head)
		return head;
	return cursor > oldest ? cursor : oldest;
}

/**
 * meas_ring_settle() - what a copy from a live partition really returned
 * @cursor: the reader's cursor before the copy
 * @start: meas_ring_start() of the copy
 * @taken: records copied, positions @start onwards
 * @started: records whose writing had begun, read after the copy
 * @cap: records it holds
 * @span: out: the positions returned, the records lost, the new cursor
 *
 * The writer may have overwritten the oldest copied records while they
 * were copied.  Writing position q overwrites position q - @cap, and the
 * writer announces q (@started becomes q + 1) before it touches the
 * slot, so position p is intact when p + @cap >= @started.  Every
 * position between @cursor and the new cursor is either returned or
 * counted lost.
 */
void meas_ring_settle(u64 cursor, u64 start, u64 taken, u64 started,
		      u64 cap, struct meas_ring_span *span)
{
	u64 safe = meas_ring_oldest(started, cap);
	u64 end = start + taken;

	span->first = start > safe ? start : safe;
	if (span->first > end)
		end = span->first;
	span->end = end;
	span->cursor = end;
	span->lost = span->first - cursor;
}

/**
 * meas_merge_pick() - the partition whose next record is the oldest
 * @h: the next record of each partition
 * @n: number of partitions
 *
 * Ties go to the lowest partition, so a merge is deterministic.
 *
 * Return: the partition, or -1 when every partition is exhausted.
 */
int meas_merge_pick(const struct meas_merge_head *h, u32 n)
{
	int best = -1;
	u32 i;

	for (i = 0; i < n; i++)
		if (h[i].left && (best < 0 || h[i].key < h[best].key))
			best = (int)i;
	return best;
}

/**
 * meas_io_per_part() - records per partition of the class 14 ring
 * @records: records wanted in all (the io_records parameter)
 * @parts: partitions, one per CPU number
 *
 * Return: at least 1.
 */
u64 meas_io_per_part(u64 records, u32 parts)
{
	u64 per = parts ? records / parts : records;

	return per ? per : 1;
}

/**
 * meas_io_shape() - the shape of the class 14 region
 * @spec: filled in; spec->class is set by the caller
 * @parts: partitions
 * @per_part: records per partition
 *
 * An impossible size leaves a shape meas_layout_words() rejects.
 */
void meas_io_shape(struct meas_class_spec *spec, u32 parts, u64 per_part)
{
	struct meas_sub_spec *s = &spec->sub[MEAS_IO_SUB_RING];
	u64 records;

	spec->nsub = 1;
	spec->devslots = 0;
	s->entsize = MEAS_IO_RECORD_WORDS;
	s->ent0size = MEAS_HEADER_WORDS + MEAS_IO_H_PART0 +
		      (u64)parts * MEAS_IO_PART_WORDS;
	if (__builtin_mul_overflow((u64)parts, per_part, &records) ||
	    __builtin_add_overflow(records, 1, &s->entries))
		s->entries = 0;
}

/**
 * meas_c0_disk_shape() - the shape of class 0
 * @spec: filled in; spec->class is set by the caller
 * @disks: entries for disks (max_disks)
 * @tapes: entries for tapes (max_tapes)
 *
 * Entry 0 of the disk, tape, transfer and latency subclasses holds, after its
 * header, the counters of the devices that found no entry.
 */
void meas_c0_disk_shape(struct meas_class_spec *spec, u64 disks, u64 tapes)
{
	static const u64 entsize[MEAS_C0_NR_SUBCLASSES] = {
		[MEAS_C0_SUB_FIXED]	= MEAS_C0_FIXED_ITEMS,
		[MEAS_C0_SUB_DISC]	= MEAS_C0_DISC_ITEMS,
		[MEAS_C0_SUB_LP]	= MEAS_C0_LP_ITEMS,
		[MEAS_C0_SUB_TAPE]	= MEAS_C0_TAPE_ITEMS,
		[MEAS_C0_SUB_XFER]	= MEAS_C0_XFER_ITEMS,
		[MEAS_C0_SUB_LAT]	= MEAS_C0_LAT_ITEMS,
	};
	unsigned int i;

	spec->nsub = MEAS_C0_NR_SUBCLASSES;
	spec->devslots = disks + tapes;
	for (i = 0; i < MEAS_C0_NR_SUBCLASSES; i++) {
		spec->sub[i].entries = 1;
		spec->sub[i].entsize = entsize[i];
		spec->sub[i].ent0size = MEAS_HEADER_WORDS;
	}
	spec->sub[MEAS_C0_SUB_FIXED].entries = 2;
	spec->sub[MEAS_C0_SUB_DISC].entries = 1 + disks;
	spec->sub[MEAS_C0_SUB_DISC].ent0size += MEAS_C0_DISC_ITEMS;
	spec->sub[MEAS_C0_SUB_TAPE].entries = 1 + tapes;
	spec->sub[MEAS_C0_SUB_TAPE].ent0size += MEAS_C0_TAPE_ITEMS;
	spec->sub[MEAS_C0_SUB_XFER].entries = 1 + disks;
	spec->sub[MEAS_C0_SUB_XFER].ent0size += MEAS_C0_XFER_ITEMS;
	spec->sub[MEAS_C0_SUB_LAT].entries = 1 + disks;
	spec->sub[MEAS_C0_SUB_LAT].ent0size += MEAS_C0_LAT_ITEMS;
}
