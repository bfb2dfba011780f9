// SPDX-License-Identifier: GPL-2.0
/*
 * Event sources of task measurement.  PC samples come from a task-clock
 * perf event per thread, created in the kernel: its hrtimer runs only
 * while the thread runs, so the interval is CPU time, and inheritance to
 * new threads is perf's.  System calls come from raw_syscalls:sys_enter,
 * mapping changes (LOAD-INFO=*DETAILED) from raw_syscalls:sys_exit, the
 * program change and the end from sched_process_exec and _exit.  Each
 * tracepoint is registered only while a measurement needs it.
 *
 * Probes run in atomic context, so what needs the address space (load
 * information) is done by task_work callbacks that the measured thread
 * runs itself before it returns to user mode: nothing of the new mapping
 * or program can run before it is recorded.  Each queued callback holds a
 * reference on its measurement, which holds the module: the module is
 * not unloaded under one.
 */
#include <linux/perf_event.h>
#include <linux/tracepoint.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <linux/meas.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include "core/compat.h"
#include "core/ctl.h"
#include "core/tp.h"
#include "core/inject.h"
#include "taskdef.h"
#include "taskring.h"
#include "tasktab.h"
#include "taskload.h"
#include "taskprobe.h"

/*
 * A sample or a system call of the current thread, written in place in
 * this CPU's ring (taskring.c: no lock, no copy; its key and time are
 * set there); the writer is woken when the ring fills up.  The caller
 * has preemption off.
 */
static void probe_push(struct meas_task *m, u16 type, u64 a, u64 b,
		       u32 flags)
{
	struct meas_task_ev *e;
	unsigned long irq;

	e = meas_taskring_begin(&m->ring, &irq);
	if (e) {
		e->type = type;
		e->prot = 0;
		e->tid = task_pid_nr(current);
		e->a = a;
		e->b = b;
		e->c = 0;
		e->gen = READ_ONCE(m->gen);
		e->flags = flags;
		e->file = NULL;
		e->name = NULL;
		meas_taskring_commit(&m->ring, e, irq);
	}
	if (meas_taskring_half_full(&m->ring) &&
	    !test_and_set_bit(MEAS_TASK_KICKED, &m->bits))
		queue_work(meas_tasktab_wq, &m->drain);
}

/* ---- the CPU clock: PC samples -------------------------------------- */

static void probe_overflow(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	struct meas_task *m = event->overflow_handler_context;

	/* openSM2 records only the samples of the user state (TU). */
	if (!user_mode(regs)) {
		atomic64_inc(&m->ksamples);
		return;
	}
	if (test_bit(MEAS_TASK_DENIED, &m->bits))
		return;
	probe_push(m, MEAS_TREC_SAMPLE, instruction_pointer(regs), 0, 0);
}

static struct perf_event *probe_event(struct meas_task *m,
				      struct task_struct *t)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr),
		/* without sampling, the clock still gives the CPU time */
		.sample_period = (u64)m->pcounter_ms * NSEC_PER_MSEC,
		.inherit = 1,
		.inherit_thread = 1,
	};

	return perf_event_create_kernel_counter(&attr, -1, t, probe_overflow,
						m);
}

/**
 * meas_taskprobe_events() - a CPU clock for each thread of the process
 * @m: the measurement
 * @leader: the process
 *
 * Threads created later inherit the clock of the thread that creates
 * them; a thread that exits meanwhile is skipped.
 *
 * Return: 0, -ENOMEM, or the error of perf_event_create_kernel_counter().
 */
int meas_taskprobe_events(struct meas_task *m, struct task_struct *leader)
{
	struct task_struct **threads, *t;
	unsigned int i, n = 0, cap = 0;
	struct perf_event *ev;
	int err = 0;

	rcu_read_lock();
	for_each_thread(leader, t)
		cap++;
	rcu_read_unlock();
	threads = kcalloc(cap, sizeof(*threads), GFP_KERNEL);
	m->events = kcalloc(cap, sizeof(*m->events), GFP_KERNEL);
	if (!threads || !m->events) {
		kfree(threads);
		return -ENOMEM;
	}
	rcu_read_lock();
	for_each_thread(leader, t)
		if (n < cap)
			threads[n++] = get_task_struct(t);
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		ev = err ? NULL : probe_event(m, threads[i]);
		if (IS_ERR(ev) && PTR_ERR(ev) != -ESRCH)
			err = PTR_ERR(ev);
		else if (!IS_ERR_OR_NULL(ev))
			m->events[m->nevents++] = ev;
		put_task_struct(threads[i]);
	}
	kfree(threads);
	return err;
}

/**
 * meas_taskprobe_release_events() - stop the CPU clocks
 * @m: the measurement
 *
 * Return: the CPU time they counted, inherited threads included.
 */
