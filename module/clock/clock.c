// SPDX-License-Identifier: GPL-2.0
/*
 * The shared clock: GETCLOCK and GIVECLOCK of MPE IV on hrtimers.
 *
 * Ownership (under clock_lock), as MPE IV's:
 *
 *   FREE --GETCLOCK(0, collector)------------> OWNED   (nothing ticks)
 *   FREE --GETCLOCK(ms, collector)-----------> TICKING
 *   OWNED --GETCLOCK(ms, 0) by the owner-----> TICKING
 *   TICKING --GIVECLOCK(0) by the owner------> OWNED   (buffer kept)
 *   OWNED, TICKING --GIVECLOCK(collector), or the owner's file
 *                    released (MORGUE)-------> FREE
 *
 * The owner is an open file of /dev/meas; taking the clock readies the
 * collector (MPE IV locked its code segment), allocates the buffer (its
 * data segments) and makes the descriptor that reads it (its CST entry).
 * The checks and their order are clockrule.c's.
 *
 * Ticking: one pinned, hard-interrupt hrtimer per online CPU, armed on
 * the CPU itself.  What the tick reads (clock_run) changes only while no
 * timer is armed, and arming, disarming and CPU hotplug exclude each
 * other through the CPU hotplug lock: the callbacks of CPUHP_AP_ONLINE_DYN
 * run under it for write, on the CPU coming up or going down, and arm or
 * cancel that CPU's timer; GETCLOCK and GIVECLOCK hold it for read.
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/meas.h>
#include "core/compat.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "clock.h"
#include "logic/clockrule.h"
#include "core/inject.h"

/*
 * The collectors, by MEAS_COLLECTOR_*, as meas_clock_init() was given
 * them: the table is made above the areas (collectors.c), since one
 * collector reads class 0.  @clock_known has the bit of each.
 */
static const struct meas_collector *const *clock_collectors;
static u32 clock_known;

struct clock_cpu {
	struct hrtimer timer;
};

static DEFINE_PER_CPU(struct clock_cpu, clock_cpus);

/*
 * What the tick and the hotplug callbacks read.  @coll, @buf and @period
 * are set while no timer is armed; @ticking changes under the hotplug
 * lock.
 */
static struct {
	const struct meas_collector *coll;
	struct meas_clockbuf *buf;
	ktime_t period;
	bool ticking;
} clock_run;

/* CPUs whose timer is armed; the snapshot collector's leader is first. */
static struct cpumask clock_armed;

/* Serialises GETCLOCK, GIVECLOCK, CLOCKINFO and the owner's release. */
static DEFINE_MUTEX(clock_lock);

/* The owner's state, under clock_lock; @owner is also read without it. */
static struct {
	struct file *owner;
	struct pid *pid;
	const struct meas_collector *coll;
	struct meas_clockbuf *buf;
	struct meas_intrate rate;
	bool ticking;
} clock;

static int clock_hp_state;

/**
 * meas_clock_leader() - the CPU that takes system-wide records
 *
 * Return: the lowest-numbered CPU whose timer is armed (nr_cpu_ids if
 * none).
 */
unsigned int meas_clock_leader(void)
{
	return cpumask_first(&clock_armed);
}

/* ---- ticking ---- */

static enum hrtimer_restart clock_tick(struct hrtimer *timer)
{
	unsigned int cpu = smp_processor_id();
	u64 missed = hrtimer_forward_now(timer, clock_run.period) - 1;

	meas_clockbuf_tick(clock_run.buf, cpu, missed);
	clock_run.coll->tick(clock_run.buf, cpu, missed);
	return HRTIMER_RESTART;
}

/*
 * On @cpu itself: pinned timers stay on the CPU that arms them.  Its bit
 * first, so that no tick sees a leader that a CPU about to tick outranks.
 */
