// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroups of class 15: a bounded table of entries keyed by cgroup v2
 * ID, each holding what the threads that left the cgroup counted there
 * (Documentation/cgroup.rst).  The process table (proctab.c) enters a
 * thread in its cgroup's entry at fork, folds it in at its exit, and
 * moves it at a migration, all under its table lock, which every
 * function here expects held; none of it runs at a context switch.
 *
 * Entries are handed out in ascending order and never freed: a cgroup
 * keeps its entry while it exists, and a removed one keeps it, with its
 * path, until a new cgroup finds no never-used entry and takes the one
 * removed longest ago.  When none is left, the thread counts in entry 0,
 * the overflow entry, and the header counts it.
 */
#include <linux/cgroup.h>
#include <linux/gfp.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "cgtab.h"

/*
 * Removed entries a new cgroup looks at for one whose last thread has
 * gone (a thread that exits leaves its cgroup before its final
 * switch-out, so a removed cgroup may still have a dying thread).
 */
#define CG_REUSE_STEPS	16

/**
 * meas_cgtab_init() - allocate an empty table
 * @cg: the table, zeroed
 * @nslots: entries, at least 1
 *
 * Return: 0, or -ENOMEM.
 */
int meas_cgtab_init(struct cg_tab *cg, u32 nslots)
{
	size_t ents = array_size((size_t)nslots + 1, sizeof(*cg->ent));
	u32 i, buckets = roundup_pow_of_two(nslots);

	cg->nslots = nslots;
	cg->bits = ilog2(buckets);
	cg->mem = ents + (size_t)buckets * sizeof(u32);
	/* quiet: a START that cannot have them fails with ENOMEM, as
	 * class 15's other tables (proctab.c) do, with no stack dump
	 */
	cg->ent = __vmalloc(ents, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	cg->hash = __vmalloc(array_size(buckets, sizeof(u32)),
			     GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!cg->ent || !cg->hash) {
		meas_cgtab_free(cg);
		return -ENOMEM;
	}
	for (i = 0; i <= nslots; i++)
		seqcount_init(&cg->ent[i].seq);
	cg->ent[0].flags = MEAS_CG_OVERFLOW;
	cg->free = 1;
	return 0;
}

/**
 * meas_cgtab_free() - free a table no probe can reach any more
 * @cg: the table
 */
void meas_cgtab_free(struct cg_tab *cg)
{
	vfree(cg->hash);
	vfree(cg->ent);
	cg->hash = NULL;
	cg->ent = NULL;
}

/**
 * meas_cgtab_ident() - where a thread is in the cgroup v2 hierarchy
 * @p: the thread
 * @who: filled in; zeros on a kernel without cgroups
 *
 * Its cgroup moves only under the kernel's css_set_lock; read under RCU
 * it is the one before or after a concurrent move, whose probe comes
 * after the move and takes the table lock: the caller holds that lock,
 * so one of the two sees the other.
 */
void meas_cgtab_ident(struct task_struct *p, struct cg_ident *who)
{
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp, *parent;

	rcu_read_lock();
	cgrp = task_dfl_cgroup(p);
	parent = cgroup_parent(cgrp);
	who->id = cgroup_id(cgrp);
	who->parent = parent ? cgroup_id(parent) : 0;
	who->level = cgrp->level;
	rcu_read_unlock();
#else
	memset(who, 0, sizeof(*who));
#endif
}

static u32 *cgtab_bucket(const struct cg_tab *cg, u64 id)
{
	return &cg->hash[hash_64(id, cg->bits)];
}

/**
 * meas_cgtab_find() - the entry of a cgroup
 * @cg: the table
 * @id: its ID; 0 is the overflow entry
 * @n: out: the entry number
 *
 * Return: false if the cgroup has no entry.
 */
bool meas_cgtab_find(const struct cg_tab *cg, u64 id, u32 *n)
{
	u32 i = READ_ONCE(*cgtab_bucket(cg, id)), steps = 0;

	if (!id) {
		*n = 0;
		return true;
	}
	while (i && i <= cg->nslots && steps++ < cg->nslots) {
		if (READ_ONCE(cg->ent[i].id) == id) {
			*n = i;
			return true;
		}
		i = READ_ONCE(cg->ent[i].hnext);
	}
	return false;
}

static void cgtab_unhash(struct cg_tab *cg, u32 n)
{
	u32 *link = cgtab_bucket(cg, cg->ent[n].id);

	while (*link && *link != n)
		link = &cg->ent[*link].hnext;
	if (*link)
		WRITE_ONCE(*link, cg->ent[n].hnext);
}

/*
 * The removed entry to give a new cgroup: the oldest whose threads are
 * all gone, taken out of the FIFO; 0 if none is within CG_REUSE_STEPS.
 */
static u32 cgtab_take_removed(struct cg_tab *cg)
{
	u32 n = cg->rmq_head, prev = 0, steps;

	for (steps = 0; n && steps < CG_REUSE_STEPS; steps++) {
		if (!cg->ent[n].nthr)
			break;
		prev = n;
		n = cg->ent[n].qnext;
	}
	if (!n || cg->ent[n].nthr)
		return 0;
	if (prev)
		cg->ent[prev].qnext = cg->ent[n].qnext;
	else
		cg->rmq_head = cg->ent[n].qnext;
	if (cg->rmq_tail == n)
		cg->rmq_tail = prev;
	cgtab_unhash(cg, n);
	WRITE_ONCE(cg->st.removed, cg->st.removed - 1);
	WRITE_ONCE(cg->st.reused, cg->st.reused + 1);
	return n;
}

/* A new entry for @who: never used, else the oldest removed; 0 if none. */
static u32 cgtab_make(struct cg_tab *cg, const struct cg_ident *who)
{
	struct cg_ent *e;
	u32 n = cg->free, *bucket;

	if (n) {
		cg->free = n < cg->nslots ? n + 1 : 0;
		WRITE_ONCE(cg->st.used, cg->st.used + 1);
	} else {
		n = cgtab_take_removed(cg);
		if (!n)
			return 0;
	}
	e = &cg->ent[n];
	raw_write_seqcount_begin(&e->seq);
	e->id = who->id;
	e->parent = who->parent;
	e->level = who->level;
	e->flags = 0;
	e->qnext = 0;
	e->folded = 0;
	e->exited = 0;
	memset(&e->owner, 0, sizeof(e->owner));
	memset(e->cnt, 0, sizeof(e->cnt));
	e->path[0] = '\0';
	raw_write_seqcount_end(&e->seq);
	bucket = cgtab_bucket(cg, who->id);
	e->hnext = *bucket;
	/* lock-free finders see the entry complete */
	smp_store_release(bucket, n);
	return n;
}

/**
 * meas_cgtab_enter() - the entry a thread entering a cgroup counts in
 * @cg: the table
 * @who: the cgroup
 *
 * Its entry, made if it has none.  With the table full, the overflow
 * entry, counted.
 *
 * Return: the entry number, 0 for the overflow entry.
 */
u32 meas_cgtab_enter(struct cg_tab *cg, const struct cg_ident *who)
{
	u32 n;

	if (who->id && meas_cgtab_find(cg, who->id, &n))
		return n;
	n = who->id ? cgtab_make(cg, who) : 0;
	if (!n)
		WRITE_ONCE(cg->st.overflow_threads, cg->st.overflow_threads + 1);
	return n;
}

static bool cgtab_same_ids(const struct meas_access_ids *a,
			   const struct meas_access_ids *b)
{
	return a->uid == b->uid && a->euid == b->euid && a->suid == b->suid &&
	       a->gid == b->gid && a->egid == b->egid && a->sgid == b->sgid;
}

/**
 * meas_cgtab_fold() - a thread leaves a cgroup: what it counted there
 * @cg: the table
 * @n: the entry, in a write section of its sequence count
 * @cnt: PC_NR counters: the thread's counts since it entered
 * @ids: its IDs (initial user namespace) as it leaves
 * @dumpable: whether it was dumpable
 * @exited: it leaves by exiting, not by a migration
 *
 * The entry keeps the first leaver's IDs, and marks itself mixed when a
 * later one differs or one was not dumpable: readers are judged by them
 * (cgread.c).
 */
void meas_cgtab_fold(struct cg_tab *cg, u32 n, const u64 *cnt,
		     const struct meas_access_ids *ids, bool dumpable,
		     bool exited)
{
	struct cg_ent *e = &cg->ent[n];
	unsigned int c;

	for (c = 0; c < PC_NR; c++)
		e->cnt[c] += cnt[c];
	e->folded++;
	if (exited)
		e->exited++;
	if (!n)
		WRITE_ONCE(cg->st.overflow_folds, cg->st.overflow_folds + 1);
	if (!(e->flags & CG_OWNED)) {
		e->owner = *ids;
		e->flags |= CG_OWNED;
	} else if (!cgtab_same_ids(&e->owner, ids)) {
		e->flags |= CG_MIXED;
	}
	if (!dumpable)
		e->flags |= CG_MIXED;
}

/**
 * meas_cgtab_debt() - a thread comes in with what it counted elsewhere
 * @cg: the table
 * @n: the entry, in a write section of its sequence count
 * @cnt: PC_NR counters: the thread's counts so far, which its record
 *	keeps and a reader adds: taken off here, so that the entry gets
 *	only what it counts from now on
 */
void meas_cgtab_debt(struct cg_tab *cg, u32 n, const u64 *cnt)
{
	struct cg_ent *e = &cg->ent[n];
	unsigned int c;

	for (c = 0; c < PC_NR; c++)
		e->cnt[c] -= cnt[c];
}

/**
 * meas_cgtab_removed() - a cgroup was removed
 * @cg: the table
 * @id: its ID
 * @path: its path, as the kernel gives it
 *
 * Its entry, if it has one, keeps its totals and the path, and joins
 * the FIFO of removed entries, to be given to a new cgroup when none
 * is left unused.
 */
void meas_cgtab_removed(struct cg_tab *cg, u64 id, const char *path)
{
	struct cg_ent *e;
	u32 n;

	if (!id || !meas_cgtab_find(cg, id, &n))
		return;
	e = &cg->ent[n];
	if (e->flags & MEAS_CG_REMOVED)
		return;
	raw_write_seqcount_begin(&e->seq);
	e->flags |= MEAS_CG_REMOVED;
	if (strscpy(e->path, path ?: "", sizeof(e->path)) < 0)
		e->flags |= MEAS_CG_PATH_TRUNCATED;
	raw_write_seqcount_end(&e->seq);
	e->qnext = 0;
	if (cg->rmq_tail)
		cg->ent[cg->rmq_tail].qnext = n;
	else
		cg->rmq_head = n;
	cg->rmq_tail = n;
	WRITE_ONCE(cg->st.removed, cg->st.removed + 1);
}
