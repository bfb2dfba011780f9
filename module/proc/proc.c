// SPDX-License-Identifier: GPL-2.0
/*
 * Class 15, the process statistics (MEASPROCXDS): its probes, the scan
 * that enters the processes alive when it is enabled, and the steps of
 * its life, which its definition (classes.c) composes with the
 * scheduler hook's (sched/sched.c, which calls meas_proc_switch() and
 * meas_proc_wakeup() below).
 *
 * Each thread has a record (proctab.c) that only one CPU writes at a
 * time: the CPU that switches it in or out, or wakes it, holding the
 * scheduler's locks for that task, and the CPU it runs on for the block
 * probe.  The switch probe finds the outgoing thread's record in a
 * per-CPU cache set at its switch-in and looks the incoming one up in
 * the thread hash: no lock, no shared-cacheline atomic, no allocation.
 * A process's items are the sum of its threads' records and of the
 * threads already gone, which a thread's final switch-out folds into the
 * entry under the table lock (Documentation/class15.rst).
 */
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/hrtimer.h>
#include <linux/tracepoint.h>
#include <linux/binfmts.h>
#include <linux/blk_types.h>
#include <linux/bio.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/major.h>
#include <linux/kdev_t.h>
#include <linux/compat.h>
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/version.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <linux/cgroup.h>
#include <trace/events/block.h>
#include <trace/events/cgroup.h>
#include <trace/events/sched.h>
#include <trace/events/timer.h>
#include "core/compat.h"
#include "core/seen.h"
#include "core/taskflags.h"
#include "core/class.h"
#include "core/xds.h"
#include "core/tp.h"
#include "core/inject.h"
#include "core/stop.h"
#include "proctab.h"
#include "procexit.h"
#include "proc.h"

static unsigned int proc_slots = 32768;
module_param(proc_slots, uint, 0644);
MODULE_PARM_DESC(proc_slots,
		 "Process entries of class 15, 1..4194304 (default 32768; 520 bytes each)");

static unsigned int proc_threads = 32768;
module_param(proc_threads, uint, 0644);
MODULE_PARM_DESC(proc_threads,
		 "Thread records of class 15, 1..4194304 (default 32768; 260 bytes each)");

static unsigned int proc_exit_ring = 4096;
module_param(proc_exit_ring, uint, 0644);
MODULE_PARM_DESC(proc_exit_ring,
		 "Exit records waiting to be sent, 2..1048576, rounded up to a power of two (default 4096)");

static unsigned int cgroup_slots = 4096;
module_param(cgroup_slots, uint, 0644);
MODULE_PARM_DESC(cgroup_slots,
		 "Cgroup entries of class 15's per-cgroup totals, 1..65536 (default 4096; 524 bytes each)");

#define PROC_MAX_SLOTS		(4U << 20)
#define PROC_MAX_RING		BIT(20)
#define PROC_MAX_CGROUPS	BIT(16)

static u64 proc_delta(u64 now, u64 since)
{
	return now > since ? now - since : 0;
}

/* The pause counter a stop's time goes to. */
static unsigned int proc_pause_of(unsigned int reason)
{
	switch (reason) {
	case PC_STOP_DISC_BLK:
	case PC_STOP_DISC_UNBLK:
		return PC_P_DISC;
	case PC_STOP_BLOCKED:
		return PC_P_BLOCKED;
	case PC_STOP_TERM:
		return PC_P_TERM;
	case PC_STOP_JOBCTL:
		return PC_P_JOBCTL;
	default:
		return PC_P_IMPEDE;
	}
}

static bool proc_tty_major(unsigned int major)
{
	return major == TTY_MAJOR || major == TTYAUX_MAJOR ||
	       major == PTY_SLAVE_MAJOR ||
	       (major >= UNIX98_PTY_SLAVE_MAJOR &&
		major < UNIX98_PTY_SLAVE_MAJOR + UNIX98_PTY_MAJOR_COUNT);
}

/*
 * A terminal read, where it can be told: the thread sleeps in read(2),
 * readv(2), pread64(2) or preadv(2) of a terminal.  It is current: the
 * switch probe runs before the switch, with interrupts off, which is an
 * RCU read-side section for the file table and the files (freed after a
 * grace period): no rcu_read_lock() call pair, and the lookup without
 * its lockdep test of one (files_lookup_fd_raw(), which every kernel
 * since 5.11 has; lookup_fd_rcu() went in 6.7).  Files are
 * SLAB_TYPESAFE_BY_RCU since 6.7: one may be reused under us, so f_inode
 * is read once and may be NULL.  Only the first argument is read (the
 * others are not even zeroed: __uninitialized).
 */
