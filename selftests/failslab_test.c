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
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/genetlink.h>
#include <linux/meas_task.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"
#include "genlraw.h"

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
	int nl;		/* a genetlink socket, opened before the faults */
	uint16_t family;	/* the id of the family "meas" */
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
	void (*prepare)(fixture_t *self);	/* before each try, no fault */
	void (*finish)(fixture_t *self);	/* after each try */
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
		if (c->prepare)
			c->prepare(self);
		ASSERT_EQ(0, arm(self->nth, n));
		err = c->call(self);
		left = remaining(self->nth);
		arm(self->nth, 0);
		if (c->finish)
			c->finish(self);
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
		.name = "DEFINE",
		.call = define_custom,
		.errs = { ENOMEM },
		.unchanged = not_defined,
		.undo = undefine_custom,
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
		.name = "START",
		.call = start_class,
		.errs = { ENOMEM, EIO },
		.unchanged = not_started,
		.undo = stop_class,
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

/* A fresh socket for each try: a failed dump leaves its socket unusable. */
static void nl_open(fixture_t *self)
{
	uint32_t exits;

	self->nl = nl_socket(0);
	if (self->nl >= 0 && genl_resolve(self->nl, &self->family, &exits)) {
		close(self->nl);
		self->nl = -1;
	}
}

static void nl_close(fixture_t *self)
{
	if (self->nl >= 0)
		close(self->nl);
	self->nl = -1;
}

/*
 * The dump, read to its end: 0 when it ended well with records, else the
 * first error of the send, of a receive, or in an answer.
 */
static int nl_dump(fixture_t *self)
{
	static char buf[65536];
	struct {
		struct nlmsghdr nh;
		struct genlmsghdr g;
	} req = {
		.nh = {
			.nlmsg_len = sizeof(req), .nlmsg_type = self->family,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = ++genl_seq,
		},
		.g = { .cmd = MEAS_CMD_GET, .version = MEAS_GENL_VERSION },
	};
	struct pollfd p = { .fd = self->nl, .events = POLLIN };
	struct nlmsghdr *nh;
	int records = 0, rem;
	ssize_t r;

	if (self->nl < 0)
		return -EBADF;
	if (send(self->nl, &req, sizeof(req), 0) < 0)
		return -errno;
	for (;;) {
		if (poll(&p, 1, 2000) <= 0)
			return -ETIMEDOUT;
		r = recv(self->nl, buf, sizeof(buf), 0);
		if (r < 0)
			return -errno;
		rem = r;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, rem);
		     nh = NLMSG_NEXT(nh, rem)) {
			if (nh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
			if (nh->nlmsg_type == NLMSG_DONE) {
				int st = *(int *)NLMSG_DATA(nh);

				return st ? st : records ? 0 : -ENODATA;
			}
			records++;
		}
	}
}

TEST_F_TIMEOUT(failslab, get_procstats_dump, 600)
{
	static const struct nth_case get = {
		.name = "GET",
		.call = get_c0,
		.errs = { ENOMEM },
		.unchanged = still_enabled,
	};
	static const struct nth_case ps = {
		.name = "GETPROCSTATS",
		.call = procstats_all,
		.errs = { ENOMEM },
		.unchanged = still_enabled,
	};
	/* ENOBUFS: the socket could not queue a part (netlink(7)) */
	static const struct nth_case dump = {
		.name = "netlink dump",
		.call = nl_dump,
		.errs = { ENOMEM, ENOBUFS },
		.unchanged = still_enabled,
		.prepare = nl_open,
		.finish = nl_close,
	};
	int rc;

	NEED_FAIL_NTH();
	ASSERT_EQ(0, meas_start(self->fd, 1U | 1U << MEAS_CLASS_PROC, &rc));
	fail_each(_metadata, self, &get);
	fail_each(_metadata, self, &ps);
	fail_each(_metadata, self, &dump);
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
		.name = "IOTRACE_READ",
		.call = trace_read,
		.errs = { ENOMEM },
		.unchanged = still_enabled,
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

/* ---- TASK_START (task measurement) ---- */

#define TASK_FILE	"/tmp/failslab.task"

static int task_start_self(fixture_t *self)
{
	struct meas_task_start k = {
		.size = sizeof(k), .pcounter_ms = 1, .flags = MEAS_TASK_SVC,
		.load_info = MEAS_TASK_LOAD_DETAILED,
		.path = (uintptr_t)TASK_FILE, .result = MEAS_RC_NONE,
	};

	return ioctl(self->fd, MEAS_IOC_TASK_START, &k) ? -errno : 0;
}

static void task_stop_self(fixture_t *self)
{
	struct meas_task_stop k = { .size = sizeof(k) };

	ioctl(self->fd, MEAS_IOC_TASK_STOP, &k);
}

static void task_no_file(fixture_t *self)
{
	(void)self;
	unlink(TASK_FILE);
}

/* Not measured, nothing probed, and no record written. */
static bool task_not_started(fixture_t *self)
{
	struct meas_task_stop k = { .size = sizeof(k) };
	struct stat st;

	if (!ioctl(self->fd, MEAS_IOC_TASK_STOP, &k) || errno != ENOENT)
		return false;
	if (!stat(TASK_FILE, &st) && st.st_size)
		return false;
	return self->global || info_of(self->fd).probes == 0;
}

TEST_F_TIMEOUT(failslab, task_start, 600)
{
	static const struct nth_case c = {
		.name = "TASK_START",
		.call = task_start_self,
		/* NPS0050 (ENOMEM, EIO), NPS0067 (EIO) */
		.errs = { ENOMEM, EIO },
		.unchanged = task_not_started,
		.undo = task_stop_self,
		.prepare = task_no_file,
	};

	NEED_FAIL_NTH();
	EXPECT_LT(0, fail_each(_metadata, self, &c));
	unlink(TASK_FILE);	/* the last, successful start wrote it */
	EXPECT_TRUE(task_not_started(self));
}

TEST_HARNESS_MAIN
