// SPDX-License-Identifier: GPL-2.0
/*
 * The process table of class 15: process slots, thread records, their
 * hash chains and lists, what entering and releasing them does, and the
 * producer side of the exit ring (its worker is procexit.c's).  Below
 * every other unit of class 15: it calls none of them.
 *
 * Finding the record of a thread, which every context switch does, takes
 * no lock: the thread hash is read with READ_ONCE and a record is
 * published with a release store once it is complete.  Entering a thread
 * (fork, the enable scan), renaming a process (exec) and releasing a
 * thread (its final switch-out) take the table lock, a raw spinlock that
 * is never taken on any other switch.  Those paths already serialise on
 * the kernel's tasklist_lock; ours adds one uncontended acquisition.
 * Readers see a process's items, its thread list and each thread's times
 * consistently through the per-slot and per-thread sequence counts.
 */
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include "core/compat.h"
#include <linux/sched/clock.h>
#include <linux/cred.h>
#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/percpu.h>
#include <linux/overflow.h>
#include <linux/irq_work.h>
#include "core/stop.h"
#include "proctab.h"

/* The table of the enabled class; set and cleared under meas_sir (proc.c). */
struct proc_tab *meas_proc_table;

/* The counter of each stop reason (logic/stop.h) */
const u8 meas_proc_stop_cnt[MEAS_STOP_NR] = {
	[MEAS_STOP_PREEMPTED]		= PC_STOP_PREEMPT,
	[MEAS_STOP_EXITED]		= PC_STOP_EXIT,
	[MEAS_STOP_JOBCTL]		= PC_STOP_JOBCTL,
	[MEAS_STOP_DISC_BLOCKED]	= PC_STOP_DISC_BLK,
	[MEAS_STOP_BLOCKED]		= PC_STOP_BLOCKED,
	[MEAS_STOP_DISC_UNBLOCKED]	= PC_STOP_DISC_UNBLK,
	[MEAS_STOP_IMPEDED]		= PC_STOP_IMPEDE,
};

const u8 meas_proc_cnt_item[PC_NR] = {
	[PC_LAUNCH]		= MEAS_P_LAUNCHES,
	[PC_STOP_DISC_BLK]	= MEAS_P_STOP_DISC_BLOCKED,
	[PC_STOP_DISC_UNBLK]	= MEAS_P_STOP_DISC_UNBLOCKED,
	[PC_STOP_BLOCKED]	= MEAS_P_STOP_BLOCKED_IO,
	[PC_STOP_TERM]		= MEAS_P_STOP_TERMINAL,
	[PC_STOP_IMPEDE]	= MEAS_P_STOP_IMPEDED,
	[PC_STOP_TIMEOUT]	= MEAS_P_STOP_TIMED_OUT,
	[PC_STOP_PREEMPT]	= MEAS_P_STOP_PREEMPTED,
	[PC_STOP_JOBCTL]	= MEAS_P_STOP_JOBCTL,
	[PC_STOP_EXIT]		= MEAS_P_STOP_EXIT,
	[PC_CPU]		= MEAS_P_CPU_TIME,
	[PC_P_DISC]		= MEAS_P_PAUSE_DISC,
	[PC_P_BLOCKED]		= MEAS_P_PAUSE_IO,
	[PC_P_TERM]		= MEAS_P_PAUSE_TERMINAL,
	[PC_P_IMPEDE]		= MEAS_P_PAUSE_IMPEDED,
	[PC_P_ACTIVE]		= MEAS_P_PAUSE_ACTIVE,
	[PC_P_JOBCTL]		= MEAS_P_PAUSE_JOBCTL,
	[PC_READS]		= MEAS_P_DISC_READS,
	[PC_WRITES]		= MEAS_P_DISC_WRITES,
	[PC_BYTES]		= MEAS_P_DISC_BYTES,
	[PC_RBYTES]		= MEAS_P_DISC_READ_BYTES,
};

