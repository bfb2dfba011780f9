// SPDX-License-Identifier: GPL-2.0
/*
 * Selftests of the disk counters (class 0 subclasses 1 to 4) and of the
 * class 14 I/O trace, run as root inside the test VM with meas.ko loaded
 * (selftests/run_tests.sh).  Known workloads of O_DIRECT reads and
 * writes on a null_blk disk (blk-mq and bio-based) and on the VM's
 * virtio-blk disk are checked exactly against what they did and against
 * /proc/diskstats; every error path of MEAS_IOC_IOTRACE_READ and of the
 * block unit's start has a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

#define BS		4096
#define C0_14		(1U | 1U << MEAS_CLASS_IO)

/* ---- the machine ---------------------------------------------------------- */

static void reset_params(void)
{
	try_set_param("fail_start", "0");
	try_set_param("fail_io", "0");
	try_set_param("max_disks", "64");
	try_set_param("io_records", "4096");
	try_set_param("io_track", "4096");
}

static int run(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* ---- class 0 subclasses 1 and 4 ------------------------------------------- */

struct disks {
	struct meas_header h1, h4;
	uint64_t *disc, *xfer;
	size_t n1, n4;
};

static int disks_read(int fd, struct disks *d)
{
	int rc, err;

	err = meas_get_subclass(fd, 0, MEAS_C0_SUB_DISC, &d->h1, &d->disc,
				&d->n1, &rc);
	if (!err)
		err = meas_get_subclass(fd, 0, MEAS_C0_SUB_XFER, &d->h4,
					&d->xfer, &d->n4, &rc);
	return err;
}

static void disks_free(struct disks *d)
{
	free(d->disc);
	free(d->xfer);
}

/* Entry of @dev, or -1. */
static int disks_entry(const struct disks *d, uint64_t dev)
{
	uint64_t e;

	for (e = 1; e < d->h1.entries; e++)
		if (d->disc[e * MEAS_C0_DISC_ITEMS] == dev)
			return (int)e;
	return -1;
}

static uint64_t disc(const struct disks *d, int e, int item)
{
	return e < 0 ? 0 : d->disc[e * MEAS_C0_DISC_ITEMS + item];
}

static uint64_t xfer(const struct disks *d, int e, int item)
{
	return e < 0 ? 0 : d->xfer[e * MEAS_C0_XFER_ITEMS + item];
}

static uint64_t disc_reads(const struct disks *d, int e)
{
	return disc(d, e, 1) + disc(d, e, 2) + disc(d, e, 5) + disc(d, e, 7) +
	       disc(d, e, 9);
}

static uint64_t disc_writes(const struct disks *d, int e)
{
	return disc(d, e, 3) + disc(d, e, 4) + disc(d, e, 6) + disc(d, e, 8) +
	       disc(d, e, 10);
}

static uint64_t qlen_sum(const struct disks *d, int e)
{
	uint64_t s = 0;
	int b;

	for (b = 0; b < MEAS_C0_DISC_QLEN_BUCKETS; b++)
		s += disc(d, e, MEAS_C0_DISC_QLEN0 + b);
	return s;
}

/* ---- class 14 ---------------------------------------------------------------- */

#define MAXREC	65536

struct trace {
	struct meas_io_record *rec;
	size_t n;
	uint64_t lost, total, calls;
	uint32_t out_flags;
};

/* Read everything pending, @batch records at a time. */
static int trace_drain(int fd, struct trace *t, size_t batch, uint32_t flags)
{
	struct meas_iotrace_read r;
	int err;

	if (!t->rec)
		t->rec = calloc(MAXREC, sizeof(*t->rec));
	do {
		if (t->n + batch > MAXREC)
			return -ENOSPC;
		err = meas_iotrace_read(fd, flags, t->rec + t->n, batch, &r);
		if (err)
			return err;
		flags = 0;
		t->n += r.records;
		t->lost += r.lost;
		t->total = r.total;
		t->out_flags |= r.out_flags;
		t->calls++;
	} while (r.pending);
	return 0;
}

static uint64_t io_header(int fd, int item)
{
	uint64_t v = UINT64_MAX;
	int rc;

	meas_get(fd, MEAS_CLASS_IO, 0, item, 1, &v, sizeof(v), &rc);
	return v;
}

/* ==== exactness, on three kinds of disk ===================================== */

/* A blk-mq disk has an mq directory in sysfs; a bio-based one has none. */
static bool is_blk_mq(const char *path)
{
	char mq[128];

	snprintf(mq, sizeof(mq), "/sys/block/%s/mq", strrchr(path, '/') + 1);
	return access(mq, F_OK) == 0;
}

#define REQUEUE_EVENT	"/sys/kernel/tracing/events/block/block_rq_requeue/enable"

/* Trace the kernel's own block_rq_requeue events from now on. */
static int requeue_trace_start(void)
{
	int fd = open("/sys/kernel/tracing/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -1;
	close(fd);
	return write_file(REQUEUE_EVENT, "1");
}

/* The requeues the kernel traced since requeue_trace_start(), or -1. */
static int requeue_trace_stop(void)
{
	char line[512];
	int n = 0;
	FILE *f;

	if (write_file(REQUEUE_EVENT, "0"))
		return -1;
	f = fopen("/sys/kernel/tracing/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "block_rq_requeue:") != NULL;
	fclose(f);
	return n;
}

/*
 * The kselftest harness of 6.1 goes on with the test after a SKIP in
 * FIXTURE_SETUP; each disk test starts with this.
 */
#define RETURN_IF_SKIPPED()	do { if (_metadata->skip) return; } while (0)

FIXTURE(disk) {
	int fd;
	char path[64];
	const char *name;
	uint64_t dev;
	bool diskstats;		/* the driver keeps /proc/diskstats */
};

FIXTURE_VARIANT(disk) {
	const char *load;	/* shell command that makes the disk */
	const char *path;
	bool bio;
	bool diskstats;
};

FIXTURE_VARIANT_ADD(disk, null_blk_mq) {
	.load = "modprobe null_blk queue_mode=2 nr_devices=1 gb=1",
	.path = "/dev/nullb0",
	.diskstats = true,
};

FIXTURE_VARIANT_ADD(disk, null_blk_bio) {
	.load = "modprobe null_blk queue_mode=0 nr_devices=1 gb=1",
	.path = "/dev/nullb0",
	.bio = true,
};

FIXTURE_VARIANT_ADD(disk, virtio_blk) {
	.load = "modprobe virtio_blk",
	.path = "/dev/vda",
	.diskstats = true,
};

FIXTURE_SETUP(disk)
{
	reset_params();
	null_blk_unload();
	ASSERT_EQ(0, run("%s", variant->load));
	if (wait_node(variant->path))
		SKIP(return, "%s: no such disk (run-vm.sh --disk?)",
		     variant->path);
	if (variant->bio && is_blk_mq(variant->path))
		SKIP(return, "%s is a blk-mq disk: this kernel's null_blk has no bio-based mode (queue_mode=0)",
		     variant->path);
	snprintf(self->path, sizeof(self->path), "%s", variant->path);
	self->name = strrchr(self->path, '/') + 1;
	self->dev = dev_of(self->path);
	self->diskstats = variant->diskstats;
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	/* The disk exists before the start: it gets its entry now. */
	ASSERT_EQ(0, meas_start(self->fd, C0_14, NULL));
}

FIXTURE_TEARDOWN(disk)
{
	if (self->fd > 0)
		close(self->fd);
	null_blk_unload();
	reset_params();
}

TEST_F(disk, present_at_start_has_entry)
{
	struct disks d = { 0 };
	int e;

	RETURN_IF_SKIPPED();

	ASSERT_EQ(0, disks_read(self->fd, &d));
	e = disks_entry(&d, self->dev);
	ASSERT_LT(0, e) TH_LOG("%s has no entry", self->path);
	EXPECT_EQ(self->dev, xfer(&d, e, MEAS_C0_XFER_DEV));
	EXPECT_EQ(d.h1.entries, d.h4.entries);
	EXPECT_EQ(MEAS_C0_DISC_ITEMS, d.h1.entsize);
	EXPECT_EQ(3 + MEAS_C0_DISC_ITEMS, d.h1.ent0size);
	EXPECT_EQ(MEAS_C0_XFER_ITEMS, d.h4.entsize);
	EXPECT_EQ(3 + MEAS_C0_XFER_ITEMS, d.h4.ent0size);
	disks_free(&d);
}

/*
 * N reads and M writes: subclass 1 counts exactly N and M, the bytes are
 * the sectors of /proc/diskstats, and class 14 holds N + M records with
 * completion after issue after insert.
 */
TEST_F(disk, exact_counts_bytes_and_records)
{
	const int N = 48, M = 24;
	struct disks a = { 0 }, b = { 0 };
	struct dstats da, db;
	struct trace t = { 0 };
	int e, i, reads = 0, writes = 0;

	RETURN_IF_SKIPPED();

	ASSERT_EQ(0, trace_drain(self->fd, &t, 64, MEAS_IOTRACE_FROM_NOW));
	t.n = 0;
	ASSERT_EQ(0, disks_read(self->fd, &a));
	diskstats(self->name, &da);
	ASSERT_EQ(0, do_io(self->path, N, M, 0, 64));
	ASSERT_EQ(0, disks_read(self->fd, &b));
	diskstats(self->name, &db);
	e = disks_entry(&b, self->dev);
	ASSERT_LT(0, e);

	EXPECT_EQ(N, disc(&b, e, MEAS_C0_DISC_READ_SYNC) -
		     disc(&a, e, MEAS_C0_DISC_READ_SYNC));
	EXPECT_EQ(M, disc(&b, e, MEAS_C0_DISC_WRITE_SYNC) -
		     disc(&a, e, MEAS_C0_DISC_WRITE_SYNC));
	EXPECT_EQ(N, disc_reads(&b, e) - disc_reads(&a, e));
	EXPECT_EQ(M, disc_writes(&b, e) - disc_writes(&a, e));
	EXPECT_EQ(0, disc(&b, e, MEAS_C0_DISC_CONTROL) -
		     disc(&a, e, MEAS_C0_DISC_CONTROL));
	EXPECT_EQ(0, disc(&b, e, MEAS_C0_DISC_READ_CODE));
	EXPECT_EQ(0, disc(&b, e, MEAS_C0_DISC_BUFFER_TRAPS));
	/* the histogram sums to the inserts; synchronous I/O finds 0 */
	EXPECT_EQ(N + M, qlen_sum(&b, e) - qlen_sum(&a, e));
	EXPECT_EQ(N + M, disc(&b, e, MEAS_C0_DISC_QLEN0) -
			 disc(&a, e, MEAS_C0_DISC_QLEN0));
	EXPECT_EQ(N, xfer(&b, e, MEAS_C0_XFER_READS) -
		     xfer(&a, e, MEAS_C0_XFER_READS));
	EXPECT_EQ(M, xfer(&b, e, MEAS_C0_XFER_WRITES) -
		     xfer(&a, e, MEAS_C0_XFER_WRITES));
	EXPECT_EQ((uint64_t)N * BS, xfer(&b, e, MEAS_C0_XFER_READ_BYTES) -
				    xfer(&a, e, MEAS_C0_XFER_READ_BYTES));
	EXPECT_EQ((uint64_t)M * BS, xfer(&b, e, MEAS_C0_XFER_WRITE_BYTES) -
				    xfer(&a, e, MEAS_C0_XFER_WRITE_BYTES));
	EXPECT_EQ(N, xfer(&b, e, MEAS_C0_XFER_READS_TIMED) -
		     xfer(&a, e, MEAS_C0_XFER_READS_TIMED));
	EXPECT_EQ(M, xfer(&b, e, MEAS_C0_XFER_WRITES_TIMED) -
		     xfer(&a, e, MEAS_C0_XFER_WRITES_TIMED));
	EXPECT_EQ(0, xfer(&b, e, MEAS_C0_XFER_INFLIGHT));
	if (self->diskstats) {
		EXPECT_EQ(N, db.rd - da.rd);
		EXPECT_EQ(M, db.wr - da.wr);
		EXPECT_EQ((db.rd_sect - da.rd_sect) * 512,
			  xfer(&b, e, MEAS_C0_XFER_READ_BYTES) -
			  xfer(&a, e, MEAS_C0_XFER_READ_BYTES));
		EXPECT_EQ((db.wr_sect - da.wr_sect) * 512,
			  xfer(&b, e, MEAS_C0_XFER_WRITE_BYTES) -
			  xfer(&a, e, MEAS_C0_XFER_WRITE_BYTES));
	}

	ASSERT_EQ(0, trace_drain(self->fd, &t, 16, 0));
	EXPECT_EQ(0, t.lost);
	for (i = 0; i < (int)t.n; i++) {
		const struct meas_io_record *r = &t.rec[i];

		if (r->dev != self->dev)
			continue;
		if (r->op == MEAS_IO_OP_READ)
			reads++;
		else if (r->op == MEAS_IO_OP_WRITE)
			writes++;
		EXPECT_EQ(BS, r->bytes);
		EXPECT_EQ(getpid(), r->tgid);
		EXPECT_EQ(getpid(), r->pid);
		EXPECT_EQ(0, r->status);
		EXPECT_EQ(0, r->depth);
		EXPECT_EQ(0, r->flags & (MEAS_IO_F_UNTRACKED |
					 MEAS_IO_F_PARTIAL));
		EXPECT_EQ(variant->bio ? MEAS_IO_F_BIO : 0,
			  r->flags & MEAS_IO_F_BIO);
		EXPECT_EQ(0, strncmp(r->comm, "io_test", 7));
		EXPECT_LT(0, r->insert_ns);
		EXPECT_LE(r->insert_ns, r->issue_ns);
		EXPECT_LE(r->issue_ns, r->complete_ns);
		EXPECT_EQ((64ULL + reads + writes - 1) * BS / 512, r->sector);
		if (i)
			EXPECT_LE(t.rec[i - 1].complete_ns, r->complete_ns);
	}
	EXPECT_EQ(N, reads);
	EXPECT_EQ(M, writes);
	disks_free(&a);
	disks_free(&b);
	free(t.rec);
}

/*
 * Forced writes: an O_DSYNC write asks FUA, then its fsync sends an empty
 * preflush write, which /proc/diskstats counts as a write too.  A disk
 * without a write cache drops both flags, and the empty write with them.
 */
TEST_F(disk, dsync_writes_and_flushes)
{
	struct disks a = { 0 }, b = { 0 };
	struct dstats da, db;
	uint64_t forced, sync, ctl;
	int e;

	RETURN_IF_SKIPPED();

	ASSERT_EQ(0, disks_read(self->fd, &a));
	diskstats(self->name, &da);
	ASSERT_EQ(0, do_io(self->path, 0, 10, O_DSYNC, 512));
	ASSERT_EQ(0, disks_read(self->fd, &b));
	diskstats(self->name, &db);
	e = disks_entry(&b, self->dev);
	ASSERT_LT(0, e);
	forced = disc(&b, e, MEAS_C0_DISC_WRITE_FORCED) -
		 disc(&a, e, MEAS_C0_DISC_WRITE_FORCED);
	sync = disc(&b, e, MEAS_C0_DISC_WRITE_SYNC) -
	       disc(&a, e, MEAS_C0_DISC_WRITE_SYNC);
	ctl = disc(&b, e, MEAS_C0_DISC_CONTROL) -
	      disc(&a, e, MEAS_C0_DISC_CONTROL);
	if (!strcmp(self->name, "vda")) {
		/* a write cache, no FUA: flushes do the forcing */
		EXPECT_EQ(db.wr - da.wr, forced);
		EXPECT_LE(10, forced);
		EXPECT_EQ(0, sync);
		EXPECT_EQ(db.flush - da.flush, ctl);
		EXPECT_LT(0, ctl);
	} else {
		EXPECT_EQ(0, forced);
		EXPECT_EQ(10, sync);
		EXPECT_EQ(0, ctl);
		if (self->diskstats)
			EXPECT_EQ(10, db.wr - da.wr);
	}
	disks_free(&a);
	disks_free(&b);
}

/* ==== the queue-length histogram ============================================ */

struct reader_arg {
	const char *path;
	int n;
	uint64_t first;
};

static void *reader_thread(void *p)
{
	struct reader_arg *a = p;

	return (void *)(long)do_io(a->path, a->n, 0, 0, a->first);
}

/* Requests that wait: the depths recorded are the histogram's. */
TEST(qlen_histogram_matches_records)
{
	enum { THREADS = 6, EACH = 20 };
	struct reader_arg args[THREADS];
	pthread_t th[THREADS];
	uint64_t dev, hist[MEAS_C0_DISC_QLEN_BUCKETS] = { 0 }, deep = 0;
	struct disks a = { 0 }, b = { 0 };
	struct trace t = { 0 };
	int fd, e, i, k;

	reset_params();
	/* a disk slow enough that requests queue up: 2 ms each */
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1 irqmode=2 completion_nsec=2000000 hw_queue_depth=64"));
	dev = dev_of("/dev/nullb0");
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, C0_14, NULL));
	ASSERT_EQ(0, trace_drain(fd, &t, 64, MEAS_IOTRACE_FROM_NOW));
	ASSERT_EQ(0, disks_read(fd, &a));
	for (i = 0; i < THREADS; i++) {
		args[i] = (struct reader_arg){ "/dev/nullb0", EACH, i * 1000 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, reader_thread,
					    &args[i]));
	}
	for (i = 0; i < THREADS; i++) {
		void *ret;

		pthread_join(th[i], &ret);
		EXPECT_EQ(0, (long)ret);
	}
	ASSERT_EQ(0, disks_read(fd, &b));
	ASSERT_EQ(0, trace_drain(fd, &t, 256, 0));
	e = disks_entry(&b, dev);
	ASSERT_LT(0, e);
	EXPECT_EQ(THREADS * EACH, qlen_sum(&b, e) - qlen_sum(&a, e));
	for (i = 0; i < (int)t.n; i++) {
		if (t.rec[i].dev != dev)
			continue;
		k = t.rec[i].depth < 6 ? t.rec[i].depth : 6;
		hist[k]++;
		deep += t.rec[i].depth > 0;
		EXPECT_EQ(getpid(), t.rec[i].tgid);
	}
	for (k = 0; k < MEAS_C0_DISC_QLEN_BUCKETS; k++)
		EXPECT_EQ(hist[k], disc(&b, e, MEAS_C0_DISC_QLEN0 + k) -
				   disc(&a, e, MEAS_C0_DISC_QLEN0 + k))
			TH_LOG("bucket %d", k);
	EXPECT_LT(0, deep);
	disks_free(&a);
	disks_free(&b);
	free(t.rec);
	close(fd);
	null_blk_unload();
}

