// SPDX-License-Identifier: GPL-2.0
/*
 * Class 0, subclass 0: the fixed counters, from the scheduler, lock and
 * timer tracepoints.  Documentation/class0.rst maps every item.
 *
 * The hot path is per-CPU: each CPU counts into its own slot with
 * this_cpu operations, without locks, shared atomics or allocation.  The
 * time items and the state of the running segment (a run of busy or of
 * idle time: since when, idle or not) are written only by their CPU,
 * with interrupts off, under a per-CPU sequence count so that a reader
 * folding them on another CPU sees a consistent triple.
 */
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/hrtimer.h>
#include <linux/tracepoint.h>
#include <linux/smp.h>
#include <linux/cpuhotplug.h>
#include <linux/string.h>
#include <linux/meas.h>
#include <trace/events/sched.h>
#include <trace/events/timer.h>
#include "core/class.h"
#include "core/xds.h"
#include "core/tp.h"
#include "core/stop.h"
#include "core/compat.h"
#include "core/seen.h"
#include "core/taskflags.h"
#include "core/inject.h"
/* the one include across areas: the hook calls class 15's part directly */
#include "proc/proc.h"
#include "sched.h"

struct sched_cpu {
	u64 item[MEAS_C0_FIXED_ITEMS];
	u64 busy_stop[MEAS_STOP_NR];	/* task-to-task switches, by stop */
	seqcount_t seq;		/* guards the fields below and time items */
	u64 since;		/* start of the running segment */
	u64 seen;		/* a reader showed it up to here */
	bool valid;		/* segment state known */
	bool idle;		/* the idle task runs */
	bool disc;		/* idle right after an iowait stop */
};

static struct sched_cpu __percpu *sched_cpus;
static int sched_hp_state;

static bool sched_is_time_item(unsigned int i)
{
	return i == MEAS_C0_TIME_IDLE || i == MEAS_C0_TIME_DISC ||
	       i == MEAS_C0_TIME_CPU;
}

/* The class 0 item of each stop reason (logic/stop.h) */
static const u8 sched_stop_item[MEAS_STOP_NR] = {
	[MEAS_STOP_PREEMPTED]		= MEAS_C0_PREEMPTIONS,
	[MEAS_STOP_EXITED]		= MEAS_C0_STOP_EXIT,
	[MEAS_STOP_JOBCTL]		= MEAS_C0_STOP_JOBCTL,
	[MEAS_STOP_DISC_BLOCKED]	= MEAS_C0_STOP_DISC_BLOCKED,
	[MEAS_STOP_BLOCKED]		= MEAS_C0_STOP_MISC_BLOCKED,
	[MEAS_STOP_DISC_UNBLOCKED]	= MEAS_C0_STOP_DISC_UNBLOCKED,
	[MEAS_STOP_IMPEDED]		= MEAS_C0_STOP_IMPEDE,
};

/*
 * The stop reason of every MEAS_SW_* combination (logic/stop.h): a table
 * made once from meas_stop_classify(), so that the switch that needs
 * nothing else looks the reason up instead of testing its way to it.
 */
static u8 sched_stop_of_sw[MEAS_SW_ALL + 1];

static void sched_stop_table(void)
{
	unsigned int sw;

	for (sw = 0; sw <= MEAS_SW_ALL; sw++)
		sched_stop_of_sw[sw] = meas_stop_classify(sw);
}

/* Close the running segment at @now; called with interrupts off. */
static void sched_close_segment(struct sched_cpu *sc, u64 now)
{
	u64 d = now > sc->since ? now - sc->since : 0;

	if (sc->idle) {
		sc->item[MEAS_C0_TIME_IDLE] += d;
		if (sc->disc)
			sc->item[MEAS_C0_TIME_DISC] += d;
	} else {
		sc->item[MEAS_C0_TIME_CPU] += d;
	}
	sc->since = now;
}

/*
 * Whether this switch ends a run of busy or of idle time on this CPU
 * (or starts the first since class 0 or the CPU came up).  The time
 * items are kept by runs, not by switch: a switch from one task to
 * another ends neither, and class 0 reads no clock for it.
 */
static bool c0_run_ends(struct task_struct *next)
{
	struct sched_cpu *sc = this_cpu_ptr(sched_cpus);

	return !sc->valid || sc->idle != meas_taskflags_idle(next);
}