static bool proc_terminal_read(struct task_struct *prev)
{
	struct pt_regs *regs = task_pt_regs(prev);
	unsigned long args[6] __uninitialized;
	struct inode *inode;
	struct file *f;
	long nr;

	if (meas_taskflags_kthread(prev) || in_compat_syscall())
		return false;
	nr = syscall_get_nr(prev, regs);
	if (nr != __NR_read && nr != __NR_readv && nr != __NR_pread64 &&
	    nr != __NR_preadv && nr != __NR_preadv2)
		return false;
	syscall_get_arguments(prev, regs, args);
	if (!prev->files || args[0] > INT_MAX)
		return false;
	lockdep_assert_irqs_disabled();
	f = files_lookup_fd_raw(prev->files, args[0]);
	inode = f ? READ_ONCE(f->f_inode) : NULL;
	return inode && S_ISCHR(inode->i_mode) &&
	       proc_tty_major(imajor(inode));
}

/*
 * Why a thread left the CPU: a PC_STOP_* counter.  Class 15 tells one
 * more reason than class 0: an impeded thread that reads a terminal.
 */
static unsigned int proc_stop_reason(enum meas_stop stop,
				     struct task_struct *prev)
{
	unsigned int reason = meas_proc_stop_cnt[stop];

	if (reason == PC_STOP_IMPEDE && proc_terminal_read(prev))
		return PC_STOP_TERM;
	return reason;
}

/*
 * Where the pause of a sleeping thread being woken ends: the time the
 * scheduler queued it (meas_task_queued_at()), if that is not before the
 * pause began (@since); else 0.
 */
static u64 proc_queued_since(const struct task_struct *p, u64 since)
{
	u64 at = meas_task_queued_at(p);

	return at >= since ? at : 0;
}

/*
 * The record of @p: the per-CPU cache's if it is still @p's (a record
 * freed and taken by another thread no longer names @p; one named @p
 * was entered complete before @p could run or be woken), else the hash.
 */
static struct proc_thr *proc_find(struct proc_tab *tab, struct proc_cpu *pc,
				  struct task_struct *p)
{
	struct proc_thr *t = pc->last_rec;

	if (pc->last == p && READ_ONCE(t->task) == p)
		return t;
	return meas_proctab_find(tab, p);
}

static void proc_switch_out(struct proc_thr *t, unsigned int reason, u64 now)
{
	raw_write_seqcount_begin(&t->seq);
	now = meas_seen_end(&t->seen, now);
	if (t->st == PT_ON_CPU)
		t->cnt[PC_CPU] += proc_delta(now, t->since);
	t->cnt[reason]++;
	t->reason = reason;
	t->last_out = now;
	t->st = reason == PC_STOP_PREEMPT ? PT_RUNNABLE : PT_SLEEP;
	t->since = now;
	raw_write_seqcount_end(&t->seq);
}

/*
 * A thread entered asleep whose wakeup came before its record: its pause
 * ends where the scheduler queued it, but not before what a reader
 * showed, nor after @end.
 */
static void proc_woken_unseen(struct proc_thr *t, struct task_struct *p,
			      u64 end)
{
	u64 at = proc_queued_since(p, t->since);

	at = max(at, READ_ONCE(t->seen));
	if (!at || at > end)
		at = end;
	t->cnt[proc_pause_of(t->reason)] += proc_delta(at, t->since);
	t->cnt[PC_P_ACTIVE] += end - at;
}

static void proc_switch_in(struct proc_thr *t, struct task_struct *p,
			   u64 now)
{
	raw_write_seqcount_begin(&t->seq);
	now = meas_seen_end(&t->seen, now);
	if (t->st == PT_RUNNABLE)
		t->cnt[PC_P_ACTIVE] += proc_delta(now, t->since);
	else if (t->st == PT_SLEEP)
		proc_woken_unseen(t, p, now);
	t->cnt[PC_LAUNCH]++;
	t->st = PT_ON_CPU;
	t->since = now;
	t->last_in = now;
	t->cpu = smp_processor_id();
	WRITE_ONCE(t->timer, 0);
	raw_write_seqcount_end(&t->seq);
}