/* ==== the ring: more requests than it holds ================================= */

TEST(ring_overflow_total_and_lost_exact)
{
	enum { K = 1000 };
	uint64_t total0, total, lost, cap, dev;
	struct trace t = { 0 };
	int fd, i, mine = 0;

	reset_params();
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	dev = dev_of("/dev/nullb0");
	ASSERT_EQ(0, try_set_param("io_records", "256"));
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_IO, NULL));
	cap = io_header(fd, MEAS_IO_H_CAPACITY);
	EXPECT_GE(256, cap);
	EXPECT_EQ(cap, io_header(fd, MEAS_IO_H_PARTS) *
		       io_header(fd, MEAS_IO_H_PART_RECORDS));
	total0 = io_header(fd, MEAS_IO_H_TOTAL);
	ASSERT_EQ(0, do_io("/dev/nullb0", K, 0, 0, 0));
	total = io_header(fd, MEAS_IO_H_TOTAL);
	lost = io_header(fd, MEAS_IO_H_LOST);
	EXPECT_EQ(K, total - total0);
	EXPECT_GT(total, cap);
	EXPECT_LE(total - cap, lost);
	/* a reader from the start: returned + lost = written */
	ASSERT_EQ(0, trace_drain(fd, &t, 7, 0));
	EXPECT_EQ(t.total, t.n + t.lost);
	EXPECT_EQ(total, t.total);
	EXPECT_GE(cap, t.n);
	for (i = 0; i < (int)t.n; i++) {
		mine += t.rec[i].dev == dev;
		if (i && t.rec[i].cpu == t.rec[i - 1].cpu)
			EXPECT_EQ(t.rec[i - 1].seq + 1, t.rec[i].seq);
	}
	EXPECT_LT(0, mine);
	/* and the raw header agrees */
	EXPECT_EQ(total - lost, (uint64_t)t.n);
	free(t.rec);
	close(fd);
	null_blk_unload();
	reset_params();
}

