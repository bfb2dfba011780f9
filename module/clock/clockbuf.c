// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer of the shared clock, the XDS1 of MPE IV: one ring of
 * fixed-size records per possible CPU in one vmalloc'd area, handed to
 * the owner as a descriptor of its own (not /dev/meas) that reads with
 * read(), waits with poll() and maps read-only with mmap().
 *
 * Each ring has one writer, the tick on its CPU, and no lock.  A full
 * ring is overwritten: the tick never waits for a reader.  A record is
 * stamped with its number + 1 last, after a write barrier, and cleared
 * first, so a reader that finds the expected stamp before and after it
 * copied the record has a whole one; otherwise the record was overwritten
 * meanwhile and read() counts it as lost, like those it skipped because
 * the ring had wrapped.  Readers of the mapping apply the same test.
 *
 * A reader that waits asks for a wake-up (want_wake); the tick, seeing
 * it, queues an irq_work that wakes the wait queue, since the tick itself
 * takes no lock.  The area lives until the clock has let go of it and the
 * last descriptor and mapping are gone (a reference count).
 */
#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include "clock.h"
#include "logic/clockrule.h"
#include "core/compat.h"
#include "core/inject.h"

static unsigned int max_clock_kib = 64 * 1024;
module_param(max_clock_kib, uint, 0644);
MODULE_PARM_DESC(max_clock_kib,
		 "Largest shared clock buffer in KiB; above it GETCLOCK returns 6 (default 65536)");

struct meas_clockbuf {
	struct kref ref;
	void *area;		/* vmalloc_user(), mapped by readers */
	struct meas_clockbuf_head *head;
	struct meas_clockbuf_ring *rings;
	u8 *data;
	struct meas_clockbuf_geom geom;
	u32 record_size;
	u32 nr_rings;
	struct mutex read_lock;	/* read(): the tails, lost, next_ring */
	unsigned int next_ring;	/* where the next read() starts */
	wait_queue_head_t wq;
	struct irq_work work;	/* the tick's wake-up */
	bool want_wake;		/* a reader waits */
};

static void *cb_slot(struct meas_clockbuf *buf, unsigned int cpu, u64 idx)
{
	return buf->data + cpu * buf->geom.stride +
	       (idx & (buf->geom.records - 1)) * buf->record_size;
}

/* ---- the tick side: hard interrupt context, this CPU's ring only ---- */

/**
 * meas_clockbuf_tick() - count a tick of @cpu
 * @buf: the buffer
 * @cpu: the CPU ticking, the caller's
 * @missed: expiries missed just before
 */
void meas_clockbuf_tick(struct meas_clockbuf *buf, unsigned int cpu,
			u64 missed)
{
	struct meas_clockbuf_ring *ring = &buf->rings[cpu];

	WRITE_ONCE(ring->ticks, ring->ticks + 1);
	if (missed)
		WRITE_ONCE(ring->missed, ring->missed + missed);
}

/**
 * meas_clockbuf_begin() - the next record of @cpu's ring, header filled
 * @buf: the buffer
 * @cpu: the CPU ticking, the caller's
 * @missed: ticks missed just before this one
 * @idx: out: the record's number, for meas_clockbuf_commit()
 *
 * Return: the record; its stamp reads 0 until it is committed.
 */
void *meas_clockbuf_begin(struct meas_clockbuf *buf, unsigned int cpu,
			  u64 missed, u64 *idx)
{
	struct meas_clock_rec *rec;

	*idx = buf->rings[cpu].head;
	rec = cb_slot(buf, cpu, *idx);
	WRITE_ONCE(rec->seq, 0);
	/* The cleared stamp is visible before any byte of the new record. */
	smp_wmb();
	rec->time = ktime_get_ns();
	rec->missed = missed;
	rec->cpu = cpu;
	rec->flags = 0;
	return rec;
}

/**
 * meas_clockbuf_commit() - publish a record filled since begin
 * @buf: the buffer
 * @cpu: the CPU ticking
 * @rec: the record meas_clockbuf_begin() returned
 * @idx: its number
 */
