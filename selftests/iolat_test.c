// SPDX-License-Identifier: GPL-2.0
/*
 * Selftests of the I/O latency histograms, class 0 subclass 5 (a meas
 * extension; Documentation/io.rst), run as root inside the test VM with
 * meas.ko loaded (selftests/run_tests.sh).  Every group's count is
 * checked against the completed requests of /proc/diskstats over the
 * same interval (reads, writes, discards, flushes), and against what the
 * workload did; the buckets and the untimed count add up to the count,
 * and the sums of the timed reads and writes are subclass 4's times.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

/* ---- class 0 subclasses 4 and 5 ------------------------------------------- */

struct lat {
	struct meas_header h4, h5;
	uint64_t *xfer, *lat;
	size_t n4, n5;
};

static int lat_read(int fd, struct lat *l)
{
	int rc, err;

	err = meas_get_subclass(fd, 0, MEAS_C0_SUB_XFER, &l->h4, &l->xfer,
				&l->n4, &rc);
	if (!err)
		err = meas_get_subclass(fd, 0, MEAS_C0_SUB_LAT, &l->h5,
					&l->lat, &l->n5, &rc);
	return err;
}

static void lat_free(struct lat *l)
{
	free(l->xfer);
	free(l->lat);
	memset(l, 0, sizeof(*l));
}

/* Entry of @dev in subclass 5, or -1. */
static int lat_entry(const struct lat *l, uint64_t dev)
{
	uint64_t e;

	for (e = 1; e < l->h5.entries; e++)
		if (l->lat[e * MEAS_C0_LAT_ITEMS + MEAS_C0_LAT_DEV] == dev)
			return (int)e;
	return -1;
}

static uint64_t item(const struct lat *l, int e, int op, int it)
{
	return l->lat[e * MEAS_C0_LAT_ITEMS + MEAS_C0_LAT_OP(op) + it];
}

static uint64_t buckets(const struct lat *l, int e, int op)
{
	uint64_t s = 0;
	int b;

	for (b = 0; b < MEAS_C0_LAT_BUCKETS; b++)
		s += item(l, e, op, MEAS_C0_LAT_BUCKET0 + b);
	return s;
}

static uint64_t xfer(const struct lat *l, int e, int it)
{
	return l->xfer[e * MEAS_C0_XFER_ITEMS + it];
}

#define D(it) (item(b, e, op, (it)) - item(a, e, op, (it)))

/* Each group's buckets and untimed requests add up to its count. */
static void check_sums(struct __test_metadata *_metadata,
		       const struct lat *a, const struct lat *b, int e)
{
	int op;

	for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++) {
		EXPECT_EQ(D(MEAS_C0_LAT_COUNT),
			  D(MEAS_C0_LAT_UNTIMED) + buckets(b, e, op) -
			  buckets(a, e, op)) TH_LOG("group %d", op);
		EXPECT_LE(D(MEAS_C0_LAT_UNTIMED), D(MEAS_C0_LAT_COUNT));
	}
}

/* Every group's count equals the completions /proc/diskstats counted. */
static void check_diskstats(struct __test_metadata *_metadata,
			    const struct lat *a, const struct lat *b, int e,
			    const struct dstats *da, const struct dstats *db)
{
	const uint64_t want[MEAS_C0_LAT_NR_OPS] = {
		[MEAS_C0_LAT_READ] = db->rd - da->rd,
		[MEAS_C0_LAT_WRITE] = db->wr - da->wr,
		[MEAS_C0_LAT_DISCARD] = db->disc - da->disc,
		[MEAS_C0_LAT_FLUSH] = db->flush - da->flush,
	};
	int op;

	for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++)
		EXPECT_EQ(want[op], D(MEAS_C0_LAT_COUNT)) TH_LOG("group %d", op);
}

/* ---- the disks ----------------------------------------------------------- */

FIXTURE(disk) {
	int fd;
	char path[64];
	const char *name;
	uint64_t dev;
};

FIXTURE_VARIANT(disk) {
	const char *load;	/* null_blk parameters, or NULL: virtio */
	const char *path;
	bool diskstats;		/* the driver keeps /proc/diskstats */
};