/* ==== hot-added disks, and disks beyond max_disks =========================== */

TEST(hot_added_disk_gets_entry_and_exact_counts)
{
	struct disks a = { 0 }, b = { 0 };
	struct dstats d;
	uint64_t dev;
	int fd, e;

	reset_params();
	null_blk_unload();
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, C0_14, NULL));
	ASSERT_EQ(0, disks_read(fd, &a));
	/* loaded after the start: entries at the first request (its scan) */
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=2"));
	ASSERT_EQ(0, wait_node("/dev/nullb1"));
	ASSERT_EQ(0, do_io("/dev/nullb1", 30, 10, 0, 0));
	ASSERT_EQ(0, disks_read(fd, &b));
	dev = dev_of("/dev/nullb1");
	e = disks_entry(&b, dev);
	ASSERT_LT(0, e);
	EXPECT_EQ(a.h1.entries + 2, b.h1.entries);
	EXPECT_LT(0, disks_entry(&b, dev_of("/dev/nullb0")));
	/* every request of its life was seen: diskstats agrees exactly */
	ASSERT_EQ(0, diskstats("nullb1", &d));
	EXPECT_EQ(d.rd, disc_reads(&b, e));
	EXPECT_EQ(d.wr, disc_writes(&b, e));
	EXPECT_EQ(d.rd_sect * 512, xfer(&b, e, MEAS_C0_XFER_READ_BYTES));
	EXPECT_EQ(d.wr_sect * 512, xfer(&b, e, MEAS_C0_XFER_WRITE_BYTES));
	EXPECT_LE(30, d.rd);
	EXPECT_EQ(10, d.wr);
	disks_free(&a);
	disks_free(&b);
	close(fd);
	null_blk_unload();
}