static void *tab_vzalloc(struct proc_tab *tab, size_t n, size_t size)
{
	size_t bytes = array_size(n, size);

	tab->mem += bytes;
	return bytes == SIZE_MAX ? NULL :
	       __vmalloc(bytes, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
}

/**
 * meas_proctab_alloc() - allocate and initialise an empty table
 * @nslots: process slots, at least 1
 * @nthr: thread records, at least 1
 * @ring: exit ring entries (rounded up to a power of two)
 * @ncg: cgroup entries, at least 1
 * @ent0: entry 0 in the formatted region
 *
 * Return: the table, or NULL without memory.
 */
struct proc_tab *meas_proctab_alloc(u32 nslots, u32 nthr, u32 ring,
				    u32 ncg, u64 *ent0)
{
	struct proc_tab *tab = kzalloc(sizeof(*tab), GFP_KERNEL);
	u32 i, pbuckets;

	if (!tab)
		return NULL;
	raw_spin_lock_init(&tab->lock);
	tab->nslots = nslots;
	tab->nthr = nthr;
	tab->ent0 = ent0;
	tab->tbits = ilog2(roundup_pow_of_two(nthr));
	pbuckets = roundup_pow_of_two(nslots);
	tab->pmask = pbuckets - 1;
	ring = roundup_pow_of_two(max(ring, 2U));
	tab->ring_mask = ring - 1;
	tab->slots = tab_vzalloc(tab, (size_t)nslots + 1, sizeof(*tab->slots));
	tab->thr = tab_vzalloc(tab, nthr, sizeof(*tab->thr));
	tab->thash = tab_vzalloc(tab, 1UL << tab->tbits, sizeof(u32));
	tab->phash = tab_vzalloc(tab, pbuckets, sizeof(u32));
	tab->ring = tab_vzalloc(tab, ring, sizeof(u64));
	tab->pcpu = alloc_percpu_gfp(struct proc_cpu, GFP_KERNEL | __GFP_NOWARN);
	tab->mem += sizeof(*tab) + num_possible_cpus() * sizeof(struct proc_cpu);
	if (!tab->slots || !tab->thr || !tab->thash || !tab->phash ||
	    !tab->ring || !tab->pcpu || meas_cgtab_init(&tab->cg, ncg)) {
		meas_proctab_free(tab);
		return NULL;
	}
	/* Free slots are handed out in ascending order: a high-water mark. */
	for (i = 0; i <= nslots; i++) {
		seqcount_init(&tab->slots[i].seq);
		tab->slots[i].qnext = i && i < nslots ? i + 1 : 0;
	}
	tab->free = 1;
	/* Free records are a FIFO: a freed record is the last reused. */
	for (i = 0; i < nthr; i++) {
		seqcount_init(&tab->thr[i].seq);
		tab->thr[i].pnext = i + 1 < nthr ? i + 2 : 0;
	}
	tab->thr_free = 1;
	tab->thr_free_tail = nthr;
	tab->mem += tab->cg.mem;
	return tab;
}

/**
 * meas_proctab_free() - free a table no probe can reach any more
 * @tab: the table, or NULL
 */
void meas_proctab_free(struct proc_tab *tab)
{
	u32 i;

	if (!tab)
		return;
	for (i = 1; tab->slots && i <= tab->nslots; i++)
		put_pid(tab->slots[i].pid);
	meas_cgtab_free(&tab->cg);
	free_percpu(tab->pcpu);
	vfree(tab->ring);
	vfree(tab->phash);
	vfree(tab->thash);
	vfree(tab->thr);
	vfree(tab->slots);
	kfree(tab);
}

static u32 *thr_bucket(struct proc_tab *tab, const struct task_struct *p)
{
	return &tab->thash[hash_ptr(p, tab->tbits)];
}

/**
 * meas_proctab_find() - the record of a thread, without a lock
 * @tab: the table
 * @p: the thread
 *
 * A record is linked complete, so a match is the thread's own; a record
 * freed and reused under the walk at worst ends the walk early.  The
 * walk is bounded even then.
 *
 * Return: the record, or NULL if the thread has none.
 */
struct proc_thr *meas_proctab_find(struct proc_tab *tab,
				   const struct task_struct *p)
{
	u32 i = READ_ONCE(*thr_bucket(tab, p));
	u32 steps = 0;
	struct proc_thr *t;

	while (i && i <= tab->nthr && steps++ < tab->nthr) {
		t = &tab->thr[i - 1];
		if (READ_ONCE(t->task) == p)
			return t;
		i = READ_ONCE(t->hnext);
	}
	return NULL;
}

/* The live slot of a thread group, under the lock. */
static u32 tab_live_slot(struct proc_tab *tab, struct pid *tgid)
{
	u32 s = tab->phash[pid_nr(tgid) & tab->pmask];

	while (s) {
		if (tab->slots[s].pid == tgid &&
		    tab->slots[s].state == MEAS_PSTATE_LIVE)
			return s;
		s = tab->slots[s].hnext;
	}
	return 0;
}

static void tab_unhash_slot(struct proc_tab *tab, u32 s)
{
	u32 *link = &tab->phash[tab->slots[s].nr & tab->pmask];

	while (*link && *link != s)
		link = &tab->slots[*link].hnext;
	if (*link)
		WRITE_ONCE(*link, tab->slots[s].hnext);
}

/*
 * A slot for a new process: a never-used one, else the oldest exited one
 * (its struct pid is returned in *old, to be put outside the lock).
 */
static u32 tab_take_slot(struct proc_tab *tab, struct pid **old)
{
	u32 s = tab->free;

	if (s) {
		tab->free = tab->slots[s].qnext;
		if (s > tab->st.hwm)
			WRITE_ONCE(tab->st.hwm, s);
		return s;
	}
	s = tab->exq_head;
	if (!s)
		return 0;
	tab->exq_head = tab->slots[s].qnext;
	if (!tab->exq_head)
		tab->exq_tail = 0;
	tab_unhash_slot(tab, s);
	*old = tab->slots[s].pid;
	WRITE_ONCE(tab->st.exited, tab->st.exited - 1);
	WRITE_ONCE(tab->st.reused, tab->st.reused + 1);
	return s;
}

static void tab_init_slot(struct proc_tab *tab, u32 n, struct pid *tgid,
			  const struct proc_names *names, u64 created)
{
	struct proc_slot *s = &tab->slots[n];
	u64 *e = proc_ent(tab, n);

	raw_write_seqcount_begin(&s->seq);
	memset(e, 0, MEAS_PROC_ITEMS * sizeof(u64));
	memcpy(&e[MEAS_P_PROGRAM], names->program, sizeof(names->program));
	memcpy(&e[MEAS_P_COMMAND], names->comm, sizeof(names->comm));
	memcpy(&e[MEAS_P_GID], names->item, sizeof(names->item));
	e[MEAS_P_CREATED] = created;
	e[MEAS_P_PID] = pid_nr(tgid);
	e[MEAS_P_PPID] = names->ppid;
	e[MEAS_P_STATE] = MEAS_PSTATE_LIVE;
	e[MEAS_P_GENERATION] = ++s->gen;
	e[MEAS_P_FLAGS] = names->flags;
	s->pid = get_pid(tgid);
	s->nr = pid_nr(tgid);
	s->threads = 0;
	s->nthr = 0;
	s->last_in = 0;
	s->last_out = 0;
	WRITE_ONCE(s->state, MEAS_PSTATE_LIVE);
	raw_write_seqcount_end(&s->seq);
	s->hnext = tab->phash[s->nr & tab->pmask];
	/* Lock-free readers of the chain see the slot complete. */
	smp_store_release(&tab->phash[s->nr & tab->pmask], n);
	WRITE_ONCE(tab->st.live, tab->st.live + 1);
}

/* What a thread entered by the scan is doing now. */
static void thr_init_state(struct proc_thr *t, struct task_struct *p,
			   bool scan, u64 now)
{
	unsigned int state = meas_task_state(p);
	unsigned int sw;

	t->st = PT_NEW;
	t->reason = 0;
	t->since = now;
	t->seen = 0;
	if (!scan)
		return;
	if (READ_ONCE(p->on_cpu))
		t->st = PT_ON_CPU;
	else if (state == TASK_RUNNING)
		t->st = PT_RUNNABLE;
	else
		t->st = PT_SLEEP;
	/* Seen from outside: I/O wait is not told apart. */
	sw = meas_stop_state_flags(state);
	t->reason = meas_proc_stop_cnt[meas_stop_classify(sw)];
}

/* Put thread record @i in cgroup entry @n, in a write section of its count. */
static void tab_cg_add(struct proc_tab *tab, u32 i, u32 n, u64 cgid)
{
	struct proc_thr *t = &tab->thr[i - 1];
	struct cg_ent *e = &tab->cg.ent[n];

	t->cgid = cgid;
	t->cg = n;
	t->cprev = 0;
	t->cnext = e->threads;
	if (e->threads)
		tab->thr[e->threads - 1].cprev = i;
	/* readers walk the list forward only */
	WRITE_ONCE(e->threads, i);
	e->nthr++;
}

/* Take a thread out of its cgroup entry's list, in its write section. */
static void tab_cg_del(struct proc_tab *tab, struct cg_ent *e,
		       struct proc_thr *t)
{
	if (t->cprev)
		WRITE_ONCE(tab->thr[t->cprev - 1].cnext, t->cnext);
	else
		WRITE_ONCE(e->threads, t->cnext);
	if (t->cnext)
		tab->thr[t->cnext - 1].cprev = t->cprev;
	e->nthr--;
}

/* A new thread record @i counts in the entry of @p's cgroup. */
static void tab_cg_enter(struct proc_tab *tab, u32 i, struct task_struct *p)
{
	struct cg_ident who;
	struct cg_ent *e;
	u32 n;

	meas_cgtab_ident(p, &who);
	n = meas_cgtab_enter(&tab->cg, &who);
	e = &tab->cg.ent[n];
	raw_write_seqcount_begin(&e->seq);
	tab_cg_add(tab, i, n, who.id);
	raw_write_seqcount_end(&e->seq);
}

/* A thread the table could not enter: its cgroup counts low, flagged. */
static void tab_cg_lost(struct proc_tab *tab, struct task_struct *p)
{
	struct cg_ident who;
	struct cg_ent *e;

	meas_cgtab_ident(p, &who);
	e = &tab->cg.ent[meas_cgtab_enter(&tab->cg, &who)];
	raw_write_seqcount_begin(&e->seq);
	e->flags |= MEAS_CG_THREADS_LOST;
	raw_write_seqcount_end(&e->seq);
}

/**
 * meas_proctab_enter() - enter a thread, and its process if need be
 * @tab: the table
 * @p: the thread: a new child (fork), or any thread (the enable scan)
 * @names: the process's names if it may be entered now; NULL when only a
 *	thread of an entered process may be added
 * @created: creation time of the process, ns since the epoch
 *
 * A thread that is exiting is not entered: its final switch-out might
 * already be past.  Both that switch-out and this function take the
 * lock, so one of them sees the other.
 *
 * Return: a struct pid to put (the previous owner of a reused slot).
 */
struct pid *meas_proctab_enter(struct proc_tab *tab, struct task_struct *p,
			       const struct proc_names *names, u64 created)
{
	bool scan = names && (names->flags & MEAS_PF_PREEXISTING);
	struct pid *tgid = task_tgid(p), *old = NULL;
	struct proc_thr *t;
	struct proc_slot *s;
	unsigned long flags;
	u32 n, i;

	raw_spin_lock_irqsave(&tab->lock, flags);
	if ((p->flags & PF_EXITING) || meas_proctab_find(tab, p))
		goto unlock;
	n = tab_live_slot(tab, tgid);
	if (!tab->thr_free) {
		WRITE_ONCE(tab->st.thr_overflow, tab->st.thr_overflow + 1);
		if (n) {
			raw_write_seqcount_begin(&tab->slots[n].seq);
			proc_ent(tab, n)[MEAS_P_FLAGS] |= MEAS_PF_THREADS_LOST;
			raw_write_seqcount_end(&tab->slots[n].seq);
		} else if (names) {
			WRITE_ONCE(tab->st.overflow, tab->st.overflow + 1);
		}
		goto lost;
	}
	if (!n) {
		if (!names) {
			WRITE_ONCE(tab->st.thr_overflow,
				   tab->st.thr_overflow + 1);
			goto lost;
		}
		n = tab_take_slot(tab, &old);
		if (!n) {
			WRITE_ONCE(tab->st.overflow, tab->st.overflow + 1);
			goto lost;
		}
		tab_init_slot(tab, n, tgid, names, created);
	}
	i = tab->thr_free;
	t = &tab->thr[i - 1];
	tab->thr_free = t->pnext;
	if (!tab->thr_free)
		tab->thr_free_tail = 0;
	memset(t->cnt, 0, sizeof(t->cnt));
	thr_init_state(t, p, scan, local_clock());
	t->slot = n;
	t->last_in = 0;
	t->last_out = 0;
	t->cpu = task_cpu(p);
	t->timer = 0;
	t->task = p;
	s = &tab->slots[n];
	raw_write_seqcount_begin(&s->seq);
	t->pnext = s->threads;
	WRITE_ONCE(s->threads, i);
	s->nthr++;
	raw_write_seqcount_end(&s->seq);
	tab_cg_enter(tab, i, p);
	t->hnext = *thr_bucket(tab, p);
	/* The switch probe finds the record complete, its task set last. */
	smp_store_release(thr_bucket(tab, p), i);
	WRITE_ONCE(tab->st.thr_live, tab->st.thr_live + 1);
	goto unlock;
lost:
	tab_cg_lost(tab, p);
unlock:
	raw_spin_unlock_irqrestore(&tab->lock, flags);
	return old;
}

/**
 * meas_proctab_rename() - a process executed a new program
 * @tab: the table
 * @p: a thread of it (current)
 * @names: its new names and IDs
 * @all: also the IDs and flags (exec), not only the names
 */
void meas_proctab_rename(struct proc_tab *tab, struct task_struct *p,
			 const struct proc_names *names, bool all)
{
	unsigned long flags;
	u64 *e, keep;
	u32 n;

	raw_spin_lock_irqsave(&tab->lock, flags);
	n = tab_live_slot(tab, task_tgid(p));
	if (n) {
		e = proc_ent(tab, n);
		raw_write_seqcount_begin(&tab->slots[n].seq);
		memcpy(&e[MEAS_P_PROGRAM], names->program,
		       sizeof(names->program));
		memcpy(&e[MEAS_P_COMMAND], names->comm, sizeof(names->comm));
		if (all) {
			memcpy(&e[MEAS_P_GID], names->item,
			       sizeof(names->item));
			keep = e[MEAS_P_FLAGS] & (MEAS_PF_PREEXISTING |
						  MEAS_PF_THREADS_LOST);
			e[MEAS_P_FLAGS] = keep | names->flags;
		}
		raw_write_seqcount_end(&tab->slots[n].seq);
	}
	raw_spin_unlock_irqrestore(&tab->lock, flags);
}

/* Fold a released thread's counters into its process's entry. */
static void tab_fold(struct proc_slot *s, u64 *e, const struct proc_thr *t)
{
	unsigned int c;

	for (c = 0; c < PC_NR; c++)
		e[meas_proc_cnt_item[c]] += t->cnt[c];
	if (t->last_out && t->last_out >= s->last_out) {
		s->last_out = t->last_out;
		e[MEAS_P_LAST_STOP] = meas_proc_cnt_item[t->reason];
	}
	if (t->last_in && t->last_in >= s->last_in) {
		s->last_in = t->last_in;
		e[MEAS_P_LAST_CPU] = t->cpu;
	}
}

static void tab_unlink_thr(struct proc_tab *tab, struct proc_slot *s, u32 i)
{
	struct proc_thr *t = &tab->thr[i - 1];
	u32 *link = thr_bucket(tab, t->task);

	while (*link && *link != i)
		link = &tab->thr[*link - 1].hnext;
	if (*link)
		WRITE_ONCE(*link, t->hnext);
	link = &s->threads;
	while (*link && *link != i)
		link = &tab->thr[*link - 1].pnext;
	if (*link)
		WRITE_ONCE(*link, t->pnext);
}

/* The exit status wait(2) reports for the thread group. */
static u64 tab_exit_status(struct task_struct *p)
{
	if (READ_ONCE(p->signal->flags) & SIGNAL_GROUP_EXIT)
		return READ_ONCE(p->signal->group_exit_code);
	return READ_ONCE(p->exit_code);
}

/*
 * The cgroup v2 ID of an exiting thread, read once per process at its
 * exit rather than at every switch.  cgroup_exit() has run but leaves
 * ->cgroups in place until the task is freed; interrupts are off here.
 */
static u64 tab_cgroup_id(struct task_struct *p)
{
#ifdef CONFIG_CGROUPS
	return cgroup_id(rcu_dereference_sched(p->cgroups)->dfl_cgrp);
#else
	return 0;
#endif
}

/**
 * meas_proctab_creds() - an entry's user and group IDs
 * @e: the entry
 * @cred: the process's credentials
 *
 * As the initial user namespace sees them: the entry is one for every
 * reader, whose own view is applied when a record is read.
 */
void meas_proctab_creds(u64 *e, const struct cred *cred)
{
	e[MEAS_P_GID] = from_kgid(&init_user_ns, cred->gid);
	e[MEAS_P_EGID] = from_kgid(&init_user_ns, cred->egid);
	e[MEAS_P_UID] = from_kuid(&init_user_ns, cred->uid);
	e[MEAS_P_EUID] = from_kuid(&init_user_ns, cred->euid);
	e[MEAS_P_SUID] = from_kuid(&init_user_ns, cred->suid);
	e[MEAS_P_SGID] = from_kgid(&init_user_ns, cred->sgid);
}

/*
 * Whether a process that exits is dumpable, for the readers of its exit
 * record, who may see it only if they could have looked into it with
 * ptrace while it ran.  Where the kernel keeps dumpability with the task
 * (the 7 series' exec_state), it is read now.  Where the mm kept it, the
 * mm is gone before the last switch-out: the flag of the last exec or
 * fork stands, unless the IDs changed since, which made the process
 * non-dumpable (commit_creds()).  prctl(PR_SET_DUMPABLE) alone is not
 * seen there (Documentation/security.rst).
 */
static void tab_exit_dumpable(u64 *e, struct task_struct *p, bool ids_changed)
{
	struct user_namespace *ns;
	enum meas_dumpable d;

	if (e[MEAS_P_FLAGS] & MEAS_PF_KTHREAD)
		return;
	rcu_read_lock();
	d = meas_task_dumpable(p, &ns);
	rcu_read_unlock();
	if (d == MEAS_DUMP_OWNER)
		e[MEAS_P_FLAGS] |= MEAS_PF_DUMPABLE;
	else if (d == MEAS_DUMP_NOT || ids_changed)
		e[MEAS_P_FLAGS] &= ~MEAS_PF_DUMPABLE;
}

/* The last thread is gone: final names, IDs, cgroup and termination time. */
static void tab_exited(struct proc_tab *tab, u32 n, struct task_struct *p)
{
	const struct cred *cred = rcu_dereference_sched(p->real_cred);
	u64 *e = proc_ent(tab, n), was[MEAS_P_SGID - MEAS_P_GID + 1];

	memcpy(&e[MEAS_P_COMMAND], p->group_leader->comm,
	       MEAS_PROC_COMM_LEN - 1);
	memcpy(was, &e[MEAS_P_GID], sizeof(was));
	meas_proctab_creds(e, cred);
	tab_exit_dumpable(e, p, memcmp(was, &e[MEAS_P_GID], sizeof(was)));
	e[MEAS_P_TERMINATED] = ktime_get_real_ns();
	e[MEAS_P_EXIT_STATUS] = tab_exit_status(p);
	e[MEAS_P_STATE] = MEAS_PSTATE_EXITED;
	e[MEAS_P_THREADS] = 0;
	tab->slots[n].cgid = tab_cgroup_id(p);
	e[MEAS_P_CGROUP] = tab->slots[n].cgid;
	WRITE_ONCE(tab->slots[n].state, MEAS_PSTATE_EXITED);
}

/*
 * Queue the exit record of the process of @slot for the worker
 * (procexit.c); the table lock held, interrupts off.
 */
static void tab_exit_push(struct proc_tab *tab, u32 slot)
{
	u32 head = tab->ring_head;

	/* Pairs with the worker's release: its entries are read. */
	if (head - smp_load_acquire(&tab->ring_tail) > tab->ring_mask) {
		WRITE_ONCE(tab->ring_lost, tab->ring_lost + 1);
	} else {
		tab->ring[head & tab->ring_mask] =
			(u64)tab->slots[slot].gen << 32 | slot;
		/* The entry is written before the worker sees it. */
		smp_store_release(&tab->ring_head, head + 1);
	}
	irq_work_queue(&tab->kick);
}

/*
 * The IDs a thread leaving its cgroup leaves in the entry (initial
 * namespace numbers), and whether it was dumpable: its process's flag
 * of its last exec or fork (or of its exit, tab_exited()), unless the
 * thread's IDs differ from the process's then, a change that made it
 * non-dumpable.  Its mm is not looked at: it may be gone, and its lock
 * is not one to take under ours.
 */
static bool tab_cg_leaver(struct task_struct *p, const u64 *pe,
			  struct meas_access_ids *ids)
{
	const struct cred *cred;

	memset(ids, 0, sizeof(*ids));
	rcu_read_lock();
	cred = rcu_dereference(p->real_cred);
	ids->uid = from_kuid(&init_user_ns, cred->uid);
	ids->euid = from_kuid(&init_user_ns, cred->euid);
	ids->suid = from_kuid(&init_user_ns, cred->suid);
	ids->gid = from_kgid(&init_user_ns, cred->gid);
	ids->egid = from_kgid(&init_user_ns, cred->egid);
	ids->sgid = from_kgid(&init_user_ns, cred->sgid);
	rcu_read_unlock();
	return (pe[MEAS_P_FLAGS] & MEAS_PF_DUMPABLE) &&
	       ids->uid == pe[MEAS_P_UID] && ids->euid == pe[MEAS_P_EUID] &&
	       ids->suid == pe[MEAS_P_SUID] && ids->gid == pe[MEAS_P_GID] &&
	       ids->egid == pe[MEAS_P_EGID] && ids->sgid == pe[MEAS_P_SGID];
}

/*
 * A thread leaves its cgroup's entry, by its exit or a migration,
 * taking with it @cnt, what it counted there plus what it came in with
 * (which the entry took off when it came: meas_cgtab_debt()).
 */
static void tab_cg_leave(struct proc_tab *tab, struct proc_thr *t,
			 struct task_struct *p, const u64 *cnt, bool exited)
{
	struct cg_ent *e = &tab->cg.ent[t->cg];
	struct meas_access_ids ids;
	bool dumpable = tab_cg_leaver(p, proc_ent(tab, t->slot), &ids);

	raw_write_seqcount_begin(&e->seq);
	meas_cgtab_fold(&tab->cg, t->cg, cnt, &ids, dumpable, exited);
	tab_cg_del(tab, e, t);
	raw_write_seqcount_end(&e->seq);
}

/**
 * meas_proctab_release() - a thread's final switch-out
 * @tab: the table
 * @t: its record as the switch probe found it, or NULL
 * @p: the thread
 * @now: local_clock() of the switch
 *
 * Called from the scheduler with interrupts off.  The record is folded
 * into its process's entry and freed; when it was the process's last,
 * the process has exited: its entry keeps the final values, joins the
 * exited FIFO and its slot number goes to the exit ring.
 *
 * Return: true if the process exited.
 */
bool meas_proctab_release(struct proc_tab *tab, struct proc_thr *t,
			  struct task_struct *p, u64 now)
{
	struct proc_slot *s;
	bool exited = false;
	u32 i, n;

	raw_spin_lock(&tab->lock);
	/* Entered by the scan after the lock-free look-up? */
	if (!t)
		t = meas_proctab_find(tab, p);
	if (!t)
		goto unlock;
	i = t - tab->thr + 1;
	n = t->slot;
	s = &tab->slots[n];
	raw_write_seqcount_begin(&s->seq);
	tab_fold(s, proc_ent(tab, n), t);
	tab_unlink_thr(tab, s, i);
	exited = !--s->nthr;
	if (exited)
		tab_exited(tab, n, p);
	raw_write_seqcount_end(&s->seq);
	tab_cg_leave(tab, t, p, t->cnt, true);
	WRITE_ONCE(t->task, NULL);
	t->st = PT_FREE;
	t->pnext = 0;
	if (tab->thr_free_tail)
		tab->thr[tab->thr_free_tail - 1].pnext = i;
	else
		tab->thr_free = i;
	tab->thr_free_tail = i;
	WRITE_ONCE(tab->st.thr_live, tab->st.thr_live - 1);
	if (exited) {
		s->qnext = 0;
		if (tab->exq_tail)
			tab->slots[tab->exq_tail].qnext = n;
		else
			tab->exq_head = n;
		tab->exq_tail = n;
		WRITE_ONCE(tab->st.live, tab->st.live - 1);
		WRITE_ONCE(tab->st.exited, tab->st.exited + 1);
		tab_exit_push(tab, n);
	}
unlock:
	raw_spin_unlock(&tab->lock);
	return exited;
}

/* A thread's counters as they stand now, consistently. */
static void tab_thr_counts(struct proc_thr *t, u64 *cnt)
{
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&t->seq);
		memcpy(cnt, t->cnt, sizeof(t->cnt));
	} while (read_seqcount_retry(&t->seq, seq));
}

