// SPDX-License-Identifier: GPL-2.0
/*
 * The block probes: class 0 subclasses 1, 3 and 4 (disks, tapes and
 * their transfers) and the records of class 14, from the block
 * tracepoints.  Documentation/io.rst describes the design.
 *
 * The probes are registered once while class 0 or class 14 is enabled
 * (a user count under meas_sir), and take the unit as their data.  On
 * the hot path everything is per CPU: counters are local64 adds to this
 * CPU's rows, whole against an interrupt on the same CPU, so class 0
 * never turns interrupts off (only class 14's ring write does); the
 * device lookup is a few plain reads (devtab.c), and a request's record
 * is one cache line claimed with one cmpxchg (track.c).  Nothing is
 * allocated and no lock is taken.  The probes call only units below
 * them: the tables, and class 14's ring writer inline (ioring.h); class
 * 0's disks (disks.c) and class 14 (iotrace.c) start and stop the unit
 * (meas_blk_get(), meas_blk_put()) and read it.
 *
 * A request enters at block_rq_insert, or at block_rq_issue when the
 * block layer issued it without inserting it (no I/O scheduler, a plug
 * flushed, a bypass insert); a bio of a bio-based disk enters at
 * block_bio_queue.  It leaves at its last block_rq_complete (or
 * block_bio_complete), or when block_rq_merge folds it into another.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/blk-cgroup.h>
#include <linux/cgroup.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/meas.h>
#include <asm/local64.h>
#include <trace/events/block.h>
#include "core/ctl.h"
#include "core/tp.h"
#include "core/params.h"
#include "core/compat.h"
#include "core/inject.h"
#include "logic/lathist.h"
#include "blk.h"
#include "ioring.h"
#include "tape.h"

/* The unit, while a class uses it; changed under meas_sir. */
static struct meas_blk *blk_unit;

/* ---- per-CPU rows ----------------------------------------------------- */

/**
 * meas_pcpu_rows_alloc() - a zeroed block of words for each possible CPU
 * @words: words per CPU
 *
 * Each block is allocated on its CPU's node; a probe finds its own with
 * this_cpu_read().  Blocks may exceed what alloc_percpu() can give.
 *
 * Return: the per-CPU pointers, or NULL.
 */
u64 *__percpu *meas_pcpu_rows_alloc(size_t words)
{
	u64 *__percpu *rows = alloc_percpu_gfp(u64 *, GFP_KERNEL | __GFP_NOWARN);
	int cpu;

	if (!rows)
		return NULL;
	for_each_possible_cpu(cpu) {
		u64 *p = kvzalloc_node(array_size(words, sizeof(u64)),
				       GFP_KERNEL | __GFP_NOWARN,
				       cpu_to_node(cpu));

		*per_cpu_ptr(rows, cpu) = p;
		if (!p) {
			meas_pcpu_rows_free(rows);
			return NULL;
		}
	}
	return rows;
}

void meas_pcpu_rows_free(u64 *__percpu *rows)
{
	int cpu;

	if (!rows)
		return;
	for_each_possible_cpu(cpu)
		kvfree(*per_cpu_ptr(rows, cpu));
	free_percpu(rows);
}

/**
 * meas_blk_sum_row() - add one row of every CPU into @out
 * @rows: per-CPU blocks of rows
 * @row: the row
 * @words: words per row
 * @out: @words sums
 */
void meas_blk_sum_row(u64 *__percpu *rows, u32 row, size_t words, u64 *out)
{
	size_t i;
	int cpu;

	for_each_possible_cpu(cpu) {
		const u64 *r = *per_cpu_ptr(rows, cpu) + (size_t)row * words;

		for (i = 0; i < words; i++)
			out[i] += READ_ONCE(r[i]);
	}
}

/*
 * Add @v to a word of this CPU's rows (counters or depth).  This CPU
 * alone writes them; other CPUs read them as they change
 * (meas_blk_sum_row(), meas_blk_inflight()), so each store must be
 * whole (KCSAN).  A local64_t add is whole and, on x86, one instruction
 * (no lock prefix, and nothing for KCSAN to instrument), where
 * WRITE_ONCE(*w, *w + v) is a load, an add and a store.  It is also
 * whole against an interrupt on this CPU that adds to the same word
 * (a completion interrupting a submission's probe), which is why the
 * class 0 probes need not turn interrupts off.  The words stay plain
 * u64 for their readers: local64_t has their layout.
 */
static __always_inline void blk_row_add(u64 *w, u64 v)
{
	local64_add(v, (local64_t *)w);
}

/* ---- what the kernel's request flags mean ------------------------------ */

static unsigned int blk_op(meas_opf_t opf)
{
	switch (opf & REQ_OP_MASK) {
	case REQ_OP_READ:
		return MEAS_IO_OP_READ;
	case REQ_OP_WRITE:
		return MEAS_IO_OP_WRITE;
	case REQ_OP_FLUSH:
		return MEAS_IO_OP_FLUSH;
	case REQ_OP_DISCARD:
		return MEAS_IO_OP_DISCARD;
	case REQ_OP_SECURE_ERASE:
		return MEAS_IO_OP_SECURE_ERASE;
	case REQ_OP_WRITE_ZEROES:
		return MEAS_IO_OP_WRITE_ZEROES;
	case REQ_OP_ZONE_APPEND:
		return MEAS_IO_OP_ZONE_APPEND;
	case REQ_OP_ZONE_OPEN:
	case REQ_OP_ZONE_CLOSE:
	case REQ_OP_ZONE_FINISH:
	case REQ_OP_ZONE_RESET:
	case REQ_OP_ZONE_RESET_ALL:
		return MEAS_IO_OP_ZONE_MGMT;
	case REQ_OP_DRV_IN:
		return MEAS_IO_OP_DRV_IN;
	case REQ_OP_DRV_OUT:
		return MEAS_IO_OP_DRV_OUT;
	default:
		return MEAS_IO_OP_OTHER;
	}
}

