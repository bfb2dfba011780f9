/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task measurement (START-TASK-MEASUREMENT, uapi/linux/meas_task.h):
 * the state one measurement shares between its units.
 *
 *   task.c      the ioctls, the table of measurements, start and end
 *   taskprobe.c tracepoint probes, the CPU clock's overflow handler and
 *               the task_work callbacks they queue
 *   taskring.c  the buffer between the probes and the file
 *   taskfile.c  the file: opening, records, the writer
 *   taskload.c  load information: the executable mappings
 *   taskcheck.c argument checks and record arithmetic (pure)
 */
#ifndef _MEAS_TASK_H
#define _MEAS_TASK_H

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

struct file;
struct mm_struct;
struct perf_event;
struct task_struct;
struct signal_struct;
struct pid;

/*
 * One event between a probe and the writer.  @file holds a reference
 * (OBJECT, MAP) that the writer drops once it has the path.
 */
struct meas_task_ev {
	u16 type;		/* MEAS_TREC_* */
	u16 prot;		/* OBJECT, MAP: MEAS_TREC_PROT_* */
	u32 tid;
	u64 key;		/* when it was put: the writer's merge order */
	u64 time;
	u64 a, b, c;		/* per type: taskfile.c says which */
	u32 gen;
	u32 flags;
	struct file *file;
	const char *name;	/* special mappings: a static name */
};

/*
 * One CPU's ring (taskring.c): its CPU's probes write @head, @busy,
 * @last and @lost; the writer @tail and @lost_seen.
 */
struct meas_task_pcpu {
	u32 head;		/* free running */
	u32 busy;		/* the CPU is inside a put */
	u64 last;		/* the key it put last */
	u64 lost;		/* events it dropped */
	struct meas_task_ev *ev;
	u32 tail ____cacheline_aligned;	/* free running */
	u64 lost_seen;		/* @lost reported in LOST records */
};

/* where one CPU's ring stands in a take of the writer */
struct meas_taskring_take {
	struct meas_task_pcpu *pc;
	u32 tail, head;
};

/* the rings: one per CPU, no lock; the writer merges them by key */
struct meas_task_ring {
	struct meas_task_pcpu __percpu *cpu;
	u32 mask;		/* slots - 1 of each, a power of two */
	wait_queue_head_t space;	/* producers that may sleep */
	struct meas_taskring_take *take;	/* the writer's, per CPU */
	unsigned int ntake;
};

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
	struct work_struct drain;
	struct delayed_work tick;
	struct work_struct endwork;
};

/* task.c */
extern struct workqueue_struct *meas_task_wq;
struct meas_task *meas_task_find(const struct task_struct *p);
void meas_task_get(struct meas_task *m);
void meas_task_put(struct meas_task *m);
void meas_task_end_async(struct meas_task *m, u32 reason);
bool meas_task_may_see_exec(struct meas_task *m, struct task_struct *t);

/* taskring.c */
int meas_taskring_init(struct meas_task_ring *r, unsigned int kib);
void meas_taskring_free(struct meas_task_ring *r);

/**
 * meas_taskring_begin() - a slot of this CPU's ring to write an event in
 * @r: the ring
 * @irq: out: the interrupt state to give meas_taskring_commit()
 *
 * Any context; interrupts are off from here to the commit.  The slot's
 * key and time are set (local_clock(), read once); the caller writes
 * every other field in place.  On a full ring the event is counted as
 * lost, and nothing is to be committed.  Inline: every system call
 * under SVC statistics puts one.
 *
 * Return: the slot, or NULL.
 */
static inline struct meas_task_ev *
meas_taskring_begin(struct meas_task_ring *r, unsigned long *irq)
{
	struct meas_task_pcpu *pc;
	struct meas_task_ev *e;
	u32 head;

	local_irq_save(*irq);
	pc = this_cpu_ptr(r->cpu);
	WRITE_ONCE(pc->busy, 1);
	/* the writer that misses this put sees it busy: the key comes after */
	smp_mb();
	head = pc->head;
	if (head - READ_ONCE(pc->tail) > r->mask) {
		WRITE_ONCE(pc->lost, pc->lost + 1);
		/* the count before the end of the put: the writer's acquire */
		smp_store_release(&pc->busy, 0);
		local_irq_restore(*irq);
		return NULL;
	}
	e = &pc->ev[head & r->mask];
	e->key = local_clock();
	e->time = e->key;
	return e;
}