/*
 * A thread whose cgroup is not the one its record holds: what it counted
 * so far goes to the old cgroup's entry, and it counts in the new one
 * from now on.  It may be running on another CPU: its counts are taken
 * between two of its events, and the state it is in (running, runnable
 * or asleep since its last event) counts in the new cgroup when it ends
 * (Documentation/cgroup.rst, "What is exact").
 */
static void tab_cg_move(struct proc_tab *tab, struct proc_thr *t,
			struct task_struct *p)
{
	struct cg_ident who;
	u64 cnt[PC_NR];
	struct cg_ent *e;
	u32 n;

	meas_cgtab_ident(p, &who);
	if (who.id == t->cgid)
		return;
	n = meas_cgtab_enter(&tab->cg, &who);
	if (n == t->cg) {
		/* from the overflow entry to itself: nothing moves */
		t->cgid = who.id;
		return;
	}
	tab_thr_counts(t, cnt);
	tab_cg_leave(tab, t, p, cnt, false);
	e = &tab->cg.ent[n];
	raw_write_seqcount_begin(&e->seq);
	meas_cgtab_debt(&tab->cg, n, cnt);
	tab_cg_add(tab, t - tab->thr + 1, n, who.id);
	raw_write_seqcount_end(&e->seq);
}

/**
 * meas_proctab_migrate() - threads moved to another cgroup
 * @tab: the table
 * @p: the thread moved, or the leader of the process moved
 * @threadgroup: the whole process moved
 *
 * Called after the move (cgroup:cgroup_attach_task), with the kernel's
 * lock of the tracepoint's path held and interrupts off.  Each thread
 * whose cgroup v2 is not the one its record holds moves: a move in a v1
 * hierarchy moves none.
 */