u64 meas_taskprobe_release_events(struct meas_task *m)
{
	u64 total = 0, enabled, running;
	unsigned int i;

	for (i = 0; i < m->nevents; i++) {
		total += perf_event_read_value(m->events[i], &enabled,
					       &running);
		perf_event_release_kernel(m->events[i]);
	}
	kfree(m->events);
	m->events = NULL;
	m->nevents = 0;
	return total;
}

/* ---- task_work callbacks -------------------------------------------- */

/*
 * A callback's last step: its reference, which may be the measurement's
 * last and give the module back (meas_tasktab_put()); the module's exit
 * then waits for this task to leave the module's code.
 */
static void cb_done(struct meas_task *m)
{
	meas_tasktab_put(m);
	meas_inject_task_cb(1);
}

/* Queue @fn to run in current before it returns to user mode. */
static bool cb_queue(struct meas_task *m, struct callback_head *head,
		     task_work_func_t fn)
{
	meas_tasktab_get(m);
	init_task_work(head, fn);
	if (!task_work_add(current, head, TWA_RESUME))
		return true;
	cb_done(m);	/* exiting: the end records the mappings */
	return false;
}

/* A free meas_task.map_cb, or NULL: lock-free, for the probes. */
static struct meas_task_cb *cb_claim(struct meas_task *m)
{
	unsigned int i;

	for_each_clear_bit(i, m->map_cb_used, MEAS_TASK_MAP_CBS)
		if (!test_and_set_bit(i, m->map_cb_used)) {
			m->map_cb[i].m = m;
			return &m->map_cb[i];
		}
	return NULL;
}

static void cb_release(struct meas_task_cb *cb)
{
	clear_bit(cb - cb->m->map_cb, cb->m->map_cb_used);
}

static void cb_mappings(struct callback_head *head)
{
	struct meas_task_cb *cb = container_of(head, struct meas_task_cb, head);
	struct meas_task *m = cb->m;

	meas_inject_task_cb(0);
	/* killable: the end may hold vmlock while the file does not answer */
	if (!mutex_lock_killable(&m->vmlock)) {
		if (!m->closed && current->mm && current->mm == m->mm)
			meas_taskload_changed(m, current->mm);
		mutex_unlock(&m->vmlock);
	}
	cb_release(cb);
	cb_done(m);	/* may free m: last */
}

/* The program changed: the old one's mappings, then the new one's. */
static void exec_switch(struct meas_task *m)
{
	u32 gen = READ_ONCE(m->gen);
	struct meas_task_ev e = {
		.type = MEAS_TREC_EXEC, .tid = task_pid_nr(current),
		.time = local_clock(), .gen = gen,
	};

	meas_tasktab_put_wait(m, &e);
	meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_EXEC_END, gen - 1,
			       false);
	mmput(m->mm);
	mmget(current->mm);
	m->mm = current->mm;
	meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_EXEC, gen, false);
}

static void cb_exec(struct callback_head *head)
{
	struct meas_task *m = container_of(head, struct meas_task, exec_cb);

	clear_bit(MEAS_TASK_EXEC_CB, &m->bits);
	if (mutex_lock_killable(&m->vmlock)) {
		/* killed while the end writes: the process goes anyway */
		cb_done(m);
		return;
	}
	if (!m->closed && current->mm) {
		if (meas_tasktab_may_see_exec(m, current)) {
			exec_switch(m);
		} else {
			/* a set-user-ID program: record none of it */
			set_bit(MEAS_TASK_DENIED, &m->bits);
			meas_tasktab_end_async(m, MEAS_TASK_END_DENIED);
		}
	}
	mutex_unlock(&m->vmlock);
	cb_done(m);
}

/* ---- tracepoint probes ---------------------------------------------- */

static struct meas_task *probe_find(void)
{
	struct meas_task *m = meas_tasktab_find(current);

	return m && !test_bit(MEAS_TASK_DENIED, &m->bits) ? m : NULL;
}

/*
 * Every system call of every task while one measurement has SVC
 * statistics.  An RCU-sched read section instead of rcu_read_lock():
 * synchronize_rcu() waits for both (task.c frees after it), and it costs
 * two inline instructions where rcu_read_lock() and its unlock are calls
 * of 14 in a preemptible kernel.
 */
static void probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct meas_task *m;

	rcu_read_lock_sched_notrace();
	m = probe_find();
	if (m && (m->flags & MEAS_TASK_SVC))
		probe_push(m, MEAS_TREC_SVC, instruction_pointer(regs), id,
			   in_compat_syscall() ? MEAS_TREC_COMPAT : 0);
	rcu_read_unlock_sched_notrace();
}

MEAS_TP_PROTO(sys_enter, probe_sys_enter);

/* The native system calls that can map or unmap code. */
static bool vm_syscall(long nr)
{
	switch (nr) {
#ifdef __NR_mmap
	case __NR_mmap:
#endif
#ifdef __NR_mmap2
	case __NR_mmap2:
#endif
	case __NR_munmap:
	case __NR_mprotect:
	case __NR_mremap:
	case __NR_remap_file_pages:
	case __NR_pkey_mprotect:
#ifdef __NR_shmat
	case __NR_shmat:
	case __NR_shmdt:
#endif
		return true;
	}
	return false;
}