TEST(disks_beyond_max_disks_count_in_entry0)
{
	struct disks a = { 0 }, b = { 0 };
	struct dstats d0, d1;
	char n[16];
	int fd;

	reset_params();
	null_blk_unload();
	fd = meas_open();
	ASSERT_LE(0, fd);
	/* as many entries as disks present: none left for newcomers */
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, disks_read(fd, &a));
	ASSERT_EQ(0, meas_stop(fd, 1, NULL));
	disks_free(&a);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)a.h1.entries - 1);
	ASSERT_EQ(0, try_set_param("max_disks", n));
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, disks_read(fd, &a));
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=2"));
	ASSERT_EQ(0, wait_node("/dev/nullb1"));
	ASSERT_EQ(0, do_io("/dev/nullb0", 7, 3, 0, 0));
	ASSERT_EQ(0, do_io("/dev/nullb1", 5, 2, 0, 0));
	ASSERT_EQ(0, disks_read(fd, &b));
	EXPECT_EQ(a.h1.entries, b.h1.entries);
	EXPECT_EQ(-1, disks_entry(&b, dev_of("/dev/nullb0")));
	ASSERT_EQ(0, diskstats("nullb0", &d0));
	ASSERT_EQ(0, diskstats("nullb1", &d1));
	/* entry 0: nothing else overflowed before the disks came */
	EXPECT_EQ(d0.rd + d1.rd, disc_reads(&b, 0) - disc_reads(&a, 0));
	EXPECT_EQ(d0.wr + d1.wr, disc_writes(&b, 0) - disc_writes(&a, 0));
	EXPECT_EQ((d0.rd_sect + d1.rd_sect) * 512,
		  xfer(&b, 0, MEAS_C0_XFER_READ_BYTES) -
		  xfer(&a, 0, MEAS_C0_XFER_READ_BYTES));
	EXPECT_EQ(0, disc(&b, 0, MEAS_C0_DISC_DEV));
	disks_free(&a);
	disks_free(&b);
	close(fd);
	null_blk_unload();
	reset_params();
}

