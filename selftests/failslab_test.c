// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures, one at a time: with /proc/thread-self/fail-nth
 * (CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB) each call is made with its
 * 1st, 2nd, ... slab allocation failed until it runs without reaching
 * that one.  Every failure must return an errno the uapi header
 * documents for the call and change nothing: no class defined, enabled
 * or allocated, no record of the I/O trace consumed.  Page allocations
 * (vmalloc's pages) are not failed here: meas_test fails a real vmalloc.
 * Without fail-nth (Debian's kernel) every test is skipped.  Run as root
 * in the test VM with meas.ko loaded (the debug lane has fail-nth).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define MAX_NTH		2000	/* allocations one call may make, at most */
#define CUSTOM		9	/* the user-defined class the tests use */

FIXTURE(failslab) {
	int fd;		/* /dev/meas */
	int nth;	/* fail-nth of this thread, or -1 */
	uint32_t global;	/* global mask before the call */
	uint32_t defined;	/* defined mask before the call */
	uint64_t got, lost, total;	/* what the trace reads returned */
	struct meas_nl *nl;	/* opened before the faults: only the dump fails */
};

typedef FIXTURE_DATA(failslab) fixture_t;

/* Arm fail-nth: the @n-th fault-injectable allocation from now fails. */
static int arm(int f, int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%d", n);

	return pwrite(f, s, len, 0) == len ? 0 : -1;
}

/* fail-nth after a call: 0 when the fault was injected. */
static int remaining(int f)
{
	char s[16] = "";

	if (pread(f, s, sizeof(s) - 1, 0) <= 0)
		return -1;
	return atoi(s);
}

FIXTURE_SETUP(failslab)
{
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	set_param("fail_start", "0");
	self->nth = open(FAIL_NTH, O_RDWR);
	if (self->nth < 0)
		return;
	/* GFP_KERNEL allocations too, and quietly: no stack for each */
	if (write_file(FAILSLAB "ignore-gfp-wait", "N") ||
	    write_file(FAILSLAB "verbose", "0")) {
		close(self->nth);
		self->nth = -1;
	}
}

FIXTURE_TEARDOWN(failslab)
{
	if (self->nth >= 0) {
		arm(self->nth, 0);
		close(self->nth);
		write_file(FAILSLAB "ignore-gfp-wait", "Y");
		write_file(FAILSLAB "verbose", "2");
	}
	close(self->fd);
}

/*
 * A call under test: @call returns 0 or -errno; @errs (0-terminated) the
 * errnos the header documents for its failures; @unchanged tells that a
 * failed call left the state as it was; @undo reverts a success.
 */
struct nth_case {
	const char *name;
	int (*call)(fixture_t *self);
	int errs[4];
	bool (*unchanged)(fixture_t *self);
	void (*undo)(fixture_t *self);
};

static bool allowed(const struct nth_case *c, int err)
{
	int i;

	for (i = 0; i < 4 && c->errs[i]; i++)
		if (c->errs[i] == err)
			return true;
	return false;
}

/* Fail the 1st, 2nd, ... allocation of @c until it completes; failures. */
static int fail_each(struct __test_metadata *_metadata, fixture_t *self,
		     const struct nth_case *c)
{
	struct meas_info in = info_of(self->fd);
	int n, err, left, failures = 0;

	self->global = in.global_mask;
	self->defined = in.defined_mask;
	for (n = 1; n <= MAX_NTH; n++) {
		ASSERT_EQ(0, arm(self->nth, n));
		err = c->call(self);
		left = remaining(self->nth);
		arm(self->nth, 0);
		if (left > 0) {
			/* it made fewer than n allocations: done */
			EXPECT_EQ(0, err) TH_LOG("%s: %s with no fault", c->name,
						 strerror(-err));
			if (!err && c->undo)
				c->undo(self);
			TH_LOG("%s: %d allocations, %d failed calls", c->name,
			       n - 1, failures);
			return failures;
		}
		if (!err) {
			/* a failure it could absorb (or not its own) */
			if (c->undo)
				c->undo(self);
			continue;
		}
		failures++;
		EXPECT_TRUE(allowed(c, -err))
			TH_LOG("%s, allocation %d failed: %s not documented",
			       c->name, n, strerror(-err));
		EXPECT_TRUE(c->unchanged(self))
			TH_LOG("%s, allocation %d failed: state changed", c->name, n);
	}
	EXPECT_GE(MAX_NTH, n) TH_LOG("%s: more than %d allocations", c->name,
				     MAX_NTH);
	return failures;
}

#define NEED_FAIL_NTH() do {						\
	if (self->nth < 0)						\
		SKIP(return, "no " FAIL_NTH " or " FAILSLAB);		\
} while (0)

/* ---- DEFINE ---- */

static int define_custom(fixture_t *self)
{
	struct meas_item_def items[3] = {
		{ "a", MEAS_ITEM_COUNTER, 0 }, { "b", MEAS_ITEM_COUNTER, 0 },
		{ "c", MEAS_ITEM_GAUGE, 0 },
	};
	struct meas_define d = {
		.class = CUSTOM, .nsub = 2, .name = "failslab",
		.sub = { { "s0", 4, 2 }, { "s1", 2, 1 } },
		.items = (uintptr_t)items, .nitems = 3,
	};
	int rc;

	return meas_define(self->fd, &d, &rc);
}

static void undefine_custom(fixture_t *self)
{
	int rc;

	meas_undefine(self->fd, CUSTOM, &rc);
}

static bool not_defined(fixture_t *self)
{
	struct meas_define d;
	int rc;

	return !(info_of(self->fd).defined_mask & 1U << CUSTOM) &&
	       meas_describe(self->fd, CUSTOM, &d, NULL, 0, &rc) == -ENOENT;
}

TEST_F(failslab, define)
{
	static const struct nth_case c = {
		"DEFINE", define_custom, { ENOMEM }, not_defined, undefine_custom,
	};

	NEED_FAIL_NTH();
	undefine_custom(self);
	fail_each(_metadata, self, &c);
	EXPECT_TRUE(not_defined(self));
}

/* ---- START of each class ---- */

static uint32_t start_mask;

static int start_class(fixture_t *self)
{
	int rc;

	return meas_start(self->fd, start_mask, &rc);
}

static void stop_class(fixture_t *self)
{
	int rc;

	meas_stop(self->fd, start_mask, &rc);
}

/* Nothing enabled, allocated or probed that was not before. */
static bool not_started(fixture_t *self)
{
	struct meas_info in = info_of(self->fd);
	int c;

	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if ((start_mask & 1U << c) &&
		    (in.enablers[c] || in.region_bytes[c]))
			return false;
	return in.global_mask == self->global && in.file_mask == 0 &&
	       (self->global || in.probes == 0);
}

/* class 15 allocates per existing process: hundreds of calls in KASAN */
TEST_F_TIMEOUT(failslab, start_each_class, 1200)
{
	static const int classes[] = { 0, MEAS_CLASS_IO, MEAS_CLASS_PROC, CUSTOM };
	static const struct nth_case c = {
		"START", start_class, { ENOMEM, EIO }, not_started, stop_class,
	};
	unsigned int i;

	NEED_FAIL_NTH();
	undefine_custom(self);
	ASSERT_EQ(0, define_custom(self));
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		start_mask = 1U << classes[i];
		TH_LOG("class %d", classes[i]);
		fail_each(_metadata, self, &c);
		EXPECT_EQ(0, info_of(self->fd).global_mask);
	}
	undefine_custom(self);
}