/**
 * meas_proc_switch() - class 15's part of a context switch (sched/sched.c)
 * @tab: the table
 * @stop: why @prev leaves (meas_stop_classify()), found once for classes
 *	0 and 15
 * @prev: the thread leaving the CPU
 * @next: the thread taking it
 * @prev_state: @prev's state as the scheduler saw it
 * @now: local_clock(), read once for classes 0 and 15
 */
void meas_proc_switch(struct proc_tab *tab, enum meas_stop stop,
		      struct task_struct *prev, struct task_struct *next,
		      unsigned int prev_state, u64 now)
{
	struct proc_cpu *pc = this_cpu_ptr(tab->pcpu);
	struct proc_thr *t, *in = NULL;

	/* next is likely the last to have left: find it before prev does */
	if (!meas_taskflags_idle(next))
		in = proc_find(tab, pc, next);
	if (!meas_taskflags_idle(prev)) {
		t = pc->task == prev ? pc->rec : meas_proctab_find(tab, prev);
		if (t)
			proc_switch_out(t, proc_stop_reason(stop, prev), now);
		if (unlikely(prev_state & TASK_DEAD)) {
			meas_proctab_release(tab, t, prev, now);
		} else if (t) {
			pc->last = prev;
			pc->last_rec = t;
		}
	}
	pc->task = NULL;
	pc->rec = NULL;
	if (!in)
		return;
	proc_switch_in(in, next, now);
	pc->task = next;
	pc->rec = in;
}

/*
 * When a sleeper's pause ended: the scheduler queued it a moment ago and
 * kept the time, so there is no clock to read, but where the kernel
 * keeps none (proc_queued_since()).
 */
static u64 proc_woken_at(struct proc_thr *t, struct task_struct *p)
{
	return proc_queued_since(p, t->since) ?: local_clock();
}

/*
 * A sleeping thread is woken: its pause ends.  A sleep its own timer
 * ended is a timed-out stop rather than the stop it began as.  Class
 * 15's part of a wakeup (sched/sched.c).
 */
void meas_proc_wakeup(struct proc_tab *tab, struct task_struct *p)
{
	struct proc_thr *t = proc_find(tab, this_cpu_ptr(tab->pcpu), p);
	u64 now;

	if (!t || READ_ONCE(t->st) != PT_SLEEP)
		return;
	now = proc_woken_at(t, p);
	raw_write_seqcount_begin(&t->seq);
	now = meas_seen_end(&t->seen, now);
	t->cnt[proc_pause_of(t->reason)] += proc_delta(now, t->since);
	if (READ_ONCE(t->timer)) {
		t->cnt[t->reason]--;
		t->cnt[PC_STOP_TIMEOUT]++;
		t->reason = PC_STOP_TIMEOUT;
		WRITE_ONCE(t->timer, 0);
	}
	t->st = PT_RUNNABLE;
	t->since = now;
	raw_write_seqcount_end(&t->seq);
}

static void proc_probe_wakeup_new(void *data, struct task_struct *p)
{
	struct proc_thr *t = meas_proctab_find(data, p);

	if (!t || READ_ONCE(t->st) != PT_NEW)
		return;
	raw_write_seqcount_begin(&t->seq);
	t->st = PT_RUNNABLE;
	t->since = local_clock();
	raw_write_seqcount_end(&t->seq);
}

MEAS_TP_PROTO(sched_wakeup_new, proc_probe_wakeup_new);

static void proc_probe_fork(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	struct proc_names names, *n = NULL;
	struct pid *old;

	if (thread_group_leader(child)) {
		meas_proctab_names(child, &names);
		n = &names;
	}
	old = meas_proctab_enter(data, child, n, ktime_get_real_ns());
	put_pid(old);
}

MEAS_TP_PROTO(sched_process_fork, proc_probe_fork);

static void proc_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			    struct linux_binprm *bprm)
{
	struct proc_names names;

	meas_proctab_names(p, &names);
	meas_proctab_rename(data, p, &names, true);
}

MEAS_TP_PROTO(sched_process_exec, proc_probe_exec);

