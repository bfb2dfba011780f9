// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement: START-TASK-MEASUREMENT and STOP-TASK-MEASUREMENT
 * (MEAS_IOC_TASK_START, MEAS_IOC_TASK_STOP) and the table of running
 * measurements.  A measurement is not tied to the file that started it
 * (unless MEAS_TASK_OWNED): it ends with STOP, with the process's exit,
 * or when the module is unloaded, as SM2's did with its subsystem.
 *
 * task_mutex serialises start and end; the probes find a measurement by
 * the process's ID in an RCU hash table.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include "core/compat.h"
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/meas.h>
#include "core/params.h"
#include "core/uarg.h"
#include "logic/rescode.h"
#include "task.h"
#include "logic/taskcheck.h"
#include "core/inject.h"

#define TASK_TICK	(HZ / 5)	/* the writer's period */

struct workqueue_struct *meas_task_wq;
static DEFINE_MUTEX(task_mutex);
static LIST_HEAD(task_list);
static DEFINE_HASHTABLE(task_hash, 6);
static unsigned int task_count;
static u64 task_sessions;

/* The measurement of process @tgid; under RCU or with preemption off. */
struct meas_task *meas_task_find(pid_t tgid)
{
	struct meas_task *m;

	hash_for_each_possible_rcu(task_hash, m, hnode, tgid)
		if (m->tgid == tgid)
			return m;
	return NULL;
}

void meas_task_get(struct meas_task *m)
{
	refcount_inc(&m->ref);
}

void meas_task_put(struct meas_task *m)
{
	if (!refcount_dec_and_test(&m->ref))
		return;
	meas_taskring_free(&m->ring);
	meas_taskfile_free(m);
	put_task_struct(m->leader);
	kfree(m);
}

/*
 * Whether the user @uid may measure @t: privileged, or @t runs wholly as
 * @uid and is dumpable (not a set-user-ID program), as for ptrace.
 */
bool meas_task_may_measure(kuid_t uid, bool privileged, struct task_struct *t)
{
	struct user_namespace *ns;
	const struct cred *c;
	bool ok;

	if (privileged)
		return true;
	rcu_read_lock();
	c = __task_cred(t);
	ok = uid_eq(uid, c->euid) && uid_eq(uid, c->suid) &&
	     uid_eq(uid, c->uid);
	rcu_read_unlock();
	task_lock(t);
	rcu_read_lock();
	ok = ok && t->mm && meas_task_dumpable(t, &ns) == MEAS_DUMP_OWNER;
	rcu_read_unlock();
	task_unlock(t);
	return ok;
}

/* ---- the end --------------------------------------------------------- */

static void task_tick(struct work_struct *w)
{
	struct meas_task *m = container_of(to_delayed_work(w),
					   struct meas_task, tick);

	mutex_lock(&m->wlock);
	meas_taskfile_drain(m);
	mutex_unlock(&m->wlock);
	if (!READ_ONCE(m->ending))
		queue_delayed_work(meas_task_wq, &m->tick, TASK_TICK);
}

/*
 * Everything after the probes let go: last events, the end's load
 * information, the END record, the file closed.
 */
static void task_finish(struct meas_task *m)
{
	u64 cpu_ns = meas_taskprobe_release_events(m);

	tracepoint_synchronize_unregister();	/* no probe still sees m */
	cancel_delayed_work_sync(&m->tick);
	cancel_work_sync(&m->drain);
	mutex_lock(&m->vmlock);
	m->closed = true;		/* callbacks still queued do nothing */
	mutex_lock(&m->wlock);
	meas_taskfile_drain(m);
	meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_END, m->gen, true);
	meas_taskload_free(m);
	meas_taskfile_end(m, cpu_ns);
	mutex_unlock(&m->wlock);
	mutex_unlock(&m->vmlock);
	/* a callback waiting for room may have kicked the writer again */
	cancel_work_sync(&m->drain);
	meas_taskfile_close(m);
}