/*
 * The request flags meas reports, each REQ_* bit with its MEAS_IO_F_*
 * bit (the uapi's, fixed; the kernel's move between releases).
 */
#define BLK_FLAG(name)	{ (__force u32)REQ_##name, MEAS_IO_F_##name }
static const struct {
	u32 req;
	u32 meas;
} blk_flag_map[] = {
	BLK_FLAG(SYNC), BLK_FLAG(META), BLK_FLAG(PRIO), BLK_FLAG(FUA),
	BLK_FLAG(PREFLUSH), BLK_FLAG(RAHEAD), BLK_FLAG(BACKGROUND),
	BLK_FLAG(NOWAIT), BLK_FLAG(POLLED), BLK_FLAG(SWAP), BLK_FLAG(IDLE),
};

/* Those of subclass 1: the flags meas_blk_disc_item() reads. */
#define BLK_DISC_FLAGS	(MEAS_IO_F_SYNC | MEAS_IO_F_FUA | MEAS_IO_F_PREFLUSH | \
			 MEAS_IO_F_RAHEAD | MEAS_IO_F_BACKGROUND | \
			 MEAS_IO_F_NOWAIT | MEAS_IO_F_POLLED | MEAS_IO_F_SWAP)

/*
 * The REQ_* bits of the map lie in one window of the request's flags
 * (bits 11 to 25 in 6.1, 11 to 24 in 7.3); each half of it indexes a
 * table of the MEAS_IO_F_* bits it holds, made once by meas_blk_init().
 * Two loads in place of a mask and a shift a flag: the completion probe
 * translates the flags of every request (class 14 all eleven, class 0
 * subclass 1's eight).
 */
#define BLK_FLAG_REQS	((__force u32)(REQ_SYNC | REQ_META | REQ_PRIO | \
			 REQ_FUA | REQ_PREFLUSH | REQ_RAHEAD | REQ_BACKGROUND | \
			 REQ_NOWAIT | REQ_POLLED | REQ_SWAP | REQ_IDLE))
#define BLK_FLAG_LO	__builtin_ctz(BLK_FLAG_REQS)
#define BLK_FLAG_SPAN	(32 - __builtin_clz(BLK_FLAG_REQS) - BLK_FLAG_LO)
#define BLK_FLAG_HALF	((BLK_FLAG_SPAN + 1) / 2)
#define BLK_FLAG_MASK	((1U << BLK_FLAG_HALF) - 1)

static u16 blk_flag_tab[2][1 << BLK_FLAG_HALF] __read_mostly;

static void blk_flag_tab_init(void)
{
	unsigned int h, i, f;
	u32 bits;

	BUILD_BUG_ON(BLK_FLAG_HALF > 8);
	for (h = 0; h < 2; h++)
		for (i = 0; i <= BLK_FLAG_MASK; i++) {
			bits = i << (BLK_FLAG_LO + h * BLK_FLAG_HALF);
			for (f = 0; f < ARRAY_SIZE(blk_flag_map); f++)
				if (bits & blk_flag_map[f].req)
					blk_flag_tab[h][i] |= blk_flag_map[f].meas;
		}
}

/* Every flag class 14 records (MEAS_IO_F_SYNC .. MEAS_IO_F_IDLE). */
static __always_inline u32 blk_flags(meas_opf_t opf)
{
	u32 o = (__force u32)opf >> BLK_FLAG_LO;

	return blk_flag_tab[0][o & BLK_FLAG_MASK] |
	       blk_flag_tab[1][(o >> BLK_FLAG_HALF) & BLK_FLAG_MASK];
}

/* Subclass 1's flags of a request. */
static __always_inline u32 blk_disc_flags(meas_opf_t opf)
{
	return blk_flags(opf) & BLK_DISC_FLAGS;
}

/*
 * The kind of an operation (logic/blklogic.h): reads and writes as
 * subclass 4 counts them, the others by their latency group, the
 * kernel's own rule for /proc/diskstats (op_stat_group()), and flushes
 * apart, as the kernel counts them apart.  Passthrough commands are not
 * disk I/O there.
 */
static __always_inline u32 blk_kind(enum req_op op)
{
	switch (op) {
	case REQ_OP_READ:
		return MEAS_BLK_K_READ;
	case REQ_OP_WRITE:
	case REQ_OP_ZONE_APPEND:
		return MEAS_BLK_K_WRITE;
	case REQ_OP_FLUSH:
		return MEAS_BLK_K_FLUSH;
	case REQ_OP_DRV_IN:
	case REQ_OP_DRV_OUT:
		return MEAS_BLK_K_NONE;
	default:
		break;
	}
	switch (op_stat_group(op)) {
	case STAT_WRITE:
		return MEAS_BLK_K_CTL_WRITE;
	case STAT_DISCARD:
		return MEAS_BLK_K_DISCARD;
	default:
		return MEAS_BLK_K_CTL_READ;
	}
}

/* ---- entering and leaving ---------------------------------------------- */

static u32 blk_disk_slot(struct meas_blk *b, struct gendisk *disk)
{
	return disk ? meas_devtab_slot(&b->disks, meas_disk_key(disk)) :
		      MEAS_NOSLOT;
}

/* The CPUs that counted requests of a disk slot in or out. */
static unsigned long *blk_depth_cpus(struct meas_blk *b, u32 slot)
{
	return b->depth_cpus + (size_t)slot * b->depth_stride;
}

