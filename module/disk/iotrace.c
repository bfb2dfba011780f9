// SPDX-License-Identifier: GPL-2.0
/*
 * Class 14 (IOSTATXDS): a ring of per-request records, one per
 * completion event, and the streaming reader of MEAS_IOC_IOTRACE_READ.
 * Documentation/io.rst describes the design and its costs.
 *
 * The ring is the class 14 region itself, cut in one partition per CPU
 * number.  A CPU writes only its own partition: the record, then its
 * partition's running total with a release store.  Nothing is shared
 * between CPUs on this path, so the writer needs no atomic operation;
 * the global header (total, lost) is computed when the region is read.
 *
 * The reader keeps a cursor per partition for each open file and merges
 * the partitions in completion-time order.  The writer may overwrite the
 * oldest records while the reader copies them: it announces each record
 * before it writes it, and the reader checks those announcements after
 * the copy and counts what may have been overwritten as lost, so records
 * returned and records lost always add up to the records written.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/meas.h>
#include "core/class.h"
#include "core/ctl.h"
#include "core/params.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "blk.h"
#include "ioring.h"
#include "iotrace.h"
#include "core/inject.h"

/* Records one MEAS_IOC_IOTRACE_READ returns at most: 1 MiB. */
#define IOTRACE_BATCH	8192

/* Enablings of class 14 so far; under meas_sir. */
static u64 iotrace_sessions;

/*
 * The readers copy slots the writers may be overwriting meanwhile (the
 * ring is lapped, not locked): what they read is judged afterwards
 * against the partitions' counts (iotrace_whole(), iotrace_settle()) and
 * dropped if a writer may have touched it, never trusted as read.  The
 * race is intended, so these reads are data_race() (KCSAN).
 */
static void iotrace_copy(void *to, const void *from, size_t n)
{
	/* judged afterwards, never trusted as read (above) */
	data_race(memcpy(to, from, n));
}

/* ---- the class ---------------------------------------------------------- */

static void iotrace_shape(struct meas_class_spec *spec)
{
	u32 parts = nr_cpu_ids;

	meas_io_shape(spec, parts,
		      meas_io_per_part(READ_ONCE(meas_param_io_records),
				       parts));
}

/* FORMATIOSTATSEG: the header, and each partition's block. */
static void iotrace_format(struct meas_io_ring *r)
{
	u64 *h = r->hdr;
	u32 p;

	h[MEAS_IO_H_CAPACITY] = r->parts * r->per_part;
	h[MEAS_IO_H_PARTS] = r->parts;
	h[MEAS_IO_H_PART_RECORDS] = r->per_part;
	h[MEAS_IO_H_RECORD_WORDS] = MEAS_IO_RECORD_WORDS;
	h[MEAS_IO_H_IDENT] = MEAS_IO_IDENT;
	h[MEAS_IO_H_SESSION] = r->session;
	h[MEAS_IO_H_START] = ktime_get_ns();
	h[MEAS_IO_H_START_REAL] = ktime_get_real_ns();
	for (p = 0; p < r->parts; p++) {
		u64 *ph = meas_ioring_part(r, p);

		ph[MEAS_IO_P_CPU] = p;
		ph[MEAS_IO_P_FIRST] = meas_ring_entry(p, 0, r->per_part);
		ph[MEAS_IO_P_NEXT] = ph[MEAS_IO_P_FIRST];
		ph[MEAS_IO_P_RECORDS] = r->per_part;
	}
}

