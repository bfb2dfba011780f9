/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between kernel versions, in one place.  Kbuild detects the
 * features from the kernel's headers and defines MEAS_HAVE_*.  Probes
 * are written against one prototype; the MEAS_*_PROBE macros define the
 * function each tracepoint of this kernel calls around them.
 */
#ifndef _MEAS_COMPAT_H
#define _MEAS_COMPAT_H

#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/bits.h>
#include <linux/mm.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/preempt.h>

/* task_struct.state became __state in 5.14. */
#ifdef MEAS_HAVE_TASK_STATE_UNDERSCORE
#define meas_task_state(p)	READ_ONCE((p)->__state)
#else
#define meas_task_state(p)	READ_ONCE((p)->state)
#endif

/*
 * sched_switch passes prev_state since 5.18; before, the probe reads the
 * state the scheduler acted on from the task itself.
 */
#ifdef MEAS_HAVE_SWITCH_PREV_STATE
#define MEAS_SWITCH_PROBE(name, fn)					\
	static void name(void *data, bool preempt,			\
			 struct task_struct *prev,			\
			 struct task_struct *next, unsigned int prev_state) \
	{ fn(data, preempt, prev, next, prev_state); }
#else
#define MEAS_SWITCH_PROBE(name, fn)					\
	static void name(void *data, bool preempt,			\
			 struct task_struct *prev,			\
			 struct task_struct *next)			\
	{ fn(data, preempt, prev, next, meas_task_state(prev)); }
#endif

/*
 * When the scheduler queued @p on a run queue, on the clock local_clock()
 * reads (rq_clock(), sched_clock_cpu()), or 0.  A sleeper's wakeup sets
 * it in enqueue_task() before sched_wakeup fires, and its switch-in
 * clears it: schedstat's run_delay is measured from it.  The kernel keeps
 * it with CONFIG_SCHED_INFO (TASKSTATS, SCHEDSTATS); without, 0.
 */
static inline u64 meas_task_queued_at(const struct task_struct *p)
{
#ifdef CONFIG_SCHED_INFO
	return READ_ONCE(p->sched_info.last_queued);
#else
	return 0;
#endif
}

/*
 * Tracepoints called their probes with preemption off up to the 6
 * series.  Since the 7 series they call them in an SRCU-fast section
 * (tracepoint.h's __DECLARE_TRACE(): guard(srcu_fast_notrace)), which
 * leaves preemption as the call site has it: fork, exec, exit, a bio's
 * submission and blk-mq's issue and completion in task context run their
 * probes preemptible.  A probe that works on this CPU's data beyond one
 * this_cpu operation, or reads what synchronize_rcu() protects, brackets
 * its work in meas_tp_enter() and meas_tp_leave(): the block probes (the
 * MEAS_BLK_*_PROBE() wrappers below; class 15's bio probe is one of
 * them).  Where the kernel disables preemption itself, they are nothing.
 * A unit that must wait for every call of its probes in flight uses
 * tracepoint_synchronize_unregister(), never synchronize_rcu() alone.
 */
#ifdef MEAS_HAVE_TP_SRCU_FAST
#define meas_tp_enter()	preempt_disable_notrace()
#define meas_tp_leave()	preempt_enable_notrace()
#else
#define meas_tp_enter()	do { } while (0)
#define meas_tp_leave()	do { } while (0)
#endif

/*
 * sched_process_exit passes group_dead (whether the process ends with
 * this thread) since 6.16; the probes take the task only.
 */
#ifdef MEAS_HAVE_EXIT_GROUP_DEAD
#define MEAS_EXIT_PROBE(name, fn)					\
	static void name(void *data, struct task_struct *p, bool group_dead) \
	{ fn(data, p); }
#else
#define MEAS_EXIT_PROBE(name, fn)					\
	static void name(void *data, struct task_struct *p)		\
	{ fn(data, p); }
#endif

/* ---- dumpability -------------------------------------------------------- */
/*
 * ptrace's "dumpable" rule: a program that changed its credentials at
 * exec (set-user-ID), or said so with prctl(PR_SET_DUMPABLE), may be
 * looked into only with CAP_SYS_PTRACE in the user namespace it was
 * started in.  The mm kept both (get_dumpable(), mm->user_ns) until the
 * 7 series moved them to the task's exec_state (7.2 has it): before, a
 * task without an mm (exiting, a kernel thread) had no such rule; since,
 * every task has one.
 */