static void clock_arm_cpu(unsigned int cpu)
{
	cpumask_set_cpu(cpu, &clock_armed);
	hrtimer_start(&per_cpu(clock_cpus, cpu).timer, clock_run.period,
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void clock_arm_ipi(void *unused)
{
	clock_arm_cpu(smp_processor_id());
}

/* From any CPU: hrtimer_cancel() waits for a tick running elsewhere. */
static void clock_disarm_cpu(unsigned int cpu)
{
	cpumask_clear_cpu(cpu, &clock_armed);
	hrtimer_cancel(&per_cpu(clock_cpus, cpu).timer);
}

static int clock_cpu_online(unsigned int cpu)
{
	if (clock_run.ticking)
		clock_arm_cpu(cpu);
	return 0;
}

static int clock_cpu_offline(unsigned int cpu)
{
	clock_disarm_cpu(cpu);
	return 0;
}

static void clock_start(const struct meas_intrate *rate)
{
	clock_run.coll = clock.coll;
	clock_run.buf = clock.buf;
	clock_run.period = ms_to_ktime(rate->granted);
	meas_clockbuf_set_state(clock.buf, MEAS_CLOCK_TICKING, rate->granted);
	cpus_read_lock();
	WRITE_ONCE(clock_run.ticking, true);
	/*
	 * The leader is known before any timer runs: on_each_cpu() arms the
	 * calling CPU while the others' IPIs may still wait, and a tick of
	 * CPU 1 before CPU 0 is armed would take the system-wide record.
	 */
	cpumask_copy(&clock_armed, cpu_online_mask);
	on_each_cpu(clock_arm_ipi, NULL, 1);
	cpus_read_unlock();
	clock.rate = *rate;
	clock.ticking = true;
}

static void clock_stop(void)
{
	unsigned int cpu;

	cpus_read_lock();
	WRITE_ONCE(clock_run.ticking, false);
	for_each_online_cpu(cpu)
		clock_disarm_cpu(cpu);
	cpus_read_unlock();
	/* No tick runs now; a wake-up one queued may still be pending. */
	meas_clockbuf_quiesce(clock.buf);
	meas_clockbuf_set_state(clock.buf, MEAS_CLOCK_OWNED, 0);
	clock.ticking = false;
}

/* ---- ownership, under clock_lock ---- */

static struct meas_clock_view clock_view(struct file *file)
{
	return (struct meas_clock_view){
		.owned = clock.owner,
		.mine = clock.owner == file,
		.ticking = clock.ticking,
		.collector = clock.coll ? clock.coll->id : 0,
	};
}

static int clock_prepare(const struct meas_collector *coll, int *err)
{
	int rc = MEAS_GETCLOCK_OK;

	if (meas_inject_clock(MEAS_GETCLOCK_NOCODE))
		rc = MEAS_GETCLOCK_NOCODE;
	else if (coll->prepare)
		rc = coll->prepare();
	*err = meas_rc_errno(MEAS_RC_GETCLOCK, MEAS_GETCLOCK_NOCODE);
	return rc;
}

/* MPE IV's order: code segment (5), data segments (6), CST entry (8). */
static int clock_take(struct file *file, struct meas_getclock *k,
		      struct file **bfile, int *err)
{
	const struct meas_collector *coll = clock_collectors[k->collector];
	struct meas_clockbuf *buf;
	struct file *f;
	int rc, fd;

	rc = clock_prepare(coll, err);
	if (rc)
		return rc;
	rc = meas_clockbuf_create(coll, k->records, k->wakeup, &buf, err);
	if (rc)
		goto unprepare;
	rc = MEAS_GETCLOCK_NOENTRY;
	fd = meas_inject_clock(MEAS_GETCLOCK_NOENTRY) ? -ENOMEM :
		get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		*err = fd;
		goto put_buf;
	}
	f = meas_clockbuf_file(buf);
	if (IS_ERR(f)) {
		*err = PTR_ERR(f);
		goto put_fd;
	}
	clock.pid = get_pid(task_tgid(current));
	clock.coll = coll;
	clock.buf = buf;
	WRITE_ONCE(clock.owner, file);
	k->fd = fd;
	*bfile = f;
	return MEAS_GETCLOCK_OK;

put_fd:
	put_unused_fd(fd);
put_buf:
	meas_clockbuf_put(buf);
unprepare:
	if (coll->unprepare)
		coll->unprepare();
	return rc;
}

/* GIVECLOCK(collector), or MORGUE: everything goes, readers see the end. */
static void clock_release_locked(void)
{
	const struct meas_collector *coll = clock.coll;
	struct meas_clockbuf *buf = clock.buf;

	if (clock.ticking)
		clock_stop();
	meas_clockbuf_set_state(buf, MEAS_CLOCK_RELEASED, 0);
	if (coll->unprepare)
		coll->unprepare();
	meas_clockbuf_put(buf);
	put_pid(clock.pid);
	clock.pid = NULL;
	clock.coll = NULL;
	clock.buf = NULL;
	WRITE_ONCE(clock.owner, NULL);
}

static int clock_get_locked(struct file *file, struct meas_getclock *k,
			    unsigned int *todo, struct file **bfile, int *err)
{
	struct meas_clock_view v = clock_view(file);
	struct meas_intrate rate;
	int rc;

	rc = meas_clock_rule_get(&v, k->intrate, k->collector, clock_known,
				 &rate, todo);
	*err = meas_rc_errno(MEAS_RC_GETCLOCK, rc);
	if (rc)
		return rc;
	if (*todo & MEAS_CLOCK_DO_TAKE) {
		rc = clock_take(file, k, bfile, err);
		if (rc) {
			*todo = 0;
			return rc;
		}
	}
	if (*todo & MEAS_CLOCK_DO_TICK) {
		clock_start(&rate);
		k->intrate = rate.granted;
		k->base_ms = rate.base;
		k->quotient = rate.quotient;
	}
	*err = 0;
	return MEAS_GETCLOCK_OK;
}

/*
 * Tell the caller, still under clock_lock; if the struct cannot be
 * written back, undo the call, so that a caller who cannot learn of it
 * finds nothing changed (and no descriptor it does not know of).
 */
static long clock_answer(void __user *u, struct meas_getclock *k, u32 usize,
			 unsigned int todo, struct file *bfile)
{
	long ret = meas_uarg_copy_out(u, k, sizeof(*k), usize, 0);

	if (!ret) {
		if (bfile)
			fd_install(k->fd, bfile);
		return 0;
	}
	if (todo & MEAS_CLOCK_DO_TAKE) {
		put_unused_fd(k->fd);
		fput(bfile);
		clock_release_locked();
	} else if (todo & MEAS_CLOCK_DO_TICK) {
		clock_stop();
	}
	return ret;
}

static long clock_getclock(struct file *file, void __user *u)
{
	struct file *bfile = NULL;
	struct meas_getclock k;
	unsigned int todo;
	long usize, ret;
	int err;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_GETCLOCK_SIZE_VER0, u, &k.flags,
			       0, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (!k.collector && (k.records || k.wakeup))
		return -EINVAL;
	if (!perfmon_capable())
		return -EPERM;
	k.fd = -1;
	k.base_ms = 0;
	k.quotient = 0;
	if (mutex_lock_killable(&clock_lock))
		return -EINTR;
	k.result = clock_get_locked(file, &k, &todo, &bfile, &err);
	if (k.result == MEAS_GETCLOCK_OK) {
		ret = clock_answer(u, &k, usize, todo, bfile);
		mutex_unlock(&clock_lock);
		return ret;
	}
	mutex_unlock(&clock_lock);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, err);
}

