/* SPDX-License-Identifier: GPL-2.0 */
/*
 * track.c: the requests in flight, one record each, for the probes
 * (blk.c); the common cases inline, since every event of every request
 * looks its request up.
 */
#ifndef _MEAS_DISK_TRACK_H
#define _MEAS_DISK_TRACK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <asm/barrier.h>
#include "logic/blklogic.h"

/* struct meas_track_rec.flags */
#define MEAS_TRACK_ISSUED	0x1	/* issued, and not requeued since */
#define MEAS_TRACK_REQUEUED	0x2	/* requeued, not yet issued again */
#define MEAS_TRACK_EVER_REQUEUED 0x4	/* requeued at least once */
#define MEAS_TRACK_IDENT	0x8	/* @pid to @exec_id are set */

/**
 * struct meas_track_rec - a request (or a bio of a bio-based disk) in flight
 * @key: the request or bio, 0 while the record is free
 * @insert_ns: when meas saw it enter the queue
 * @issue_ns: a request: when the driver last received it
 * @sector: a bio, which has no issue: its first sector when queued
 * @pid: the task that inserted it (while class 14 is enabled)
 * @tgid: its process
 * @depth: requests of its disk in flight at its insert
 * @devslot: its device-table slot, or MEAS_NOSLOT
 * @flags: MEAS_TRACK_*
 * @bytes: a bio: its size when queued (it may advance before its end)
 * @comm: command name of @pid
 * @start_ns: its process's start time (the leader's start_boottime)
 * @exec_id: its process's execve() count (the leader's self_exec_id)
 *
 * Class 0's probes touch only the first cache line; the process's
 * identity, which class 14's reader judges by (iotrace.c), is on the
 * second, written at the insert and read at the completion only while
 * class 14 is enabled.
 */
struct meas_track_rec {
	unsigned long key;
	u64 insert_ns;
	union {
		u64 issue_ns;
		u64 sector;
	};
	s32 pid;
	s32 tgid;
	u32 depth;
	u32 devslot;
	u32 flags;
	u32 bytes;
	char comm[TASK_COMM_LEN];
	u64 start_ns;
	u64 exec_id;
} ____cacheline_aligned;

/**
 * struct meas_track - the requests in flight
 * @slots: records, a power of two, at least 2
 * @shift: 64 - log2(@slots), for meas_hash_home_shift()
 * @reach: the farthest from its home slot a record was ever claimed
 *	(track.c); only grows
 * @recs: the records, claimed with cmpxchg on @key
 */
struct meas_track {
	u32 slots;
	u32 shift;
	u32 reach;
	struct meas_track_rec *recs;
};

int meas_track_init(struct meas_track *t, u32 slots);
void meas_track_free(struct meas_track *t);
struct meas_track_rec *meas_track_claim_near(struct meas_track *t,
					     unsigned long key);

/**
 * meas_track_claim() - take a free record for a request
 * @t: the table
 * @key: the request or bio, not in the table
 *
 * Its home slot, inline, when it is free (the table is mostly empty);
 * else the slots near it (track.c).
 *
 * Return: the record, to be filled by the caller, or NULL when the
 * window of the key is full (the caller counts it).
 */
static inline struct meas_track_rec *meas_track_claim(struct meas_track *t,
						      unsigned long key)
{
	struct meas_track_rec *r = t->recs + meas_hash_home_shift(key, t->shift);

	if (likely(!READ_ONCE(r->key) && !cmpxchg(&r->key, 0, key)))
		return r;
	return meas_track_claim_near(t, key);
}

/**
 * meas_track_find() - the record of a request in flight
 * @t: the table
 * @key: the request or bio
 *
 * Freed records leave holes in probe sequences, so every slot up to the
 * reach is searched.  A request's record was claimed before the event
 * that looks it up, in an order the block layer keeps; the reach it
 * needed was raised before its claim returned.  Inline: every event of
 * every request looks its request up, mostly in one slot.
 *
 * Return: its record, or NULL if meas did not see it enter.
 */
static inline struct meas_track_rec *meas_track_find(struct meas_track *t,
						     unsigned long key)
{
	u32 mask = t->slots - 1, i = meas_hash_home_shift(key, t->shift), n;
	u32 reach = READ_ONCE(t->reach);

	for (n = 0; n <= reach; n++, i = (i + 1) & mask)
		if (READ_ONCE(t->recs[i].key) == key)
			return &t->recs[i];
	return NULL;
}

/*
 * The request left: its record may be claimed again.  Inline: one store
 * at every completion.
 */
static inline void meas_track_release(struct meas_track_rec *rec)
{
	/* The reads of the record before it is free for a claimer. */
	smp_store_release(&rec->key, 0);
}

#endif /* _MEAS_DISK_TRACK_H */
