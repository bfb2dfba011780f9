/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The class 14 ring as its writers see it: the completion probes
 * (blk.c) write each record in their CPU's partition, inline, in place
 * or as a copy, and the reader (iotrace.c) finds the partitions and
 * slots the same way.  Header only: the probes call nothing of the
 * reader.  Documentation/io.rst, "Writing a record", describes the protocol.
 */
#ifndef _MEAS_IORING_H
#define _MEAS_IORING_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/barrier.h>
#include <linux/meas.h>
#include "logic/blklogic.h"

/**
 * struct meas_io_ring - the class 14 region, as the writers see it
 * @hdr: item 0 of entry 0
 * @rec: word 0 of entry 1, the first record
 * @parts: partitions
 * @per_part: records per partition
 * @session: MEAS_IO_H_SESSION
 * @full_base: the block unit's track_full when the ring started
 * @stale_base: and its stale count
 * @folded: per partition, the records written when iotrace_fold() last
 *	looked (under meas_sir)
 */
struct meas_io_ring {
	u64 *hdr;
	u64 *rec;
	u32 parts;
	u64 per_part;
	u64 session;
	u64 full_base;
	u64 stale_base;
	u64 *folded;
};

/* The words of partition @p: its counts (MEAS_IO_P_*). */
static inline u64 *meas_ioring_part(const struct meas_io_ring *r, u32 p)
{
	return r->hdr + MEAS_IO_H_PART0 + (u64)p * MEAS_IO_PART_WORDS;
}

/* The slot of position @pos of partition @p. */
static inline struct meas_io_record *
meas_ioring_slot(const struct meas_io_ring *r, u32 p, u64 pos)
{
	u64 entry = meas_ring_entry(p, pos, r->per_part);

	return (struct meas_io_record *)(r->rec + (entry - 1) *
					 MEAS_IO_RECORD_WORDS);
}

/**
 * meas_iotrace_begin() - the next record of this CPU's partition
 * @r: the ring
 *
 * Called by the completion probes with interrupts off, so that a CPU's
 * records are in time order and one writer at a time uses a partition.
 * The slot is announced before it is written, and its cpu and seq are
 * set; the caller writes every other field in place, then calls
 * meas_iotrace_end().
 *
 * Return: the slot.
 */
static inline struct meas_io_record *
meas_iotrace_begin(struct meas_io_ring *r)
{
	u32 cpu = smp_processor_id();
	u64 *ph = meas_ioring_part(r, cpu), pos = ph[MEAS_IO_P_TOTAL];
	struct meas_io_record *slot = meas_ioring_slot(r, cpu, pos);

	WRITE_ONCE(ph[MEAS_IO_P_STARTED], pos + 1);
	/* A reader that sees the new words must see the slot announced. */
	smp_wmb();
	slot->cpu = cpu;
	slot->seq = pos;
	return slot;
}

/**
 * meas_iotrace_end() - publish the record meas_iotrace_begin() gave
 * @r: the ring
 * @rec: the record, written
 */
static inline void meas_iotrace_end(struct meas_io_ring *r,
				    const struct meas_io_record *rec)
{
	u32 cpu = rec->cpu;
	u64 *ph = meas_ioring_part(r, cpu), pos = rec->seq;

	if (rec->flags & MEAS_IO_F_UNTRACKED)
		ph[MEAS_IO_P_UNTRACKED]++;
	/* Pairs with the readers' acquire: the record before its count. */
	smp_store_release(&ph[MEAS_IO_P_TOTAL], pos + 1);
	WRITE_ONCE(ph[MEAS_IO_P_NEXT], meas_ring_entry(cpu, pos + 1,
						       r->per_part));
}

/**
 * meas_iotrace_write() - append a record built elsewhere
 * @r: the ring
 * @rec: the record; its cpu and seq are set here
 *
 * As meas_iotrace_begin(), then a copy, then meas_iotrace_end().
 */
static inline void meas_iotrace_write(struct meas_io_ring *r,
				      struct meas_io_record *rec)
{
	struct meas_io_record *slot = meas_iotrace_begin(r);

	rec->cpu = slot->cpu;
	rec->seq = slot->seq;
	memcpy(slot, rec, sizeof(*rec));
	meas_iotrace_end(r, slot);
}

#endif /* _MEAS_IORING_H */