/* The block layer queues a bio: it belongs to the thread submitting it. */
static void proc_probe_bio(void *data, struct bio *bio)
{
	struct proc_tab *tab = data;
	struct proc_cpu *pc = this_cpu_ptr(tab->pcpu);
	u64 bytes = bio->bi_iter.bi_size;
	struct proc_thr *t;

	if (!in_task())
		return;
	t = pc->task == current ? pc->rec : meas_proctab_find(tab, current);
	if (!t)
		return;
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		t->cnt[PC_READS]++;
		t->cnt[PC_RBYTES] += bytes;
		t->cnt[PC_BYTES] += bytes;
		break;
	case REQ_OP_WRITE:
		t->cnt[PC_WRITES]++;
		t->cnt[PC_BYTES] += bytes;
		break;
	default:
		break;
	}
}

MEAS_BLK_BIO_QUEUE_PROBE(proc_probe_bio_tp, proc_probe_bio)
MEAS_TP_PROTO(block_bio_queue, proc_probe_bio_tp);

/* A sleeper's timer fires while its thread still sleeps: a time-out. */
static void proc_hrtimer(void *data, struct hrtimer *timer)
{
	struct task_struct *task = meas_tp_sleeper_task(timer);
	struct proc_thr *t;

	if (!task)
		return;
	t = meas_proctab_find(data, task);
	if (t && READ_ONCE(t->st) == PT_SLEEP)
		WRITE_ONCE(t->timer, 1);
}

MEAS_HRTIMER_EXPIRE_PROBE(proc_probe_hrtimer, proc_hrtimer)
MEAS_TP_PROTO(hrtimer_expire_entry, proc_probe_hrtimer);

#ifdef CONFIG_CGROUPS
/*
 * A process, or one of its threads, was moved to another cgroup; called
 * once per move, after it.  Only moves in the v2 hierarchy change what
 * class 15 counts by.
 */
static void proc_probe_attach(void *data, struct cgroup *dst,
			      const char *path, struct task_struct *task,
			      bool threadgroup)
{
	if (dst->root == &cgrp_dfl_root)
		meas_proctab_migrate(data, task, threadgroup);
}

MEAS_TP_PROTO(cgroup_attach_task, proc_probe_attach);

/* A cgroup was removed: its entry keeps its totals and its path. */
static void proc_probe_rmdir(void *data, struct cgroup *cgrp,
			     const char *path)
{
	if (cgrp->root == &cgrp_dfl_root)
		meas_proctab_cg_removed(data, cgroup_id(cgrp), path);
}

MEAS_TP_PROTO(cgroup_rmdir, proc_probe_rmdir);
#endif

/* sched_switch and sched_wakeup: the hook (sched/sched.c), shared with class 0 */
static struct meas_tp proc_tps[] = {
	MEAS_TP(sched_wakeup_new, proc_probe_wakeup_new, true),
	MEAS_TP(sched_process_fork, proc_probe_fork, true),
	MEAS_TP(sched_process_exec, proc_probe_exec, true),
	MEAS_TP(block_bio_queue, proc_probe_bio_tp, false),
	MEAS_TP(hrtimer_expire_entry, proc_probe_hrtimer, false),
#ifdef CONFIG_CGROUPS
	/* the per-cgroup totals are exact only with both */
	MEAS_TP(cgroup_attach_task, proc_probe_attach, true),
	MEAS_TP(cgroup_rmdir, proc_probe_rmdir, true),
#endif
};

/*
 * FORMATPROCSEG: enter every thread alive now.  The hook and the probes
 * are already registered and a grace period has passed, so a fork this walk misses
 * has met the fork probe; a thread met by both is entered once.
 */
static void proc_scan(struct proc_tab *tab)
{
	u64 real = ktime_get_real_ns(), boot = ktime_get_boottime_ns();
	struct task_struct *g, *t;
	struct proc_names names;
	struct pid *old;

	rcu_read_lock();
	for_each_process(g) {
		meas_proctab_names(g, &names);
		names.flags |= MEAS_PF_PREEXISTING;
		for_each_thread(g, t) {
			old = meas_proctab_enter(tab, t, &names,
						 real - proc_delta(boot, g->start_boottime));
			put_pid(old);
		}
	}
	rcu_read_unlock();
}