/* ==== requeues, discards ====================================================== */

/* A throttled null_blk returns "busy": the requests come back, once. */
TEST(requeues_count_as_busy)
{
	struct disks a = { 0 }, b = { 0 };
	struct trace t = { 0 };
	int fd, e, i, recs = 0, requeued = 0, traced;
	uint64_t dev;

	reset_params();
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1 mbps=1"));
	dev = dev_of("/dev/nullb0");
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, C0_14, NULL));
	ASSERT_EQ(0, trace_drain(fd, &t, 64, MEAS_IOTRACE_FROM_NOW));
	ASSERT_EQ(0, disks_read(fd, &a));
	ASSERT_EQ(0, requeue_trace_start());
	ASSERT_EQ(0, do_io("/dev/nullb0", 0, 40, 0, 0));
	traced = requeue_trace_stop();
	ASSERT_LE(0, traced);
	/*
	 * null_blk's mbps throttle requeues on 6.1; on 6.12 it holds the
	 * requests back instead, and the kernel traces no requeue.
	 */
	if (traced == 0)
		SKIP(goto out, "the kernel traced no requeue: this kernel's null_blk throttle (mbps=1) does not requeue");
	ASSERT_EQ(0, disks_read(fd, &b));
	ASSERT_EQ(0, trace_drain(fd, &t, 64, 0));
	e = disks_entry(&b, dev);
	ASSERT_LT(0, e);
	EXPECT_LT(0, disc(&b, e, MEAS_C0_DISC_BUSY) -
		     disc(&a, e, MEAS_C0_DISC_BUSY));
	EXPECT_EQ(40, disc_writes(&b, e) - disc_writes(&a, e));
	EXPECT_EQ(40, qlen_sum(&b, e) - qlen_sum(&a, e));
	for (i = 0; i < (int)t.n; i++) {
		if (t.rec[i].dev != dev)
			continue;
		recs++;
		requeued += !!(t.rec[i].flags & MEAS_IO_F_REQUEUED);
		EXPECT_LE(t.rec[i].insert_ns, t.rec[i].issue_ns);
		EXPECT_LE(t.rec[i].issue_ns, t.rec[i].complete_ns);
	}
	EXPECT_EQ(40, recs);
	EXPECT_LT(0, requeued);
out:
	disks_free(&a);
	disks_free(&b);
	free(t.rec);
	close(fd);
	null_blk_unload();
}

TEST(discard_is_control_and_exact)
{
	uint64_t range[2] = { 0, 1 << 20 };
	struct disks a = { 0 }, b = { 0 };
	struct dstats da, db;
	int fd, dfd, e;

	reset_params();
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1 memory_backed=1 discard=1"));
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, disks_read(fd, &a));
	diskstats("nullb0", &da);
	dfd = open("/dev/nullb0", O_RDWR);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, ioctl(dfd, BLKDISCARD, range));
	close(dfd);
	ASSERT_EQ(0, disks_read(fd, &b));
	diskstats("nullb0", &db);
	e = disks_entry(&b, dev_of("/dev/nullb0"));
	ASSERT_LT(0, e);
	EXPECT_LT(0, db.disc - da.disc);
	EXPECT_EQ(db.disc - da.disc, disc(&b, e, MEAS_C0_DISC_CONTROL) -
				     disc(&a, e, MEAS_C0_DISC_CONTROL));
	EXPECT_EQ((db.disc_sect - da.disc_sect) * 512,
		  xfer(&b, e, MEAS_C0_XFER_DISCARD_BYTES) -
		  xfer(&a, e, MEAS_C0_XFER_DISCARD_BYTES));
	EXPECT_EQ(0, disc_reads(&b, e) - disc_reads(&a, e));
	disks_free(&a);
	disks_free(&b);
	close(fd);
	null_blk_unload();
}