/**
 * meas_blk_inflight() - requests of a disk in flight now
 * @b: the block unit
 * @slot: the disk's slot
 *
 * What entered minus what left, on the CPUs that ever counted a request
 * of this disk: O(those CPUs) reads and no write, not O(possible CPUs)
 * (Documentation/io.rst, "The queue length"); the fold of subclass 4
 * uses it too.
 */
u64 meas_blk_inflight(struct meas_blk *b, u32 slot)
{
	s64 n = 0;
	int cpu;

	for_each_cpu(cpu, to_cpumask(blk_depth_cpus(b, slot))) {
		const u64 *d = *per_cpu_ptr(b->depth, cpu) +
			       slot * MEAS_DEPTH_WORDS;

		n += READ_ONCE(d[MEAS_DEPTH_IN]) - READ_ONCE(d[MEAS_DEPTH_OUT]);
	}
	return n > 0 ? n : 0;
}

/*
 * The queue length a request finds as it enters, on this CPU: while this
 * CPU is the only one that ever counted the disk (most disks are used
 * from one CPU at a time, and every one of the benchmark's), what it
 * counted is the whole sum, and no other CPU's line nor the bitmap is
 * read.
 */
static u64 blk_depth_now(struct meas_blk *b, u32 slot)
{
	const u64 *d;
	u64 in, out;

	if (READ_ONCE(b->depth_sole[slot]) != smp_processor_id())
		return meas_blk_inflight(b, slot);
	/* an interrupt's completion may count out between the two reads */
	d = this_cpu_read(*b->depth) + slot * MEAS_DEPTH_WORDS;
	in = READ_ONCE(d[MEAS_DEPTH_IN]);
	out = READ_ONCE(d[MEAS_DEPTH_OUT]);
	return in > out ? in - out : 0;
}

/*
 * A CPU's first count of a disk: it joins the disk's CPUs, once; after
 * that the bitmap is only read, and stays in every CPU's cache.  The
 * first CPU of a disk is its sole one until a second joins.
 */
static void blk_depth_join(struct meas_blk *b, u32 slot, unsigned int cpu)
{
	u32 none = MEAS_DEPTH_NONE, was;

	/*
	 * Hidden from sparse, which checks every size case of arm64's
	 * cmpxchg() with a known value, and U32_MAX fits in no byte.
	 */
	OPTIMIZER_HIDE_VAR(none);
	set_bit(cpu, blk_depth_cpus(b, slot));
	/* an interrupt on this CPU may have joined it in between */
	was = cmpxchg(&b->depth_sole[slot], none, cpu);
	if (was != MEAS_DEPTH_NONE && was != cpu)
		WRITE_ONCE(b->depth_sole[slot], MEAS_DEPTH_MANY);
	/*
	 * A reader that sees the count sees the CPU in the map, and the sole
	 * CPU, reading its own counts, sees the count only if it sees that
	 * it is no longer alone.
	 */
	smp_mb();
}

/* Count a request in or out of its disk's queue; preemption is off. */
static __always_inline void blk_depth_add(struct meas_blk *b, u32 slot, unsigned int word)
{
	unsigned int cpu;
	u64 *d;

	if (slot == MEAS_NOSLOT)
		return;
	cpu = smp_processor_id();
	if (unlikely(READ_ONCE(b->depth_sole[slot]) != cpu &&
		     !test_bit(cpu, blk_depth_cpus(b, slot))))
		blk_depth_join(b, slot, cpu);
	d = this_cpu_read(*b->depth) + slot * MEAS_DEPTH_WORDS + word;
	blk_row_add(d, 1);
}

/*
 * The submitter is taken once, where the request enters, and only while
 * class 14 is enabled: class 0 counts no one, and these reads were a
 * third of what entering a request cost it.
 */
static void blk_fill_rec(struct meas_blk *b, struct meas_track_rec *rec,
			 u32 slot, u64 depth, u64 now)
{
	struct task_struct *t = current;

	rec->insert_ns = now;
	rec->issue_ns = 0;
	rec->depth = min_t(u64, depth, U32_MAX);
	rec->devslot = slot;
	rec->flags = 0;
	if (!rcu_access_pointer(b->ring))
		return;
	rec->flags = MEAS_TRACK_IDENT;
	rec->pid = task_pid_nr(t);
	rec->tgid = task_tgid_nr(t);
	memcpy(rec->comm, t->comm, sizeof(rec->comm));
	rec->comm[sizeof(rec->comm) - 1] = '\0';
	/* which process, not only which number (iotrace.c's reader) */
	rec->start_ns = t->group_leader->start_boottime;
	rec->exec_id = t->group_leader->self_exec_id;
}

/*
 * When a request entered: the kernel's own start of it where it keeps
 * one (compat.h), else the clock now (@now, if the caller read it).
 * The start is a little earlier than the insert or issue event (the
 * request's allocation for its first bio), and it is the start
 * /proc/diskstats times a request from: no clock read on entering.
 */
static u64 blk_entry_ns(struct request *rq, u64 now)
{
	return meas_rq_start_ns(rq) ?: now ?: ktime_get_ns();
}

/*
 * A request (or bio) enters its disk's queue: record who and when, and
 * count the queue length it found.  A request the full table cannot hold
 * is still counted in the histogram, and in track_full.  Interrupts stay
 * on: a completion interrupting this touches another request's record
 * and adds to the words whole (blk_row_add()); it may leave the queue
 * between the reading of its length and this request's count in, and
 * the length found is then that of a moment earlier.
 */
static struct meas_track_rec *blk_enter(struct meas_blk *b, unsigned long key,
					struct gendisk *disk, u64 now)
{
	u32 slot = blk_disk_slot(b, disk);
	u64 depth = 0;
	struct meas_track_rec *rec;
	struct meas_blk_c0 *c0;