enum meas_dumpable {
	MEAS_DUMP_NONE,		/* no rule applies (no mm, older kernels) */
	MEAS_DUMP_OWNER,	/* its owner may look */
	MEAS_DUMP_NOT,		/* only CAP_SYS_PTRACE in the namespace */
};

#ifdef MEAS_HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
#else
#include <linux/sched/coredump.h>
#endif

/**
 * meas_task_dumpable() - ptrace's dumpable rule for @t's program
 * @t: the task; the caller holds task_lock(@t) and rcu_read_lock()
 * @ns: out: the user namespace whose CAP_SYS_PTRACE overrides
 *	MEAS_DUMP_NOT (NULL with MEAS_DUMP_NONE)
 *
 * Return: enum meas_dumpable.
 */
static inline enum meas_dumpable
meas_task_dumpable(struct task_struct *t, struct user_namespace **ns)
{
#ifdef MEAS_HAVE_TASK_EXEC_STATE
	const struct task_exec_state *es;

	es = rcu_dereference_check(t->exec_state,
				   lockdep_is_held(&t->alloc_lock));
	*ns = es->user_ns;
	return READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER ?
	       MEAS_DUMP_OWNER : MEAS_DUMP_NOT;
#else
	struct mm_struct *mm = t->mm;

	*ns = mm ? mm->user_ns : NULL;
	if (!mm)
		return MEAS_DUMP_NONE;
	return get_dumpable(mm) == SUID_DUMP_USER ?
	       MEAS_DUMP_OWNER : MEAS_DUMP_NOT;
#endif
}

/* ---- hrtimers ---------------------------------------------------------- */
/*
 * hrtimer_expire_entry passes the base's time by value in the 7 series,
 * by pointer before; the probes take the timer only.
 */
#ifdef MEAS_HAVE_HRTIMER_EXPIRE_NOW_VALUE
#define MEAS_HRTIMER_EXPIRE_PROBE(name, fn)				\
	static void name(void *data, struct hrtimer *timer, ktime_t now) \
	{ fn(data, timer); }
#else
#define MEAS_HRTIMER_EXPIRE_PROBE(name, fn)				\
	static void name(void *data, struct hrtimer *timer, ktime_t *now) \
	{ fn(data, timer); }
#endif

/*
 * hrtimer_setup() (6.13) takes the callback with the clock and mode;
 * hrtimer_init() went in 6.15.
 */