FIXTURE_VARIANT_ADD(disk, null_blk_mq) {
	.load = "queue_mode=2 nr_devices=1 gb=1 memory_backed=1 discard=1",
	.path = "/dev/nullb0",
	.diskstats = true,
};

FIXTURE_VARIANT_ADD(disk, null_blk_bio) {
	.load = "queue_mode=0 nr_devices=1 gb=1",
	.path = "/dev/nullb0",
};

FIXTURE_VARIANT_ADD(disk, virtio_blk) {
	.path = "/dev/vda",
	.diskstats = true,
};

FIXTURE_SETUP(disk)
{
	try_set_param("max_disks", "64");
	null_blk_unload();
	if (variant->load) {
		ASSERT_EQ(0, null_blk_load(variant->load));
	} else if (system("modprobe virtio_blk") || wait_node(variant->path)) {
		SKIP(return, "%s: no such disk (run-vm.sh --disk?)",
		     variant->path);
	}
	snprintf(self->path, sizeof(self->path), "%s", variant->path);
	self->name = strrchr(self->path, '/') + 1;
	self->dev = dev_of(self->path);
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, 1, NULL));
}

FIXTURE_TEARDOWN(disk)
{
	if (self->fd > 0)
		close(self->fd);
	null_blk_unload();
}

TEST_F(disk, shape_follows_subclass_1)
{
	struct meas_header h1;
	struct lat l = { 0 };
	int rc;

	ASSERT_EQ(0, meas_header(self->fd, 0, MEAS_C0_SUB_DISC, &h1, &rc));
	ASSERT_EQ(0, lat_read(self->fd, &l));
	EXPECT_EQ(h1.entries, l.h5.entries);
	EXPECT_EQ(MEAS_C0_LAT_ITEMS, l.h5.entsize);
	EXPECT_EQ(3 + MEAS_C0_LAT_ITEMS, l.h5.ent0size);
	EXPECT_LT(0, lat_entry(&l, self->dev)) TH_LOG("%s has no entry",
						      self->path);
	lat_free(&l);
}

/*
 * N reads and M writes, one at a time: exactly N and M, all timed, their
 * sums subclass 4's times, and /proc/diskstats agrees in every group.
 */
TEST_F(disk, reads_and_writes_exact)
{
	const int N = 40, M = 24;
	struct lat l0 = { 0 }, l1 = { 0 };
	const struct lat *a = &l0, *b = &l1;
	struct dstats da, db;
	int e, op;

	ASSERT_EQ(0, lat_read(self->fd, &l0));
	diskstats(self->name, &da);
	ASSERT_EQ(0, do_io(self->path, N, M, 0, 64));
	ASSERT_EQ(0, lat_read(self->fd, &l1));
	diskstats(self->name, &db);
	e = lat_entry(b, self->dev);
	ASSERT_LT(0, e);

	op = MEAS_C0_LAT_READ;
	EXPECT_EQ(N, D(MEAS_C0_LAT_COUNT));
	EXPECT_EQ(0, D(MEAS_C0_LAT_UNTIMED));
	EXPECT_EQ(xfer(b, e, MEAS_C0_XFER_READ_NS) -
		  xfer(a, e, MEAS_C0_XFER_READ_NS), D(MEAS_C0_LAT_SUM_NS));
	EXPECT_LT(0, D(MEAS_C0_LAT_SUM_NS));
	op = MEAS_C0_LAT_WRITE;
	EXPECT_EQ(M, D(MEAS_C0_LAT_COUNT));
	EXPECT_EQ(0, D(MEAS_C0_LAT_UNTIMED));
	EXPECT_EQ(xfer(b, e, MEAS_C0_XFER_WRITE_NS) -
		  xfer(a, e, MEAS_C0_XFER_WRITE_NS), D(MEAS_C0_LAT_SUM_NS));
	op = MEAS_C0_LAT_DISCARD;
	EXPECT_EQ(0, D(MEAS_C0_LAT_COUNT));
	check_sums(_metadata, a, b, e);
	if (variant->diskstats)
		check_diskstats(_metadata, a, b, e, &da, &db);
	lat_free(&l0);
	lat_free(&l1);
}

/*
 * Four writers and four readers at once, with O_DSYNC writes: requests
 * overlap, a disk with a write cache sends flushes, and every group
 * still equals /proc/diskstats.
 */
