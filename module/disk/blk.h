/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blk.c, the block unit: its probes and its life while class 0 or 14
 * uses it, and what its users, class 0's disks (disks.c) and class 14
 * (iotrace.c), read of it.  Documentation/io.rst describes the design.
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
#include "devtab.h"
#include "track.h"

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

/* the unit's life, under meas_sir */
struct meas_blk *meas_blk_get(unsigned int user, int *rc);
void meas_blk_put(unsigned int user);
struct meas_blk *meas_blk_live(void);
void meas_blk_misc_sum(struct meas_blk *b, struct meas_blk_misc *out);
u64 meas_blk_inflight(struct meas_blk *b, u32 slot);
u64 *__percpu *meas_pcpu_rows_alloc(size_t words);
void meas_pcpu_rows_free(u64 *__percpu *rows);
void meas_blk_sum_row(u64 *__percpu *rows, u32 row, size_t words, u64 *out);

/* binding at module init */
void meas_blk_init(void);

#endif /* _MEAS_BLK_H */