static int iotrace_attach(struct meas_class *cls)
{
	struct meas_blk_misc misc;
	struct meas_sub_view v;
	struct meas_io_ring *r;
	struct meas_blk *b;
	int rc;

	if (WARN_ON_ONCE(meas_layout_find(cls->region, cls->words,
					  MEAS_CLASS_IO, MEAS_IO_SUB_RING,
					  &v)))
		return MEAS_START_NOVMEM;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return MEAS_START_NODST;
	r->hdr = cls->region + v.base + MEAS_HEADER_WORDS;
	r->rec = cls->region + v.base + v.ent0size;
	r->parts = (v.ent0size - MEAS_HEADER_WORDS - MEAS_IO_H_PART0) /
		   MEAS_IO_PART_WORDS;
	r->per_part = (v.entries - 1) / r->parts;
	r->folded = kcalloc(r->parts, sizeof(*r->folded), GFP_KERNEL);
	if (!r->folded) {
		kfree(r);
		return MEAS_START_NODST;
	}
	r->session = ++iotrace_sessions;
	iotrace_format(r);
	b = meas_blk_get(MEAS_BLK_USER_IO, &rc);
	if (!b) {
		kfree(r->folded);
		kfree(r);
		return rc;
	}
	r->hdr[MEAS_IO_H_TRACK_SLOTS] = b->track.slots;
	meas_blk_misc_sum(b, &misc);
	r->full_base = misc.track_full;
	r->stale_base = misc.stale;
	cls->priv = r;
	rcu_assign_pointer(b->ring, r);
	return MEAS_START_OK;
}

static void iotrace_detach(struct meas_class *cls)
{
	struct meas_blk *b = meas_blk_live();

	RCU_INIT_POINTER(b->ring, NULL);
	synchronize_rcu();	/* the probes run with preemption off */
	meas_blk_put(MEAS_BLK_USER_IO);
	kfree(((struct meas_io_ring *)cls->priv)->folded);
	kfree(cls->priv);
	cls->priv = NULL;
}

/* The global header: sums of the partitions' blocks. */
static void iotrace_fold(struct meas_class *cls)
{
	struct meas_io_ring *r = cls->priv;
	u64 total = 0, held = 0, untracked = 0, t;
	struct meas_blk_misc misc;
	u32 p;

	for (p = 0; p < r->parts; p++) {
		u64 *ph = meas_ioring_part(r, p);

		/* Pairs with the writer's release (meas_iotrace_end()). */
		t = smp_load_acquire(&ph[MEAS_IO_P_TOTAL]);
		r->folded[p] = t;
		total += t;
		held += min(t, r->per_part);
		untracked += READ_ONCE(ph[MEAS_IO_P_UNTRACKED]);
	}
	r->hdr[MEAS_IO_H_TOTAL] = total;
	r->hdr[MEAS_IO_H_LOST] = total - held;
	r->hdr[MEAS_IO_H_UNTRACKED] = untracked;
	meas_blk_misc_sum(meas_blk_live(), &misc);
	r->hdr[MEAS_IO_H_TRACK_FULL] = misc.track_full - r->full_base;
	r->hdr[MEAS_IO_H_STALE] = misc.stale - r->stale_base;
}

/* Records the partitions have written. */
static u64 iotrace_written(const struct meas_io_ring *r)
{
	u64 total = 0;
	u32 p;

	for (p = 0; p < r->parts; p++)
		total += READ_ONCE(meas_ioring_part(r, p)[MEAS_IO_P_TOTAL]);
	return total;
}

/*
 * The writers wrote the ring's capacity since the fold before the copy
 * (inject.h); meas_sir is held, so the folded total stays as it was.
 */
static bool snap_wrapped(void *p)
{
	const struct meas_io_ring *r = p;

	return iotrace_written(r) - r->hdr[MEAS_IO_H_TOTAL] >=
	       (u64)r->parts * r->per_part;
}

/*
 * Whether @rec, a copy of entry @k of the ring, is whole: the record its
 * slot held from before the copy to after it.  Position q was written
 * before the fold that preceded the copy if q < folded, and no later
 * write of the slot (q + per_part, announced before it starts) had begun
 * when the copy ended if started, read after it, is at most q + per_part.
 */
static bool iotrace_whole(const struct meas_io_ring *r, u64 k,
			  const struct meas_io_record *rec)
{
	u32 p = k / r->per_part;
	u64 q = rec->seq, started;

	/* the copy before the announcement: pairs with the writer's wmb */
	smp_rmb();
	started = READ_ONCE(meas_ioring_part(r, p)[MEAS_IO_P_STARTED]);
	return rec->cpu == p && q % r->per_part == k % r->per_part &&
	       q < r->folded[p] && q + r->per_part >= started;
}