TEST_F(disk, concurrent_and_forced_exact)
{
	struct lat l0 = { 0 }, l1 = { 0 };
	const struct lat *a = &l0, *b = &l1;
	struct dstats da, db;
	int e, i, st, op;
	pid_t pid[8];

	ASSERT_EQ(0, lat_read(self->fd, &l0));
	diskstats(self->name, &da);
	for (i = 0; i < 8; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i])
			_exit(do_io(self->path, i < 4 ? 30 : 0, i < 4 ? 0 : 12,
				    i < 4 ? 0 : O_DSYNC, 256 + i * 64) ? 1 : 0);
	}
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_EQ(0, st);
	}
	ASSERT_EQ(0, lat_read(self->fd, &l1));
	diskstats(self->name, &db);
	e = lat_entry(b, self->dev);
	ASSERT_LT(0, e);
	op = MEAS_C0_LAT_READ;
	EXPECT_EQ(4 * 30, D(MEAS_C0_LAT_COUNT));
	op = MEAS_C0_LAT_WRITE;
	EXPECT_LE(4 * 12, D(MEAS_C0_LAT_COUNT));
	check_sums(_metadata, a, b, e);
	if (variant->diskstats)
		check_diskstats(_metadata, a, b, e, &da, &db);
	if (!strcmp(self->name, "vda")) {
		op = MEAS_C0_LAT_FLUSH;
		EXPECT_LT(0, D(MEAS_C0_LAT_COUNT));
	}
	lat_free(&l0);
	lat_free(&l1);
}

/* Discards count in their own group, as /proc/diskstats counts them. */
TEST_F(disk, discards_exact)
{
	uint64_t range[2] = { 0, 1 << 20 };
	struct lat l0 = { 0 }, l1 = { 0 };
	const struct lat *a = &l0, *b = &l1;
	struct dstats da, db;
	int dfd, e, op = MEAS_C0_LAT_DISCARD;

	if (!variant->load || !variant->diskstats)
		SKIP(return, "discards: on the null_blk disk with discard=1");
	ASSERT_EQ(0, lat_read(self->fd, &l0));
	diskstats(self->name, &da);
	dfd = open(self->path, O_RDWR);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, ioctl(dfd, BLKDISCARD, range));
	close(dfd);
	ASSERT_EQ(0, lat_read(self->fd, &l1));
	diskstats(self->name, &db);
	e = lat_entry(b, self->dev);
	ASSERT_LT(0, e);
	EXPECT_LT(0, D(MEAS_C0_LAT_COUNT));
	check_sums(_metadata, a, b, e);
	check_diskstats(_metadata, a, b, e, &da, &db);
	lat_free(&l0);
	lat_free(&l1);
}

/*
 * The disks beyond max_disks share entry 0, histograms included: a
 * disk that finds no entry (max_disks=1) counts there, exactly.
 */
TEST(beyond_max_disks_in_entry0)
{
	struct lat l0 = { 0 }, l1 = { 0 };
	const struct lat *a = &l0, *b = &l1;
	int fd, e = 0, op = MEAS_C0_LAT_READ;

	null_blk_unload();
	ASSERT_EQ(0, try_set_param("max_disks", "1"));
	ASSERT_EQ(0, null_blk_load("queue_mode=2 nr_devices=1 gb=1"));
	fd = meas_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, meas_start(fd, 1, NULL));
	ASSERT_EQ(0, lat_read(fd, &l0));
	/* with vda present, nullb0 may have taken the one entry: use both */
	ASSERT_EQ(0, do_io("/dev/nullb0", 20, 0, 0, 0));
	ASSERT_EQ(0, lat_read(fd, &l1));
	if (lat_entry(b, dev_of("/dev/nullb0")) > 0)
		e = lat_entry(b, dev_of("/dev/nullb0"));
	EXPECT_EQ(2, l1.h5.entries);
	EXPECT_EQ(20, D(MEAS_C0_LAT_COUNT));
	EXPECT_EQ(20, buckets(b, e, op) - buckets(a, e, op));
	lat_free(&l0);
	lat_free(&l1);
	close(fd);
	null_blk_unload();
	try_set_param("max_disks", "64");
}

TEST_HARNESS_MAIN