	if (slot != MEAS_NOSLOT)
		depth = blk_depth_now(b, slot);
	rec = meas_track_claim(&b->track, key);
	if (rec) {
		blk_fill_rec(b, rec, slot, depth, now);
		blk_depth_add(b, slot, MEAS_DEPTH_IN);
	} else {
		this_cpu_inc(b->misc->track_full);
	}
	c0 = rcu_dereference_sched(b->c0);
	if (c0 && slot != MEAS_NOSLOT)
		blk_row_add(this_cpu_read(*c0->rows) + slot * MEAS_ROW_WORDS +
			    MEAS_ROW_DISC + MEAS_C0_DISC_QLEN0 +
			    meas_blk_bucket(depth), 1);
	return rec;
}

/* A request leaves without a completion of its own. */
static void blk_leave(struct meas_blk *b, struct meas_track_rec *rec)
{
	blk_depth_add(b, rec->devslot, MEAS_DEPTH_OUT);
	meas_track_release(rec);
}

/* A record left behind by a request that vanished without an event. */
static void blk_stale(struct meas_blk *b, struct meas_track_rec *rec)
{
	this_cpu_inc(b->misc->stale);
	blk_leave(b, rec);
}

/* ---- the request probes ------------------------------------------------ */

static void blk_rq_insert(void *data, struct request *rq)
{
	struct meas_blk *b = data;
	struct meas_track_rec *rec = meas_track_find(&b->track,
						     (unsigned long)rq);

	if (rec) {
		/* Back after a requeue, or inserted twice before its issue. */
		if (!(rec->flags & MEAS_TRACK_ISSUED) ||
		    (rec->flags & MEAS_TRACK_REQUEUED))
			return;
		blk_stale(b, rec);
	}
	blk_enter(b, (unsigned long)rq, meas_rq_disk(rq), blk_entry_ns(rq, 0));
}

static void blk_rq_issue(void *data, struct request *rq)
{
	struct meas_blk *b = data;
	struct meas_track_rec *rec = meas_track_find(&b->track,
						     (unsigned long)rq);
	u64 now = 0;

	/* Issued again without a requeue: the record is someone else's. */
	if (rec && (rec->flags & MEAS_TRACK_ISSUED) &&
	    !(rec->flags & MEAS_TRACK_REQUEUED)) {
		blk_stale(b, rec);
		rec = NULL;
	}
	if (!rec) {
		if (!meas_rq_start_ns(rq))
			now = ktime_get_ns();
		rec = blk_enter(b, (unsigned long)rq, meas_rq_disk(rq),
				blk_entry_ns(rq, now));
	}
	if (rec) {
		/* the kernel stamps the issue right after this probe */
		if (!meas_rq_issue_stamped(rq))
			rec->issue_ns = now ?: ktime_get_ns();
		rec->flags = (rec->flags | MEAS_TRACK_ISSUED) &
			     ~MEAS_TRACK_REQUEUED;
	}
}

/* The device or driver was busy: the request goes back to the queue. */
static void blk_rq_requeue(void *data, struct request *rq)
{
	struct meas_blk *b = data;
	struct meas_track_rec *rec = meas_track_find(&b->track,
						     (unsigned long)rq);
	struct meas_blk_c0 *c0;
	u32 slot;

	/*
	 * A driver may refuse a request before starting it (no issue event
	 * yet), and a direct issue has no insert event: since the 7 series
	 * null_blk's throttle does both.  Such a request enters its queue
	 * here, so that its issue and completion find it requeued.
	 */
	if (!rec)
		rec = blk_enter(b, (unsigned long)rq, meas_rq_disk(rq),
				blk_entry_ns(rq, 0));
	if (rec)
		rec->flags |= MEAS_TRACK_REQUEUED | MEAS_TRACK_EVER_REQUEUED;
	c0 = rcu_dereference_sched(b->c0);
	if (c0) {
		slot = rec ? rec->devslot : blk_disk_slot(b, meas_rq_disk(rq));
		if (slot != MEAS_NOSLOT)
			blk_row_add(this_cpu_read(*c0->rows) +
				    slot * MEAS_ROW_WORDS + MEAS_ROW_DISC +
				    MEAS_C0_DISC_BUSY, 1);
	}
}

/* @rq was merged into another request and is freed. */
static void blk_rq_merge(void *data, struct request *rq)
{
	struct meas_blk *b = data;
	struct meas_track_rec *rec = meas_track_find(&b->track,
						     (unsigned long)rq);

	if (rec)
		blk_leave(b, rec);
}

/* ---- completions -------------------------------------------------------- */

/**
 * struct blk_counted - what class 0 counts of a completion event
 * @bytes: the bytes it ended
 * @op: MEAS_IO_OP_*
 * @flags: MEAS_IO_F_*, at least those subclass 1 reads
 * @kind: MEAS_BLK_K_* (subclasses 4 and 5)
 * @done: the request's last event; else a partial completion, or the
 *	data phase of a flush sequence
 */
struct blk_counted {
	u64 bytes;
	u32 op;
	u32 flags;
	u32 kind;
	bool done;
};

/**
 * struct blk_event - a completion, whichever tracepoint reported it
 * @key: the request or bio
 * @disk: its disk, or NULL
 * @rec: what class 14 records
 * @c: what class 0 counts
 * @tape: @rec.dev is a tape (subclass 3)
 * @issue_ns: its last issue where the kernel stamped it, else 0
 */
struct blk_event {
	unsigned long key;
	struct gendisk *disk;
	struct meas_io_record rec;
	struct blk_counted c;
	bool tape;
	u64 issue_ns;
};

/*
 * A completion event of a disk's request, in this CPU's row: as few
 * words as can be (logic/blklogic.h); the class 0 fold makes the rest.
 * Bytes count at every event, the request at its last; it is timed from
 * its entering, as meas saw it enter (@tr), to @now, and from its last
 * issue (@issue, 0 if unknown) for the service time.
 */