static long clock_giveclock(struct file *file, void __user *u)
{
	struct meas_giveclock k;
	struct meas_clock_view v;
	unsigned int todo;
	long usize;

	usize = meas_uarg_read(&k, sizeof(k), MEAS_GIVECLOCK_SIZE_VER0, u, &k.flags,
			       0, k.reserved, sizeof(k.reserved));
	if (usize < 0)
		return usize;
	if (!perfmon_capable())
		return -EPERM;
	if (mutex_lock_killable(&clock_lock))
		return -EINTR;
	v = clock_view(file);
	k.result = meas_clock_rule_give(&v, k.collector, &todo);
	if (todo & MEAS_CLOCK_DO_PAUSE)
		clock_stop();
	if (todo & MEAS_CLOCK_DO_RELEASE)
		clock_release_locked();
	mutex_unlock(&clock_lock);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize,
				  meas_rc_errno(MEAS_RC_GIVECLOCK, k.result));
}

static long clock_getinfo(struct file *file, void __user *u)
{
	struct meas_clockinfo k;
	long usize;

	usize = meas_uarg_read_outonly(&k, sizeof(k), MEAS_CLOCKINFO_SIZE_VER0,
				       u);
	if (usize < 0)
		return usize;
	if (mutex_lock_killable(&clock_lock))
		return -EINTR;
	if (clock.owner) {
		k.state = clock.ticking ? MEAS_CLOCK_TICKING : MEAS_CLOCK_OWNED;
		k.mine = clock.owner == file;
		k.collector = clock.coll->id;
		k.intrate = clock.ticking ? clock.rate.granted : 0;
		k.owner_pid = pid_vnr(clock.pid);
		k.records = meas_clockbuf_records(clock.buf);
		meas_clockbuf_totals(clock.buf, &k.ticks, &k.missed,
				     &k.written);
	}
	k.cpus = cpumask_weight(&clock_armed);
	mutex_unlock(&clock_lock);
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, 0);
}