/*
 * Whether @rec is of the caller's process: the process, not its number.
 * A PID is reused once its process is reaped, and a set-user-ID program
 * runs under the PID of the process that executed it (newgrp, then the
 * user's shell): the process's start time tells the first, its execve()
 * count the second.  So a process does not see its own records from
 * before its last execve() either.
 */
static bool iotrace_mine(const struct meas_io_record *rec)
{
	const struct task_struct *me = current->group_leader;

	return rec->tgid == task_tgid_nr(current) &&
	       rec->proc_start_ns == me->start_boottime &&
	       rec->proc_exec_id == READ_ONCE(me->self_exec_id);
}

/*
 * GETSTATISTICS: the raw ring.  A caller without CAP_PERFMON sees the
 * header, and of the records only the whole ones of its own process
 * (iotrace_mine()); the words of the others read 0.  The records are judged on the copy
 * the caller gets, not on the ring, which the writers overwrite
 * meanwhile; a record the copy cuts is copied whole once more to judge.
 */
static void iotrace_snap(struct meas_class *cls, u64 word, u64 n, u64 *out)
{
	struct meas_io_ring *r = cls->priv;
	u64 first = r->rec - cls->region, rw = MEAS_IO_RECORD_WORDS, w, k, end;
	const struct meas_io_record *rec;
	struct meas_io_record whole;

	iotrace_fold(cls);
	iotrace_copy(out, cls->region + word, n * sizeof(u64));
	if (perfmon_capable())
		return;
	meas_inject_io_snap(snap_wrapped, r);
	for (w = max(word, first); w < word + n; w = end) {
		k = (w - first) / rw;
		end = min(word + n, first + (k + 1) * rw);
		if (w == first + k * rw && end == first + (k + 1) * rw) {
			rec = (const struct meas_io_record *)(out + (w - word));
		} else {
			iotrace_copy(&whole, r->rec + k * rw, sizeof(whole));
			rec = &whole;
		}
		if (!iotrace_mine(rec) || !iotrace_whole(r, k, rec))
			memset(out + (w - word), 0, (end - w) * sizeof(u64));
	}
}

const struct meas_class_ops meas_class14_ops = {
	.name	= "io",
	.shape	= iotrace_shape,
	.attach	= iotrace_attach,
	.detach	= iotrace_detach,
	.fold	= iotrace_fold,
	.snap	= iotrace_snap,
};

/* ---- the streaming reader ----------------------------------------------- */

/**
 * struct iotrace_cursor - where an open file's reader is
 * @lock: one read at a time per file
 * @session: session of @pos, 0 before the first read
 * @parts: partitions of @pos
 * @pos: next position to read in each partition
 * @next: @pos after the read in progress, committed once copied out
 */
struct iotrace_cursor {
	struct mutex lock;	/* one read at a time */
	u64 session;
	u32 parts;
	u64 *pos;
	u64 *next;
};

/**
 * struct iotrace_batch - one read in progress
 * @out: the records taken, in merge order
 * @src: the partition of each
 * @max: room in @out
 * @n: records in @out
 * @start: per partition, the first position taken
 * @taken: per partition, records taken
 * @heads: per partition, the merge state
 */
struct iotrace_batch {
	struct meas_io_record *out;
	u32 *src;
	u64 max;
	u64 n;
	u64 *start;
	u64 *taken;
	struct meas_merge_head *heads;
};

static u64 slot_time(const struct meas_io_ring *r, u32 p, u64 pos)
{
	/* a key of the merge: the copy it picks is judged (iotrace_copy()) */
	return data_race(READ_ONCE(meas_ioring_slot(r, p, pos)->complete_ns));
}

/* Take up to @bt->max records, oldest completion first. */
static void iotrace_merge(const struct meas_io_ring *r, const u64 *base,
			  struct iotrace_batch *bt)
{
	u64 head, pos;
	u32 p;
	int i;