static __always_inline void blk_count_disk(struct meas_blk_c0 *c0, u32 slot,
					   const struct blk_counted *c,
					   const struct meas_track_rec *tr,
					   u64 now, u64 issue)
{
	u64 *row = this_cpu_read(*c0->rows) + slot * MEAS_ROW_WORDS;
	unsigned int k = c->kind, g;
	u64 q;

	blk_row_add(&row[MEAS_ROW_BYTES + meas_blk_bytes_of(c->op)], c->bytes);
	if (!c->done)
		return;
	blk_row_add(&row[MEAS_ROW_DISC + meas_blk_disc_item(c->op, c->flags)],
		    1);
	if (k != MEAS_BLK_K_READ && k != MEAS_BLK_K_WRITE)
		blk_row_add(&row[MEAS_ROW_DONE + k], 1);
	if (!tr) {
		blk_row_add(&row[MEAS_ROW_UNTIMED + k], 1);
		return;
	}
	q = now - tr->insert_ns;
	blk_row_add(&row[MEAS_ROW_NS + k], q);
	if (issue)
		blk_row_add(&row[MEAS_ROW_SERVICE], now - issue);
	g = meas_blk_kind_group(k);
	if (g < MEAS_C0_LAT_NR_OPS)
		blk_row_add(&row[MEAS_ROW_BUCKET + g * MEAS_C0_LAT_BUCKETS +
				 meas_lat_bucket(q)], 1);
}

static void blk_count_tape(struct meas_blk *b, struct meas_blk_c0 *c0,
			   const struct blk_event *ev)
{
	u32 slot = meas_devtab_find(&b->tapes, ev->rec.dev);

	if (ev->c.done)
		blk_row_add(this_cpu_read(*c0->tape_rows) +
			    slot * MEAS_TAPE_ROW_WORDS +
			    meas_blk_unit_item(ev->rec.op), 1);
}

/*
 * What the record of a tracked request takes from its entry; its issue
 * is the kernel's stamp if there is one (never before its entry: the
 * entry may be meas's clock and the issue a plug's cached time).
 */
static u64 blk_issue_of(u64 stamp, const struct meas_track_rec *tr)
{
	if (!stamp)
		return tr->issue_ns;
	return stamp < tr->insert_ns ? tr->insert_ns : stamp;
}

static void blk_from_track(struct blk_event *ev,
			   const struct meas_track_rec *tr)
{
	struct meas_io_record *r = &ev->rec;

	ev->issue_ns = blk_issue_of(ev->issue_ns, tr);
	r->depth = tr->depth;
	r->insert_ns = tr->insert_ns;
	r->issue_ns = ev->issue_ns;
	if (tr->flags & MEAS_TRACK_IDENT) {
		r->pid = tr->pid;
		r->tgid = tr->tgid;
		memcpy(r->comm, tr->comm, sizeof(r->comm));
		r->proc_start_ns = tr->start_ns;
		r->proc_exec_id = tr->exec_id;
	}
	if (tr->flags & MEAS_TRACK_EVER_REQUEUED)
		r->flags |= MEAS_IO_F_REQUEUED;
}

/* Class 0's part of a disk's completion event; preemption is off. */
static __always_inline void blk_count_c0(struct meas_blk *b,
					 struct gendisk *disk,
					 const struct blk_counted *c,
					 const struct meas_track_rec *tr,
					 u64 now, u64 issue)
{
	struct meas_blk_c0 *c0 = rcu_dereference_sched(b->c0);
	u32 slot;

	if (!c0)
		return;
	slot = tr ? tr->devslot : blk_disk_slot(b, disk);
	if (slot != MEAS_NOSLOT)
		blk_count_disk(c0, slot, c, tr, now, issue);
}

/*
 * A request's last event: it leaves its queue, or was never seen in it.
 * Inline: every completion ends here.
 */
static __always_inline void blk_left(struct meas_blk *b, bool done,
				     struct meas_track_rec *tr)
{
	if (done && !tr)
		this_cpu_inc(b->misc->untracked);
	if (done && tr)
		blk_depth_add(b, tr->devslot, MEAS_DEPTH_OUT);
}

/*
 * Count and record a completion; @tr is the request's record, or NULL.
 * Interrupts are off from the clock read to the record's publication:
 * a CPU's records are in time order, one writer at a time
 * (meas_iotrace_begin()).
 */
static void blk_complete(struct meas_blk *b, struct blk_event *ev,
			 struct meas_track_rec *tr)
{
	struct meas_io_ring *ring;
	struct meas_blk_c0 *c0;
	unsigned long irq;
	u64 now;
	u32 slot;

	local_irq_save(irq);
	now = ktime_get_ns();
	ev->rec.complete_ns = now;
	if (tr)
		blk_from_track(ev, tr);
	else
		ev->rec.flags |= MEAS_IO_F_UNTRACKED;
	c0 = rcu_dereference_sched(b->c0);
	if (c0 && ev->tape) {
		blk_count_tape(b, c0, ev);
	} else if (c0 && ev->disk) {
		slot = tr ? tr->devslot : blk_disk_slot(b, ev->disk);
		if (slot != MEAS_NOSLOT)
			blk_count_disk(c0, slot, &ev->c, tr, now,
				       ev->rec.flags & MEAS_IO_F_BIO ? 0 :
				       ev->issue_ns);
	}
	blk_left(b, ev->c.done, tr);
	ring = rcu_dereference_sched(b->ring);
	if (ring)
		meas_iotrace_write(ring, &ev->rec);
	local_irq_restore(irq);
	if (ev->c.done && tr)
		meas_track_release(tr);
}

