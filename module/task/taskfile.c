// SPDX-License-Identifier: GPL-2.0
/*
 * The file of a task measurement: opened for append with the caller's
 * credentials, and written only by the measurement's writer, which turns
 * the ring's events into records (uapi/linux/meas_task.h).  Paths are
 * resolved here, in process context, not in the probes.
 */
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/file.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/utsname.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include <linux/kdev_t.h>
#include <linux/err.h>
#include <linux/fs_struct.h>
#include <linux/sched/signal.h>
#include "taskdef.h"
#include "taskring.h"
#include "taskfile.h"
#include "logic/taskcheck.h"
#include "core/compat.h"

#define TASK_WBUF	(64 * 1024)
#define TASK_BATCH	64

/*
 * Not a regular file; or, at the standard name, an existing file of
 * another user, or another name of a file: where fs.protected_hardlinks
 * is 0, any user may link a file of the starter's there, in /var/tmp,
 * and the measurement would append to it.
 */
static int file_kind_ok(struct file *f, bool std)
{
	struct inode *inode = file_inode(f);

	if (!S_ISREG(inode->i_mode))
		return MEAS_TASK_BADFILE;
	if (std && (!uid_eq(inode->i_uid, current_fsuid()) ||
		    READ_ONCE(inode->i_nlink) != 1))
		return MEAS_TASK_BADFILE;
	return MEAS_TASK_OK;
}

/* A non-empty file must begin with a session record of ours. */
static int file_format_ok(struct file *f, int *file_errno)
{
	struct meas_trec_session head;
	loff_t pos = 0;
	ssize_t n;

	if (!i_size_read(file_inode(f)))
		return MEAS_TASK_OK;
	n = kernel_read(f, &head, offsetof(struct meas_trec_session, version),
			&pos);
	if (n < 0) {
		*file_errno = -n;
		return MEAS_TASK_FILEIO;
	}
	return meas_taskcheck_is_taskfile(&head, n) ? MEAS_TASK_OK :
						      MEAS_TASK_BADFILE;
}

/**
 * meas_taskfile_path() - the path the caller named, or the standard one
 * @upath: the caller's path, NULL for the standard file
 * @vpid: the measured process as the caller names it (standard name)
 * @code: set to MEAS_TASK_FILEIO for a path without its NUL
 * @file_errno: set with it
 *
 * In the caller's context, before any lock: the caller's memory may
 * fault as slowly as it likes.
 *
 * Return: the path (kfree() it), or an ERR_PTR().
 */
char *meas_taskfile_path(const char __user *upath, int vpid, int *code,
			 int *file_errno)
{
	char *path;

	if (!upath)
		return kasprintf(GFP_KERNEL, MEAS_TASK_STD_FMT,
				 from_kuid_munged(current_user_ns(),
						  current_uid()), vpid) ?:
			ERR_PTR(-ENOMEM);
	path = strndup_user(upath, MEAS_TASK_PATH_MAX);
	if (PTR_ERR(path) == -EINVAL) {	/* no NUL within PATH_MAX */
		*code = MEAS_TASK_FILEIO;
		*file_errno = ENAMETOOLONG;
	}
	return path;
}

/* Refuse what is not a regular file before opening it: a FIFO would block. */
static int file_precheck(const char *path, bool std)
{
	struct path p;
	int code = MEAS_TASK_OK;

	if (kern_path(path, std ? 0 : LOOKUP_FOLLOW, &p))
		return MEAS_TASK_OK;	/* missing: created, or open says why */
	if (!d_is_reg(p.dentry))
		code = MEAS_TASK_BADFILE;
	path_put(&p);
	return code;
}

/**
 * meas_taskfile_open() - open the file of a measurement for append
 * @path: from meas_taskfile_path()
 * @std: it is the standard file
 * @file_errno: set for MEAS_TASK_FILEIO
 * @fp: the file, on success
 *
 * With the caller's credentials, in its context: the caller's file
 * system answers as slowly as it likes, so no lock but the
 * measurement's own may be held.
 *
 * Return: a MEAS_TASK_* code.
 */
int meas_taskfile_open(const char *path, bool std, int *file_errno,
		       struct file **fp)
{
	int flags = O_RDWR | O_APPEND | O_CREAT | O_LARGEFILE | O_NONBLOCK |
		    O_CLOEXEC | (std ? O_NOFOLLOW : 0);
	struct file *f;
	int code;