void meas_proctab_migrate(struct proc_tab *tab, struct task_struct *p,
			  bool threadgroup)
{
	struct task_struct *t;
	struct proc_thr *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&tab->lock, flags);
	rcu_read_lock();
	if (threadgroup) {
		for_each_thread(p, t) {
			rec = meas_proctab_find(tab, t);
			if (rec)
				tab_cg_move(tab, rec, t);
		}
	} else {
		rec = meas_proctab_find(tab, p);
		if (rec)
			tab_cg_move(tab, rec, p);
	}
	rcu_read_unlock();
	raw_spin_unlock_irqrestore(&tab->lock, flags);
}

/**
 * meas_proctab_cg_removed() - a cgroup v2 was removed
 * @tab: the table
 * @id: its ID
 * @path: its path as the kernel gives it
 */
void meas_proctab_cg_removed(struct proc_tab *tab, u64 id, const char *path)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tab->lock, flags);
	meas_cgtab_removed(&tab->cg, id, path);
	raw_spin_unlock_irqrestore(&tab->lock, flags);
}

/* Basename of an executable, under RCU: a concurrent rename at worst
 * gives a mixed name, never a bad access.
 */
static void names_program(char *buf, struct file *exe)
{
	const unsigned char *name;

	rcu_read_lock();
	name = READ_ONCE(exe->f_path.dentry->d_name.name);
	strscpy_pad(buf, name, MEAS_PROC_NAME_LEN);
	rcu_read_unlock();
}