	for (p = 0; p < r->parts; p++) {
		/* Pairs with the writer's release: the records it counts. */
		head = smp_load_acquire(&meas_ioring_part(r, p)[MEAS_IO_P_TOTAL]);
		bt->start[p] = meas_ring_start(base[p], head, r->per_part);
		bt->taken[p] = 0;
		bt->heads[p].left = head - bt->start[p];
		if (bt->heads[p].left)
			bt->heads[p].key = slot_time(r, p, bt->start[p]);
	}
	while (bt->n < bt->max) {
		i = meas_merge_pick(bt->heads, r->parts);
		if (i < 0)
			break;
		pos = bt->start[i] + bt->taken[i]++;
		iotrace_copy(&bt->out[bt->n], meas_ioring_slot(r, i, pos),
			     sizeof(*bt->out));
		bt->src[bt->n++] = i;
		if (--bt->heads[i].left)
			bt->heads[i].key = slot_time(r, i, pos + 1);
	}
}

/*
 * Drop what the writers may have overwritten during the copy, count it
 * lost, and compute the cursors after the read.
 */
static void iotrace_settle(const struct meas_io_ring *r, const u64 *base,
			   struct iotrace_cursor *c, struct iotrace_batch *bt,
			   struct meas_iotrace_read *k)
{
	struct meas_ring_span span;
	u64 head, started, i, kept = 0;
	u32 p;

	/* The copies before the announcements: pairs with the writer's wmb. */
	smp_rmb();
	for (p = 0; p < r->parts; p++) {
		started = READ_ONCE(meas_ioring_part(r, p)[MEAS_IO_P_STARTED]);
		head = READ_ONCE(meas_ioring_part(r, p)[MEAS_IO_P_TOTAL]);
		meas_ring_settle(base[p], bt->start[p], bt->taken[p], started,
				 r->per_part, &span);
		c->next[p] = span.cursor;
		k->lost += span.lost;
		k->total += head;
		k->pending += head - span.cursor;
		/* From here on, start is the first position returned... */
		bt->taken[p] = span.first - bt->start[p];
		bt->start[p] = span.first;
	}
	/* ... and taken counts down the records to drop before it. */
	for (i = 0; i < bt->n; i++) {
		p = bt->src[i];
		if (bt->taken[p]) {
			bt->taken[p]--;
			continue;
		}
		if (kept != i)
			bt->out[kept] = bt->out[i];
		kept++;
	}
	bt->n = kept;
}

/* Under meas_sir: fill @bt from the ring, or say why not. */
static int iotrace_collect(struct iotrace_cursor *c, struct iotrace_batch *bt,
			   struct meas_iotrace_read *k)
{
	struct meas_class *cls = meas_ctl_class(MEAS_CLASS_IO);
	struct meas_io_ring *r;
	u64 *base;
	u32 p;

	if (!cls) {
		k->result = MEAS_IOTRACE_NOTENABLED;
		return meas_rc_errno(MEAS_RC_IOTRACE, k->result);
	}
	if (!bt->max) {
		k->result = MEAS_IOTRACE_BOUNDS;
		return meas_rc_errno(MEAS_RC_IOTRACE, k->result);
	}
	r = cls->priv;
	k->session = r->session;
	base = c->next;
	if (c->session == r->session) {
		memcpy(base, c->pos, r->parts * sizeof(*base));
	} else {
		memset(base, 0, r->parts * sizeof(*base));
		if (c->session)
			k->out_flags |= MEAS_IOTRACE_NEW_SESSION;
	}
	if (k->flags & MEAS_IOTRACE_FROM_NOW)
		for (p = 0; p < r->parts; p++)
			base[p] = READ_ONCE(meas_ioring_part(r, p)[MEAS_IO_P_TOTAL]);
	iotrace_merge(r, base, bt);
	iotrace_settle(r, base, c, bt, k);
	return 0;
}

static void iotrace_batch_free(struct iotrace_batch *bt)
{
	kvfree(bt->out);
	kvfree(bt->src);
	kvfree(bt->start);
	kvfree(bt->taken);
	kvfree(bt->heads);
}