void meas_clockbuf_commit(struct meas_clockbuf *buf, unsigned int cpu,
			  void *rec, u64 idx)
{
	struct meas_clockbuf_ring *ring = &buf->rings[cpu];
	struct meas_clock_rec *r = rec;

	/* The record's bytes before its stamp; pairs with cb_read_ring(). */
	smp_wmb();
	WRITE_ONCE(r->seq, idx + 1);
	/* The stamp before head: a reader seeing head sees the record. */
	smp_store_release(&ring->head, idx + 1);
	/* Orders head before want_wake; pairs with cb_want_wake(). */
	smp_mb();
	if (READ_ONCE(buf->want_wake) &&
	    idx + 1 - READ_ONCE(ring->tail) >= buf->geom.wakeup)
		irq_work_queue(&buf->work);
}

static void cb_wake(struct irq_work *work)
{
	struct meas_clockbuf *buf = container_of(work, struct meas_clockbuf,
						 work);

	WRITE_ONCE(buf->want_wake, false);
	wake_up_interruptible_poll(&buf->wq, EPOLLIN | EPOLLRDNORM);
}

/* ---- the reader side ---- */

static bool cb_ticking(struct meas_clockbuf *buf)
{
	return READ_ONCE(buf->head->state) == MEAS_CLOCK_TICKING;
}

/* A ring holds @min unread records. */
static bool cb_ready(struct meas_clockbuf *buf)
{
	u64 min = cb_ticking(buf) ? buf->geom.wakeup : 1;
	unsigned int cpu;

	for (cpu = 0; cpu < buf->nr_rings; cpu++) {
		struct meas_clockbuf_ring *ring = &buf->rings[cpu];

		/* acquire: pairs with the release of head in commit */
		if (smp_load_acquire(&ring->head) - READ_ONCE(ring->tail) >= min)
			return true;
	}
	return false;
}

/* Ask the ticks for a wake-up, then look: no record slips in between. */
static bool cb_want_wake(struct meas_clockbuf *buf)
{
	WRITE_ONCE(buf->want_wake, true);
	/* want_wake before head; pairs with the full barrier in commit. */
	smp_mb();
	return cb_ready(buf) || !cb_ticking(buf);
}

/*
 * Skip what the ring has overwritten: the oldest record still there is
 * head - records, and the one at head may be being written right now.
 */
static u64 cb_skip(struct meas_clockbuf *buf, u64 head, u64 *tail)
{
	u64 lost = 0;

	if (head - *tail > buf->geom.records) {
		lost = head - buf->geom.records - *tail;
		*tail = head - buf->geom.records;
	}
	return lost;
}

/* Copy whole records of one ring; under read_lock. */
static ssize_t cb_read_ring(struct meas_clockbuf *buf, unsigned int cpu,
			    char __user *ubuf, size_t room)
{
	struct meas_clockbuf_ring *ring = &buf->rings[cpu];
	u64 tail = ring->tail, head, s1, s2, lost;
	struct meas_clock_rec *rec;
	ssize_t done = 0;

	/* acquire: the records up to head are stamped */
	head = smp_load_acquire(&ring->head);
	lost = cb_skip(buf, head, &tail);
	while (tail != head && room - done >= buf->record_size) {
		rec = cb_slot(buf, cpu, tail);
		s1 = READ_ONCE(rec->seq);
		/* The stamp before the bytes; pairs with commit's smp_wmb(). */
		smp_rmb();
		if (copy_to_user(ubuf + done, rec, buf->record_size)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		/* The bytes before the stamp again; pairs with begin's. */
		smp_rmb();
		s2 = READ_ONCE(rec->seq);
		if (s1 == tail + 1 && s2 == s1) {
			done += buf->record_size;
			tail++;
			continue;
		}
		/* Overwritten while we looked: count it, catch up. */
		lost++;
		tail++;
		/* acquire, as above */
		head = smp_load_acquire(&ring->head);
		lost += cb_skip(buf, head, &tail);
	}
	WRITE_ONCE(ring->tail, tail);
	if (lost)
		WRITE_ONCE(ring->lost, ring->lost + lost);
	return done;
}

/* Fill @ubuf from the rings in turn, starting one further each call. */
static ssize_t cb_copy(struct meas_clockbuf *buf, char __user *ubuf,
		       size_t count)
{
	ssize_t done = 0, n;
	unsigned int i, cpu;

	for (i = 0; i < buf->nr_rings; i++) {
		if (count - done < buf->record_size)
			break;
		cpu = (buf->next_ring + i) % buf->nr_rings;
		n = cb_read_ring(buf, cpu, ubuf + done, count - done);
		if (n < 0) {
			if (!done)
				done = n;
			break;
		}
		done += n;
	}
	buf->next_ring = (buf->next_ring + 1) % buf->nr_rings;
	return done;
}

/*
 * Whole records, oldest first per ring.  Blocks while the clock ticks and
 * nothing is unread; returns 0 when nothing is unread and the clock is
 * paused or released.
 */
static ssize_t cb_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	struct meas_clockbuf *buf = file->private_data;
	ssize_t n;

	if (count < buf->record_size)
		return -EINVAL;
	for (;;) {
		if (mutex_lock_interruptible(&buf->read_lock))
			return -ERESTARTSYS;
		n = cb_copy(buf, ubuf, count);
		mutex_unlock(&buf->read_lock);
		if (n)
			return n;
		if (!cb_ticking(buf))
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(buf->wq, cb_want_wake(buf)))
			return -ERESTARTSYS;
	}
}

