/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Class 15, the process table (MEASPROCXDS): the table, its types and
 * its state, which every unit of class 15 shares, below them all.
 *
 *  cgtab.c     the cgroups' entries, which the table's threads count in
 *  proctab.c   the table: slots, thread records, hashes, the lock, the
 *              exit ring's producer side, threads entering, leaving and
 *              moving between cgroups
 *  proc.c      the class, its probes (the hot path), the enable scan
 *  procread.c  records for readers: live values, namespaces, access
 *  cgread.c    per-cgroup records for readers
 *  procstats.c GETPROCSTATS
 *  procexit.c  exit records: the ring's worker, multicast
 *  genl.c      the generic netlink family
 *  filter.c    READACTIVE (match.c: the pure matcher)
 *
 * Each has its own header.  Documentation/class15.rst explains the
 * design.
 */
#ifndef _MEAS_PROC_PROCTAB_H
#define _MEAS_PROC_PROCTAB_H

#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/cache.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/meas.h>
#include "logic/stop.h"
#include "proccnt.h"
#include "cgtab.h"

struct task_struct;
struct pid;
struct cred;

/* The item each counter is folded into. */
extern const u8 meas_proc_cnt_item[PC_NR];
extern const u8 meas_proc_stop_cnt[MEAS_STOP_NR];

/* State of a thread record. */
enum proc_tstate {
	PT_FREE,
	PT_NEW,		/* forked, not yet woken */
	PT_ON_CPU,	/* since = switch-in */
	PT_RUNNABLE,	/* since = wakeup or preemption */
	PT_SLEEP,	/* since = switch-out; reason says why */
};

/**
 * struct proc_thr - a thread's live counters
 * @task: the thread; NULL while the record is free
 * @hnext: next record in the hash chain, index + 1
 * @pnext: next thread of the process, or of the free list, index + 1
 * @slot: the process's slot
 * @seq: guards @since, @st, @reason and the time counters for readers
 * @since: start of the current state (local_clock)
 * @seen: how far a reader has shown the current state: it ends no earlier
 * @last_in: time of the last switch-in
 * @last_out: time of the last switch-out
 * @cpu: CPU of the last switch-in
 * @st: enum proc_tstate
 * @reason: PC_STOP_* of the last stop
 * @timer: the sleeper timer of the current sleep expired
 * @cnt: the counters
 * @cgid: the cgroup v2 ID the thread is in, as the table last saw it
 * @cg: its cgroup's entry (cgtab.h), 0 for the overflow entry
 * @cnext: next thread in that entry, index + 1
 * @cprev: previous thread in that entry, index + 1
 *
 * One writer at a time: the CPU that switches the thread, or wakes it,
 * under the scheduler's locks; the block probe on the CPU the thread
 * runs on.  Cache-line aligned so that threads on two CPUs never share
 * a line.  The cgroup's fields, written under the table lock only, come
 * last, in what was the padding of the fourth line, away from the
 * fields a switch touches.
 */
struct proc_thr {
	struct task_struct *task;
	u32 hnext;
	u32 pnext;
	u32 slot;
	seqcount_t seq;
	u64 since;
	u64 seen;
	u64 last_in;
	u64 last_out;
	u16 cpu;
	u8 st;
	u8 reason;
	u8 timer;
	u64 cnt[PC_NR];
	u64 cgid;
	u32 cg;
	u32 cnext;
	u32 cprev;
} ____cacheline_aligned;

/* State of a process slot: MEAS_PSTATE_*. */

/**
 * struct proc_slot - the kernel's side of a process entry
 * @pid: the thread group's struct pid, referenced; NULL when empty
 * @hnext: next slot in the PID hash chain
 * @qnext: next slot in the free list or the exited FIFO
 * @threads: first thread record, index + 1
 * @nthr: thread records in use
 * @gen: generation, bumped when the slot is given to a process
 * @nr: process ID in the initial namespace
 * @state: MEAS_PSTATE_*
 * @seq: guards the entry, @threads and the thread list for readers
 * @last_in: latest switch-in of a folded thread
 * @last_out: latest switch-out of a folded thread
 * @cgid: cgroup v2 ID the process exited in (read once, at its exit)
 *
 * Written under the table lock only.  The items live in the region.
 */
struct proc_slot {
	struct pid *pid;
	u32 hnext;
	u32 qnext;
	u32 threads;
	u32 nthr;
	u32 gen;
	u32 nr;
	u8 state;
	seqcount_t seq;
	u64 last_in;
	u64 last_out;
	u64 cgid;
};

/*
 * Per-CPU: the thread on the CPU and its record, set at switch-in; and
 * the last thread that left the CPU asleep or preempted, with its
 * record: the thread most likely to be woken or switched in next (a
 * pipe's other end), found without the hash.  A record is the thread's
 * while its task pointer is the thread's (meas_proc_cached()).
 */