/* End @m for @reason unless it is ending already; may sleep. */
static bool task_end(struct meas_task *m, u32 reason)
{
	mutex_lock(&task_mutex);
	if (m->ending) {
		mutex_unlock(&task_mutex);
		return false;
	}
	WRITE_ONCE(m->ending, true);
	m->reason = reason;
	hash_del_rcu(&m->hnode);
	list_del(&m->list);
	task_count--;
	meas_taskprobe_put(m);
	mutex_unlock(&task_mutex);
	task_finish(m);
	meas_task_put(m);	/* the table's reference */
	return true;
}

static void task_end_work(struct work_struct *w)
{
	struct meas_task *m = container_of(w, struct meas_task, endwork);

	meas_inject_task_end_hold();
	task_end(m, m->async_reason);
	meas_task_put(m);
}

/**
 * meas_task_end_async() - end a measurement from atomic context
 * @m: the measurement, seen under RCU or a held reference
 * @reason: MEAS_TASK_END_*
 */
void meas_task_end_async(struct meas_task *m, u32 reason)
{
	/* the first reason wins; the work is queued once */
	if (READ_ONCE(m->ending) || cmpxchg(&m->async_reason, 0, reason))
		return;
	meas_task_get(m);
	queue_work(meas_task_wq, &m->endwork);
}

/* ---- start ----------------------------------------------------------- */

static struct meas_task *task_alloc(const struct meas_task_start *k,
				    struct file *file)
{
	struct meas_task *m;

	if (meas_inject_task(2))
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	refcount_set(&m->ref, 1);
	INIT_LIST_HEAD(&m->list);
	mutex_init(&m->vmlock);
	mutex_init(&m->wlock);
	INIT_WORK(&m->drain, meas_taskfile_drain_work);
	INIT_DELAYED_WORK(&m->tick, task_tick);
	INIT_WORK(&m->endwork, task_end_work);
	m->flags = k->flags;
	m->pcounter_ms = k->pcounter_ms;
	m->load_info = k->load_info;
	m->uid = current_euid();
	m->privileged = perfmon_capable();
	m->owner = k->flags & MEAS_TASK_OWNED ? file : NULL;
	if (meas_taskring_init(&m->ring, meas_param_task_ring_kib) ||
	    meas_taskfile_alloc(m)) {
		meas_taskring_free(&m->ring);
		meas_taskfile_free(m);
		kfree(m);
		return NULL;
	}
	return m;
}

/* The process @vpid names in the caller's namespace (0: the caller's). */
static struct task_struct *task_lookup(pid_t vpid)
{
	struct task_struct *t, *leader;
	struct pid *pid;

	if (!vpid)
		return get_task_struct(current->group_leader);
	pid = find_get_pid(vpid);
	t = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!t)
		return NULL;
	leader = get_task_struct(t->group_leader);
	put_task_struct(t);
	return leader;
}

static bool task_measurable(struct task_struct *t)
{
	return !(t->flags & (PF_KTHREAD | PF_EXITING)) &&
	       !(t->signal->flags & SIGNAL_GROUP_EXIT);
}

/* The session record and the start's load information, then the table. */
static int task_publish(struct meas_task *m, int *file_errno)
{
	int err;

	mutex_lock(&m->vmlock);
	mutex_lock(&m->wlock);
	err = meas_taskfile_session(m, m->leader);
	if (!err) {
		meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_START, 0,
				       true);
		err = meas_taskfile_flush(m);
	}
	mutex_unlock(&m->wlock);
	mutex_unlock(&m->vmlock);
	if (err) {
		*file_errno = err;
		return MEAS_TASK_FILEIO;
	}
	hash_add_rcu(task_hash, &m->hnode, m->tgid);
	list_add_tail(&m->list, &task_list);
	task_count++;
	queue_delayed_work(meas_task_wq, &m->tick, TASK_TICK);
	return MEAS_TASK_OK;
}