/* ==== shapes, the raw ring, probes ========================================== */

TEST(line_printers_and_tapes)
{
	struct meas_header h;
	int fd, rc;

	reset_params();
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, meas_header(fd, 0, MEAS_C0_SUB_LP, &h, &rc));
	EXPECT_EQ(1, h.entries);
	EXPECT_EQ(MEAS_C0_LP_ITEMS, h.entsize);
	EXPECT_EQ(3, h.ent0size);
	ASSERT_EQ(0, meas_header(fd, 0, MEAS_C0_SUB_TAPE, &h, &rc));
	EXPECT_EQ(1, h.entries);	/* no SCSI tape yet */
	EXPECT_EQ(MEAS_C0_TAPE_ITEMS, h.entsize);
	EXPECT_EQ(3 + MEAS_C0_TAPE_ITEMS, h.ent0size);
	close(fd);
}

/*
 * A SCSI tape (scsi_debug's, ptype=1, driven by st) gets an entry of its
 * own with its address, and st's commands are counted on it: the open's
 * checks and the filemark at close as control, the block written as a
 * write.  Since the 7 series no exported function maps a queue to its
 * SCSI device; meas keeps the tape queues itself (tape.c).
 */
TEST(scsi_tape_commands_counted)
{
	static const char buf[512] = "meas";
	unsigned int host, channel, id, lun;
	uint64_t *tape = NULL, key;
	struct meas_header h;
	char link[256];
	size_t n;
	int fd, tfd, rc;
	ssize_t len, w;

	reset_params();
	if (run("modprobe scsi_debug ptype=1 dev_size_mb=8 2>/dev/null") ||
	    run("modprobe st 2>/dev/null"))
		SKIP(return, "no scsi_debug or st in this kernel");
	ASSERT_EQ(0, wait_dev("/dev/nst0", S_IFCHR));
	len = readlink("/sys/class/scsi_tape/nst0/device", link, sizeof(link) - 1);
	ASSERT_LT(0, len);
	link[len] = '\0';
	ASSERT_EQ(4, sscanf(strrchr(link, '/') + 1, "%u:%u:%u:%u",
			    &host, &channel, &id, &lun));
	key = MEAS_TAPE_ADDR(host, channel, id, lun);
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	tfd = open("/dev/nst0", O_RDWR);
	ASSERT_LE(0, tfd);
	w = write(tfd, buf, sizeof(buf));
	close(tfd);
	ASSERT_EQ(0, meas_get_subclass(fd, 0, MEAS_C0_SUB_TAPE, &h, &tape,
				       &n, &rc));
	ASSERT_EQ(2, h.entries);
	EXPECT_EQ(key, tape[MEAS_C0_TAPE_ITEMS]);
	EXPECT_LT(0, tape[MEAS_C0_TAPE_ITEMS + 3]);	/* control */
	if (w == sizeof(buf))
		EXPECT_LE(1, tape[MEAS_C0_TAPE_ITEMS + 2]);	/* writes */
	free(tape);
	close(fd);
	run("rmmod st scsi_debug 2>/dev/null");
}

TEST(raw_ring_header_and_records)
{
	struct meas_io_record raw;
	struct trace t = { 0 };
	uint64_t parts, per, first;
	int fd, rc;

	reset_params();
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_IO, NULL));
	EXPECT_EQ(MEAS_IO_IDENT, io_header(fd, MEAS_IO_H_IDENT));
	EXPECT_EQ(0, memcmp("I/O STAT", &(uint64_t){ MEAS_IO_IDENT }, 8));
	EXPECT_EQ(MEAS_IO_RECORD_WORDS, io_header(fd, MEAS_IO_H_RECORD_WORDS));
	EXPECT_EQ(0, io_header(fd, MEAS_IO_H_TOTAL + 1));
	EXPECT_LT(0, io_header(fd, MEAS_IO_H_START));
	EXPECT_LT(0, io_header(fd, MEAS_IO_H_SESSION));
	parts = io_header(fd, MEAS_IO_H_PARTS);
	per = io_header(fd, MEAS_IO_H_PART_RECORDS);
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_CONF), (long)parts);
	ASSERT_EQ(0, do_io("/dev/nullb0", 3, 0, 0, 0));
	ASSERT_EQ(0, trace_drain(fd, &t, 8, 0));
	ASSERT_LT(0, t.n);
	/* the last record read is at its partition's position in the ring */
	first = io_header(fd, MEAS_IO_H_PART0 + t.rec[t.n - 1].cpu *
			      MEAS_IO_PART_WORDS + MEAS_IO_P_FIRST);
	EXPECT_EQ(1 + t.rec[t.n - 1].cpu * per, first);
	ASSERT_EQ(0, meas_get(fd, MEAS_CLASS_IO, 0,
			      (int64_t)(3 + MEAS_IO_H_PART0 +
					parts * MEAS_IO_PART_WORDS - 3 +
					(first - 1 + t.rec[t.n - 1].seq % per) *
					MEAS_IO_RECORD_WORDS),
			      MEAS_IO_RECORD_WORDS, (uint64_t *)&raw,
			      sizeof(raw), &rc));
	EXPECT_EQ(0, memcmp(&raw, &t.rec[t.n - 1], sizeof(raw)));
	free(t.rec);
	close(fd);
	null_blk_unload();
}