	code = file_precheck(path, std);
	if (code)
		return code;
	f = filp_open(path, flags, 0600);
	if (IS_ERR(f)) {
		/* a symbolic link planted at the standard name */
		code = std && PTR_ERR(f) == -ELOOP ? MEAS_TASK_BADFILE :
						      MEAS_TASK_FILEIO;
		*file_errno = code == MEAS_TASK_FILEIO ? -PTR_ERR(f) : 0;
		return code;
	}
	code = file_kind_ok(f, std) ?: file_format_ok(f, file_errno);
	if (code)
		fput(f);
	else
		*fp = f;
	return code;
}

/**
 * meas_taskfile_use() - write to @f from now on
 * @m: the measurement
 * @f: from meas_taskfile_open(); @m holds its reference now
 *
 * The file keeps growing up to the starter's RLIMIT_FSIZE, which the
 * writer (a kernel worker, whose own limit is infinite) applies, and
 * within the starter's quota: the writer writes with the file's
 * credentials (meas_taskfile_flush()).
 */
void meas_taskfile_use(struct meas_task *m, struct file *f)
{
	m->out = f;
	m->fbytes = i_size_read(file_inode(f));
	m->fsize_max = rlimit(RLIMIT_FSIZE);
}

/* ---- the writer ------------------------------------------------------ */

/* Whether the end gave up on the file: nothing more is written to it. */
static bool file_aborted(struct meas_task *m, bool end)
{
	return !end && test_bit(MEAS_TASK_ABORTED, &m->bits);
}

/*
 * Write what is buffered (@end: the END record, which is written even
 * after the end gave up on the file); after an error, later records are
 * dropped and counted.  With the credentials the file was opened with,
 * the starter's, not the writer's: a kernel worker is root with every
 * capability, and quotas (dquot's ignore_hardlimit()) and ext4's
 * reserved blocks would let it write past the starter's limits
 * (CAP_SYS_RESOURCE).
 */
static int file_flush(struct meas_task *m, bool end)
{
	const struct cred *old;
	size_t done = 0;
	loff_t pos = 0;
	ssize_t n;

	if (!m->werr && file_aborted(m, end))
		m->werr = ETIMEDOUT;
	if (!m->werr && m->wlen) {
		old = override_creds(m->out->f_cred);
		while (!m->werr && done < m->wlen) {
			n = kernel_write(m->out, m->wbuf + done,
					 m->wlen - done, &pos);
			if (n <= 0) {
				m->werr = n ? -n : EIO;
				pr_warn_ratelimited("task measurement %llu: write failed (%d), later records dropped\n",
						    m->session, m->werr);
			} else {
				done += n;
				m->fbytes += n;
			}
			if (!m->werr && file_aborted(m, end))
				m->werr = ETIMEDOUT;
		}
		revert_creds(old);
	}
	/* a buffer cut short counts whole: its last record is cut too */
	if (m->werr)
		m->dropped += m->wrecs;
	m->wrecs = 0;
	m->wlen = 0;
	return m->werr;
}

int meas_taskfile_flush(struct meas_task *m)
{
	return file_flush(m, false);
}

/*
 * A record that would take the file beyond the starter's RLIMIT_FSIZE:
 * what is buffered is written, and nothing after it, as after a write
 * error.  The file ends with the last whole record that fits.
 */
static void file_limit(struct meas_task *m, u32 size)
{
	if (m->werr || m->fbytes + m->wlen + size <= m->fsize_max)
		return;
	meas_taskfile_flush(m);
	if (m->werr)
		return;
	m->werr = EFBIG;
	pr_warn_ratelimited("task measurement %llu: file at the starter's RLIMIT_FSIZE, later records dropped\n",
			    m->session);
}

/* Room for @size bytes in the buffer, flushing it if needed; not zeroed. */
static void *file_room(struct meas_task *m, u32 size)
{
	void *p;

	file_limit(m, size);
	if (m->wlen + size > TASK_WBUF)
		meas_taskfile_flush(m);
	p = m->wbuf + m->wlen;
	m->wlen += size;
	m->wrecs++;
	return p;
}

/* The same, zeroed. */
static void *file_reserve(struct meas_task *m, u32 size)
{
	return memset(file_room(m, size), 0, size);
}

static void *rec_begin(struct meas_task *m, u16 type, u32 size, u32 tid,
		       u64 time)
{
	struct meas_trec *h = file_reserve(m, size);

	h->type = type;
	h->size = size;
	h->tid = tid;
	h->time_ns = time;
	return h;
}

