// SPDX-License-Identifier: GPL-2.0
/*
 * Class 15 records as readers see them: the entry's items plus the live
 * threads' counters and running segments, read consistently through the
 * sequence counts; numbers translated to the reader's PID and user
 * namespaces; and only the processes the reader may see.
 *
 * Who may see what: a caller with CAP_PERFMON or CAP_SYS_ADMIN sees every
 * process.  Any other caller sees the processes it could read with
 * ptrace (PTRACE_MODE_READ_FSCREDS), as core/access.c decides.  An
 * exited process is judged by the IDs and the dumpable flag it had when
 * it went.  Entries a caller may not see read as never used.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include "core/compat.h"
#include <linux/sched/clock.h>
#include <linux/cred.h>
#include <linux/cgroup.h>
#include <linux/capability.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/user_namespace.h>
#include <linux/utsname.h>
#include <linux/mm.h>
#include <linux/string.h>
#include "core/access.h"
#include "core/seen.h"
#include "core/class.h"
#include "core/ctl.h"
#include "core/inject.h"
#include "proctab.h"
#include "procread.h"

/**
 * meas_procread_viewer() - decide who reads, once per call
 * @v: filled in
 * @init_ns: numbers as the initial namespaces see them (the exit
 *	records), whoever the caller is
 */
void meas_procread_viewer(struct proc_viewer *v, bool init_ns)
{
	meas_access_current(&v->look[0], true);
	v->nlook = 1;
	v->all = perfmon_capable();
	v->init_ns = init_ns ||
		     (task_active_pid_ns(current) == &init_pid_ns &&
		      current_user_ns() == &init_user_ns);
}

/**
 * meas_procread_viewer_opener() - the caller and whoever opened @file
 * @v: filled in
 * @file: the file of the socket the request came on, or NULL
 *
 * A request on a socket another process opened (or one opened before a
 * change of credentials) is answered only as far as both may see: the
 * rule of netlink_capable(), which checks the opener, after
 * CVE-2014-0181.
 */
void meas_procread_viewer_opener(struct proc_viewer *v, struct file *file)
{
	meas_procread_viewer(v, false);
	if (!file || file->f_cred == current_cred())
		return;
	meas_access_opener(&v->look[1], file);
	v->nlook = 2;
	v->all = v->all && meas_access_privileged(&v->look[1]);
}

/**
 * meas_procread_may_task() - may every looker of @v see a live task
 * @v: the caller
 * @task: the task, under RCU
 *
 * Return: what ptrace's PTRACE_MODE_READ_FSCREDS rules say (core/access.c).
 */
bool meas_procread_may_task(const struct proc_viewer *v,
			    struct task_struct *task)
{
	unsigned int i;

	for (i = 0; i < v->nlook; i++)
		if (!meas_access_task(&v->look[i], task))
			return false;
	return true;
}

/**
 * meas_procread_may_ids() - the same rules on what a process left
 * @v: the caller
 * @ids: the IDs it had when it went (initial namespace numbers)
 * @dumpable: whether it was dumpable then
 *
 * Return: true if every looker of @v may see it.
 */
bool meas_procread_may_ids(const struct proc_viewer *v,
			   const struct meas_access_ids *ids, bool dumpable)
{
	struct meas_access_ids id = *ids;
	unsigned int i;

	for (i = 0; i < v->nlook; i++)
		if (!meas_access_exited(&v->look[i], &id, dumpable))
			return false;
	return true;
}

/* The same rules on what an exited process left in its entry. */
static bool procread_may_exited(const struct proc_viewer *v, const u64 *e)
{
	struct meas_access_ids ids = {
		.uid = e[MEAS_P_UID], .euid = e[MEAS_P_EUID],
		.suid = e[MEAS_P_SUID], .gid = e[MEAS_P_GID],
		.egid = e[MEAS_P_EGID], .sgid = e[MEAS_P_SGID],
	};

	return meas_procread_may_ids(v, &ids,
				     e[MEAS_P_FLAGS] & MEAS_PF_DUMPABLE);
}

/**
 * meas_procread_header() - entry 0
 * @tab: the table
 * @h: MEAS_PROC_ITEMS words, filled in
 * @region_order: words 0 and 1 as the region has them (entries first)
 */