TEST(probes_registered_once_while_0_or_14)
{
	struct meas_info i0, i;
	int fd;

	reset_params();
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_info(fd, &i0));
	ASSERT_EQ(0, meas_start(fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, meas_info(fd, &i));
	EXPECT_EQ(i0.probes + 7, i.probes);
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, meas_info(fd, &i));
	EXPECT_LT(i0.probes + 7, i.probes);
	ASSERT_EQ(0, meas_stop(fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, meas_info(fd, &i));
	EXPECT_LT(i0.probes + 7, i.probes);	/* class 0 keeps them */
	ASSERT_EQ(0, meas_stop(fd, 1, NULL));
	ASSERT_EQ(0, meas_info(fd, &i));
	EXPECT_EQ(i0.probes, i.probes);
	close(fd);
}

/* ==== error paths of MEAS_IOC_IOTRACE_READ ================================== */

FIXTURE(iotrace) {
	int fd;
	struct meas_io_record rec[4];
};

FIXTURE_SETUP(iotrace)
{
	reset_params();
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(iotrace)
{
	close(self->fd);
	reset_params();
}

static long iotrace_raw(int fd, struct meas_iotrace_read *r)
{
	return ioctl(fd, MEAS_IOC_IOTRACE_READ, r) < 0 ? -errno : 0;
}

static struct meas_iotrace_read iotrace_req(void *buf, size_t len)
{
	struct meas_iotrace_read r = {
		.size = sizeof(r),
		.buf = (uintptr_t)buf,
		.buflen = len,
		.result = MEAS_RC_NONE,
	};

	return r;
}

TEST_F(iotrace, not_enabled)
{
	struct meas_iotrace_read r = iotrace_req(self->rec, sizeof(self->rec));

	EXPECT_EQ(-ENODATA, iotrace_raw(self->fd, &r));
	EXPECT_EQ(MEAS_IOTRACE_NOTENABLED, r.result);
	EXPECT_EQ(0, r.records);
	/* not enabled comes before a bad buffer */
	r = iotrace_req(NULL, 0);
	EXPECT_EQ(-ENODATA, iotrace_raw(self->fd, &r));
}

TEST_F(iotrace, buffer_below_one_record)
{
	struct meas_iotrace_read r = iotrace_req(self->rec,
						 sizeof(self->rec[0]) - 1);

	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	EXPECT_EQ(-ENOBUFS, iotrace_raw(self->fd, &r));
	EXPECT_EQ(MEAS_IOTRACE_BOUNDS, r.result);
}

TEST_F(iotrace, buffer_not_writable_keeps_records)
{
	struct meas_iotrace_read r;
	struct trace t = { 0 };

	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, do_io("/dev/nullb0", 2, 0, 0, 0));
	r = iotrace_req((void *)8, 4 * sizeof(struct meas_io_record));
	EXPECT_EQ(-EFAULT, iotrace_raw(self->fd, &r));
	EXPECT_EQ(MEAS_IOTRACE_BOUNDS, r.result);
	EXPECT_EQ(0, r.records);
	/* nothing was consumed: the next read returns them */
	ASSERT_EQ(0, trace_drain(self->fd, &t, 4, 0));
	EXPECT_LE(2, t.n);
	EXPECT_EQ(t.total, t.n);
	free(t.rec);
	null_blk_unload();
}

/*
 * The size, flags and reserved rules: struct_rules_test.c.  Here the
 * newer caller's longer struct with a zero tail, which needs class 14.
 */
TEST_F(iotrace, malformed_struct)
{
	struct meas_iotrace_read r = iotrace_req(self->rec, sizeof(self->rec));
	struct {
		struct meas_iotrace_read r;
		uint64_t tail;
	} big = { .r = r, .tail = 0 };

	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	big.r.size = sizeof(big);
	EXPECT_EQ(0, iotrace_raw(self->fd, &big.r));
}

TEST_F(iotrace, new_session_restarts_the_cursor)
{
	struct trace t = { 0 };

	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, trace_drain(self->fd, &t, 4, 0));
	EXPECT_EQ(0, t.out_flags);
	ASSERT_EQ(0, meas_stop(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, trace_drain(self->fd, &t, 4, 0));
	EXPECT_EQ(MEAS_IOTRACE_NEW_SESSION, t.out_flags);
	free(t.rec);
}

TEST_F(iotrace, unprivileged)
{
	pid_t pid;
	int st;

	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, do_io("/dev/nullb0", 4, 0, 0, 0));	/* root's */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct meas_iotrace_read r = iotrace_req(self->rec,
							 sizeof(self->rec));
		uint64_t v[4 * MEAS_IO_RECORD_WORDS], parts, off, i;
		int fd, rc, bad = 0;

		drop_caps();
		fd = meas_open();
		if (fd < 0 || iotrace_raw(fd, &r) != -EPERM)
			_exit(1);
		if (meas_start(fd, 1U << MEAS_CLASS_IO, &rc) != -EPERM)
			_exit(2);
		/* the raw ring: the header, and none of root's records */
		if (io_header(fd, MEAS_IO_H_IDENT) != MEAS_IO_IDENT ||
		    io_header(fd, MEAS_IO_H_TOTAL) < 4)
			_exit(3);
		parts = io_header(fd, MEAS_IO_H_PARTS);
		off = MEAS_IO_H_PART0 + parts * MEAS_IO_PART_WORDS;
		for (i = 0; i < parts; i++) {
			uint64_t first = io_header(fd, MEAS_IO_H_PART0 +
						   i * MEAS_IO_PART_WORDS +
						   MEAS_IO_P_FIRST);

			if (meas_get(fd, MEAS_CLASS_IO, 0, off +
				     (first - 1) * MEAS_IO_RECORD_WORDS,
				     4 * MEAS_IO_RECORD_WORDS, v, sizeof(v),
				     &rc))
				_exit(4);
			for (rc = 0; rc < 4 * MEAS_IO_RECORD_WORDS; rc++)
				bad |= v[rc] != 0;
		}
		_exit(bad ? 5 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	null_blk_unload();
}