static void probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct meas_task_cb *cb;
	struct meas_task *m;

	if (IS_ERR_VALUE(ret) || in_compat_syscall() ||
	    !vm_syscall(syscall_get_nr(current, regs)))
		return;
	rcu_read_lock();
	m = probe_find();
	if (m && m->load_info == MEAS_TASK_LOAD_DETAILED) {
		cb = cb_claim(m);
		if (cb) {
			if (!cb_queue(m, &cb->head, cb_mappings))
				cb_release(cb);
		} else {
			/* the next change or the end will show it */
			atomic64_inc(&m->objects_dropped);
		}
	}
	rcu_read_unlock();
}

MEAS_TP_PROTO(sys_exit, probe_sys_exit);

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	struct meas_task *m;

	rcu_read_lock();
	m = meas_tasktab_find(p);
	/* exec_cb runs before the new program: one exec at a time */
	if (m && !test_and_set_bit(MEAS_TASK_EXEC_CB, &m->bits)) {
		WRITE_ONCE(m->gen, m->gen + 1);
		if (!cb_queue(m, &m->exec_cb, cb_exec))
			clear_bit(MEAS_TASK_EXEC_CB, &m->bits);
	}
	rcu_read_unlock();
}

MEAS_TP_PROTO(sched_process_exec, probe_exec);

static void probe_exit(void *data, struct task_struct *p)
{
	struct meas_task *m;

	if (atomic_read(&p->signal->live))
		return;		/* not the process's last thread */
	rcu_read_lock();
	m = meas_tasktab_find(p);
	if (m && !test_and_set_bit(MEAS_TASK_EXITING, &m->bits))
		meas_tasktab_end_async(m, MEAS_TASK_END_EXIT);
	rcu_read_unlock();
}

MEAS_EXIT_PROBE(probe_exit_tp, probe_exit)
MEAS_TP_PROTO(sched_process_exit, probe_exit_tp);

/* ---- registration ---------------------------------------------------- */

enum { TP_EXEC, TP_EXIT, TP_ENTER, TP_SYSEXIT, TP_N };

static struct meas_tp task_tps[TP_N] = {
	[TP_EXEC] = MEAS_TP(sched_process_exec, probe_exec, true),
	[TP_EXIT] = MEAS_TP(sched_process_exit, probe_exit_tp, true),
	[TP_ENTER] = MEAS_TP(sys_enter, probe_sys_enter, true),
	[TP_SYSEXIT] = MEAS_TP(sys_exit, probe_sys_exit, true),
};

/* Measurements needing each tracepoint; under the caller's task mutex. */
static unsigned int tp_users[TP_N];

static bool tp_needed(struct meas_task *m, int tp)
{
	if (tp == TP_ENTER)
		return m->flags & MEAS_TASK_SVC;
	if (tp == TP_SYSEXIT)
		return m->load_info == MEAS_TASK_LOAD_DETAILED;
	return true;
}

static void tp_drop(struct meas_task *m, int n)
{
	int tp;

	for (tp = 0; tp < n; tp++)
		if (tp_needed(m, tp) && !--tp_users[tp])
			meas_tp_unregister(&task_tps[tp], 1, NULL);
}

/**
 * meas_taskprobe_get() - register the tracepoints @m needs
 * @m: the measurement
 *
 * Called under the task mutex.  Return: 0 or an errno.
 */
int meas_taskprobe_get(struct meas_task *m)
{
	int tp, err = 0;

	mutex_lock(&meas_sir);	/* meas_tp_probes */
	for (tp = 0; tp < TP_N && !err; tp++) {
		if (!tp_needed(m, tp) || tp_users[tp]++)
			continue;
		err = meas_tp_register(&task_tps[tp], 1, NULL);
		if (err)
			tp_users[tp]--;
	}
	if (err)
		tp_drop(m, tp - 1);
	mutex_unlock(&meas_sir);
	return err;
}

/*
 * Unregister what only @m needed; the caller synchronises before it
 * frees what the probes touch.
 */
void meas_taskprobe_put(struct meas_task *m)
{
	mutex_lock(&meas_sir);
	tp_drop(m, TP_N);
	mutex_unlock(&meas_sir);
}

void meas_taskprobe_init(void)
{
	meas_tp_bind(task_tps, TP_N);
}

/*
 * Module exit.  Every callback has run (each holds a reference on its
 * measurement, and each measurement the module: task.c), but the one
 * that gave the module back may still be returning through its code, in
 * a task preempted there: RCU Tasks waits for every such task to switch
 * voluntarily or return to user mode, as for the kernel's trampolines.
 * The kernel's own header falls back to synchronize_rcu() where it has
 * no RCU Tasks (no preemption: no task can stop in that code).
 */
void meas_taskprobe_exit(void)
{
	synchronize_rcu_tasks();
}