void meas_procread_header(struct proc_tab *tab, u64 *h, bool region_order)
{
	u64 avail = si_mem_available();
	struct sysinfo si;

	memset(h, 0, MEAS_PROC_ITEMS * sizeof(u64));
	si_meminfo(&si);
	h[MEAS_P0_ENTRY_SIZE] = MEAS_PROC_ITEMS;
	h[MEAS_P0_ENTRIES] = (u64)tab->nslots + 1;
	if (region_order)
		swap(h[MEAS_P0_ENTRY_SIZE], h[MEAS_P0_ENTRIES]);
	h[MEAS_P0_ENT0_SIZE] = MEAS_PROC_ITEMS;
	h[MEAS_P0_STARTED] = tab->started;
	h[MEAS_P0_KERNEL_VERSION] = tab->kversion;
	h[MEAS_P0_MEM_AVAILABLE] = avail * PAGE_SIZE;
	h[MEAS_P0_MEM_USED] = si.totalram > avail ?
			      (si.totalram - avail) * si.mem_unit : 0;
	h[MEAS_P0_MEM_TABLE] = tab->mem;
	h[MEAS_P0_LIVE] = READ_ONCE(tab->st.live);
	h[MEAS_P0_EXITED] = READ_ONCE(tab->st.exited);
	h[MEAS_P0_OVERFLOW] = READ_ONCE(tab->st.overflow);
	h[MEAS_P0_THREAD_OVERFLOW] = READ_ONCE(tab->st.thr_overflow);
	h[MEAS_P0_REUSED] = READ_ONCE(tab->st.reused);
	h[MEAS_P0_EXIT_SEQ] = READ_ONCE(tab->exit_seq);
	h[MEAS_P0_EXIT_LOST] = READ_ONCE(tab->exit_lost);
	h[MEAS_P0_THREAD_SLOTS] = tab->nthr;
	h[MEAS_P0_THREADS_LIVE] = READ_ONCE(tab->st.thr_live);
	h[MEAS_P0_HIGH_WATER] = READ_ONCE(tab->st.hwm);
	h[MEAS_P0_CLOCK_START] = local_clock();
	h[MEAS_P0_CLOCK_END] = h[MEAS_P0_CLOCK_START];
	strscpy_pad((char *)&h[MEAS_P0_RELEASE], init_utsname()->release,
		    (MEAS_PROC_ITEMS - MEAS_P0_RELEASE) * sizeof(u64));
}

/**
 * meas_procread_hwm() - the highest entry ever used
 * @tab: the table
 */
u32 meas_procread_hwm(struct proc_tab *tab)
{
	return READ_ONCE(tab->st.hwm);
}

struct proc_last {
	u64 in;
	u64 out;
	u64 cpu;
	u64 reason;
};

/* Where the time of each state goes while it lasts. */
static const u8 procread_state_item[PC_NR] = {
	[PC_STOP_DISC_BLK]	= MEAS_P_PAUSE_DISC,
	[PC_STOP_DISC_UNBLK]	= MEAS_P_PAUSE_DISC,
	[PC_STOP_BLOCKED]	= MEAS_P_PAUSE_IO,
	[PC_STOP_TERM]		= MEAS_P_PAUSE_TERMINAL,
	[PC_STOP_IMPEDE]	= MEAS_P_PAUSE_IMPEDED,
	[PC_STOP_TIMEOUT]	= MEAS_P_PAUSE_IMPEDED,
	[PC_STOP_JOBCTL]	= MEAS_P_PAUSE_JOBCTL,
};

/*
 * Add one live thread: its counters, and the part of its current state
 * so far (on a CPU, runnable, or paused for the reason it stopped).
 */
static void procread_thr(struct proc_thr *t, u64 *e, u64 now,
			 struct proc_last *l)
{
	u64 c[PC_NR], since, last_in, last_out;
	unsigned int seq, i;
	u8 st, reason;
	u16 cpu;

	do {
		seq = raw_read_seqcount_begin(&t->seq);
		memcpy(c, t->cnt, sizeof(c));
		since = t->since;
		last_in = t->last_in;
		last_out = t->last_out;
		st = t->st;
		reason = t->reason;
		cpu = t->cpu;
		meas_seen_raise(&t->seen, now);
	} while (read_seqcount_retry(&t->seq, seq));

	for (i = 0; i < PC_NR; i++)
		e[meas_proc_cnt_item[i]] += c[i];
	if (reason >= PC_NR)
		reason = PC_STOP_IMPEDE;
	since = now > since ? now - since : 0;
	if (st == PT_ON_CPU)
		e[MEAS_P_CPU_TIME] += since;
	else if (st == PT_RUNNABLE)
		e[MEAS_P_PAUSE_ACTIVE] += since;
	else if (st == PT_SLEEP && procread_state_item[reason])
		e[procread_state_item[reason]] += since;
	if (last_out && last_out >= l->out) {
		l->out = last_out;
		l->reason = meas_proc_cnt_item[reason];
	}
	if (last_in && last_in >= l->in) {
		l->in = last_in;
		l->cpu = cpu;
	}
}

