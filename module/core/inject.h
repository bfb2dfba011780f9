/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the error paths a healthy machine never takes.
 * Only the test build has it (make MEAS_TEST=1, which make check, make
 * check-debug and the VM test lanes set): there inject.c gives each hook a
 * module parameter; the default build, the one packages ship, has no such
 * parameter and every hook below is a constant false the compiler drops.
 *
 * Each failure hook consumes its injection: true once for the step asked,
 * then the parameter is back at 0.  abi_version stays until reset.
 */
#ifndef _MEAS_CORE_INJECT_H
#define _MEAS_CORE_INJECT_H

#include <linux/types.h>

/*
 * Race windows the security tests widen (Documentation/build-and-test.rst):
 * a test arms one by writing its parameter; the step that meets it waits,
 * bounded, for the kernel state the race needs, then goes on.
 */
struct task_struct;
struct mm_struct;
struct rw_semaphore;

#ifdef MEAS_TEST
/*
 * task_race: TASK_START between its access check and the measurement's
 * publication waits until @t's address space is no longer @mm (it
 * executed a program) or an exec of @t waits for @lock, if held
 */
void meas_inject_task_race(struct task_struct *t, struct mm_struct *mm,
			   struct rw_semaphore *lock);
/* task_end_hold: the end of a measurement at the exit waits while set */
void meas_inject_task_end_hold(void);
/*
 * io_snap_race: class 14's GET, between its copy and its filter, waits
 * until @wrapped(@ctx) says the writers went over the copied records
 */
void meas_inject_io_snap(bool (*wrapped)(void *ctx), void *ctx);
/* io_cursor_race: that many first IOTRACE_READs meet once each has a cursor */
void meas_inject_io_cursor(void);
/*
 * task_cb_race: 1 arms it; the next task_work callback waits at its
 * start (@step 0) while it reads 2; once the test writes 3, after its
 * last reference (@step 1) it writes 4 and spins, busy as a task
 * preempted there would stay, while it reads 4
 */
void meas_inject_task_cb(int step);
/*
 * proc_settle_race: while 1, every lookup of one process by its PID
 * finds it in its exit window, and waits the whole settle time
 */
bool meas_inject_proc_settle(void);
/* fail_start: a STARTSTATISTICS that formats a region, code 1..3 */
bool meas_inject_start(int code);
/* fail_io: the start of the disk counters or of the I/O trace, code 2..3 */
bool meas_inject_io(int code);
/* fail_task: TASK_START, step 1 (CPU clock events) or 2 (memory) */
bool meas_inject_task(int step);
/* clock_fail: the GETCLOCK initialisation, code 5, 6 or 8 */
bool meas_inject_clock(int code);
/* abi_version: the ABI version MEAS_IOC_INFO reports, as an older module */
u32 meas_inject_abi(u32 abi);
#else
static inline bool meas_inject_start(int code) { return false; }
static inline bool meas_inject_io(int code) { return false; }
static inline bool meas_inject_task(int step) { return false; }
static inline bool meas_inject_clock(int code) { return false; }
static inline u32 meas_inject_abi(u32 abi) { return abi; }
static inline void meas_inject_task_race(struct task_struct *t,
					 struct mm_struct *mm,
					 struct rw_semaphore *lock) { }
static inline void meas_inject_task_end_hold(void) { }
static inline void meas_inject_io_snap(bool (*wrapped)(void *ctx),
				       void *ctx) { }
static inline void meas_inject_io_cursor(void) { }
static inline void meas_inject_task_cb(int step) { }
static inline bool meas_inject_proc_settle(void) { return false; }
#endif

#endif /* _MEAS_CORE_INJECT_H */