/**
 * meas_proctab_names() - the names and IDs a process is entered with
 * @p: a thread of the process
 * @n: filled in
 */
void meas_proctab_names(struct task_struct *p, struct proc_names *n)
{
	struct task_struct *leader = READ_ONCE(p->group_leader);
	const struct cred *cred;
	struct mm_struct *mm;
	struct file *exe;

	memset(n, 0, sizeof(*n));
	get_task_comm(n->comm, leader);
	rcu_read_lock();
	cred = __task_cred(p);
	n->item[MEAS_P_GID - MEAS_P_GID] = from_kgid(&init_user_ns, cred->gid);
	n->item[MEAS_P_EGID - MEAS_P_GID] = from_kgid(&init_user_ns, cred->egid);
	n->item[MEAS_P_UID - MEAS_P_GID] = from_kuid(&init_user_ns, cred->uid);
	n->item[MEAS_P_EUID - MEAS_P_GID] = from_kuid(&init_user_ns, cred->euid);
	n->item[MEAS_P_SUID - MEAS_P_GID] = from_kuid(&init_user_ns, cred->suid);
	n->item[MEAS_P_SGID - MEAS_P_GID] = from_kgid(&init_user_ns, cred->sgid);
	n->item[MEAS_P_SESSION - MEAS_P_GID] = pid_nr(task_session(p));
	n->ppid = task_tgid_nr(rcu_dereference(p->real_parent));
	rcu_read_unlock();
	if (p->flags & PF_KTHREAD)
		n->flags |= MEAS_PF_KTHREAD;
	task_lock(p);
	mm = p->mm;
	if (mm && !(p->flags & PF_KTHREAD)) {
		struct user_namespace *ns;

		rcu_read_lock();
		if (meas_task_dumpable(p, &ns) == MEAS_DUMP_OWNER)
			n->flags |= MEAS_PF_DUMPABLE;
		exe = rcu_dereference(mm->exe_file);
		if (exe)
			names_program(n->program, exe);
		rcu_read_unlock();
	}
	task_unlock(p);
	if (!n->program[0])
		memcpy(n->program, n->comm, sizeof(n->comm));
}