/*
 * The flush machinery clears FUA and PREFLUSH from a request it emulates
 * them for; its bio keeps what the submitter asked.
 */
static meas_opf_t blk_rq_opf(struct request *rq)
{
	return rq->cmd_flags | (rq->bio ? rq->bio->bi_opf &
				(REQ_FUA | REQ_PREFLUSH) : 0);
}

/*
 * A completion of a disk's request while class 14 is not enabled: class
 * 0 counts it, and no record is built (a record's 128 bytes, made and
 * then thrown away, were a third of what a completion cost class 0).
 * Interrupts stay on, as in blk_enter(): every word is added whole.
 */
static void blk_rq_count(struct meas_blk *b, struct request *rq,
			 struct gendisk *disk, unsigned int nr_bytes,
			 bool done)
{
	meas_opf_t opf = rq->cmd_flags;
	struct blk_counted c = {
		.bytes = nr_bytes,
		.kind = blk_kind(req_op(rq)),
		.done = done,
	};
	struct meas_track_rec *tr = meas_track_find(&b->track,
						     (unsigned long)rq);
	u64 now;

	if (c.kind == MEAS_BLK_K_WRITE)
		opf = blk_rq_opf(rq);
	c.op = blk_op(opf);
	if (c.kind == MEAS_BLK_K_READ || c.kind == MEAS_BLK_K_WRITE)
		c.flags = blk_disc_flags(opf);
	now = ktime_get_ns();
	blk_count_c0(b, disk, &c, tr, now,
		     tr ? blk_issue_of(meas_rq_issue_ns(rq), tr) : 0);
	blk_left(b, done, tr);
	if (done && tr)
		meas_track_release(tr);
}

/*
 * The cgroup v2 ID a bio is charged to: its blkcg's cgroup, the owner of
 * the pages for writeback (Documentation/io.rst); 0 without one.  Every
 * bio of a request has the same (blk_cgroup_mergeable()).
 */
static u64 blk_bio_cgroup(struct bio *bio)
{
#ifdef CONFIG_BLK_CGROUP
	struct cgroup_subsys_state *css = bio_blkcg_css(bio);

	return css ? cgroup_id(css->cgroup) : 0;
#else
	return 0;
#endif
}

/* A record whose submitter meas did not see: no one, as MEAS_IO_F_UNTRACKED. */
static void blk_no_ident(struct meas_io_record *r)
{
	r->pid = 0;
	r->tgid = 0;
	memset(r->comm, 0, sizeof(r->comm));
	r->proc_start_ns = 0;
	r->proc_exec_id = 0;
}

/* The record of a disk's completion event, written in its ring slot. */
static void blk_fill_record(struct meas_io_record *r, struct request *rq,
			    struct gendisk *disk, const struct blk_counted *c,
			    const struct meas_track_rec *tr, int status,
			    u64 now, u64 issue)
{
	r->dev = meas_disk_key(disk);
	r->sector = blk_rq_pos(rq);
	r->bytes = c->bytes;
	r->op = c->op;
	r->pad = 0;
	r->flags = c->flags;
	r->status = status;
	r->alloc_ns = rq->start_time_ns;
	r->complete_ns = now;
	r->cgroup = blk_bio_cgroup(rq->bio);
	if (!tr) {
		blk_no_ident(r);
		r->depth = 0;
		r->insert_ns = 0;
		r->issue_ns = 0;
		return;
	}
	r->depth = tr->depth;
	r->insert_ns = tr->insert_ns;
	r->issue_ns = issue;
	if (tr->flags & MEAS_TRACK_IDENT) {
		r->pid = tr->pid;
		r->tgid = tr->tgid;
		memcpy(r->comm, tr->comm, sizeof(r->comm));
		r->proc_start_ns = tr->start_ns;
		r->proc_exec_id = tr->exec_id;
	} else {
		blk_no_ident(r);
	}
}

/*
 * A completion of a disk's request while class 14 is enabled: class 0
 * counts it as above, and its record is written where it goes, in this
 * CPU's partition of the ring, not built on the stack and copied there;
 * interrupts are off for the ring, as in blk_complete().
 */
static noinline void blk_rq_trace(struct meas_blk *b, struct request *rq,
				  struct gendisk *disk, blk_status_t error,
				  unsigned int nr_bytes, bool done)
{
	meas_opf_t opf = blk_rq_opf(rq);
	struct blk_counted c = {
		.bytes = nr_bytes,
		.op = blk_op(opf),
		.flags = blk_flags(opf),
		.kind = blk_kind(req_op(rq)),
		.done = done,
	};
	struct meas_track_rec *tr = meas_track_find(&b->track,
						     (unsigned long)rq);
	/* the kernel's conversion is a call: not for a request that succeeded */
	int status = error == BLK_STS_OK ? 0 : blk_status_to_errno(error);
	struct meas_io_ring *ring;
	struct meas_io_record *r;
	unsigned long irq;
	u64 now, issue = 0;

	if (!done)
		c.flags |= MEAS_IO_F_PARTIAL;
	if (!tr)
		c.flags |= MEAS_IO_F_UNTRACKED;
	else if (tr->flags & MEAS_TRACK_EVER_REQUEUED)
		c.flags |= MEAS_IO_F_REQUEUED;
	if (tr)
		issue = blk_issue_of(meas_rq_issue_ns(rq), tr);
	local_irq_save(irq);
	now = ktime_get_ns();
	blk_count_c0(b, disk, &c, tr, now, issue);
	blk_left(b, done, tr);
	ring = rcu_dereference_sched(b->ring);
	if (ring) {
		r = meas_iotrace_begin(ring);
		blk_fill_record(r, rq, disk, &c, tr, status, now, issue);
		meas_iotrace_end(ring, r);
	}
	local_irq_restore(irq);
	if (done && tr)
		meas_track_release(tr);
}