/* ==== error paths of the block unit's start ================================= */

static void expect_nothing_left(struct __test_metadata *_metadata, int fd,
				const struct meas_info *before)
{
	struct meas_info i;

	ASSERT_EQ(0, meas_info(fd, &i));
	EXPECT_EQ(before->probes, i.probes);
	EXPECT_EQ(0, i.region_bytes[MEAS_CLASS_IO]);
	EXPECT_EQ(before->global_mask, i.global_mask);
}

TEST_F(iotrace, start14_no_memory)
{
	struct meas_info i0;
	int rc = -9;

	ASSERT_EQ(0, meas_info(self->fd, &i0));
	ASSERT_EQ(0, try_set_param("fail_io", "2"));
	EXPECT_EQ(-ENOMEM, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	EXPECT_EQ(MEAS_START_NODST, rc);
	expect_nothing_left(_metadata, self->fd, &i0);
	/* a real allocation failure: a device table of 2^31 slots */
	ASSERT_EQ(0, try_set_param("max_disks", "1073741824"));
	EXPECT_EQ(-ENOMEM, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	EXPECT_EQ(MEAS_START_NODST, rc);
	expect_nothing_left(_metadata, self->fd, &i0);
	ASSERT_EQ(0, try_set_param("max_disks", "64"));
	EXPECT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
}

TEST_F(iotrace, start14_probes_fail)
{
	struct meas_info i0;
	int rc = -9;

	ASSERT_EQ(0, meas_info(self->fd, &i0));
	ASSERT_EQ(0, try_set_param("fail_io", "3"));
	EXPECT_EQ(-EIO, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	EXPECT_EQ(MEAS_START_NOLOCK, rc);
	expect_nothing_left(_metadata, self->fd, &i0);
	/* the registration itself failing half way (tp.c's injection) */
	ASSERT_EQ(0, try_set_param("fail_start", "3"));
	EXPECT_EQ(-EIO, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	EXPECT_EQ(MEAS_START_NOLOCK, rc);
	expect_nothing_left(_metadata, self->fd, &i0);
}

TEST_F(iotrace, start0_disk_unit_fails)
{
	struct meas_info i0, i;
	int rc = -9;

	ASSERT_EQ(0, meas_info(self->fd, &i0));
	ASSERT_EQ(0, try_set_param("fail_io", "2"));
	EXPECT_EQ(-ENOMEM, meas_start(self->fd, 1, &rc));
	EXPECT_EQ(MEAS_START_NODST, rc);
	ASSERT_EQ(0, meas_info(self->fd, &i));
	EXPECT_EQ(i0.probes, i.probes);		/* sched.c unwound too */
	EXPECT_EQ(0, i.region_bytes[0]);
	ASSERT_EQ(0, try_set_param("fail_io", "3"));
	EXPECT_EQ(-EIO, meas_start(self->fd, 1, &rc));
	EXPECT_EQ(MEAS_START_NOLOCK, rc);
	ASSERT_EQ(0, meas_info(self->fd, &i));
	EXPECT_EQ(i0.probes, i.probes);
}

/* Class 0's own counters fail while class 14 runs: class 14 goes on. */
TEST_F(iotrace, start0_fails_class14_unharmed)
{
	struct meas_info i14, i;
	struct trace t = { 0 };
	int rc = -9;

	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1"));
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, NULL));
	ASSERT_EQ(0, meas_info(self->fd, &i14));
	ASSERT_EQ(0, try_set_param("fail_io", "2"));
	EXPECT_EQ(-ENOMEM, meas_start(self->fd, 1, &rc));
	EXPECT_EQ(MEAS_START_NODST, rc);
	ASSERT_EQ(0, meas_info(self->fd, &i));
	EXPECT_EQ(i14.probes, i.probes);
	EXPECT_EQ(1U << MEAS_CLASS_IO, i.file_mask);
	ASSERT_EQ(0, trace_drain(self->fd, &t, 16, MEAS_IOTRACE_FROM_NOW));
	ASSERT_EQ(0, do_io("/dev/nullb0", 5, 0, 0, 0));
	ASSERT_EQ(0, trace_drain(self->fd, &t, 16, 0));
	EXPECT_LE(5, t.n);
	free(t.rec);
	null_blk_unload();
}

TEST(params_reject_out_of_range)
{
	EXPECT_EQ(-EINVAL, try_set_param("io_records", "255"));
	EXPECT_EQ(-EINVAL, try_set_param("io_records", "16777217"));
	EXPECT_EQ(-EINVAL, try_set_param("io_records", "many"));
	EXPECT_EQ(0, try_set_param("io_records", "256"));
	EXPECT_EQ(-EINVAL, try_set_param("io_track", "63"));
	EXPECT_EQ(-EINVAL, try_set_param("io_track", "4194305"));
	EXPECT_EQ(0, try_set_param("io_track", "100"));
	reset_params();
}

TEST_HARNESS_MAIN