static int iotrace_batch_alloc(struct iotrace_batch *bt, u64 buflen)
{
	u32 parts = nr_cpu_ids;

	memset(bt, 0, sizeof(*bt));
	bt->max = min_t(u64, buflen / sizeof(*bt->out), IOTRACE_BATCH);
	bt->out = kvmalloc_array(max_t(u64, bt->max, 1), sizeof(*bt->out),
				 GFP_KERNEL);
	bt->src = kvmalloc_array(max_t(u64, bt->max, 1), sizeof(*bt->src),
				 GFP_KERNEL);
	bt->start = kvmalloc_array(parts, sizeof(*bt->start), GFP_KERNEL);
	bt->taken = kvmalloc_array(parts, sizeof(*bt->taken), GFP_KERNEL);
	bt->heads = kvcalloc(parts, sizeof(*bt->heads), GFP_KERNEL);
	if (bt->out && bt->src && bt->start && bt->taken && bt->heads)
		return 0;
	iotrace_batch_free(bt);
	return -ENOMEM;
}

static int iotrace_read(struct iotrace_cursor *c, struct meas_iotrace_read *k)
{
	struct iotrace_batch bt;
	int err;

	err = iotrace_batch_alloc(&bt, k->buflen);
	if (err)
		return err;
	if (mutex_lock_killable(&meas_sir)) {
		iotrace_batch_free(&bt);
		return -EINTR;
	}
	err = iotrace_collect(c, &bt, k);
	mutex_unlock(&meas_sir);
	if (!err && bt.n &&
	    copy_to_user(u64_to_user_ptr(k->buf), bt.out,
			 bt.n * sizeof(*bt.out))) {
		k->result = MEAS_IOTRACE_BOUNDS;
		err = -EFAULT;
	}
	if (!err) {
		k->records = bt.n;
		c->session = k->session;
		memcpy(c->pos, c->next, c->parts * sizeof(*c->pos));
	}
	iotrace_batch_free(&bt);
	return err;
}

/*
 * The file's cursor, made at its first read.  Two first reads may race:
 * the first to publish its cursor wins, the other frees its own.
 */
static struct iotrace_cursor *iotrace_cursor(void **state)
{
	struct iotrace_cursor *c, *old;

	/* pairs with the cmpxchg() below: a cursor seen is seen complete */
	c = smp_load_acquire(state);
	if (c)
		return c;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	mutex_init(&c->lock);
	c->parts = nr_cpu_ids;
	c->pos = kvcalloc(c->parts, sizeof(*c->pos), GFP_KERNEL);
	c->next = kvcalloc(c->parts, sizeof(*c->next), GFP_KERNEL);
	if (!c->pos || !c->next) {
		meas_iotrace_release(c);
		return NULL;
	}
	meas_inject_io_cursor();
	/* fully ordered: the cursor complete before it is seen, pairs
	 * with the acquire above; the winner's seen complete by the loser
	 */
	old = cmpxchg(state, NULL, c);
	if (old) {
		meas_iotrace_release(c);
		return old;
	}
	return c;
}

/**
 * meas_iotrace_ioctl() - MEAS_IOC_IOTRACE_READ
 * @state: the open file's reader state, allocated on first use
 * @u: the user's struct meas_iotrace_read
 *
 * Return: 0 or an errno, as Documentation/io.rst lists them.
 */
long meas_iotrace_ioctl(void **state, void __user *u)
{
	struct meas_iotrace_read k;
	struct iotrace_cursor *c;
	long usize;
	int err;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_IOTRACE_SIZE_VER0, u, &k.flags,
			       MEAS_IOTRACE_FROM_NOW, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (!perfmon_capable())
		return -EPERM;
	k.records = 0;
	k.lost = 0;
	k.total = 0;
	k.pending = 0;
	k.session = 0;
	k.result = MEAS_IOTRACE_OK;
	k.out_flags = 0;
	c = iotrace_cursor(state);
	if (!c)
		return -ENOMEM;
	if (mutex_lock_killable(&c->lock))
		return -EINTR;
	err = iotrace_read(c, &k);
	mutex_unlock(&c->lock);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, err);
}

/* The open file goes: its cursor with it. */
void meas_iotrace_release(void *state)
{
	struct iotrace_cursor *c = state;

	if (!c)
		return;
	kvfree(c->pos);
	kvfree(c->next);
	kfree(c);
}