static __poll_t cb_poll(struct file *file, poll_table *pt)
{
	struct meas_clockbuf *buf = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &buf->wq, pt);
	cb_want_wake(buf);
	if (cb_ready(buf))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(buf->head->state) == MEAS_CLOCK_RELEASED)
		mask |= EPOLLHUP;
	return mask;
}

/*
 * Read-only: the counters and records are the kernel's to write.  Never
 * executable either, now or by a later mprotect(): the buffer is data.
 */
static int cb_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct meas_clockbuf *buf = file->private_data;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	meas_vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	return remap_vmalloc_range(vma, buf->area, vma->vm_pgoff);
}

static void cb_free(struct kref *ref)
{
	struct meas_clockbuf *buf = container_of(ref, struct meas_clockbuf,
						 ref);

	irq_work_sync(&buf->work);
	vfree(buf->area);
	kfree(buf);
}

/**
 * meas_clockbuf_put() - drop a reference
 * @buf: the buffer; freed with the last reference
 */
void meas_clockbuf_put(struct meas_clockbuf *buf)
{
	kref_put(&buf->ref, cb_free);
}

static int cb_release(struct inode *inode, struct file *file)
{
	meas_clockbuf_put(file->private_data);
	return 0;
}

static const struct file_operations cb_fops = {
	.owner		= THIS_MODULE,
	.read		= cb_read,
	.poll		= cb_poll,
	.mmap		= cb_mmap,
	.release	= cb_release,
	.llseek		= noop_llseek,
};

/* ---- the clock's side ---- */

static void cb_format(struct meas_clockbuf *buf, u32 collector)
{
	struct meas_clockbuf_head *h = buf->head;

	h->magic = MEAS_CLOCKBUF_MAGIC;
	h->version = MEAS_CLOCKBUF_VERSION;
	h->collector = collector;
	h->record_size = buf->record_size;
	h->nr_rings = buf->nr_rings;
	h->ring_records = buf->geom.records;
	h->ring_offset = buf->geom.ring_offset;
	h->data_offset = buf->geom.data_offset;
	h->ring_stride = buf->geom.stride;
	h->map_size = buf->geom.size;
	h->state = MEAS_CLOCK_OWNED;
	h->wakeup = buf->geom.wakeup;
}

/**
 * meas_clockbuf_create() - allocate and format a buffer
 * @coll: the collector that will write it
 * @records: records per ring asked, 0 for the default
 * @wakeup: wake-up threshold asked, 0 for 1
 * @out: out: the buffer, one reference
 * @err: out: the errno of a failure
 *
 * Return: MEAS_GETCLOCK_OK or MEAS_GETCLOCK_NOBUF.
 */
