/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block unit: what blk.c (the probes), disks.c (the device tables),
 * track.c (the requests in flight), tape.c and iotrace.c (class 14)
 * share.  Documentation/io.rst describes the design.
 */
#ifndef _MEAS_BLK_H
#define _MEAS_BLK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <asm/barrier.h>
#include <linux/cache.h>
#include <linux/sched.h>
#include <linux/blkdev.h>
#include <linux/meas.h>
#include "logic/blklogic.h"
#include "logic/lathist.h"

struct meas_class;
struct meas_class_ops;
struct request;

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

void meas_disks_claim_present(struct meas_devtab *t);

/* struct meas_track_rec.flags */
#define MEAS_TRACK_ISSUED	0x1	/* issued, and not requeued since */
#define MEAS_TRACK_REQUEUED	0x2	/* requeued, not yet issued again */
#define MEAS_TRACK_EVER_REQUEUED 0x4	/* requeued at least once */
#define MEAS_TRACK_IDENT	0x8	/* @pid, @tgid, @comm are set */

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
 *
 * One cache line: the probes of one request touch only this line.
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

/*
 * A class 0 counter row per device-table slot: MEAS_ROW_WORDS words
 * (logic/blklogic.h) for a disk, the items of its entry for a tape.
 */
#define MEAS_TAPE_ROW_WORDS	MEAS_C0_TAPE_ITEMS

/* Words of a depth row: requests that entered, and that left. */
#define MEAS_DEPTH_IN		0
#define MEAS_DEPTH_OUT		1
#define MEAS_DEPTH_WORDS	2

/* struct meas_blk.depth_sole: no CPU yet, or more than one. */
#define MEAS_DEPTH_NONE		U32_MAX
#define MEAS_DEPTH_MANY		(U32_MAX - 1)

/**
 * struct meas_blk_misc - per-CPU counters of the block unit
 * @untracked: last completions of requests meas did not see inserted
 * @track_full: requests the full request table could not hold
 * @stale: records of requests that vanished without an event, reused
 */
struct meas_blk_misc {
	u64 untracked;
	u64 track_full;
	u64 stale;
};

/**
 * struct meas_blk_c0 - class 0 counting, while class 0 is enabled
 * @rows: per CPU, (disk slots + 1) rows of MEAS_ROW_WORDS: subclasses 1,
 *	4 and 5
 * @tape_rows: per CPU, (tape slots + 1) rows of MEAS_TAPE_ROW_WORDS
 */
struct meas_blk_c0 {
	u64 *__percpu *rows;
	u64 *__percpu *tape_rows;
};

struct meas_io_ring;

/**
 * struct meas_blk - the block unit, alive while class 0 or 14 is enabled
 * @disks: whole disks
 * @tapes: SCSI tapes
 * @track: requests in flight
 * @depth: per CPU, (disk slots + 1) depth rows
 * @depth_cpus: per disk slot (and the shared row), a bitmap of the CPUs
 *	that ever counted a request of it in or out, @depth_stride longs
 *	apart: the only CPUs whose depth rows hold anything of that disk
 * @depth_stride: longs per bitmap, a whole number of cache lines
 * @depth_sole: per disk slot, the one CPU that counted it so far, or
 *	MEAS_DEPTH_NONE, or MEAS_DEPTH_MANY once a second one did
 * @misc: per-CPU counters
 * @c0: class 0 counting, NULL while class 0 is not enabled
 * @ring: the class 14 ring, NULL while class 14 is not enabled
 * @users: MEAS_BLK_USER_* bits of the classes using the unit
 */
struct meas_blk {
	struct meas_devtab disks;
	struct meas_devtab tapes;
	struct meas_track track;
	u64 *__percpu *depth;
	unsigned long *depth_cpus;
	u32 depth_stride;
	u32 *depth_sole;
	struct meas_blk_misc __percpu *misc;
	struct meas_blk_c0 __rcu *c0;
	struct meas_io_ring __rcu *ring;
	unsigned int users;
};

#define MEAS_BLK_USER_C0	0x1
#define MEAS_BLK_USER_IO	0x2

/* blk.c: the unit's life, under meas_sir */
struct meas_blk *meas_blk_get(unsigned int user, int *rc);
void meas_blk_put(unsigned int user);
struct meas_blk *meas_blk_live(void);
void meas_blk_misc_sum(struct meas_blk *b, struct meas_blk_misc *out);
u64 meas_blk_inflight(struct meas_blk *b, u32 slot);
u64 *__percpu *meas_pcpu_rows_alloc(size_t words);
void meas_pcpu_rows_free(u64 *__percpu *rows);
void meas_blk_sum_row(u64 *__percpu *rows, u32 row, size_t words, u64 *out);

/* blk.c: binding at module init; the disk subclasses of class 0 (class0.c) */
void meas_blk_init(void);
int meas_blk_c0_attach(struct meas_class *cls);
void meas_blk_c0_detach(struct meas_class *cls);
void meas_blk_c0_fold(struct meas_class *cls);

/* disks.c: class 0 subclasses 1, 3, 4 and 5 */
void meas_disks_fold(struct meas_class *cls, struct meas_blk *blk,
		     struct meas_blk_c0 *c0);
u32 meas_disks_capacity(void);
u32 meas_tapes_capacity(void);

/* tape.c: SCSI tapes, whose requests have no disk */
int meas_tape_attach(void);
void meas_tape_detach(void);
u64 meas_tape_key(struct request *rq, unsigned int *op);

/* iotrace.c: the class 14 ring, written by the completion probes */
extern const struct meas_class_ops meas_class14_ops;
long meas_iotrace_ioctl(void **state, void __user *u);
void meas_iotrace_release(void *state);
struct meas_io_record;
void meas_iotrace_write(struct meas_io_ring *ring,
			struct meas_io_record *rec);

#endif /* _MEAS_BLK_H */