struct proc_cpu {
	struct task_struct *task;
	struct proc_thr *rec;
	struct task_struct *last;
	struct proc_thr *last_rec;
};

/* Entry-0 counters, under the table lock. */
struct proc_stats {
	u64 live;
	u64 exited;
	u64 overflow;
	u64 thr_overflow;
	u64 reused;
	u64 thr_live;
	u64 hwm;
};

/**
 * struct proc_tab - the process table of an enabled class 15
 * @lock: serialises entering and releasing threads and processes
 * @nslots: process slots (entries 1..nslots)
 * @nthr: thread records
 * @slots: [nslots + 1]; slot 0 is entry 0 and unused
 * @thr: [nthr]
 * @thash: thread hash buckets (by task pointer), index + 1
 * @phash: process hash buckets (by PID number), slot number
 * @tbits: log2 of the thread buckets
 * @pmask: process buckets - 1
 * @free: first never-used or freed slot
 * @exq_head: oldest exited slot
 * @exq_tail: newest exited slot
 * @thr_free: first free thread record, index + 1
 * @thr_free_tail: last free thread record, index + 1
 * @ent0: entry 0 in the region; entry n is ent0 + n * MEAS_PROC_ITEMS
 * @st: entry-0 counters
 * @started: time sampling started, ns since the epoch
 * @started_clock: the same, local_clock()
 * @kversion: KERNEL_VERSION() of the running kernel's release
 * @mem: bytes the table uses
 * @pcpu: per-CPU current-thread cache
 * @ring: exit ring: (gen << 32 | slot) of exited processes
 * @ring_mask: ring entries - 1
 * @ring_head: producer position, under @lock
 * @ring_tail: consumer position, the worker's
 * @ring_lost: exits the full ring could not take, under @lock
 * @exit_seq: exit records numbered, the worker's
 * @exit_lost: exit records lost, the worker's
 * @ring_lost_seen: @ring_lost the worker has numbered
 * @kick: raised by the scheduler path, queues @work
 * @work: sends exit records
 * @cg: the cgroups (cgtab.h), under @lock
 */
struct proc_tab {
	raw_spinlock_t lock;
	u32 nslots;
	u32 nthr;
	struct proc_slot *slots;
	struct proc_thr *thr;
	u32 *thash;
	u32 *phash;
	u32 tbits;
	u32 pmask;
	u32 free;
	u32 exq_head;
	u32 exq_tail;
	u32 thr_free;
	u32 thr_free_tail;
	u64 *ent0;
	struct proc_stats st;
	u64 started;
	u64 started_clock;
	u64 kversion;
	u64 mem;
	struct proc_cpu __percpu *pcpu;
	u64 *ring;
	u32 ring_mask;
	u32 ring_head;
	u32 ring_tail;
	u64 ring_lost;
	u64 exit_seq;
	u64 exit_lost;
	u64 ring_lost_seen;
	struct irq_work kick;
	struct work_struct work;
	struct cg_tab cg;
};

static inline u64 *proc_ent(const struct proc_tab *tab, u32 slot)
{
	return tab->ent0 + (u64)slot * MEAS_PROC_ITEMS;
}

/* proctab.c */
struct proc_tab *meas_proctab_alloc(u32 nslots, u32 nthr, u32 ring,
				    u32 ncg, u64 *ent0);
void meas_proctab_free(struct proc_tab *tab);
struct proc_thr *meas_proctab_find(struct proc_tab *tab,
				   const struct task_struct *p);

/**
 * struct proc_names - what a new or exec'ing process is entered with
 * @program: program file name, NUL-padded
 * @comm: command name, NUL-padded
 * @item: items 6..12 (group, user and session IDs) as initial-namespace
 *	numbers
 * @ppid: parent's process ID
 * @flags: MEAS_PF_* known at entry
 */
struct proc_names {
	char program[MEAS_PROC_NAME_LEN];
	char comm[MEAS_PROC_COMM_LEN];
	u64 item[MEAS_P_SESSION - MEAS_P_GID + 1];
	u64 ppid;
	u64 flags;
};

void meas_proctab_names(struct task_struct *p, struct proc_names *n);
struct pid *meas_proctab_enter(struct proc_tab *tab, struct task_struct *p,
			       const struct proc_names *names, u64 created);
void meas_proctab_rename(struct proc_tab *tab, struct task_struct *p,
			 const struct proc_names *names, bool all);
bool meas_proctab_release(struct proc_tab *tab, struct proc_thr *t,
			  struct task_struct *p, u64 now);
void meas_proctab_creds(u64 *e, const struct cred *cred);
void meas_proctab_migrate(struct proc_tab *tab, struct task_struct *p,
			  bool threadgroup);
void meas_proctab_cg_removed(struct proc_tab *tab, u64 id, const char *path);

/* The table of the enabled class, or NULL; set and cleared under meas_sir. */
extern struct proc_tab *meas_proc_table;

#endif /* _MEAS_PROC_PROCTAB_H */