/* End this CPU's run at @now and start the next; interrupts are off. */
static void c0_new_run(struct sched_cpu *sc, struct task_struct *prev,
		       bool to_idle, u64 now)
{
	raw_write_seqcount_begin(&sc->seq);
	now = meas_seen_end(&sc->seen, now);
	if (sc->valid)
		sched_close_segment(sc, now);
	sc->since = now;
	sc->valid = true;
	sc->idle = to_idle;
	sc->disc = to_idle && prev->in_iowait;
	raw_write_seqcount_end(&sc->seq);
}

/*
 * Class 0's part of a context switch (the hook, below); @stop is why a
 * non-idle @prev leaves; @now is the clock if c0_run_ends(), or if class
 * 15 read it.  A switch from a task to a task in a busy run counts once,
 * by its stop: its launch and its stop both follow from that count when
 * class 0 is read (meas_sched_sum()).
 *
 * The counts are this_cpu_inc(), though interrupts are off: the folds
 * read the words meanwhile, and where the architecture has no per-CPU
 * add of its own (arm64) __this_cpu_inc() is a plain load and store,
 * a data race with their READ_ONCE(); on x86 both are one "inc".
 */
static void c0_switch(enum meas_stop stop, struct task_struct *prev,
		      struct task_struct *next, u64 now)
{
	struct sched_cpu *sc = this_cpu_ptr(sched_cpus);
	bool to_idle = meas_taskflags_idle(next);

	if (c0_run_ends(next))
		c0_new_run(sc, prev, to_idle, now);

	if (!meas_taskflags_idle(prev) && !to_idle) {
		this_cpu_inc(sched_cpus->busy_stop[stop]);
		return;
	}
	if (!meas_taskflags_idle(prev))
		this_cpu_inc(sched_cpus->item[sched_stop_item[stop]]);
	if (!to_idle)
		this_cpu_inc(sched_cpus->item[MEAS_C0_LAUNCHES]);
	else if (sc->disc)
		this_cpu_inc(sched_cpus->item[MEAS_C0_PAUSE_DISC]);
	if (to_idle)
		this_cpu_inc(sched_cpus->item[MEAS_C0_PAUSE_IDLE]);
}

/* Class 0's part of a wakeup (the hook, below). */
static void c0_wakeup(void)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_WAKEUPS]);
}

static void probe_wakeup_new(void *data, struct task_struct *p)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_WAKEUPS_NEW]);
}

MEAS_TP_PROTO(sched_wakeup_new, probe_wakeup_new);

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_FORKS]);
}

MEAS_TP_PROTO(sched_process_fork, probe_fork);

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_EXECS]);
}

MEAS_TP_PROTO(sched_process_exec, probe_exec);

static void probe_exit(void *data, struct task_struct *p)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_EXITS]);
}

MEAS_EXIT_PROBE(probe_exit_tp, probe_exit)
MEAS_TP_PROTO(sched_process_exit, probe_exit_tp);

static void probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	this_cpu_inc(sched_cpus->item[MEAS_C0_MIGRATIONS]);
}

MEAS_TP_PROTO(sched_migrate_task, probe_migrate);

/* A sleeping lock's slow path: the MPE "busy SIR" stop. */
static void probe_contention(void *data, void *lock, unsigned int flags)
{
	if (!(flags & LCB_F_SPIN))
		this_cpu_inc(sched_cpus->item[MEAS_C0_STOP_BUSY_SIR]);
}

MEAS_TP_PROTO(contention_begin, probe_contention);

/* A sleeper's timer fires while its task still waits: a timed-out stop. */
static void hrtimer_expire(void *data, struct hrtimer *timer)
{
	if (meas_tp_sleeper_task(timer))
		this_cpu_inc(sched_cpus->item[MEAS_C0_STOP_TIMED_OUT]);
}

MEAS_HRTIMER_EXPIRE_PROBE(probe_hrtimer_expire, hrtimer_expire)
MEAS_TP_PROTO(hrtimer_expire_entry, probe_hrtimer_expire);