/*
 * A completion of a request without a disk (a tape's, or a passthrough
 * command's): the whole event.  Out of line, so that its frame and the
 * zeroing of its record are not the disks' path's.
 */
static noinline void blk_rq_record(struct meas_blk *b, struct request *rq,
				   struct gendisk *disk, blk_status_t error,
				   unsigned int nr_bytes, bool done)
{
	meas_opf_t opf = blk_rq_opf(rq);
	struct blk_event ev = {
		.key = (unsigned long)rq,
		.disk = disk,
		.rec = {
			.sector = blk_rq_pos(rq),
			.bytes = nr_bytes,
			.op = blk_op(opf),
			.flags = blk_flags(opf),
			.status = blk_status_to_errno(error),
			.alloc_ns = rq->start_time_ns,
			.cgroup = blk_bio_cgroup(rq->bio),
		},
		.c = {
			.bytes = nr_bytes,
			.kind = blk_kind(req_op(rq)),
			.done = done,
		},
		.issue_ns = meas_rq_issue_ns(rq),
	};

	if (!done)
		ev.rec.flags |= MEAS_IO_F_PARTIAL;
	if (ev.disk) {
		ev.rec.dev = meas_disk_key(ev.disk);
	} else {
		unsigned int op = ev.rec.op;

		ev.rec.dev = meas_tape_key(rq, &op);
		ev.rec.op = op;
		ev.tape = ev.rec.dev;
		if (ev.tape)
			ev.rec.flags |= MEAS_IO_F_TAPE;
	}
	ev.c.op = ev.rec.op;
	ev.c.flags = ev.rec.flags;
	blk_complete(b, &ev, meas_track_find(&b->track, ev.key));
}

/*
 * One event per call of blk_update_request(): a request may complete in
 * parts.  Its last event ends as many bytes as it has left.  The data
 * phase of a flush sequence ends the data, but the request goes on to
 * its post-flush and completes again, as /proc/diskstats counts it.
 */
static void blk_rq_complete(void *data, struct request *rq,
			    blk_status_t error, unsigned int nr_bytes)
{
	struct meas_blk *b = data;
	struct gendisk *disk = meas_rq_disk(rq);
	bool done = nr_bytes >= blk_rq_bytes(rq) &&
		    (!(rq->rq_flags & RQF_FLUSH_SEQ) ||
		     req_op(rq) == REQ_OP_FLUSH);

	if (unlikely(!disk))
		blk_rq_record(b, rq, disk, error, nr_bytes, done);
	else if (rcu_access_pointer(b->ring))
		blk_rq_trace(b, rq, disk, error, nr_bytes, done);
	else
		blk_rq_count(b, rq, disk, nr_bytes, done);
}

/* ---- bio-based disks: no request, no insert, no issue ------------------- */

static bool blk_bio_based(struct gendisk *disk)
{
	return disk && disk->fops->submit_bio;
}

static void blk_bio_queue(void *data, struct bio *bio)
{
	struct gendisk *disk = meas_bio_disk(bio);
	struct meas_track_rec *rec;

	if (!blk_bio_based(disk))
		return;		/* blk-mq: counted as requests */
	rec = blk_enter(data, (unsigned long)bio, disk, ktime_get_ns());
	if (rec) {
		/* A bio has no issue: keep what it asked, it may advance. */
		rec->sector = bio->bi_iter.bi_sector;
		rec->bytes = bio->bi_iter.bi_size;
	}
}

static void blk_bio_complete(void *data, struct bio *bio)
{
	struct meas_blk *b = data;
	struct gendisk *disk = meas_bio_disk(bio);
	struct meas_track_rec *tr;
	struct blk_event ev = {
		.key = (unsigned long)bio,
		.disk = disk,
		.rec = {
			.sector = bio->bi_iter.bi_sector,
			.bytes = bio->bi_iter.bi_size,
			.op = blk_op(bio->bi_opf),
			.flags = blk_flags(bio->bi_opf) | MEAS_IO_F_BIO,
			.status = blk_status_to_errno(bio->bi_status),
			.cgroup = blk_bio_cgroup(bio),
		},
		.c = {
			.kind = blk_kind(bio_op(bio)),
			.done = true,
		},
	};

	if (!blk_bio_based(disk))
		return;
	ev.rec.dev = meas_disk_key(disk);
	tr = meas_track_find(&b->track, ev.key);
	if (tr) {
		ev.rec.sector = tr->sector;
		ev.rec.bytes = tr->bytes;
		tr->issue_ns = tr->insert_ns;	/* no issue: its insert */
	}
	ev.c.op = ev.rec.op;
	ev.c.flags = ev.rec.flags;
	ev.c.bytes = ev.rec.bytes;
	blk_complete(b, &ev, tr);
}

MEAS_BLK_RQ_PROBE(probe_rq_insert, blk_rq_insert)
MEAS_TP_PROTO(block_rq_insert, probe_rq_insert);
MEAS_BLK_RQ_PROBE(probe_rq_issue, blk_rq_issue)
MEAS_TP_PROTO(block_rq_issue, probe_rq_issue);
MEAS_BLK_RQ_PROBE(probe_rq_requeue, blk_rq_requeue)
MEAS_TP_PROTO(block_rq_requeue, probe_rq_requeue);
MEAS_BLK_RQ_PROBE(probe_rq_merge, blk_rq_merge)
MEAS_TP_PROTO(block_rq_merge, probe_rq_merge);
MEAS_BLK_COMPLETE_PROBE(probe_rq_complete, blk_rq_complete)
MEAS_TP_PROTO(block_rq_complete, probe_rq_complete);
MEAS_BLK_BIO_QUEUE_PROBE(probe_bio_queue, blk_bio_queue)
MEAS_TP_PROTO(block_bio_queue, probe_bio_queue);
MEAS_BLK_BIO_COMPLETE_PROBE(probe_bio_complete, blk_bio_complete)
MEAS_TP_PROTO(block_bio_complete, probe_bio_complete);