/*
 * The name of a mapped object: its path as the measured process sees it,
 * or the special mapping's name.  d_path() resolves against the root of
 * the task that writes (a worker's is init's), so the process's own root,
 * resolved the same way, is cut off the front.
 */
static const char *object_name(struct meas_task *m,
			       const struct meas_task_ev *e)
{
	char *p, *r;
	size_t n;

	if (!e->file)
		return e->name ?: "[anon]";
	p = d_path(&e->file->f_path, m->pathbuf, PATH_MAX);
	if (IS_ERR(p))
		return "[unreachable]";
	if (!m->root.mnt)
		return p;
	r = d_path(&m->root, m->pathbuf + PATH_MAX, PATH_MAX);
	if (IS_ERR(r) || !strcmp(r, "/"))
		return p;
	n = strlen(r);
	return !strncmp(p, r, n) && p[n] == '/' ? p + n : p;
}

static void emit_object(struct meas_task *m, const struct meas_task_ev *e)
{
	const char *name = object_name(m, e);
	u32 len = strlen(name) + 1;
	struct meas_trec_object *o;
	struct inode *inode;

	o = rec_begin(m, e->type, meas_taskcheck_object_size(len), e->tid,
		      e->time);
	o->start = e->a;
	o->end = e->b;
	o->pgoff = e->c;
	if (e->file) {
		inode = file_inode(e->file);
		o->ino = inode->i_ino;
		o->dev = new_encode_dev(inode->i_sb->s_dev);
	}
	o->prot = e->prot;
	o->gen = e->gen;
	o->name_len = len;
	memcpy(o->name, name, len);
}

/**
 * meas_taskfile_emit() - encode one event as a record, under m->wlock
 * @m: the measurement
 * @e: the event
 *
 * Events use a, b and c as: SAMPLE ip; SVC ip, nr; OBJECT and MAP start,
 * end, pgoff; UNMAP start, end; LOAD_BEGIN and LOAD_END kind, objects.
 */
void meas_taskfile_emit(struct meas_task *m, const struct meas_task_ev *e)
{
	struct meas_trec_sample *s;
	struct meas_trec_svc *c;
	struct meas_trec_load *l;
	struct meas_trec_unmap *u;

	/*
	 * The records of every sample and system call are written whole,
	 * padding included, by a few stores: zeroing them first with
	 * memset() cost 48 instructions a system call under SVC statistics.
	 */
	switch (e->type) {
	case MEAS_TREC_SAMPLE:
		s = file_room(m, sizeof(*s));
		*s = (struct meas_trec_sample){
			.h = { .type = e->type, .size = sizeof(*s),
			       .tid = e->tid, .time_ns = e->time },
			.ip = e->a, .gen = e->gen,
		};
		m->written_samples++;
		break;
	case MEAS_TREC_SVC:
		c = file_room(m, sizeof(*c));
		*c = (struct meas_trec_svc){
			.h = { .type = e->type, .size = sizeof(*c),
			       .tid = e->tid, .time_ns = e->time },
			.ip = e->a, .nr = e->b, .flags = e->flags,
			.gen = e->gen,
		};
		m->written_svcs++;
		break;
	case MEAS_TREC_OBJECT:
	case MEAS_TREC_MAP:
		emit_object(m, e);
		break;
	case MEAS_TREC_UNMAP:
		u = rec_begin(m, e->type, sizeof(*u), e->tid, e->time);
		u->start = e->a;
		u->end = e->b;
		u->gen = e->gen;
		break;
	case MEAS_TREC_LOAD_BEGIN:
	case MEAS_TREC_LOAD_END:
	case MEAS_TREC_EXEC:
		l = rec_begin(m, e->type, sizeof(*l), e->tid, e->time);
		l->kind = e->a;
		l->gen = e->gen;
		l->objects = e->b;
		break;
	}
}

static void emit_lost(struct meas_task *m, u64 lost)
{
	struct meas_trec_lost *l;

	l = rec_begin(m, MEAS_TREC_LOST, sizeof(*l), 0, local_clock());
	l->count = lost;
	m->lost_total += lost;
}

/**
 * meas_taskfile_drain() - write every buffered event, under m->wlock
 * @m: the measurement
 */
