// SPDX-License-Identifier: GPL-2.0
/*
 * The per-cgroup totals as readers see them (Documentation/cgroup.rst):
 * a cgroup's entry, which holds what the threads that left it counted,
 * plus each live thread in it now, its running state up to the read, read
 * consistently through the entry's sequence count as a process's entry
 * is (procread.c).
 *
 * Who may read a cgroup: a caller with CAP_PERFMON or CAP_SYS_ADMIN any;
 * another caller one whose every contributor it may see by class 15's
 * rule: each live thread judged as a live process, the threads that left
 * by the IDs the entry kept of them (the first one's, unless another
 * differed or one was not dumpable: then only CAP_SYS_PTRACE over the
 * initial namespace sees them, as it sees every exited process).
 */
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "proctab.h"
#include "procread.h"
#include "cgread.h"

/**
 * meas_cgread_used() - entries 1..this hold a cgroup
 * @tab: the table
 */
u32 meas_cgread_used(struct proc_tab *tab)
{
	return READ_ONCE(tab->cg.st.used);
}

/**
 * meas_cgread_header() - the table's header
 * @tab: the table
 * @h: filled in
 * @hidden: entries the caller's dump leaves out
 */
void meas_cgread_header(struct proc_tab *tab, struct meas_cgroup_hdr *h,
			u32 hidden)
{
	const struct cg_stats *st = &tab->cg.st;

	memset(h, 0, sizeof(*h));
	h->size = sizeof(*h);
	h->slots = tab->cg.nslots;
	h->used = READ_ONCE(st->used);
	h->removed = READ_ONCE(st->removed);
	h->hidden = hidden;
	h->overflow_threads = READ_ONCE(st->overflow_threads);
	h->overflow_folds = READ_ONCE(st->overflow_folds);
	h->reused = READ_ONCE(st->reused);
	h->started = tab->started;
	h->clock = local_clock();
	h->mem = tab->cg.mem;
}

/*
 * Add the live threads of entry @e to @rec's items, their running
 * states up to @now; whether the caller may see each.  Under the
 * entry's sequence count and rcu_read_lock(): a thread's task is freed a
 * grace period after its final switch-out took it off the list.
 */
static u32 cgread_threads(struct proc_tab *tab, const struct proc_viewer *v,
			  const struct cg_ent *e, struct meas_cgroup_rec *rec,
			  u64 now, bool *denied)
{
	struct task_struct *task;
	struct proc_thr *t;
	u32 i, steps, nthr = 0;

	i = READ_ONCE(e->threads);
	for (steps = 0; i && i <= tab->nthr && steps < tab->nthr; steps++) {
		t = &tab->thr[i - 1];
		meas_procread_thr(t, rec->item, now);
		task = READ_ONCE(t->task);
		if (!v->all && !*denied && task &&
		    !meas_procread_may_task(v, task))
			*denied = true;
		nthr++;
		i = READ_ONCE(t->cnext);
	}
	return nthr;
}

/*
 * Entry @n with its live threads, consistently; its path if removed.
 * Return: whether the caller may see every thread it has now.
 */
static bool cgread_compose(struct proc_tab *tab, const struct proc_viewer *v,
			   u32 n, struct meas_cgroup_rec *rec, char *path,
			   struct meas_access_ids *owner)
{
	struct cg_ent *e = &tab->cg.ent[n];
	unsigned int seq, c;
	bool denied;
	u64 now;

	rcu_read_lock();
	do {
		seq = raw_read_seqcount_begin(&e->seq);
		memset(rec, 0, sizeof(*rec));
		rec->id = e->id;
		rec->parent = e->parent;
		rec->level = e->level;
		rec->flags = e->flags;
		rec->folded = e->folded;
		rec->exited = e->exited;
		*owner = e->owner;
		for (c = 0; c < PC_NR; c++)
			rec->item[meas_proc_cnt_item[c]] += e->cnt[c];
		if (path)
			memcpy(path, e->path, MEAS_CGROUP_PATH_MAX);
		now = local_clock();
		denied = false;
		rec->threads = cgread_threads(tab, v, e, rec, now, &denied);
	} while (read_seqcount_retry(&e->seq, seq));
	rcu_read_unlock();
	rec->clock = now;
	return !denied;
}

/**
 * meas_cgread_record() - an entry's record for this caller
 * @tab: the table
 * @v: the caller
 * @n: the entry, 0 (overflow) to meas_cgread_used()
 * @rec: filled in
 * @path: MEAS_CGROUP_PATH_MAX bytes for a removed cgroup's path, or NULL
 *
 * Return: 0; -ENOENT if the entry holds no cgroup; -EACCES if the caller
 * may not see every process that counted in it.
 */
int meas_cgread_record(struct proc_tab *tab, const struct proc_viewer *v,
		       u32 n, struct meas_cgroup_rec *rec, char *path)
{
	struct meas_access_ids owner;
	bool ok;

	if (n > meas_cgread_used(tab))
		return -ENOENT;
	ok = cgread_compose(tab, v, n, rec, path, &owner);
	if (ok && !v->all && (rec->flags & CG_OWNED))
		ok = meas_procread_may_ids(v, &owner,
					   !(rec->flags & CG_MIXED));
	rec->size = sizeof(*rec);
	rec->slot = n;
	rec->flags &= CG_UAPI_FLAGS;
	if (path && !(rec->flags & MEAS_CG_REMOVED))
		path[0] = '\0';
	if (!ok) {
		memset(rec, 0, sizeof(*rec));
		return -EACCES;
	}
	return 0;
}

/**
 * meas_cgread_get() - the record of one cgroup by its ID
 * @tab: the table
 * @v: the caller
 * @id: its cgroup v2 ID; 0 for the overflow entry
 * @rec: filled in
 * @path: as for meas_cgread_record()
 *
 * Return: as meas_cgread_record(); -ENOENT also when the entry went to
 * another cgroup while it was read.
 */
int meas_cgread_get(struct proc_tab *tab, const struct proc_viewer *v,
		    u64 id, struct meas_cgroup_rec *rec, char *path)
{
	unsigned long flags;
	bool found;
	u32 n = 0;
	int err;

	raw_spin_lock_irqsave(&tab->lock, flags);
	found = meas_cgtab_find(&tab->cg, id, &n);
	raw_spin_unlock_irqrestore(&tab->lock, flags);
	if (!found)
		return -ENOENT;
	err = meas_cgread_record(tab, v, n, rec, path);
	if (!err && rec->id != id) {
		memset(rec, 0, sizeof(*rec));
		return -ENOENT;
	}
	return err;
}

/**
 * meas_cgread_empty() - a record of nothing: the overflow entry unused
 * @rec: a record
 *
 * A dump leaves it out: an empty series is no series.
 */
bool meas_cgread_empty(const struct meas_cgroup_rec *rec)
{
	return !rec->slot && !rec->threads && !rec->folded &&
	       !(rec->flags & MEAS_CG_THREADS_LOST);
}