/* ---- GET, GETPROCSTATS, the netlink dump, with their class enabled ---- */

static bool still_enabled(fixture_t *self)
{
	struct meas_info in = info_of(self->fd);

	return in.global_mask == self->global && in.file_mask == self->global;
}

static int get_c0(fixture_t *self)
{
	uint64_t v[MEAS_C0_FIXED_ITEMS];
	int rc;

	return meas_get(self->fd, 0, 0, 0, MEAS_C0_FIXED_ITEMS, v, sizeof(v), &rc);
}

static int procstats_all(fixture_t *self)
{
	uint64_t *items;
	size_t n;
	int rc, err;

	err = meas_proc_all(self->fd, &items, &n, &rc);
	if (!err)
		free(items);
	return err;
}

static int count_rec(const struct meas_proc_rec *r, uint64_t seq, void *arg)
{
	(void)r;
	(void)seq;
	++*(int *)arg;
	return 0;
}

static int nl_dump(fixture_t *self)
{
	int err, n = 0;

	err = meas_nl_dump(self->nl, count_rec, &n);
	return err < 0 ? err : n > 0 ? 0 : -ENODATA;
}

TEST_F_TIMEOUT(failslab, get_procstats_dump, 600)
{
	static const struct nth_case get = {
		"GET", get_c0, { ENOMEM }, still_enabled, NULL,
	};
	static const struct nth_case ps = {
		"GETPROCSTATS", procstats_all, { ENOMEM }, still_enabled, NULL,
	};
	/* the socket's own failures: ENOMEM, ENOBUFS (uapi/linux/meas.h) */
	static const struct nth_case dump = {
		"netlink dump", nl_dump, { ENOMEM, ENOBUFS }, still_enabled, NULL,
	};
	int rc, err;

	NEED_FAIL_NTH();
	ASSERT_EQ(0, meas_start(self->fd, 1U | 1U << MEAS_CLASS_PROC, &rc));
	fail_each(_metadata, self, &get);
	fail_each(_metadata, self, &ps);
	self->nl = meas_nl_open(&err);
	ASSERT_NE(NULL, self->nl);
	fail_each(_metadata, self, &dump);
	meas_nl_close(self->nl);
}

/* ---- the class 14 reader: a failed read consumes no record ---- */

static int trace_read(fixture_t *self)
{
	static struct meas_io_record rec[256];
	struct meas_iotrace_read r = {
		.size = sizeof(r), .buf = (uintptr_t)rec, .buflen = sizeof(rec),
	};

	if (ioctl(self->fd, MEAS_IOC_IOTRACE_READ, &r))
		return -errno;
	self->got += r.records;
	self->lost += r.lost;
	self->total = r.total;
	return 0;
}

TEST_F(failslab, iotrace_read)
{
	static const struct nth_case c = {
		"IOTRACE_READ", trace_read, { ENOMEM }, still_enabled, NULL,
	};
	const int reads = 8, writes = 8;
	int rc;

	NEED_FAIL_NTH();
	if (null_blk_load("queue_mode=2 nr_devices=1"))
		SKIP(return, "no null_blk");
	ASSERT_EQ(0, meas_start(self->fd, 1U << MEAS_CLASS_IO, &rc));
	ASSERT_EQ(0, do_io("/dev/nullb0", reads, writes, 0, 0));
	self->got = self->lost = self->total = 0;
	fail_each(_metadata, self, &c);
	/* the reads that went through returned every record, once */
	EXPECT_LE(reads + writes, self->got);
	EXPECT_EQ(0, self->lost);
	EXPECT_EQ(self->total, self->got);
	meas_stop(self->fd, 1U << MEAS_CLASS_IO, &rc);
	null_blk_unload();
}

TEST_HARNESS_MAIN