#ifdef MEAS_HAVE_HRTIMER_SETUP
#define meas_hrtimer_setup(t, fn, clock, mode)	hrtimer_setup(t, fn, clock, mode)
#else
static inline void meas_hrtimer_setup(struct hrtimer *t,
				      enum hrtimer_restart (*fn)(struct hrtimer *),
				      clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

/*
 * The callback of every hrtimer sleeper (hrtimer_wakeup(), not exported),
 * which the probes of hrtimer_expire_entry recognise sleepers by: read
 * from a sleeper set up on the stack and never started.  Only
 * hrtimer_setup_sleeper_on_stack() (6.13) is left in the newest kernels.
 */
typedef enum hrtimer_restart (*meas_hrtimer_fn)(struct hrtimer *);

static inline meas_hrtimer_fn meas_hrtimer_sleeper_fn(void)
{
	struct hrtimer_sleeper sl;
	meas_hrtimer_fn fn;

#ifdef MEAS_HAVE_HRTIMER_SETUP_SLEEPER
	hrtimer_setup_sleeper_on_stack(&sl, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init_sleeper_on_stack(&sl, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#endif
	fn = sl.timer.function;
	destroy_hrtimer_on_stack(&sl.timer);
	return fn;
}

/*
 * An inode's state: read through inode_state_read() since the 7 series
 * (i_state became a struct), with i_lock held as before.
 */
#ifdef MEAS_HAVE_INODE_STATE_READ
#define meas_inode_state(inode)	inode_state_read(inode)
#else
#define meas_inode_state(inode)	((inode)->i_state)
#endif

/*
 * The unbound system workqueue is system_dfl_wq, added after 6.12 (and
 * in Debian's 6.12); the 7 series warns once per boot, at the first work
 * queued on it, that system_unbound_wq, the old name, is deprecated.
 */
#ifdef MEAS_HAVE_SYSTEM_DFL_WQ
#define meas_unbound_wq		system_dfl_wq
#else
#define meas_unbound_wq		system_unbound_wq
#endif

/* vm_flags became read-only with setters in 6.3. */
#ifdef MEAS_HAVE_VM_FLAGS_CLEAR
#define meas_vm_flags_clear(vma, f)	vm_flags_clear(vma, f)
#else
#define meas_vm_flags_clear(vma, f)	((vma)->vm_flags &= ~(f))
#endif

/* lock:contention_begin and its flags appeared in 5.19. */
#ifdef MEAS_HAVE_CONTENTION_BEGIN
#include <trace/events/lock.h>
#else
#define LCB_F_SPIN	BIT(0)
#endif

/* ---- the block tracepoints ------------------------------------------- */
/*
 * The probes of blk.c take the request, the bio, and for a completion
 * its status and bytes; these macros define each tracepoint's probe
 * around them.  The request events lost their queue argument in 5.11,
 * block_bio_queue too, and block_bio_complete its error in 5.8.
 */
#ifdef MEAS_HAVE_BLK_RQ_NOQ
#define MEAS_BLK_RQ_PROBE(name, fn)					\
	static void name(void *data, struct request *rq)		\
	{ meas_tp_enter(); fn(data, rq); meas_tp_leave(); }
#else
#define MEAS_BLK_RQ_PROBE(name, fn)					\
	static void name(void *data, struct request_queue *q,		\
			 struct request *rq)				\
	{ meas_tp_enter(); fn(data, rq); meas_tp_leave(); }
#endif

#define MEAS_BLK_COMPLETE_PROBE(name, fn)				\
	static void name(void *data, struct request *rq,		\
			 blk_status_t error, unsigned int nr_bytes)	\
	{ meas_tp_enter(); fn(data, rq, error, nr_bytes); meas_tp_leave(); }

#ifdef MEAS_HAVE_BLK_BIO_NOQ
#define MEAS_BLK_BIO_QUEUE_PROBE(name, fn)				\
	static void name(void *data, struct bio *bio)			\
	{ meas_tp_enter(); fn(data, bio); meas_tp_leave(); }
#else
#define MEAS_BLK_BIO_QUEUE_PROBE(name, fn)				\
	static void name(void *data, struct request_queue *q,		\
			 struct bio *bio)				\
	{ meas_tp_enter(); fn(data, bio); meas_tp_leave(); }
#endif

#ifdef MEAS_HAVE_BLK_BIO_COMPLETE_ERROR
#define MEAS_BLK_BIO_COMPLETE_PROBE(name, fn)				\
	static void name(void *data, struct request_queue *q,		\
			 struct bio *bio, int error)			\
	{ meas_tp_enter(); fn(data, bio); meas_tp_leave(); }
#else
#define MEAS_BLK_BIO_COMPLETE_PROBE(name, fn)				\
	static void name(void *data, struct request_queue *q,		\
			 struct bio *bio)				\
	{ meas_tp_enter(); fn(data, bio); meas_tp_leave(); }
#endif

/* The disk of a request: request_queue.disk since 5.15, rq_disk before. */
#ifdef MEAS_HAVE_QUEUE_DISK
#define meas_rq_disk(rq)	((rq)->q->disk)
#else
#define meas_rq_disk(rq)	((rq)->rq_disk)
#endif

/* The disk of a bio: bi_bdev since 5.12, bi_disk before. */
static inline struct gendisk *meas_bio_disk(struct bio *bio)
{
#ifdef MEAS_HAVE_BIO_BDEV
	return bio->bi_bdev ? bio->bi_bdev->bd_disk : NULL;
#else
	return bio->bi_disk;
#endif
}

/*
 * A request's own time stamps (blk.c): the kernel keeps them for its disk
 * statistics, on the same clock as ktime_get_ns() (the 6.10 series may
 * give the time a plug cached a moment before).  start_time_ns is the
 * request's start where the queue keeps I/O statistics (RQF_IO_STAT:
 * iostats, 1 by default; the 7 series sets the two together); elsewhere
 * it is 0 or, since 6.10, left from the request's last use.
 * io_start_time_ns is its last issue where the queue has QUEUE_FLAG_STATS
 * (writeback throttling or another blk-stat user), which blk_mq_start_request()
 * tests right after the issue tracepoint, passthrough requests left out
 * since 6.10, and RQF_STATS says it did.  Since 5.16 struct request is
 * in blk-mq.h; an older kernel gets no stamp, and meas reads the clock.
 */
#ifdef MEAS_HAVE_RQ_IO_START
static inline u64 meas_rq_start_ns(struct request *rq)
{
	return rq->rq_flags & RQF_IO_STAT ? rq->start_time_ns : 0;
}

/* Whether the kernel stamps @rq's issue: the issue probe asks. */
static inline bool meas_rq_issue_stamped(struct request *rq)
{
	return test_bit(QUEUE_FLAG_STATS, &rq->q->queue_flags) &&
	       !blk_rq_is_passthrough(rq);
}

/* @rq's last issue, where the kernel stamped it: at the completion. */
static inline u64 meas_rq_issue_ns(struct request *rq)
{
	return rq->rq_flags & RQF_STATS ? rq->io_start_time_ns : 0;
}
#else
static inline u64 meas_rq_start_ns(struct request *rq)
{
	return 0;
}

static inline bool meas_rq_issue_stamped(struct request *rq)
{
	return false;
}

static inline u64 meas_rq_issue_ns(struct request *rq)
{
	return 0;
}
#endif

/* Operation and flags: blk_opf_t since 6.0, unsigned int before. */
#ifdef MEAS_HAVE_BLK_OPF
#define meas_opf_t	blk_opf_t
#else
#define meas_opf_t	unsigned int
#endif

/* Request flags that older kernels lack count as absent. */
#ifndef REQ_SWAP
#define REQ_SWAP	0
#endif
#ifndef REQ_POLLED
#define REQ_POLLED	0
#endif

/* ---- task measurement ------------------------------------------------ */

/* The system call numbering of this kernel, for the task file's readers. */
#include <uapi/linux/audit.h>
#if defined(CONFIG_X86_64)
#define MEAS_AUDIT_ARCH		AUDIT_ARCH_X86_64
#elif defined(CONFIG_ARM64)
#define MEAS_AUDIT_ARCH		AUDIT_ARCH_AARCH64
#else
#define MEAS_AUDIT_ARCH		0
#endif

/* The vDSO of an address space, where the architecture records it. */
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
#define meas_mm_vdso(mm)	((unsigned long)(mm)->context.vdso)
#else
#define meas_mm_vdso(mm)	0UL
#endif

/* ---- architectures ------------------------------------------------------ */
/*
 * The call-stack sampler (collect_stack.c) starts the kernel's own
 * unwinder from the interrupted registers where the kernel exports it
 * (x86: ORC or frame pointers); elsewhere it walks the frame records,
 * which arm64 kernels always keep.
 */
#ifdef MEAS_HAVE_UNWIND_EXPORTED
#include <asm/unwind.h>
#endif

/*
 * Whether the user registers @regs are those of 64-bit code: x86 says
 * so (a 32-bit task may run 64-bit code), arm64 tells its 32-bit
 * (AArch32, compat) tasks by the mode of their registers.
 */
#if defined(MEAS_HAVE_USER_64BIT_MODE)
#define meas_user_64bit_mode(regs)	user_64bit_mode(regs)
#elif defined(MEAS_HAVE_COMPAT_USER_MODE)
#define meas_user_64bit_mode(regs)	(!compat_user_mode(regs))
#else
#define meas_user_64bit_mode(regs)	IS_ENABLED(CONFIG_64BIT)
#endif

/*
 * Pointer authentication (arm64): a return address saved in a frame
 * record carries its PAC in the bits above the virtual address, which
 * the kernel strips before it uses or shows one.  The stripping came in
 * one function for both kinds of address, then in one for each (6.4);
 * with neither (x86, no pointer authentication) addresses are as they
 * are.
 */
#if defined(MEAS_HAVE_PTRAUTH_STRIP_USER)
#include <asm/compiler.h>
#define meas_strip_user_pac(ptr)	ptrauth_strip_user_insn_pac(ptr)
#define meas_strip_kernel_pac(ptr)	ptrauth_strip_kernel_insn_pac(ptr)
#elif defined(MEAS_HAVE_PTRAUTH_STRIP_INSN)
#include <asm/pointer_auth.h>
#define meas_strip_user_pac(ptr)	ptrauth_strip_insn_pac(ptr)
#define meas_strip_kernel_pac(ptr)	ptrauth_strip_insn_pac(ptr)
#else
#define meas_strip_user_pac(ptr)	(ptr)
#define meas_strip_kernel_pac(ptr)	(ptr)
#endif

#endif /* _MEAS_COMPAT_H */