/* Undo a start that got as far as the probes and the clocks. */
static void task_unwind(struct meas_task *m, bool probes)
{
	meas_taskprobe_release_events(m);
	if (probes) {
		meas_taskprobe_put(m);
		tracepoint_synchronize_unregister();
	}
	meas_taskload_free(m);
	meas_taskfile_close(m);
}

/* Two measurements in one file would mix their records: NPS0066. */
static int task_file_free(struct meas_task *m)
{
	struct meas_task *other;

	list_for_each_entry(other, &task_list, list)
		if (meas_taskfile_same(m, other))
			return MEAS_TASK_BADFILE;
	return MEAS_TASK_OK;
}

/* Under task_mutex: from the checks of the table to a running measurement. */
static int task_start_locked(struct meas_task *m, const char __user *path,
			     pid_t vpid, int *file_errno)
{
	int code, err;

	if (meas_task_find(m->tgid))
		return MEAS_TASK_BUSY;
	if (task_count >= meas_param_max_tasks)
		return MEAS_TASK_LIMIT;
	m->mm = get_task_mm(m->leader);
	if (!m->mm)
		return MEAS_TASK_NOTASK;
	m->session = ++task_sessions;
	err = meas_taskprobe_get(m);
	if (err) {
		task_unwind(m, false);
		return err == -ENOMEM ? -ENOMEM : -EIO;
	}
	/* the file last, so that nothing is created for a start that fails */
	err = meas_inject_task(1) ? -EINVAL :
	      meas_taskprobe_events(m, m->leader);
	code = err ? (err == -ENOMEM ? -ENOMEM : -EIO) :
		     meas_taskfile_open(m, path, vpid, file_errno);
	if (!code)
		code = task_file_free(m) ?: task_publish(m, file_errno);
	if (code)
		task_unwind(m, true);
	return code;
}

/* Return: a MEAS_TASK_* code, or -ENOMEM / -EIO (NPS0050), -EFAULT. */
static int task_start(struct meas_task_start *k, struct file *file,
		      int *file_errno)
{
	const char __user *path = u64_to_user_ptr(k->path);
	struct task_struct *t = task_lookup(k->pid);
	struct meas_task *m;
	int code;

	if (!t)
		return MEAS_TASK_NOTASK;
	code = !task_measurable(t) ? MEAS_TASK_NOTASK :
	       !meas_task_may_measure(current_euid(), perfmon_capable(), t) ?
	       MEAS_TASK_NOTALLOWED : 0;
	if (code) {
		put_task_struct(t);
		return code;
	}
	meas_inject_task_race(t, READ_ONCE(t->mm), NULL);
	m = task_alloc(k, file);
	if (!m) {
		put_task_struct(t);
		return -ENOMEM;
	}
	m->leader = t;
	m->tgid = t->tgid;
	meas_taskfile_root(m, t);
	k->pid = task_tgid_vnr(t);
	mutex_lock(&task_mutex);
	code = task_start_locked(m, k->path ? path : NULL, k->pid, file_errno);
	if (!code)
		meas_task_get(m);	/* a STOP may end it once unlocked */
	mutex_unlock(&task_mutex);
	k->session = code ? 0 : m->session;
	/* It may have exited before the exit probe could see it. */
	if (!code && !atomic_read(&t->signal->live) &&
	    !test_and_set_bit(MEAS_TASK_EXITING, &m->bits))
		meas_task_end_async(m, MEAS_TASK_END_EXIT);
	meas_task_put(m);
	return code;
}