/**
 * meas_taskring_commit() - publish the event meas_taskring_begin() gave
 * @r: the ring
 * @e: the event, written
 * @irq: what meas_taskring_begin() saved
 */
static inline void meas_taskring_commit(struct meas_task_ring *r,
					struct meas_task_ev *e,
					unsigned long irq)
{
	struct meas_task_pcpu *pc = this_cpu_ptr(r->cpu);

	/* Pairs with the writer's acquire: the event before its count. */
	smp_store_release(&pc->head, pc->head + 1);
	WRITE_ONCE(pc->last, e->key);
	/* the event and @last before the end of the put: the writer's acquire */
	smp_store_release(&pc->busy, 0);
	local_irq_restore(irq);
}

bool meas_taskring_put(struct meas_task_ring *r, const struct meas_task_ev *e);
bool meas_taskring_put_wait(struct meas_task *m, const struct meas_task_ev *e);
unsigned int meas_taskring_take(struct meas_task_ring *r,
				struct meas_task_ev **out,
				unsigned int n, u64 *lost, bool all);
void meas_taskring_give_back(struct meas_task_ring *r);

/*
 * Whether the writer should run: inline, as the probes ask at each event,
 * of the ring of the CPU they run on (preemption is off).  A hint, so
 * START asks it too, preemptible: of the ring of the CPU it ran on a
 * moment ago (raw_cpu_ptr(); DEBUG_PREEMPT flagged this_cpu_ptr() there).
 */
static inline bool meas_taskring_half_full(struct meas_task_ring *r)
{
	struct meas_task_pcpu *pc = raw_cpu_ptr(r->cpu);

	return READ_ONCE(pc->head) - READ_ONCE(pc->tail) > r->mask / 2;
}

void meas_taskring_ev_release(struct meas_task_ev *e);

/* taskfile.c */
int meas_taskfile_alloc(struct meas_task *m);
void meas_taskfile_free(struct meas_task *m);
char *meas_taskfile_path(const char __user *upath, int vpid, int *code,
			 int *file_errno);
int meas_taskfile_open(const char *path, bool std, int *file_errno,
		       struct file **fp);
void meas_taskfile_use(struct meas_task *m, struct file *f);
void meas_taskfile_session(struct meas_task *m);
void meas_taskfile_emit(struct meas_task *m, const struct meas_task_ev *e);
int meas_taskfile_flush(struct meas_task *m);
void meas_taskfile_drain(struct meas_task *m);
void meas_taskfile_drain_work(struct work_struct *w);
void meas_taskfile_end(struct meas_task *m, u64 cpu_ns);
void meas_taskfile_close(struct meas_task *m);
void meas_taskfile_root(struct meas_task *m, struct task_struct *t);
bool meas_taskfile_uses(struct meas_task *m, struct file *f);

/* taskload.c */
void meas_taskload_snapshot(struct meas_task *m, struct mm_struct *mm,
			    u32 kind, u32 gen, bool direct);
void meas_taskload_changed(struct meas_task *m, struct mm_struct *mm);
void meas_taskload_free(struct meas_task *m);

/* task.c: the ioctls and the files' measurements (dev.c), init, exit */
long meas_task_ioctl(struct file *file, unsigned int cmd, void __user *u);
void meas_task_release(struct file *file);
int meas_task_init(void);
void meas_task_exit(void);

/* taskprobe.c */
void meas_taskprobe_init(void);
void meas_taskprobe_exit(void);
int meas_taskprobe_get(struct meas_task *m);
void meas_taskprobe_put(struct meas_task *m);
int meas_taskprobe_events(struct meas_task *m, struct task_struct *leader);
u64 meas_taskprobe_release_events(struct meas_task *m);

#endif /* _MEAS_TASK_H */