/*
 * The hook.  The scheduler events both class 0 and class 15 follow,
 * sched_switch and sched_wakeup, have one probe each, registered while
 * either class is enabled; it calls the part of each enabled class
 * (class 0's inline).  Two probes on one tracepoint cost the
 * tracepoint's iterator and an indirect call each (154 instructions a
 * ping-pong round trip with both classes, make bench-insn), and each
 * read the clock (90 instructions in the test VM): a switch now reads it
 * once for both, and for class 0 alone only where a run of busy or idle
 * time ends (c0_run_ends()).  Not the scheduler's own stamp (se.exec_start): on a
 * CPU just brought online it can be the run queue's clock from before
 * the CPU went down, and the offline time would count as busy or idle.
 *
 * What is enabled changes under meas_sir.  A class's part is published
 * once what it touches exists, and withdrawn before its detach waits for
 * the probes (tracepoint_synchronize_unregister()) and frees it; a probe
 * runs with preemption off, which that wait covers.
 */
static bool hook_c0;
static struct proc_tab *hook_tab;
static unsigned int hook_users;

/*
 * Class 0 alone, the usual switch: a task to a task in a busy run.  No
 * clock, one counter, and a frame of its own, small, apart from the path
 * of both classes.
 */
static __always_inline bool c0_switch_busy(bool preempt,
					   struct task_struct *prev,
					   struct task_struct *next,
					   unsigned int prev_state)
{
	struct sched_cpu *sc = this_cpu_ptr(sched_cpus);
	unsigned int sw;

	if (unlikely(!sc->valid || sc->idle || meas_taskflags_idle(prev) ||
		     meas_taskflags_idle(next)))
		return false;
	sw = meas_stop_switch_flags(preempt, prev, prev_state);
	/* not __this_cpu_inc(): c0_switch() says why */
	this_cpu_inc(sched_cpus->busy_stop[sched_stop_of_sw[sw]]);
	return true;
}

static noinline void hook_switch_all(struct proc_tab *tab, bool c0,
				     bool preempt, struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	unsigned int sw = meas_stop_switch_flags(preempt, prev, prev_state);
	/* why prev leaves, for both classes (an idle prev has no reason) */
	enum meas_stop stop = sched_stop_of_sw[sw];
	u64 now = 0;

	/* class 15 times every switch, class 0 only the ends of its runs */
	if (tab || (c0 && c0_run_ends(next)))
		now = local_clock();
	if (c0)
		c0_switch(stop, prev, next, now);
	if (tab)
		meas_proc_switch(tab, stop, prev, next, prev_state, now);
}

static void hook_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
	/* pairs with the attach's release: what the part touches exists */
	struct proc_tab *tab = smp_load_acquire(&hook_tab);
	/* pairs with meas_hook_attach_c0(): sched_cpus is set */
	bool c0 = smp_load_acquire(&hook_c0);

	if (!tab && c0 && c0_switch_busy(preempt, prev, next, prev_state))
		return;
	if (tab || c0)
		hook_switch_all(tab, c0, preempt, prev, next, prev_state);
}

MEAS_SWITCH_PROBE(hook_switch_tp, hook_switch)
MEAS_TP_PROTO(sched_switch, hook_switch_tp);

static void hook_wakeup(void *data, struct task_struct *p)
{
	/* pairs with the attach's release, as in hook_switch() */
	struct proc_tab *tab = smp_load_acquire(&hook_tab);

	/* the same for class 0 */
	if (smp_load_acquire(&hook_c0))
		c0_wakeup();
	if (tab)
		meas_proc_wakeup(tab, p);
}

MEAS_TP_PROTO(sched_wakeup, hook_wakeup);

static struct meas_tp hook_tps[] = {
	MEAS_TP(sched_switch, hook_switch_tp, true),
	MEAS_TP(sched_wakeup, hook_wakeup, true),
};

/* The first user registers the probes; under meas_sir. */
static int hook_get(void)
{
	int err;

	if (hook_users) {
		hook_users++;
		return 0;
	}
	err = meas_tp_register(hook_tps, ARRAY_SIZE(hook_tps), NULL);
	if (!err)
		hook_users = 1;
	return err;
}

/* The last user unregisters them; the caller waits before freeing. */
static void hook_put(void)
{
	if (!--hook_users)
		meas_tp_unregister(hook_tps, ARRAY_SIZE(hook_tps), NULL);
}

/**
 * meas_hook_attach_c0() - call class 0's part, its counters allocated
 *
 * Under meas_sir.  Return: 0 or the error of the registration.
 */
