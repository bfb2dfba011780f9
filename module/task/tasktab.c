// SPDX-License-Identifier: GPL-2.0
/*
 * The table of running task measurements as their probes see it: a
 * measurement found by its process in an RCU hash table, its references,
 * its end asked from atomic context, an event that may wait for room in
 * its ring, and the workqueue its writer and its end run on.  Below the
 * probes (taskprobe.c, taskload.c) and the ioctls (task.c) that use it:
 * it calls only the ring and the file, to free them with the last
 * reference.  task.c enters and removes measurements under its
 * task_mutex, and gives each the work its end runs (m->endwork).
 */
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include "core/access.h"
#include "taskdef.h"
#include "taskring.h"
#include "taskfile.h"
#include "tasktab.h"

struct workqueue_struct *meas_tasktab_wq;
static DEFINE_HASHTABLE(task_hash, 6);

/* Enter @m where the probes find it; under task.c's task_mutex. */
void meas_tasktab_add(struct meas_task *m)
{
	hash_add_rcu(task_hash, &m->hnode, m->tgid);
}

/* Remove @m; under task_mutex.  Probes see it until a grace period. */
void meas_tasktab_del(struct meas_task *m)
{
	hash_del_rcu(&m->hnode);
}

/*
 * The measurement of the process of @p; under RCU or with preemption off.
 * By the process, not its number: a process that gets the PID of one
 * whose measurement has not ended yet is not that process.
 */
struct meas_task *meas_tasktab_find(const struct task_struct *p)
{
	const struct signal_struct *sig = READ_ONCE(p->signal);
	struct meas_task *m;

	hash_for_each_possible_rcu(task_hash, m, hnode, p->tgid)
		if (m->signal == sig)
			return m;
	return NULL;
}

void meas_tasktab_get(struct meas_task *m)
{
	refcount_inc(&m->ref);
}

/*
 * The last reference gives the module back (task.c's task_alloc() took
 * it), as the last thing done: from an ioctl, the open file still holds
 * the module; from the workqueue, the module's exit destroys the queue,
 * which waits for this work to return; from a callback in a measured
 * process, the exit waits with synchronize_rcu_tasks() for that process
 * to leave this code (meas_taskprobe_exit()).
 */
void meas_tasktab_put(struct meas_task *m)
{
	if (!refcount_dec_and_test(&m->ref))
		return;
	meas_taskring_free(&m->ring);
	meas_taskfile_free(m);
	put_task_struct(m->leader);
	kfree(m);
	module_put(THIS_MODULE);
}

/**
 * meas_tasktab_may_see_exec() - may the starter of @m see @t's new program
 * @m: the measurement
 * @t: a thread of it that executed a program (current)
 *
 * Judged on the starter's credentials, those its file was opened with,
 * as ptrace would judge the starter: a set-user-ID program is not its.
 * Under m->vmlock, the file open.
 *
 * Return: true if the measurement may go on.
 */
bool meas_tasktab_may_see_exec(struct meas_task *m, struct task_struct *t)
{
	struct meas_looker l;

	if (m->privileged)
		return true;
	meas_access_opener(&l, m->out);
	return meas_access_task(&l, t);
}

/**
 * meas_tasktab_end_async() - end a measurement from atomic context
 * @m: the measurement, seen under RCU or a held reference
 * @reason: MEAS_TASK_END_*
 */
void meas_tasktab_end_async(struct meas_task *m, u32 reason)
{
	/* the first reason wins; the work is queued once */
	if (READ_ONCE(m->ending) || cmpxchg(&m->async_reason, 0, reason))
		return;
	meas_tasktab_get(m);
	queue_work(meas_tasktab_wq, &m->endwork);
}

/*
 * Add @e from a context that may sleep, waiting up to a second at a time
 * for the writer to make room; a fatal signal or a writer that does not
 * drain ends the wait and the event is counted as lost.  The caller may
 * move to another CPU while it waits: its ring is the one it puts to.
 */
bool meas_tasktab_put_wait(struct meas_task *m, const struct meas_task_ev *e)
{
	struct meas_task_ring *r = &m->ring;
	int tries = 10;

	/* a file given up is not waited for: the event is lost, counted */
	while (!meas_taskring_has_room(r) && tries-- &&
	       !test_bit(MEAS_TASK_ABORTED, &m->bits)) {
		if (!test_and_set_bit(MEAS_TASK_KICKED, &m->bits))
			queue_work(meas_tasktab_wq, &m->drain);
		if (wait_event_killable_timeout(r->space,
						meas_taskring_has_room(r),
						HZ) < 0)
			break;
	}
	return meas_taskring_put(r, e);
}

int meas_tasktab_init(void)
{
	meas_tasktab_wq = alloc_workqueue("meas_task", WQ_UNBOUND, 0);
	return meas_tasktab_wq ? 0 : -ENOMEM;
}

void meas_tasktab_exit(void)
{
	destroy_workqueue(meas_tasktab_wq);
}