/**
 * meas_procread_thr() - add a live thread's counts to items
 * @t: its record, linked in a list the caller walks under a sequence
 *	count
 * @e: items (MEAS_P_*) to add its counters to, with its current state
 *	up to @now
 * @now: local_clock() of the read
 */
void meas_procread_thr(struct proc_thr *t, u64 *e, u64 now)
{
	struct proc_last l = {};

	procread_thr(t, e, now, &l);
}

/*
 * The entry of a slot with its live threads added, consistently, and in
 * *task one of its live threads.  Called under rcu_read_lock(): a task
 * whose record was linked is freed only a grace period after its final
 * switch-out unlinked it, so *task stays valid until the unlock.
 * Return: false if the slot is empty.
 */
static bool procread_compose(struct proc_tab *tab, u32 slot, u64 *e,
			     u32 *gen, u64 *cgid, struct task_struct **task)
{
	struct proc_slot *s = &tab->slots[slot];
	struct proc_thr *t;
	struct proc_last l;
	unsigned int seq;
	u32 i, steps, nthr;
	u64 now;

	do {
		seq = raw_read_seqcount_begin(&s->seq);
		memcpy(e, proc_ent(tab, slot), MEAS_PROC_ITEMS * sizeof(u64));
		*gen = s->gen;
		*cgid = s->cgid;
		l.in = s->last_in;
		l.out = s->last_out;
		l.cpu = e[MEAS_P_LAST_CPU];
		l.reason = e[MEAS_P_LAST_STOP];
		now = local_clock();
		nthr = 0;
		*task = NULL;
		i = READ_ONCE(s->threads);
		for (steps = 0; i && i <= tab->nthr && steps < tab->nthr;
		     steps++) {
			t = &tab->thr[i - 1];
			procread_thr(t, e, now, &l);
			if (!*task)
				*task = READ_ONCE(t->task);
			nthr++;
			i = READ_ONCE(t->pnext);
		}
	} while (read_seqcount_retry(&s->seq, seq));

	if (e[MEAS_P_STATE] == MEAS_PSTATE_EMPTY)
		return false;
	e[MEAS_P_LAST_CPU] = l.cpu;
	e[MEAS_P_LAST_STOP] = l.reason;
	if (e[MEAS_P_STATE] == MEAS_PSTATE_LIVE)
		e[MEAS_P_THREADS] = nthr;
	return true;
}

/*
 * Whether a live process is dumpable now: a set-user-ID change of IDs or
 * prctl(PR_SET_DUMPABLE) since its last fork or exec changed it, and
 * pmdameas judges its clients by this flag, as ptrace would.  The
 * process's own lock keeps its mm (or the 7 series' exec_state) while
 * it is read; a thread without one leaves the flag as it was.
 */
static void procread_dumpable(struct task_struct *task, u64 *e)
{
	struct user_namespace *ns;
	enum meas_dumpable d;

	task_lock(task);
	d = meas_task_dumpable(task, &ns);
	task_unlock(task);
	if (d == MEAS_DUMP_OWNER)
		e[MEAS_P_FLAGS] |= MEAS_PF_DUMPABLE;
	else if (d == MEAS_DUMP_NOT)
		e[MEAS_P_FLAGS] &= ~MEAS_PF_DUMPABLE;
}

/*
 * A live process's names, IDs and dumpability as they are now; under
 * rcu_read_lock().
 * The command name is copied without the task lock, as tracepoints do: a
 * concurrent rename gives a mixed name, never a bad access.
 */
static void procread_refresh(struct task_struct *task, u64 *e)
{
	struct task_struct *leader = READ_ONCE(task->group_leader);
	char *comm = (char *)&e[MEAS_P_COMMAND];

	memcpy(comm, leader->comm, MEAS_PROC_COMM_LEN);
	comm[MEAS_PROC_COMM_LEN - 1] = '\0';
	if (e[MEAS_P_FLAGS] & MEAS_PF_KTHREAD) {
		memset(&e[MEAS_P_PROGRAM], 0, MEAS_PROC_NAME_LEN);
		memcpy(&e[MEAS_P_PROGRAM], &e[MEAS_P_COMMAND],
		       MEAS_PROC_COMM_LEN);
	}
	meas_proctab_creds(e, __task_cred(task));
	e[MEAS_P_SESSION] = pid_nr(task_session(task));
	if (!(e[MEAS_P_FLAGS] & MEAS_PF_KTHREAD))
		procread_dumpable(task, e);
}

