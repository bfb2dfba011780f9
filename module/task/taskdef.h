/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task measurement (START-TASK-MEASUREMENT, uapi/linux/meas_task.h):
 * struct meas_task, the state one measurement shares between its units.
 * Types only, below every unit, each of which has its own header:
 *
 *   taskring.c  the buffer between the probes and the file
 *   taskfile.c  the file: opening, records, the writer
 *   tasktab.c   the table of running measurements, their references,
 *               the end from atomic context, the workqueue
 *   taskload.c  load information: the executable mappings
 *   taskprobe.c tracepoint probes, the CPU clock's overflow handler and
 *               the task_work callbacks they queue
 *   task.c      the ioctls, start and end
 *   taskcheck.c argument checks and record arithmetic (pure, logic/)
 *
 * Each calls only those above it in this list.
 */
#ifndef _MEAS_TASK_TASKDEF_H
#define _MEAS_TASK_TASKDEF_H

#include <linux/types.h>
#include <linux/bitmap.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/task_work.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/meas_task.h>
#include "taskring.h"

struct file;
struct mm_struct;
struct perf_event;
struct task_struct;
struct signal_struct;
struct pid;

/* an executable mapping the detailed load information knows of */
struct meas_task_obj {
	unsigned long start, end, pgoff;
	struct file *file;	/* referenced */
	const char *name;
	u16 prot;
};

/* bits of meas_task.bits */
enum {
	MEAS_TASK_KICKED,	/* the writer is queued */
	MEAS_TASK_EXITING,	/* the end work is queued for the exit */
	MEAS_TASK_DENIED,	/* a program it may not measure: record nothing */
	MEAS_TASK_EXEC_CB,	/* exec_cb is queued */
	MEAS_TASK_ABORTED,	/* the end gave up waiting for the file */
};

/*
 * A pending scan of the mappings, queued on the thread that changed them
 * (task_work).  The probe that queues it may not allocate: on PREEMPT_RT
 * the slab allocator takes sleeping locks, and tracepoint probes run with
 * preemption disabled.  So each measurement has MEAS_TASK_MAP_CBS of them,
 * claimed with a bit each; with none free the change counts as an object
 * dropped, as an allocation failure would.
 */
#define MEAS_TASK_MAP_CBS	32

struct meas_task_cb {
	struct callback_head head;
	struct meas_task *m;
};

struct meas_task {
	struct hlist_node hnode;	/* task_hash, RCU */
	struct list_head list;		/* task_list, under task_mutex */
	refcount_t ref;
	pid_t tgid;			/* global */
	struct task_struct *leader;	/* referenced: keeps @signal */
	/*
	 * The process, as the probes tell it: its signal_struct, which every
	 * thread shares for the process's life and which is not freed while
	 * @leader is referenced.  A process that gets the PID later has
	 * another one.
	 */
	const struct signal_struct *signal;
	u64 session;
	u32 flags, pcounter_ms, load_info;
	kuid_t uid;			/* effective user that started it */
	bool privileged;		/* CAP_PERFMON or CAP_SYS_ADMIN */
	kuid_t target_uid;		/* the process's, when checked */
	char comm[TASK_COMM_LEN];	/* its command, when checked */
	struct file *owner;		/* MEAS_TASK_OWNED: that open file */
	bool ending;			/* under task_mutex */
	unsigned long bits;
	u32 gen;			/* address space generation */
	u32 reason;			/* MEAS_TASK_END_* */
	u32 async_reason;		/* what queued endwork */

	struct meas_task_ring ring;
	atomic64_t ksamples;		/* kernel-mode samples, not recorded */

	struct perf_event **events;	/* one per thread at the start */
	unsigned int nevents;

	/* load information */
	struct mutex vmlock;
	struct mm_struct *mm;		/* mmget: the current address space */
	struct meas_task_obj *known;	/* detailed: by address */
	unsigned int nknown;
	atomic64_t objects_dropped;
	bool closed;			/* under vmlock: nothing more recorded */
	struct callback_head exec_cb;	/* at most one exec is pending */
	struct meas_task_cb map_cb[MEAS_TASK_MAP_CBS];
	DECLARE_BITMAP(map_cb_used, MEAS_TASK_MAP_CBS);

	/* the file, written by one writer at a time */
	struct mutex wlock;
	struct file *out;
	struct path root;		/* the process's root: paths are its */
	char *wbuf;
	size_t wlen;
	char *pathbuf;
	struct meas_task_ev **batch;	/* events being written */
	int werr;			/* first write error, positive */
	u64 fbytes;			/* bytes in the file */
	u64 fsize_max;			/* the starter's RLIMIT_FSIZE */
	u64 written_samples, written_svcs, lost_total;
	u64 wrecs;			/* records in wbuf */
	u64 dropped;			/* records made, not written */
	u64 cpu_ns;			/* the process's CPU time, at the end */
	struct work_struct drain;
	struct delayed_work tick;
	struct work_struct endwork;
	/* the end's file part: the writer's last run, then the file closed */
	struct work_struct finwork;
	struct completion finished;
};

#endif /* _MEAS_TASK_TASKDEF_H */