int meas_clockbuf_create(const struct meas_collector *coll, u32 records,
			 u32 wakeup, struct meas_clockbuf **out, int *err)
{
	struct meas_clockbuf *buf;
	struct meas_clockbuf_geom g;
	int rc;

	rc = meas_clock_rule_buffer(records, wakeup, coll->record_size,
				    nr_cpu_ids, PAGE_SIZE,
				    (u64)READ_ONCE(max_clock_kib) * 1024, &g);
	if (rc) {
		*err = rc == MEAS_CLOCKBUF_TOOBIG ? -E2BIG : -EINVAL;
		return MEAS_GETCLOCK_NOBUF;
	}
	*err = -ENOMEM;
	/* More than the machine has: fail quietly rather than warn. */
	if (meas_inject_clock(MEAS_GETCLOCK_NOBUF) ||
	    g.size >> PAGE_SHIFT > totalram_pages())
		return MEAS_GETCLOCK_NOBUF;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return MEAS_GETCLOCK_NOBUF;
	buf->area = vmalloc_user(g.size);
	if (!buf->area) {
		kfree(buf);
		return MEAS_GETCLOCK_NOBUF;
	}
	buf->geom = g;
	buf->record_size = coll->record_size;
	buf->nr_rings = nr_cpu_ids;
	buf->head = buf->area;
	buf->rings = buf->area + g.ring_offset;
	buf->data = buf->area + g.data_offset;
	kref_init(&buf->ref);
	mutex_init(&buf->read_lock);
	init_waitqueue_head(&buf->wq);
	init_irq_work(&buf->work, cb_wake);
	cb_format(buf, coll->id);
	*out = buf;
	*err = 0;
	return MEAS_GETCLOCK_OK;
}

/**
 * meas_clockbuf_file() - a new open file reading @buf
 * @buf: the buffer; the file takes a reference of its own
 *
 * Return: the file (O_RDONLY), or an ERR_PTR.
 */
struct file *meas_clockbuf_file(struct meas_clockbuf *buf)
{
	struct file *file;

	kref_get(&buf->ref);
	file = anon_inode_getfile("[meas_clock]", &cb_fops, buf, O_RDONLY);
	if (IS_ERR(file))
		meas_clockbuf_put(buf);
	return file;
}

/**
 * meas_clockbuf_set_state() - tell readers how the clock stands
 * @buf: the buffer
 * @state: MEAS_CLOCK_OWNED, _TICKING or _RELEASED
 * @intrate: the granted interval while ticking, else 0
 *
 * Wakes every reader: a paused or released clock ends their wait.
 */
void meas_clockbuf_set_state(struct meas_clockbuf *buf, u32 state,
			     u32 intrate)
{
	WRITE_ONCE(buf->head->intrate, intrate);
	WRITE_ONCE(buf->head->state, state);
	wake_up_interruptible_all(&buf->wq);
}

/**
 * meas_clockbuf_quiesce() - wait for a wake-up the last ticks queued
 * @buf: the buffer, whose ticks have all been cancelled
 */
void meas_clockbuf_quiesce(struct meas_clockbuf *buf)
{
	irq_work_sync(&buf->work);
}

/**
 * meas_clockbuf_totals() - sums over the rings
 * @buf: the buffer
 * @ticks: out: expiries handled
 * @missed: out: expiries missed
 * @written: out: records written
 */
void meas_clockbuf_totals(struct meas_clockbuf *buf, u64 *ticks,
			  u64 *missed, u64 *written)
{
	unsigned int cpu;

	*ticks = *missed = *written = 0;
	for (cpu = 0; cpu < buf->nr_rings; cpu++) {
		*ticks += READ_ONCE(buf->rings[cpu].ticks);
		*missed += READ_ONCE(buf->rings[cpu].missed);
		/* plain snapshot of a counter: no ordering needed */
		*written += READ_ONCE(buf->rings[cpu].head);
	}
}

/**
 * meas_clockbuf_records() - records per ring
 * @buf: the buffer
 *
 * Return: the ring size.
 */
u32 meas_clockbuf_records(struct meas_clockbuf *buf)
{
	return buf->geom.records;
}