/* An initial-namespace PID as the caller's namespace numbers it. */
static u64 procread_pid_nr(u64 nr, struct pid_namespace *ns)
{
	struct pid *pid;
	u64 v = 0;

	if (!nr)
		return 0;
	rcu_read_lock();
	pid = find_pid_ns(nr, &init_pid_ns);
	if (pid)
		v = pid_nr_ns(pid, ns);
	rcu_read_unlock();
	return v;
}

/* Numbers of the entry in the caller's namespaces. */
static bool procread_translate(struct pid *pid, u64 *e)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct user_namespace *uns = current_user_ns();
	static const u8 uid_items[] = {
		MEAS_P_UID, MEAS_P_EUID, MEAS_P_SUID,
	};
	static const u8 gid_items[] = {
		MEAS_P_GID, MEAS_P_EGID, MEAS_P_SGID,
	};
	unsigned int i;

	e[MEAS_P_PID] = pid_nr_ns(pid, ns);
	if (!e[MEAS_P_PID])
		return false;
	e[MEAS_P_PPID] = procread_pid_nr(e[MEAS_P_PPID], ns);
	e[MEAS_P_SESSION] = procread_pid_nr(e[MEAS_P_SESSION], ns);
	for (i = 0; i < ARRAY_SIZE(uid_items); i++)
		e[uid_items[i]] = from_kuid_munged(uns,
				make_kuid(&init_user_ns, e[uid_items[i]]));
	for (i = 0; i < ARRAY_SIZE(gid_items); i++)
		e[gid_items[i]] = from_kgid_munged(uns,
				make_kgid(&init_user_ns, e[gid_items[i]]));
	return true;
}

/* A reference to the struct pid of a slot, taken under the table lock
 * because a reused slot puts it.
 */
static struct pid *procread_get_pid(struct proc_tab *tab, u32 slot, u32 *gen)
{
	unsigned long flags;
	struct pid *pid;

	raw_spin_lock_irqsave(&tab->lock, flags);
	pid = get_pid(tab->slots[slot].pid);
	*gen = tab->slots[slot].gen;
	raw_spin_unlock_irqrestore(&tab->lock, flags);
	return pid;
}

/**
 * meas_procread_entry() - the items of a process entry for this caller
 * @tab: the table
 * @v: the caller
 * @slot: entry number, 1..nslots
 * @e: MEAS_PROC_ITEMS words, filled in (zeros when false is returned)
 * @gen: out: the slot's generation
 *
 * Return: true if the entry holds a process the caller may see.
 */
bool meas_procread_entry(struct proc_tab *tab, const struct proc_viewer *v,
			 u32 slot, u64 *e, u32 *gen)
{
	return meas_procread_entry_cg(tab, v, slot, e, gen, NULL);
}

/* The cgroup v2 ID of a live process, under rcu_read_lock(). */
static u64 procread_cgroup_id(struct task_struct *task)
{
#ifdef CONFIG_CGROUPS
	return cgroup_id(task_dfl_cgroup(task));
#else
	return 0;
#endif
}

/**
 * meas_procread_entry_cg() - meas_procread_entry() and the cgroup
 * @tab: the table
 * @v: the caller
 * @slot: entry number, 1..nslots
 * @e: MEAS_PROC_ITEMS words, filled in (zeros when false is returned)
 * @gen: out: the slot's generation
 * @cgid: out, or NULL: the cgroup v2 ID the process is in now (read from
 *	the live task, so nothing is kept per switch), or exited in
 *
 * Return: true if the entry holds a process the caller may see.
 */