/**
 * meas_clock_ioctl() - MEAS_IOC_GETCLOCK, _GIVECLOCK and _CLOCKINFO
 * @file: the open file of /dev/meas
 * @cmd: the ioctl
 * @u: its argument
 *
 * Return: 0 or an errno (Documentation/clock.rst).
 */
long meas_clock_ioctl(struct file *file, unsigned int cmd, void __user *u)
{
	switch (cmd) {
	case MEAS_IOC_GETCLOCK:
		return clock_getclock(file, u);
	case MEAS_IOC_GIVECLOCK:
		return clock_giveclock(file, u);
	case MEAS_IOC_CLOCKINFO:
		return clock_getinfo(file, u);
	default:
		return -ENOTTY;
	}
}

/**
 * meas_clock_release() - an open file of /dev/meas goes: MORGUE
 * @file: the file; if it owns the clock, the clock is given up
 *
 * Only an ioctl on @file makes it the owner, and none runs any more, so
 * the test without the lock is exact and other files never wait here.
 */
void meas_clock_release(struct file *file)
{
	if (READ_ONCE(clock.owner) != file)
		return;
	mutex_lock(&clock_lock);
	if (clock.owner == file)
		clock_release_locked();
	mutex_unlock(&clock_lock);
}

/**
 * meas_clock_init() - the collectors, the timers of every CPU and the
 *	hotplug callbacks
 * @colls: MEAS_CLOCK_COLLECTORS collectors, by MEAS_COLLECTOR_*; NULL
 *	where an id has none
 *
 * Return: 0 or the error of cpuhp_setup_state_nocalls().
 */
int meas_clock_init(const struct meas_collector *const *colls)
{
	unsigned int cpu;
	int state;
	u32 id;

	clock_collectors = colls;
	for (id = 1; id < MEAS_CLOCK_COLLECTORS; id++)
		if (colls[id])
			clock_known |= BIT(id);
	for_each_possible_cpu(cpu) {
		struct hrtimer *t = &per_cpu(clock_cpus, cpu).timer;

		meas_hrtimer_setup(t, clock_tick, CLOCK_MONOTONIC,
				   HRTIMER_MODE_REL_PINNED_HARD);
	}
	state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					  "meas/clock:online",
					  clock_cpu_online, clock_cpu_offline);
	if (state < 0)
		return state;
	clock_hp_state = state;
	return 0;
}

/**
 * meas_clock_exit() - undo meas_clock_init()
 *
 * Every file is closed by now, so the clock is free; the timers are
 * cancelled all the same, by the offline callbacks and then one by one.
 */
void meas_clock_exit(void)
{
	unsigned int cpu;

	cpuhp_remove_state(clock_hp_state);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(clock_cpus, cpu).timer);
}
