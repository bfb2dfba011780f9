// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement: START-TASK-MEASUREMENT and STOP-TASK-MEASUREMENT
 * (MEAS_IOC_TASK_START, MEAS_IOC_TASK_STOP), and the list of running
 * measurements.  A measurement is not tied to the file that started it
 * (unless MEAS_TASK_OWNED): it ends with STOP or with the process's
 * exit, and the module cannot be unloaded while it runs.
 *
 * task_mutex serialises start and end, and is never held across I/O: the
 * caller's path and file are opened before it is taken, the file written
 * after.  The probes find a measurement by the process in an RCU hash
 * table (tasktab.c), which task.c enters it in and removes it from.
 * Who may measure whom is ptrace's rule (core/access.c), checked under
 * the target's exec_update_lock from the check to the publication,
 * as perf_event_open() does: a set-user-ID exec cannot come between.
 */
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
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
#include "core/access.h"
#include "core/params.h"
#include "core/uarg.h"
#include "core/inject.h"
#include "logic/rescode.h"
#include "logic/taskcheck.h"
#include "taskdef.h"
#include "taskring.h"
#include "taskfile.h"
#include "tasktab.h"
#include "taskload.h"
#include "taskprobe.h"
#include "task.h"

#define TASK_TICK	(HZ / 5)	/* the writer's period */
/* the longest a STOP or a release waits for the file */
#define TASK_END_WAIT	msecs_to_jiffies(MEAS_TASK_END_WAIT_MS)

static DEFINE_MUTEX(task_mutex);
static LIST_HEAD(task_list);
static unsigned int task_count;
static u64 task_sessions;

/* ---- the end --------------------------------------------------------- */

static void task_tick(struct work_struct *w)
{
	struct meas_task *m = container_of(to_delayed_work(w),
					   struct meas_task, tick);

	mutex_lock(&m->wlock);
	meas_taskfile_drain(m);
	mutex_unlock(&m->wlock);
	if (!READ_ONCE(m->ending))
		queue_delayed_work(meas_tasktab_wq, &m->tick, TASK_TICK);
}

/*
 * The end's file part, on the workqueue, once the probes let go: last
 * events, the end's load information, the END record, the file closed.
 * The file is the starter's and may not answer (a FUSE daemon that
 * stopped), so nothing that must return (STOP, a release, the kernel's
 * delayed fput) waits here longer than TASK_END_WAIT (task_end()).
 * Takes the table's reference over.
 */
static void task_finish_work(struct work_struct *w)
{
	struct meas_task *m = container_of(w, struct meas_task, finwork);

	cancel_delayed_work_sync(&m->tick);
	cancel_work_sync(&m->drain);
	mutex_lock(&m->vmlock);
	m->closed = true;		/* callbacks still queued do nothing */
	mutex_lock(&m->wlock);
	meas_taskfile_drain(m);
	meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_END, m->gen, true);
	meas_taskload_free(m);
	meas_taskfile_end(m, m->cpu_ns);
	mutex_unlock(&m->wlock);
	mutex_unlock(&m->vmlock);
	/* a callback waiting for room may have kicked the writer again */
	cancel_work_sync(&m->drain);
	meas_taskfile_close(m);
	complete_all(&m->finished);
	meas_tasktab_put(m);	/* the table's reference */
}

/*
 * Wait up to @wait for the end's file part.  Past it, give the file up:
 * what is still buffered is dropped and counted, and the END says so
 * when the file answers again.  @wait 0: no one waits, the file is not
 * given up.
 */
static void task_wait_file(struct meas_task *m, unsigned long wait)
{
	if (!wait || wait_for_completion_timeout(&m->finished, wait))
		return;
	set_bit(MEAS_TASK_ABORTED, &m->bits);
	pr_warn_ratelimited("task measurement %llu: its file did not answer for %u ms, given up\n",
			    m->session, MEAS_TASK_END_WAIT_MS);
}

/*
 * End @m for @reason unless it is ending already: the probes and CPU
 * clocks here, the file on the workqueue, waited for up to @wait.
 */