static long task_start_ioctl(struct file *file, void __user *u)
{
	struct meas_task_start k;
	int code, file_errno = 0;
	long usize, err;

	usize = meas_uarg_copy_in(&k, sizeof(k), MEAS_TASK_START_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	err = meas_taskcheck_start(&k);
	if (err)
		return err;
	code = task_start(&k, file, &file_errno);
	if (code == -EFAULT)
		return code;
	err = code < 0 ? code : meas_rc_errno(MEAS_RC_TASK, code);
	k.result = code < 0 ? MEAS_TASK_SYSERR : code;
	k.file_errno = file_errno;
	return meas_uarg_copy_out(u, &k, sizeof(k), usize, err);
}

/* ---- stop ------------------------------------------------------------ */

/* The measurement of the process @vpid names, with a reference. */
static int task_stop_find(pid_t vpid, struct meas_task **mp)
{
	struct task_struct *t = task_lookup(vpid);
	struct meas_task *m;

	if (!t)
		return MEAS_TASK_NOTASK;
	mutex_lock(&task_mutex);
	m = meas_task_find(t->tgid);
	if (m)
		meas_task_get(m);
	mutex_unlock(&task_mutex);
	put_task_struct(t);
	if (!m)
		return MEAS_TASK_NOTMEASURED;
	if (!perfmon_capable() && !uid_eq(m->uid, current_euid())) {
		meas_task_put(m);
		return MEAS_TASK_NOTALLOWED;
	}
	*mp = m;
	return MEAS_TASK_OK;
}

static long task_stop_ioctl(void __user *u)
{
	struct meas_task_stop k;
	struct meas_task *m;
	long usize, err;
	int code;

	usize = meas_uarg_copy_in(&k, sizeof(k), MEAS_TASK_STOP_SIZE_VER0, u);
	if (usize < 0)
		return usize;
	err = meas_taskcheck_stop(&k);
	if (err)
		return err;
	code = task_stop_find(k.pid, &m);
	if (!code) {
		/* ended meanwhile by its exit: not measured any more */
		code = task_end(m, MEAS_TASK_END_STOP) ?
		       (m->werr ? MEAS_TASK_FILEIO : MEAS_TASK_OK) :
		       MEAS_TASK_NOTMEASURED;
		k.session = m->session;
		k.samples = m->written_samples;
		k.kernel_samples = atomic64_read(&m->ksamples);
		k.svcs = m->written_svcs;
		k.lost = m->lost_total;
		meas_task_put(m);
	}
	k.result = code;
	return meas_uarg_copy_out(u, &k, sizeof(k), usize,
				  meas_rc_errno(MEAS_RC_TASK, code));
}

long meas_task_ioctl(struct file *file, unsigned int cmd, void __user *u)
{
	if (cmd == MEAS_IOC_TASK_START)
		return task_start_ioctl(file, u);
	return task_stop_ioctl(u);
}

/* ---- the measuring side going away ----------------------------------- */

/* The first measurement @owner started (any if NULL), with a reference. */
static struct meas_task *task_first(struct file *owner)
{
	struct meas_task *m;

	mutex_lock(&task_mutex);
	list_for_each_entry(m, &task_list, list)
		if (!owner || m->owner == owner) {
			meas_task_get(m);
			mutex_unlock(&task_mutex);
			return m;
		}
	mutex_unlock(&task_mutex);
	return NULL;
}

/* /dev/meas file released: end what it started with MEAS_TASK_OWNED. */
void meas_task_release(struct file *file)
{
	struct meas_task *m;

	while ((m = task_first(file))) {
		task_end(m, MEAS_TASK_END_RELEASE);
		meas_task_put(m);
	}
}

int meas_task_init(void)
{
	meas_task_wq = alloc_workqueue("meas_task", WQ_UNBOUND, 0);
	if (!meas_task_wq)
		return -ENOMEM;
	meas_taskprobe_init();
	return 0;
}

/* Module unload ends every measurement, as stopping SM2 did. */
void meas_task_exit(void)
{
	struct meas_task *m;

	while ((m = task_first(NULL))) {
		task_end(m, MEAS_TASK_END_UNLOAD);
		meas_task_put(m);
	}
	meas_taskprobe_exit();
	destroy_workqueue(meas_task_wq);
}