bool meas_procread_entry_cg(struct proc_tab *tab, const struct proc_viewer *v,
			    u32 slot, u64 *e, u32 *gen, u64 *cgid)
{
	struct task_struct *task;
	struct pid *pid;
	bool ok = false;
	u32 g = 0, pg;
	u64 cg = 0;

	memset(e, 0, MEAS_PROC_ITEMS * sizeof(u64));
	if (!slot || slot > tab->nslots)
		return false;
	rcu_read_lock();
	if (!procread_compose(tab, slot, e, &g, &cg, &task))
		goto unlock;
	if (task && e[MEAS_P_STATE] == MEAS_PSTATE_LIVE) {
		procread_refresh(task, e);
		cg = procread_cgroup_id(task);
	} else {
		task = NULL;
	}
	ok = v->all || (task ? meas_procread_may_task(v, task) :
				procread_may_exited(v, e));
unlock:
	rcu_read_unlock();
	*gen = g;
	if (ok && !v->init_ns) {
		/* The pid is the entry's while the generation is unchanged. */
		pid = procread_get_pid(tab, slot, &pg);
		ok = pid && pg == g && procread_translate(pid, e);
		put_pid(pid);
	}
	if (!ok) {
		memset(e, 0, MEAS_PROC_ITEMS * sizeof(u64));
		cg = 0;
	}
	e[MEAS_P_CGROUP] = cg;
	if (cgid)
		*cgid = cg;
	return ok;
}

/*
 * A reader asking for one process waits this long at most, in steps of
 * PROCREAD_SETTLE_US, for the last switch-out of a process whose threads
 * have all exited (meas_procread_settle()).
 */
#define PROCREAD_SETTLE_US	100
#define PROCREAD_SETTLE_STEPS	1000

/*
 * The live entry @slot's first thread, referenced, if its process is in
 * its exit window: its threads have all exited but its last switch-out
 * has not come yet.  A record keeps its task until that switch-out, and
 * the task is freed an RCU grace period after it.  A record taken by
 * another process meanwhile gives a wrong answer, which costs a wait or
 * spares one, nothing else.  Under meas_sir.
 */
static struct task_struct *procread_exit_task(struct proc_tab *tab, u32 slot)
{
	struct proc_slot *s = &tab->slots[slot];
	struct task_struct *task = NULL;
	u32 i;

	rcu_read_lock();
	if (READ_ONCE(s->state) == MEAS_PSTATE_LIVE) {
		i = READ_ONCE(s->threads);
		if (i && i <= tab->nthr)
			task = READ_ONCE(tab->thr[i - 1].task);
		if (task && ((READ_ONCE(task->exit_state) &&
			      !atomic_read(&task->signal->live)) ||
			     meas_inject_proc_settle()))
			get_task_struct(task);
		else
			task = NULL;
	}
	rcu_read_unlock();
	return task;
}

/* Whether @t has left its CPU for the last time: its switch-out came. */
static bool procread_switched_out(struct task_struct *t)
{
	return meas_task_state(t) == TASK_DEAD && !READ_ONCE(t->on_cpu);
}

/* The slot of process @nr (global), live or the latest exited; or 0. */
static u32 procread_lookup(struct proc_tab *tab, s32 nr, bool exited)
{
	u32 s, best = 0, steps = 0;
	u64 created, best_created = 0;
	u8 state;

	s = READ_ONCE(tab->phash[(u32)nr & tab->pmask]);
	while (s && s <= tab->nslots && steps++ < tab->nslots) {
		state = READ_ONCE(tab->slots[s].state);
		created = READ_ONCE(proc_ent(tab, s)[MEAS_P_CREATED]);
		if (READ_ONCE(tab->slots[s].nr) == nr &&
		    state != MEAS_PSTATE_EMPTY) {
			if (state == MEAS_PSTATE_LIVE)
				return s;
			if (exited && created >= best_created) {
				best = s;
				best_created = created;
			}
		}
		s = READ_ONCE(tab->slots[s].hnext);
	}
	return best;
}

/* A process ID of the caller's namespace as the table numbers it, or 0. */
static s32 procread_global_nr(const struct proc_viewer *v, s32 nr)
{
	struct pid *pid;

	if (nr <= 0 || v->init_ns)
		return nr > 0 ? nr : 0;
	rcu_read_lock();
	pid = find_vpid(nr);
	nr = pid ? pid_nr(pid) : 0;
	rcu_read_unlock();
	return nr;
}

/**
 * meas_procread_settle() - let a process in its exit window leave first
 * @v: the caller
 * @nr: a process ID in the caller's PID namespace
 *
 * A process is gone for user space once its last thread has passed
 * exit_notify(): its parent's waitpid() may have reaped it already.  Its
 * entry is final only at that thread's last switch-out, which follows
 * within microseconds on its CPU unless the thread is preempted first.
 * A caller that asks for one process by its PID waits for that, up to
 * PROCREAD_SETTLE_STEPS steps, so that a process its parent has reaped
 * never reads as live.  Called before the lookup, without meas_sir,
 * which it takes only to look: a user who keeps a process of its own in
 * that window holds up no other reader (and, the family being parallel,
 * no other generic netlink family).  Process context, nothing held.
 */