int meas_hook_attach_c0(void)
{
	int err = hook_get();

	if (err)
		return err;
	/* the counters before the flag: the probes acquire it */
	smp_store_release(&hook_c0, true);
	return 0;
}

/* Under meas_sir; tracepoint_synchronize_unregister() follows. */
void meas_hook_detach_c0(void)
{
	WRITE_ONCE(hook_c0, false);
	hook_put();
}

/**
 * meas_hook_attach_proc() - call class 15's part on @tab
 * @tab: the process table, complete
 *
 * Under meas_sir.  Return: 0 or the error of the registration.
 */
int meas_hook_attach_proc(struct proc_tab *tab)
{
	int err = hook_get();

	if (err)
		return err;
	/* the table before its pointer: the probes acquire it */
	smp_store_release(&hook_tab, tab);
	return 0;
}

/* Under meas_sir; tracepoint_synchronize_unregister() follows. */
void meas_hook_detach_proc(void)
{
	WRITE_ONCE(hook_tab, NULL);
	hook_put();
}

/* Bind the hook's tracepoints: 0, or -ENOENT if one is missing. */
static int hook_init(void)
{
	return meas_tp_bind(hook_tps, ARRAY_SIZE(hook_tps));
}

/* sched_switch and sched_wakeup: the hook, shared with class 15 */
static struct meas_tp sched_tps[] = {
	MEAS_TP(sched_wakeup_new, probe_wakeup_new, true),
	MEAS_TP(sched_process_fork, probe_fork, true),
	MEAS_TP(sched_process_exec, probe_exec, true),
	MEAS_TP(sched_process_exit, probe_exit_tp, true),
	MEAS_TP(sched_migrate_task, probe_migrate, false),
	MEAS_TP(contention_begin, probe_contention, false),
	MEAS_TP(hrtimer_expire_entry, probe_hrtimer_expire, false),
};

/* Runs on each CPU by IPI: the interrupted task tells the segment state. */
static void sched_init_cpu(void *unused)
{
	struct sched_cpu *sc = this_cpu_ptr(sched_cpus);

	if (sc->valid)
		return;
	raw_write_seqcount_begin(&sc->seq);
	sc->since = local_clock();
	sc->idle = meas_taskflags_idle(current);
	sc->valid = true;
	raw_write_seqcount_end(&sc->seq);
}

/*
 * Runs on a control CPU once @cpu is dead: close its last segment and
 * forget it, so that the time it spends offline is neither idle nor busy.
 * Its first switch after it comes back starts a new segment.
 */
static int sched_cpu_dead(unsigned int cpu)
{
	struct sched_cpu *sc = per_cpu_ptr(sched_cpus, cpu);
	unsigned long flags;

	/*
	 * Interrupts off, like every other writer: the shared clock's tick
	 * reads the count in hard interrupt context (meas_sched_sum()) and
	 * would spin for ever on a write it interrupted on this CPU.
	 */
	local_irq_save(flags);
	raw_write_seqcount_begin(&sc->seq);
	if (sc->valid)
		sched_close_segment(sc, meas_seen_end(&sc->seen, local_clock()));
	sc->valid = false;
	raw_write_seqcount_end(&sc->seq);
	local_irq_restore(flags);
	return 0;
}

/**
 * meas_sched_attach() - allocate the per-CPU counters, register probes
 * @cls: class 0, formatted
 *
 * Return: MEAS_START_OK, MEAS_START_NODST or MEAS_START_NOLOCK.
 */
int meas_sched_attach(struct meas_class *cls)
{
	int cpu;

	if (meas_inject_start(MEAS_START_NODST))
		return MEAS_START_NODST;
	sched_cpus = __alloc_percpu_gfp(sizeof(struct sched_cpu),
					__alignof__(struct sched_cpu),
					GFP_KERNEL | __GFP_NOWARN);
	if (!sched_cpus)
		return MEAS_START_NODST;
	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(sched_cpus, cpu)->seq);
	sched_hp_state = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
						   "meas/sched:dead", NULL,
						   sched_cpu_dead);
	if (sched_hp_state < 0)
		goto free_cpus;
	if (meas_tp_register(sched_tps, ARRAY_SIZE(sched_tps), NULL)) {
		tracepoint_synchronize_unregister();
		goto remove_hp_state;
	}
	if (meas_hook_attach_c0())
		goto unregister;
	on_each_cpu(sched_init_cpu, NULL, 1);
	return MEAS_START_OK;