void meas_taskfile_drain(struct meas_task *m)
{
	unsigned int i, n;
	u64 lost;

	lockdep_assert_held(&m->wlock);
	do {
		/* the events are written from their ring slots, not copied */
		n = meas_taskring_take(&m->ring, m->batch, TASK_BATCH, &lost,
				       READ_ONCE(m->closed));
		for (i = 0; i < n; i++) {
			meas_taskfile_emit(m, m->batch[i]);
			meas_taskring_ev_release(m->batch[i]);
		}
		meas_taskring_give_back(&m->ring);
		if (lost)
			emit_lost(m, lost);
	} while (n == TASK_BATCH);
	meas_taskfile_flush(m);
}

void meas_taskfile_drain_work(struct work_struct *w)
{
	struct meas_task *m = container_of(w, struct meas_task, drain);

	clear_bit(MEAS_TASK_KICKED, &m->bits);
	mutex_lock(&m->wlock);
	meas_taskfile_drain(m);
	mutex_unlock(&m->wlock);
}

/**
 * meas_taskfile_session() - the session record, under m->wlock
 * @m: the measurement; the process's name and user as it was checked
 *
 * Buffered: the flush that follows the start's load information writes
 * it.
 */
void meas_taskfile_session(struct meas_task *m)
{
	struct meas_trec_session *s;

	s = rec_begin(m, MEAS_TREC_SESSION, sizeof(*s), m->tgid,
		      local_clock());
	memcpy(s->magic, MEAS_TASK_MAGIC, sizeof(s->magic));
	s->version = MEAS_TASK_VERSION;
	s->flags = m->flags;
	s->session = m->session;
	s->realtime_ns = ktime_get_real_ns();
	s->pcounter_ms = m->pcounter_ms;
	s->load_info = m->load_info;
	s->uid = from_kuid_munged(current_user_ns(), m->uid);
	s->target_uid = from_kuid_munged(current_user_ns(), m->target_uid);
	s->page_size = PAGE_SIZE;
	s->audit_arch = MEAS_AUDIT_ARCH;
	memcpy(s->comm, m->comm, sizeof(s->comm));
	strscpy(s->release, init_utsname()->release, sizeof(s->release));
}

/**
 * meas_taskfile_end() - the end record, under m->wlock
 * @m: the measurement, its probes gone and its ring drained
 * @cpu_ns: CPU time of the process during the measurement
 */
void meas_taskfile_end(struct meas_task *m, u64 cpu_ns)
{
	bool aborted = test_bit(MEAS_TASK_ABORTED, &m->bits);
	struct meas_trec_end *e;

	/* what is buffered goes first, or is dropped: counted below */
	meas_taskfile_flush(m);
	e = rec_begin(m, MEAS_TREC_END, sizeof(*e), 0, local_clock());
	e->reason = m->reason;
	e->samples = m->written_samples;
	e->kernel_samples = atomic64_read(&m->ksamples);
	e->svcs = m->written_svcs;
	e->lost = m->lost_total;
	e->cpu_ns = cpu_ns;
	e->objects_dropped = atomic64_read(&m->objects_dropped);
	e->flags = aborted ? MEAS_TREC_END_ABORTED : 0;
	e->dropped = m->dropped;
	/* given up on, the file still gets its END where it can be written */
	if (aborted && m->werr == ETIMEDOUT)
		m->werr = 0;
	file_flush(m, true);
}

void meas_taskfile_close(struct meas_task *m)
{
	if (m->out)
		fput(m->out);
	m->out = NULL;
}

int meas_taskfile_alloc(struct meas_task *m)
{
	m->wbuf = kvmalloc(TASK_WBUF, GFP_KERNEL | __GFP_NOWARN);
	m->pathbuf = kmalloc(2 * PATH_MAX, GFP_KERNEL);	/* path, root */
	m->batch = kcalloc(TASK_BATCH, sizeof(*m->batch), GFP_KERNEL);
	return m->wbuf && m->pathbuf && m->batch ? 0 : -ENOMEM;
}

void meas_taskfile_free(struct meas_task *m)
{
	if (m->root.mnt)
		path_put(&m->root);
	kvfree(m->wbuf);
	kfree(m->pathbuf);
	kfree(m->batch);
}

/* Remember the root of the process @t, against which its paths are given. */
void meas_taskfile_root(struct meas_task *m, struct task_struct *t)
{
	task_lock(t);
	if (t->fs)
		get_fs_root(t->fs, &m->root);
	task_unlock(t);
}

/* Whether @m writes to @f. */
bool meas_taskfile_uses(struct meas_task *m, struct file *f)
{
	return m->out && file_inode(m->out) == file_inode(f);
}