static bool task_end(struct meas_task *m, u32 reason, unsigned long wait)
{
	mutex_lock(&task_mutex);
	if (m->ending) {
		mutex_unlock(&task_mutex);
		return false;
	}
	WRITE_ONCE(m->ending, true);
	m->reason = reason;
	meas_tasktab_del(m);
	list_del(&m->list);
	task_count--;
	meas_taskprobe_put(m);
	mutex_unlock(&task_mutex);
	m->cpu_ns = meas_taskprobe_release_events(m);
	tracepoint_synchronize_unregister();	/* no probe still sees m */
	queue_work(meas_tasktab_wq, &m->finwork);
	task_wait_file(m, wait);
	return true;
}

static void task_end_work(struct work_struct *w)
{
	struct meas_task *m = container_of(w, struct meas_task, endwork);

	meas_inject_task_end_hold();
	task_end(m, m->async_reason, 0);	/* no one waits for it */
	meas_tasktab_put(m);
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
	INIT_WORK(&m->finwork, task_finish_work);
	init_completion(&m->finished);
	m->flags = k->flags;
	m->pcounter_ms = k->pcounter_ms;
	m->load_info = k->load_info;
	m->uid = current_euid();
	m->privileged = perfmon_capable();
	m->owner = k->flags & MEAS_TASK_OWNED ? file : NULL;
	/* no writer before the first records are in the file (task_begin()) */
	set_bit(MEAS_TASK_KICKED, &m->bits);
	if (meas_taskring_init(&m->ring, meas_param_task_ring_kib) ||
	    meas_taskfile_alloc(m)) {
		meas_taskring_free(&m->ring);
		meas_taskfile_free(m);
		kfree(m);
		return NULL;
	}
	/*
	 * The module stays while a measurement, its end or a callback it
	 * queued may still run its code (the last reference gives it back,
	 * meas_tasktab_put()): its end may wait on the starter's file,
	 * which the module's exit could not wait for without bound.  We
	 * run in an ioctl of an open /dev/meas, which holds the module.
	 */
	__module_get(THIS_MODULE);
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

/* Whether the caller may measure @t: a MEAS_TASK_* code. */
static int task_check(struct task_struct *t)
{
	struct meas_looker l;

	if (!task_measurable(t))
		return MEAS_TASK_NOTASK;
	if (perfmon_capable())
		return MEAS_TASK_OK;
	meas_access_current(&l, false);
	return meas_access_task(&l, t) ? MEAS_TASK_OK : MEAS_TASK_NOTALLOWED;
}

/* Undo a start that got as far as the clocks, and the probes if @probes. */
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
static int task_file_free(struct file *f)
{
	struct meas_task *other;

	list_for_each_entry(other, &task_list, list)
		if (meas_taskfile_uses(other, f))
			return MEAS_TASK_BADFILE;
	return MEAS_TASK_OK;
}

/*
 * A quarter of max_tasks is kept for starters with CAP_PERFMON or
 * CAP_SYS_ADMIN: the members of group meas, each at max_tasks_per_user,
 * would otherwise fill it and refuse root too.
 */
#define TASK_PRIV_SHARE	4

/*
 * NPS0065: max_tasks run; or, for a starter without privilege, its user
 * has max_tasks_per_user, or such starters together have all but the
 * privileged share.  Under task_mutex.
 */
static bool task_over_limit(struct meas_task *m)
{
	unsigned int all = 0, mine = 0;
	struct meas_task *other;

	if (task_count >= meas_param_max_tasks)
		return true;
	if (m->privileged)
		return false;
	list_for_each_entry(other, &task_list, list) {
		all += !other->privileged;
		mine += !other->privileged && uid_eq(other->uid, m->uid);
	}
	return mine >= meas_param_max_tasks_per_user ||
	       all >= meas_param_max_tasks -
		      meas_param_max_tasks / TASK_PRIV_SHARE;
}

/*
 * The process's address space, name and CPU clocks, for the program just
 * checked; under its exec_update_lock.
 */
static int task_attach(struct meas_task *m)
{
	int err;

	m->mm = get_task_mm(m->leader);
	if (!m->mm)
		return MEAS_TASK_NOTASK;
	get_task_comm(m->comm, m->leader);
	m->target_uid = task_uid(m->leader);
	err = meas_inject_task(1) ? -EINVAL :
	      meas_taskprobe_events(m, m->leader);
	if (err)
		return err == -ENOMEM ? -ENOMEM : -EIO;
	return MEAS_TASK_OK;
}

/*
 * Into the table, where the probes find it: under the exec_update_lock
 * and m->vmlock, task_mutex taken here, no I/O.
 */
static int task_publish(struct meas_task *m)
{
	int code, err;

	mutex_lock(&task_mutex);
	code = meas_tasktab_find(m->leader) ? MEAS_TASK_BUSY :
	       task_over_limit(m) ? MEAS_TASK_LIMIT : MEAS_TASK_OK;
	if (!code) {
		err = meas_taskprobe_get(m);
		if (err)
			code = err == -ENOMEM ? -ENOMEM : -EIO;
	}
	if (!code) {
		m->session = ++task_sessions;
		meas_tasktab_add(m);
		list_add_tail(&m->list, &task_list);
		task_count++;
		meas_tasktab_get(m);	/* a STOP may end it once unlocked */
	}
	mutex_unlock(&task_mutex);
	return code;
}

/*
 * From the check to the publication under the target's exec_update_lock,
 * as perf_event_open() does: an exec waits until the probes are there
 * to see it (probe_exec()).  On success m->vmlock is held: the first
 * records go before anything the probes queue.
 */
static int task_enter(struct meas_task *m)
{
	struct rw_semaphore *lock = &m->leader->signal->exec_update_lock;
	int code;

	if (down_read_killable(lock))
		return -EINTR;
	code = task_check(m->leader) ?: task_attach(m);
	if (!code) {
		meas_inject_task_race(m->leader, m->mm, lock);
		mutex_lock(&m->vmlock);
		code = task_publish(m);
		if (code)
			mutex_unlock(&m->vmlock);
	}
	up_read(lock);
	return code;
}

/*
 * The caller's file, opened once the measurement is in the table, so
 * that a start refused makes none, under m->vmlock only: the caller's
 * file system answers as slowly as it likes, and holds up nothing but
 * this measurement.  On failure the measurement ends unwritten and
 * m->vmlock is released.
 */
static int task_open(struct meas_task *m, const char *path, bool std,
		     int *file_errno)
{
	struct file *f;
	int code;

	code = meas_taskfile_open(path, std, file_errno, &f);
	if (!code) {
		mutex_lock(&task_mutex);
		code = task_file_free(f);
		if (!code)
			meas_taskfile_use(m, f);
		mutex_unlock(&task_mutex);
		if (code)
			fput(f);
	}
	if (!code)
		return MEAS_TASK_OK;
	/* nothing to write to: the callbacks and the end write nothing */
	m->closed = true;
	m->werr = EBADF;
	mutex_unlock(&m->vmlock);
	task_end(m, MEAS_TASK_END_STOP, TASK_END_WAIT);
	return code;
}

/*
 * The session record and the start's load information, then the writer;
 * m->vmlock held, released here.  The file is the caller's: its I/O is
 * done under this measurement's locks only.
 */
static int task_begin(struct meas_task *m, int *file_errno)
{
	int err;

	mutex_lock(&m->wlock);
	meas_taskfile_session(m);
	meas_taskload_snapshot(m, m->mm, MEAS_TASK_LOAD_START, 0, true);
	err = meas_taskfile_flush(m);
	mutex_unlock(&m->wlock);
	mutex_unlock(&m->vmlock);
	clear_bit(MEAS_TASK_KICKED, &m->bits);
	if (err) {
		*file_errno = err;
		task_end(m, MEAS_TASK_END_STOP, TASK_END_WAIT);
		return MEAS_TASK_FILEIO;
	}
	queue_delayed_work(meas_tasktab_wq, &m->tick, TASK_TICK);
	if (meas_taskring_half_full(&m->ring) &&
	    !test_and_set_bit(MEAS_TASK_KICKED, &m->bits))
		queue_work(meas_tasktab_wq, &m->drain);
	return MEAS_TASK_OK;
}

/* Return: a MEAS_TASK_* code, or -ENOMEM / -EIO (NPS0050), -EFAULT, -EINTR. */
static int task_start(struct meas_task_start *k, struct file *file,
		      int *file_errno)
{
	const char __user *upath = k->path ? u64_to_user_ptr(k->path) : NULL;
	struct task_struct *t = task_lookup(k->pid);
	struct meas_task *m;
	char *path;
	int code = 0;

	if (!t)
		return MEAS_TASK_NOTASK;
	/* a first look: most refusals come before anything is made */
	code = task_check(t);
	if (code) {
		put_task_struct(t);
		return code;
	}
	k->pid = task_tgid_vnr(t);
	/* the caller's memory, before any lock: it may fault slowly */
	path = meas_taskfile_path(upath, k->pid, &code, file_errno);
	m = IS_ERR(path) ? NULL : task_alloc(k, file);
	if (!m) {
		put_task_struct(t);
		if (IS_ERR(path))
			return code ?: PTR_ERR(path);
		kfree(path);
		return -ENOMEM;
	}
	m->leader = t;
	m->tgid = t->tgid;
	m->signal = t->signal;
	meas_taskfile_root(m, t);
	code = task_enter(m);
	if (code)
		task_unwind(m, false);
	else
		code = task_open(m, path, !upath, file_errno) ?:
		       task_begin(m, file_errno);
	kfree(path);
	k->session = code ? 0 : m->session;
	/* It may have exited before the exit probe could see it. */
	if (!code && !atomic_read(&t->signal->live) &&
	    !test_and_set_bit(MEAS_TASK_EXITING, &m->bits))
		meas_tasktab_end_async(m, MEAS_TASK_END_EXIT);
	/*
	 * Published, the first reference is the table's (task_end() drops
	 * it) and this drops task_publish()'s; else it frees the start.
	 */
	meas_tasktab_put(m);
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
	m = meas_tasktab_find(t);
	if (m)
		meas_tasktab_get(m);
	mutex_unlock(&task_mutex);
	put_task_struct(t);
	if (!m)
		return MEAS_TASK_NOTMEASURED;
	if (!perfmon_capable() && !uid_eq(m->uid, current_euid())) {
		meas_tasktab_put(m);
		return MEAS_TASK_NOTALLOWED;
	}
	*mp = m;
	return MEAS_TASK_OK;
}

/*
 * What a STOP that ended @m tells: the END record's figures, or, if its
 * file was given up, those of the moment (the writer may still be
 * stuck in a write: read as they are) and NPS0067.
 */
static int task_stop_result(struct meas_task *m, struct meas_task_stop *k)
{
	k->session = m->session;
	k->kernel_samples = atomic64_read(&m->ksamples);
	if (test_bit(MEAS_TASK_ABORTED, &m->bits)) {
		/* the writer may change them meanwhile: a moment's figures */
		k->samples = data_race(READ_ONCE(m->written_samples));
		/* as above */
		k->svcs = data_race(READ_ONCE(m->written_svcs));
		/* as above */
		k->lost = data_race(READ_ONCE(m->lost_total));
		return MEAS_TASK_FILEIO;
	}
	k->samples = m->written_samples;
	k->svcs = m->written_svcs;
	k->lost = m->lost_total;
	return m->werr ? MEAS_TASK_FILEIO : MEAS_TASK_OK;
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
		code = task_end(m, MEAS_TASK_END_STOP, TASK_END_WAIT) ?
		       task_stop_result(m, &k) : MEAS_TASK_NOTMEASURED;
		meas_tasktab_put(m);
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

/* The first measurement @owner started, with a reference. */
static struct meas_task *task_first(struct file *owner)
{
	struct meas_task *m;

	mutex_lock(&task_mutex);
	list_for_each_entry(m, &task_list, list)
		if (m->owner == owner) {
			meas_tasktab_get(m);
			mutex_unlock(&task_mutex);
			return m;
		}
	mutex_unlock(&task_mutex);
	return NULL;
}

/*
 * /dev/meas file released: end what it started with MEAS_TASK_OWNED.  A
 * release in a kernel thread (the kernel's delayed fput, the unix
 * sockets' garbage collector on a file left in flight) holds up every
 * other deferred close: it waits for no file.  A process's close waits
 * up to TASK_END_WAIT, so that the file is complete when it returns.
 */
void meas_task_release(struct file *file)
{
	unsigned long wait = current->flags & PF_KTHREAD ? 0 : TASK_END_WAIT;
	struct meas_task *m;

	while ((m = task_first(file))) {
		task_end(m, MEAS_TASK_END_RELEASE, wait);
		meas_tasktab_put(m);
	}
}

int meas_task_init(void)
{
	int err = meas_tasktab_init();

	if (err)
		return err;
	meas_taskprobe_init();
	return 0;
}

/*
 * Module unload.  No measurement is left: each holds the module until
 * its last reference (task_alloc()), so the unload is refused while one
 * runs, ends or has a callback queued.
 */
void meas_task_exit(void)
{
	WARN_ON_ONCE(!list_empty(&task_list));
	meas_taskprobe_exit();
	meas_tasktab_exit();
}