unregister:
	meas_tp_unregister(sched_tps, ARRAY_SIZE(sched_tps), NULL);
	tracepoint_synchronize_unregister();
remove_hp_state:
	cpuhp_remove_state_nocalls(sched_hp_state);
free_cpus:
	free_percpu(sched_cpus);
	sched_cpus = NULL;
	return MEAS_START_NOLOCK;
}

/**
 * meas_sched_detach() - unregister probes, then free what they touch
 * @cls: class 0
 */
void meas_sched_detach(struct meas_class *cls)
{
	meas_hook_detach_c0();
	meas_tp_unregister(sched_tps, ARRAY_SIZE(sched_tps), NULL);
	tracepoint_synchronize_unregister();
	cpuhp_remove_state_nocalls(sched_hp_state);
	free_percpu(sched_cpus);
	sched_cpus = NULL;
}

/* Add one CPU's time items, with its running segment up to now. */
static void sched_fold_time(u64 *out, int cpu)
{
	struct sched_cpu *sc = per_cpu_ptr(sched_cpus, cpu);
	u64 idle, disc, busy, since, now, d;
	bool valid, in_idle, in_disc;
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&sc->seq);
		idle = sc->item[MEAS_C0_TIME_IDLE];
		disc = sc->item[MEAS_C0_TIME_DISC];
		busy = sc->item[MEAS_C0_TIME_CPU];
		since = sc->since;
		valid = sc->valid;
		in_idle = sc->idle;
		in_disc = sc->disc;
		now = cpu_clock(cpu);
		meas_seen_raise(&sc->seen, now);
	} while (read_seqcount_retry(&sc->seq, seq));

	if (valid && cpu_online(cpu)) {
		d = now > since ? now - since : 0;
		if (!in_idle)
			busy += d;
		else
			idle += d;
		if (in_idle && in_disc)
			disc += d;
	}
	out[MEAS_C0_TIME_IDLE] += idle;
	out[MEAS_C0_TIME_DISC] += disc;
	out[MEAS_C0_TIME_CPU] += busy;
}

/**
 * meas_sched_sum() - add up the per-CPU counters of subclass 0
 * @out: MEAS_C0_FIXED_ITEMS words, zeroed by the caller
 *
 * Takes no lock and may run in any context, hard interrupts included (the
 * shared clock's snapshot collector): counters are single words, and the
 * time items are read under each CPU's sequence count, whose writers run
 * with interrupts off.  Class 0 must be enabled.
 */
void meas_sched_sum(u64 *out)
{
	struct sched_cpu __percpu *cpus = READ_ONCE(sched_cpus);
	unsigned int i;
	int cpu;

	if (WARN_ON_ONCE(!cpus))
		return;
	out[MEAS_C0_CLOCK_START] = local_clock();
	for_each_possible_cpu(cpu) {
		struct sched_cpu *sc = per_cpu_ptr(cpus, cpu);

		for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++)
			if (!sched_is_time_item(i))
				out[i] += READ_ONCE(sc->item[i]);
		/* a task-to-task switch: a launch and a stop */
		for (i = 0; i < MEAS_STOP_NR; i++) {
			u64 n = READ_ONCE(sc->busy_stop[i]);

			out[sched_stop_item[i]] += n;
			out[MEAS_C0_LAUNCHES] += n;
		}
		sched_fold_time(out, cpu);
	}
	out[MEAS_C0_CLOCK_END] = local_clock();
}

/**
 * meas_sched_fold() - sum the per-CPU counters into the region
 * @cls: class 0, enabled; called with meas_sir held
 */
void meas_sched_fold(struct meas_class *cls)
{
	u64 *out = meas_xds_entry(cls, MEAS_CLASS_GLOBAL, MEAS_C0_SUB_FIXED, 1);

	if (WARN_ON_ONCE(!out))
		return;
	memset(out, 0, MEAS_C0_FIXED_ITEMS * sizeof(u64));
	meas_sched_sum(out);
}

/**
 * meas_sched_init() - bind the tracepoints
 *
 * Return: 0, or -ENOENT if a required tracepoint is missing.
 */
int meas_sched_init(void)
{
	sched_stop_table();
	return meas_tp_bind(sched_tps, ARRAY_SIZE(sched_tps)) ?:
	       hook_init();
}