static struct meas_tp blk_tps[] = {
	MEAS_TP(block_rq_insert, probe_rq_insert, true),
	MEAS_TP(block_rq_issue, probe_rq_issue, true),
	MEAS_TP(block_rq_requeue, probe_rq_requeue, true),
	MEAS_TP(block_rq_complete, probe_rq_complete, true),
	MEAS_TP(block_rq_merge, probe_rq_merge, true),
	MEAS_TP(block_bio_queue, probe_bio_queue, true),
	MEAS_TP(block_bio_complete, probe_bio_complete, true),
};

/* ---- the unit's life ---------------------------------------------------- */

static void blk_free(struct meas_blk *b)
{
	meas_devtab_free(&b->disks);
	meas_devtab_free(&b->tapes);
	meas_track_free(&b->track);
	meas_pcpu_rows_free(b->depth);
	kvfree(b->depth_cpus);
	kvfree(b->depth_sole);
	free_percpu(b->misc);
	kfree(b);
}

static struct meas_blk *blk_alloc(void)
{
	struct meas_blk *b = kzalloc(sizeof(*b), GFP_KERNEL);
	u32 track = meas_hash_slots(READ_ONCE(meas_param_io_track));

	if (!b)
		return NULL;
	if (meas_devtab_init(&b->disks, READ_ONCE(meas_param_max_disks)) ||
	    meas_devtab_init(&b->tapes, READ_ONCE(meas_param_max_tapes)) ||
	    meas_track_init(&b->track, track))
		goto free;
	b->depth = meas_pcpu_rows_alloc((b->disks.slots + 1) *
					(size_t)MEAS_DEPTH_WORDS);
	/* a line of its own each: a CPU's first request writes it */
	b->depth_stride = round_up(BITS_TO_LONGS(nr_cpu_ids),
				   L1_CACHE_BYTES / sizeof(long));
	b->depth_cpus = kvcalloc((b->disks.slots + 1) * (size_t)b->depth_stride,
				 sizeof(long), GFP_KERNEL | __GFP_NOWARN);
	b->depth_sole = kvmalloc_array(b->disks.slots + 1, sizeof(u32),
				       GFP_KERNEL | __GFP_NOWARN);
	b->misc = alloc_percpu_gfp(struct meas_blk_misc,
				   GFP_KERNEL | __GFP_NOWARN);
	if (b->depth && b->depth_cpus && b->depth_sole && b->misc) {
		memset32(b->depth_sole, MEAS_DEPTH_NONE, b->disks.slots + 1);
		return b;
	}
free:
	blk_free(b);
	return NULL;
}

/* The first user: allocate, then register the probes. */
static int blk_start(void)
{
	struct meas_blk *b;

	if (meas_inject_io(MEAS_START_NODST))
		return MEAS_START_NODST;
	b = blk_alloc();
	if (!b)
		return MEAS_START_NODST;
	meas_tape_attach();
	if (meas_inject_io(MEAS_START_NOLOCK) ||
	    meas_tp_register(blk_tps, ARRAY_SIZE(blk_tps), b)) {
		tracepoint_synchronize_unregister();
		goto detach_tapes;
	}
	blk_unit = b;
	return MEAS_START_OK;

detach_tapes:
	meas_tape_detach();
	blk_free(b);
	return MEAS_START_NOLOCK;
}

/**
 * meas_blk_get() - start using the block unit
 * @user: MEAS_BLK_USER_C0 or MEAS_BLK_USER_IO
 * @rc: out: a MEAS_START_* code when the unit cannot start
 *
 * Called with meas_sir held.  The probes are registered by the first
 * user only.
 *
 * Return: the unit, or NULL.
 */
struct meas_blk *meas_blk_get(unsigned int user, int *rc)
{
	lockdep_assert_held(&meas_sir);
	if (!blk_unit) {
		*rc = blk_start();
		if (*rc)
			return NULL;
	}
	blk_unit->users |= user;
	return blk_unit;
}

/**
 * meas_blk_put() - stop using the block unit
 * @user: what meas_blk_get() was given
 *
 * The last user unregisters the probes and, once no probe can run any
 * more, frees what they touch.
 */
void meas_blk_put(unsigned int user)
{
	struct meas_blk *b = blk_unit;

	lockdep_assert_held(&meas_sir);
	b->users &= ~user;
	if (b->users)
		return;
	meas_tp_unregister(blk_tps, ARRAY_SIZE(blk_tps), b);
	tracepoint_synchronize_unregister();
	meas_tape_detach();
	blk_unit = NULL;
	blk_free(b);
}

/* The unit, or NULL; meas_sir held. */
struct meas_blk *meas_blk_live(void)
{
	lockdep_assert_held(&meas_sir);
	return blk_unit;
}

/**
 * meas_blk_misc_sum() - the block unit's per-CPU counters, added up
 * @b: the unit
 * @out: the sums
 */
void meas_blk_misc_sum(struct meas_blk *b, struct meas_blk_misc *out)
{
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct meas_blk_misc *m = per_cpu_ptr(b->misc, cpu);

		out->untracked += READ_ONCE(m->untracked);
		out->track_full += READ_ONCE(m->track_full);
		out->stale += READ_ONCE(m->stale);
	}
}

/* Bind the tracepoints by name, once, at module load. */
void meas_blk_init(void)
{
	blk_flag_tab_init();
	meas_tp_bind(blk_tps, ARRAY_SIZE(blk_tps));
}