void meas_procread_settle(const struct proc_viewer *v, s32 nr)
{
	struct task_struct *t;
	unsigned int i = 0;
	u32 slot;

	nr = procread_global_nr(v, nr);
	while (nr && i < PROCREAD_SETTLE_STEPS) {
		if (mutex_lock_killable(&meas_sir))
			return;
		slot = meas_proc_table ?
		       procread_lookup(meas_proc_table, nr, false) : 0;
		t = slot ? procread_exit_task(meas_proc_table, slot) : NULL;
		mutex_unlock(&meas_sir);
		if (!t)
			return;
		while (i++ < PROCREAD_SETTLE_STEPS && !procread_switched_out(t))
			usleep_range(PROCREAD_SETTLE_US, 2 * PROCREAD_SETTLE_US);
		put_task_struct(t);
	}
}

/**
 * meas_procread_find() - the entry of a process ID
 * @tab: the table
 * @v: the caller
 * @nr: a process ID in the caller's PID namespace
 *
 * The live process if there is one, else the latest that exited.  A
 * caller outside the initial PID namespace finds live processes only.
 * The caller has let a process in its exit window leave first
 * (meas_procread_settle()), before it took meas_sir.
 *
 * Return: the slot, or 0.
 */
u32 meas_procread_find(struct proc_tab *tab, const struct proc_viewer *v,
		       s32 nr)
{
	nr = procread_global_nr(v, nr);
	return nr ? procread_lookup(tab, nr, v->init_ns) : 0;
}

/**
 * meas_procread_snap() - GETSTATISTICS of class 15: region words
 * @cls: class 15, enabled; meas_sir held
 * @word: first region word
 * @n: words
 * @out: where they go
 *
 * Words of process entries are composed for the caller: live counters
 * added, entries it may not see read as zeros.
 */
void meas_procread_snap(struct meas_class *cls, u64 word, u64 n, u64 *out)
{
	struct proc_tab *tab = meas_proc_table;
	u64 base, first, last, ent, from, to, tmp[MEAS_PROC_ITEMS];
	struct proc_viewer v;
	u32 gen, hwm;

	memcpy(out, cls->region + word, n * sizeof(u64));
	if (WARN_ON_ONCE(!tab))
		return;
	meas_procread_viewer(&v, false);
	base = tab->ent0 - cls->region;
	if (word + n <= base)
		return;
	first = word > base ? (word - base) / MEAS_PROC_ITEMS : 0;
	last = (word + n - 1 - base) / MEAS_PROC_ITEMS;
	hwm = meas_procread_hwm(tab);
	for (ent = first; ent <= last && ent <= tab->nslots; ent++) {
		if (!ent)
			meas_procread_header(tab, tmp, true);
		else if (ent <= hwm)
			meas_procread_entry(tab, &v, ent, tmp, &gen);
		else
			memset(tmp, 0, sizeof(tmp));
		from = max(word, base + ent * MEAS_PROC_ITEMS);
		to = min(word + n, base + (ent + 1) * MEAS_PROC_ITEMS);
		memcpy(out + (from - word), tmp + (from - base) % MEAS_PROC_ITEMS,
		       (to - from) * sizeof(u64));
	}
}

/**
 * meas_procread_final() - the final record of an exited process
 * @tab: the table
 * @slot: its slot
 * @gen: the generation it exited with
 * @cgid: out: the cgroup v2 ID it exited in
 * @rec: filled in, initial-namespace numbers
 *
 * No lock: called by the exit worker.  The sequence count and the
 * generation tell a slot reused meanwhile.
 *
 * Return: false if the slot went to another process first.
 */
bool meas_procread_final(struct proc_tab *tab, u32 slot, u32 gen, u64 *cgid,
			 struct meas_proc_rec *rec)
{
	struct proc_slot *s = &tab->slots[slot];
	unsigned int seq;
	u32 g;

	memset(rec, 0, sizeof(*rec));
	do {
		seq = raw_read_seqcount_begin(&s->seq);
		memcpy(rec->item, proc_ent(tab, slot), sizeof(rec->item));
		g = s->gen;
		*cgid = s->cgid;
	} while (read_seqcount_retry(&s->seq, seq));
	if (g != gen || rec->item[MEAS_P_STATE] != MEAS_PSTATE_EXITED)
		return false;
	rec->size = sizeof(*rec);
	rec->slot = slot;
	rec->index = (u64)gen << 32 | slot;
	return true;
}
