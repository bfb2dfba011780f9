// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (inject.h), built into the test build only
 * (module/Kbuild, MEAS_TEST=1): one module parameter per hook, each
 * consumed by the step it names.  Documentation/build-and-test.rst lists
 * them with the tests that use them.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include "inject.h"

static int fail_start;
module_param(fail_start, int, 0644);
MODULE_PARM_DESC(fail_start,
		 "Test build: make the next STARTSTATISTICS that formats a region fail with this code, 1..3");

static int fail_io;
module_param(fail_io, int, 0644);
MODULE_PARM_DESC(fail_io,
		 "Test build: make the next start of the disk or I/O trace unit fail with this code, 2..3");

static int fail_task;
module_param(fail_task, int, 0644);
MODULE_PARM_DESC(fail_task,
		 "Test build: make the next TASK_START fail at this step, 1 clock events, 2 memory");

static int clock_fail;
module_param(clock_fail, int, 0644);
MODULE_PARM_DESC(clock_fail,
		 "Test build: make the next GETCLOCK initialisation fail with this code, 5, 6 or 8");

static uint abi_version;
module_param(abi_version, uint, 0644);
MODULE_PARM_DESC(abi_version,
		 "Test build: report this ABI version in MEAS_IOC_INFO, as an older module would (0: the real one)");

/*
 * Take an injection: true if @param holds @code, which it gives up.  A
 * step may be asked from several CPUs at once (task starts): the exchange
 * lets exactly one of them fail.
 */
static bool inject_take(int *param, int code)
{
	return code && cmpxchg(param, code, 0) == code;
}

bool meas_inject_start(int code)
{
	return inject_take(&fail_start, code);
}

bool meas_inject_io(int code)
{
	return inject_take(&fail_io, code);
}

bool meas_inject_task(int step)
{
	return inject_take(&fail_task, step);
}

bool meas_inject_clock(int code)
{
	return inject_take(&clock_fail, code);
}

u32 meas_inject_abi(u32 abi)
{
	u32 v = READ_ONCE(abi_version);

	return v ? v : abi;
}

/* ---- race windows -------------------------------------------------------- */

static int task_race;
module_param(task_race, int, 0644);
MODULE_PARM_DESC(task_race,
		 "Test build: 1 arms the window of the next TASK_START between its check and its publication; it reads 2 while a start waits there");

static int task_end_hold;
module_param(task_end_hold, int, 0644);
MODULE_PARM_DESC(task_end_hold,
		 "Test build: while 1, the end of a measurement at its process's exit waits (30 s at most)");

static int io_snap_race;
module_param(io_snap_race, int, 0644);
MODULE_PARM_DESC(io_snap_race,
		 "Test build: 1 arms the window of the next class 14 GET between its copy and its filter; it reads 2 while a GET waits there");

static int io_cursor_race;
module_param(io_cursor_race, int, 0644);
MODULE_PARM_DESC(io_cursor_race,
		 "Test build: that many first IOTRACE_READs of a file wait for each other once each has made its cursor");

static int task_cb_race;
module_param(task_cb_race, int, 0644);
MODULE_PARM_DESC(task_cb_race,
		 "Test build: 1 arms the windows of the next task measurement callback: it reads 2 while the callback waits at its start, the test writes 3 to let it go on, and after its last reference it writes 4 and spins while it reads 4 (3 s at most)");

static int proc_settle_race;
module_param(proc_settle_race, int, 0644);
MODULE_PARM_DESC(proc_settle_race,
		 "Test build: while 1, every class 15 lookup of a process by its PID finds it in its exit window and waits the whole settle time");

#define RACE_MAX_MS	10000
#define SPIN_MAX_MS	3000

/* Wait up to RACE_MAX_MS for @done(@ctx), polling each millisecond. */
static void race_wait(bool (*done)(void *ctx), void *ctx)
{
	unsigned long end = jiffies + msecs_to_jiffies(RACE_MAX_MS);

	while (!done(ctx) && time_before(jiffies, end))
		usleep_range(1000, 2000);
}

/* Claim an armed window: 1 becomes 2 for exactly one caller. */
static bool race_enter(int *param)
{
	return cmpxchg(param, 1, 2) == 1;
}

struct task_race_ctx {
	struct task_struct *t;
	struct mm_struct *mm;
	struct rw_semaphore *lock;
};

static bool task_race_done(void *p)
{
	struct task_race_ctx *c = p;

	return READ_ONCE(c->t->mm) != c->mm ||
	       (c->lock && rwsem_is_contended(c->lock));
}

void meas_inject_task_race(struct task_struct *t, struct mm_struct *mm,
			   struct rw_semaphore *lock)
{
	struct task_race_ctx c = { t, mm, lock };

	if (!race_enter(&task_race))
		return;
	race_wait(task_race_done, &c);
	WRITE_ONCE(task_race, 0);
}

static bool end_hold_done(void *p)
{
	return !READ_ONCE(task_end_hold);
}

void meas_inject_task_end_hold(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(3 * RACE_MAX_MS);

	while (!end_hold_done(NULL) && time_before(jiffies, end))
		usleep_range(1000, 2000);
}

void meas_inject_io_snap(bool (*wrapped)(void *ctx), void *ctx)
{
	if (!race_enter(&io_snap_race))
		return;
	race_wait(wrapped, ctx);
	WRITE_ONCE(io_snap_race, 0);
}

static bool cursor_met(void *p)
{
	return READ_ONCE(io_cursor_race) <= 0;
}

void meas_inject_io_cursor(void)
{
	int n = READ_ONCE(io_cursor_race);

	while (n > 0) {
		if (try_cmpxchg(&io_cursor_race, &n, n - 1)) {
			race_wait(cursor_met, NULL);
			return;
		}
	}
}

static bool task_cb_go(void *p)
{
	return READ_ONCE(task_cb_race) != 2;
}

/*
 * At the start, a sleep until the test lets the callback go; after the
 * last reference, busy, not sleeping, outside any RCU read-side section
 * (so not mdelay(), which disables preemption), and preempted when
 * another task wants the CPU, whatever the kernel's preemption mode: as
 * a task preempted on its way out of the module's code.  RCU sees a
 * quiescent state at each tick here; RCU Tasks waits for a voluntary
 * switch or user mode.
 */
void meas_inject_task_cb(int step)
{
	unsigned long end = jiffies + msecs_to_jiffies(SPIN_MAX_MS);

	if (!step) {
		if (race_enter(&task_cb_race))
			race_wait(task_cb_go, NULL);
		return;
	}
	/* 4: arrived, so that the test's rmmod finds the module given back */
	if (cmpxchg(&task_cb_race, 3, 4) != 3)
		return;
	while (READ_ONCE(task_cb_race) == 4 && time_before(jiffies, end)) {
		cpu_relax();
#ifdef CONFIG_PREEMPTION
		/* preempted, as full preemption would: not a voluntary switch */
		if (need_resched())
			preempt_schedule();
#endif
	}
	WRITE_ONCE(task_cb_race, 0);
}

bool meas_inject_proc_settle(void)
{
	return READ_ONCE(proc_settle_race) == 1;
}