/* KERNEL_VERSION() of the running kernel, from its release string. */
static u64 proc_kernel_version(void)
{
	unsigned int a = 0, b = 0, c = 0;

	if (sscanf(init_utsname()->release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return KERNEL_VERSION(a, b, min(c, 255U));
}

/**
 * meas_proc_shape() - the shape of class 15's region
 * @spec: filled: one subclass, an entry a process slot
 */
void meas_proc_shape(struct meas_class_spec *spec)
{
	unsigned int slots = clamp(READ_ONCE(proc_slots), 1U, PROC_MAX_SLOTS);

	spec->nsub = 1;
	spec->devslots = 0;
	spec->sub[0].entries = (u64)slots + 1;
	spec->sub[0].entsize = MEAS_PROC_ITEMS;
	spec->sub[0].ent0size = MEAS_PROC_ITEMS;
}

/**
 * meas_proc_prepare() - the table of a class 15 being enabled
 * @cls: class 15, its region formatted
 * @tabp: out: the table, empty, its exit path ready
 *
 * The hook (sched/sched.c) comes next, then meas_proc_start(); the
 * definition of class 15 (classes.c) composes them.
 *
 * Return: MEAS_START_OK, MEAS_START_NOVMEM or MEAS_START_NODST.
 */
int meas_proc_prepare(struct meas_class *cls, struct proc_tab **tabp)
{
	u64 *ent0 = meas_xds_entry(cls, MEAS_CLASS_PROC, 0, 0);
	unsigned int nthr;
	struct proc_tab *tab;

	if (WARN_ON_ONCE(!ent0))
		return MEAS_START_NOVMEM;
	if (meas_inject_start(MEAS_START_NODST))
		return MEAS_START_NODST;
	nthr = clamp(READ_ONCE(proc_threads), 1U, PROC_MAX_SLOTS);
	tab = meas_proctab_alloc(ent0[0] - 1, nthr,
				 clamp_t(unsigned int, READ_ONCE(proc_exit_ring),
					 2, PROC_MAX_RING),
				 clamp(READ_ONCE(cgroup_slots), 1U,
				       PROC_MAX_CGROUPS), ent0);
	if (!tab)
		return MEAS_START_NODST;
	tab->mem += cls->words * sizeof(u64);
	tab->started = ktime_get_real_ns();
	tab->started_clock = local_clock();
	tab->kversion = proc_kernel_version();
	meas_procexit_init(tab);
	*tabp = tab;
	return MEAS_START_OK;
}

/**
 * meas_proc_start() - register the probes, enter the processes alive
 * @tab: the table, the hook already calling class 15 on it: a child the
 *	fork probe enters must meet the hook at its final switch-out,
 *	which unlinks its record; else the record keeps a pointer to a
 *	freed task
 *
 * Return: MEAS_START_OK, or MEAS_START_NOLOCK: the caller detaches the
 * hook and calls meas_proc_end().
 */
int meas_proc_start(struct proc_tab *tab)
{
	if (meas_tp_register(proc_tps, ARRAY_SIZE(proc_tps), tab))
		return MEAS_START_NOLOCK;
	/* every tracepoint call in flight, SRCU-fast's too (compat.h) */
	tracepoint_synchronize_unregister();
	proc_scan(tab);
	WRITE_ONCE(meas_proc_table, tab);
	return MEAS_START_OK;
}

/**
 * meas_proc_stop() - unregister the probes meas_proc_start() registered
 * @tab: the table
 *
 * The hook is detached next, then meas_proc_end() waits for them all.
 */
void meas_proc_stop(struct proc_tab *tab)
{
	meas_tp_unregister(proc_tps, ARRAY_SIZE(proc_tps), tab);
}

/**
 * meas_proc_end() - free the table, its probes and the hook detached
 * @tab: the table, published or not
 */
void meas_proc_end(struct proc_tab *tab)
{
	/* The probes that were registered may have run meanwhile. */
	tracepoint_synchronize_unregister();
	/* The records of the last exits still go out. */
	meas_procexit_stop(tab);
	WRITE_ONCE(meas_proc_table, NULL);
	meas_proctab_free(tab);
}

/**
 * meas_proc_init() - bind the tracepoints
 *
 * Return: 0, or -ENOENT if a required tracepoint is missing.
 */
int meas_proc_init(void)
{
	return meas_tp_bind(proc_tps, ARRAY_SIZE(proc_tps));
}
