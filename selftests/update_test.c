// SPDX-License-Identifier: GPL-2.0
/*
 * Selftests of user-defined classes and UPDATESTATISTICS: DEFINE,
 * UNDEFINE, DESCRIBE and UPDATE on /dev/meas, every result code, the
 * exactness of concurrent updates, FUPDATESTATISTICS with absurd
 * arguments, and the example client module (module/example), which the
 * tests load and unload themselves.  Run as root inside the test VM with
 * meas.ko loaded (selftests/run_tests.sh).  MEAS_EXAMPLE_KO overrides the
 * path of meas_example.ko (default: module/example/meas_example.ko).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"

#define EX_PARAM_DIR	"/sys/module/meas_example/parameters/"

#define CA	5	/* the class most tests define */
#define CB	6	/* a second one */
#define CUNDEF	7	/* never defined */
#define CEX	8	/* the example client's */

/*
 * The class the tests define: subclass 0 "s0", 3 entries of 4 items
 * ("a" counter, "b" gauge, "c" and "d" counters); subclass 1, 1 entry of
 * 2 unnamed counters.  GETSTATISTICS item of entry e, item k of
 * subclass 0: (e - 1) * 4 + k.
 */
#define S0_ENTRIES	3
#define S0_ITEMS	4
#define S1_ITEMS	2
#define IT_A		0
#define IT_B		1
#define IT_C		2
#define IT_D		3

static struct meas_item_def test_items[S0_ITEMS + S1_ITEMS] = {
	{ .name = "a", .kind = MEAS_ITEM_COUNTER },
	{ .name = "b", .kind = MEAS_ITEM_GAUGE },
	{ .name = "c", .kind = MEAS_ITEM_COUNTER },
	{ .name = "d", .kind = MEAS_ITEM_COUNTER },
	{ .name = "", .kind = MEAS_ITEM_COUNTER },
	{ .name = "", .kind = MEAS_ITEM_COUNTER },
};

static void test_def(struct meas_define *d, int class)
{
	memset(d, 0, sizeof(*d));
	d->class = class;
	d->nsub = 2;
	strcpy(d->name, "testclass");
	strcpy(d->sub[0].name, "s0");
	d->sub[0].entries = S0_ENTRIES;
	d->sub[0].items = S0_ITEMS;
	d->sub[1].entries = 1;
	d->sub[1].items = S1_ITEMS;
	d->items = (uintptr_t)test_items;
	d->nitems = S0_ITEMS + S1_ITEMS;
}

static int define_test_class(int fd, int class, int *rc)
{
	struct meas_define d;

	test_def(&d, class);
	return meas_define(fd, &d, rc);
}

static long read_long(const char *path)
{
	char buf[32] = "";
	long v = -1;
	int fd = open(path, O_RDONLY);

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtol(buf, NULL, 10);
	if (fd >= 0)
		close(fd);
	return v;
}

static uint32_t defined_mask(int fd)
{
	return info_of(fd).defined_mask;
}

/* One item by GETSTATISTICS; UINT64_MAX - 1 if the read fails. */
static uint64_t item(int fd, int class, int sub, int64_t n)
{
	uint64_t v;
	int rc;

	if (meas_get(fd, class, sub, n, 1, &v, sizeof(v), &rc))
		return UINT64_MAX - 1;
	return v;
}

static int64_t s0_item(int64_t entry, int64_t k)
{
	return (entry - 1) * S0_ITEMS + k;
}

static int update(int fd, int class, int sub, int64_t entry, int64_t it,
		  uint32_t flags, int64_t value, int *rc)
{
	return meas_update(fd, class, sub, entry, it, flags, value, rc);
}

static void undefine_quietly(int class)
{
	int fd = meas_open();

	if (fd >= 0) {
		meas_undefine(fd, class, NULL);
		close(fd);
	}
}

FIXTURE(upd) {
	int fd;
};

FIXTURE_SETUP(upd)
{
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	set_param("fail_start", "0");
	undefine_quietly(CA);
	undefine_quietly(CB);
}

FIXTURE_TEARDOWN(upd)
{
	close(self->fd);
	set_param("fail_start", "0");
	set_param("max_region_kib", "262144");
	undefine_quietly(CA);
	undefine_quietly(CB);
}

/* ---- DEFINE, UNDEFINE, DESCRIBE ------------------------------------------ */

TEST_F(upd, define_describe_undefine)
{
	struct meas_item_def items[8];
	struct meas_define d;
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	EXPECT_EQ(MEAS_DEFINE_OK, rc);
	EXPECT_EQ(1U << CA, defined_mask(self->fd) & 1U << CA);
	/* Not enabled: no region, no storage. */
	EXPECT_EQ(0, info_of(self->fd).region_bytes[CA]);

	memset(items, 0x55, sizeof(items));
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, items, 8, &rc));
	EXPECT_EQ(MEAS_DEFINE_OK, rc);
	EXPECT_STREQ("testclass", d.name);
	EXPECT_EQ(2, d.nsub);
	EXPECT_STREQ("s0", d.sub[0].name);
	EXPECT_EQ(S0_ENTRIES, d.sub[0].entries);
	EXPECT_EQ(S0_ITEMS, d.sub[0].items);
	EXPECT_STREQ("", d.sub[1].name);
	EXPECT_EQ(1, d.sub[1].entries);
	EXPECT_EQ(S1_ITEMS, d.sub[1].items);
	EXPECT_EQ(6, d.nitems);
	EXPECT_EQ(0, memcmp(items, test_items, sizeof(test_items)));
	/* Room for fewer: that many are written, nitems tells the total. */
	memset(items, 0x55, sizeof(items));
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, items, 2, &rc));
	EXPECT_EQ(6, d.nitems);
	EXPECT_STREQ("b", items[1].name);
	EXPECT_EQ(0x55, (unsigned char)items[2].name[0]);
	/* Room that cannot be written: EFAULT after the struct is back. */
	EXPECT_EQ(-EFAULT, meas_describe(self->fd, CA, &d,
					 (struct meas_item_def *)8, 6, &rc));
	EXPECT_EQ(MEAS_DEFINE_OK, rc);
	EXPECT_EQ(6, d.nitems);

	ASSERT_EQ(0, meas_undefine(self->fd, CA, &rc));
	EXPECT_EQ(MEAS_DEFINE_OK, rc);
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CA);
	EXPECT_EQ(-ENOENT, meas_describe(self->fd, CA, &d, NULL, 0, &rc));
	EXPECT_EQ(MEAS_DEFINE_NOCLASS, rc);
}

TEST_F(upd, define_without_items_gives_unnamed_counters)
{
	struct meas_item_def items[S0_ITEMS + S1_ITEMS];
	struct meas_define d;
	int rc = -9, i;

	test_def(&d, CA);
	d.items = 0;
	d.nitems = 0;
	ASSERT_EQ(0, meas_define(self->fd, &d, &rc));
	memset(items, 0x55, sizeof(items));
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, items, 6, &rc));
	EXPECT_EQ(6, d.nitems);
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(0, items[i].name[0]);
		EXPECT_EQ(MEAS_ITEM_COUNTER, items[i].kind);
	}
}

TEST_F(upd, define_class_codes)
{
	static const struct { int class, code, err; } cases[] = {
		{ -1, MEAS_DEFINE_BADCLASS, -EINVAL },
		{ 16, MEAS_DEFINE_BADCLASS, -EINVAL },
		{ INT32_MIN, MEAS_DEFINE_BADCLASS, -EINVAL },
		{ 0, MEAS_DEFINE_RESERVED, -EINVAL },
		{ 14, MEAS_DEFINE_RESERVED, -EINVAL },
		{ 15, MEAS_DEFINE_RESERVED, -EINVAL },
	};
	uint32_t before = defined_mask(self->fd);
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rc = -9;
		EXPECT_EQ(cases[i].err,
			  define_test_class(self->fd, cases[i].class, &rc));
		EXPECT_EQ(cases[i].code, rc);
		rc = -9;
		EXPECT_EQ(cases[i].err, meas_undefine(self->fd, cases[i].class,
						      &rc));
		EXPECT_EQ(cases[i].code, rc);
	}
	EXPECT_EQ(before, defined_mask(self->fd));
}

TEST_F(upd, define_exists_then_replace)
{
	struct meas_item_def items[6];
	struct meas_define d;
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	EXPECT_EQ(-EEXIST, define_test_class(self->fd, CA, &rc));
	EXPECT_EQ(MEAS_DEFINE_EXISTS, rc);
	/* With REPLACE, a class that is not enabled is redefined. */
	test_def(&d, CA);
	d.flags = MEAS_DEFINE_REPLACE;
	strcpy(d.name, "second");	/* "ass" of "testclass" after the NUL */
	d.sub[0].entries = 7;
	ASSERT_EQ(0, meas_define(self->fd, &d, &rc));
	EXPECT_EQ(MEAS_DEFINE_OK, rc);
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, items, 6, &rc));
	EXPECT_STREQ("second", d.name);
	EXPECT_EQ(7, d.sub[0].entries);
}

/* Each bad shape or name: its code, and the class stays undefined. */
TEST_F(upd, define_shape_and_name_codes)
{
	struct meas_item_def bad_items[6];
	struct meas_define d;
	int rc, i;

	for (i = 0; i < 16; i++) {
		int code = MEAS_DEFINE_BADSHAPE, err = -EINVAL;

		test_def(&d, CA);
		memcpy(bad_items, test_items, sizeof(bad_items));
		switch (i) {
		case 0: d.nsub = 0; break;
		case 1: d.nsub = 17; break;
		case 2: d.sub[0].entries = 0; break;
		case 3: d.sub[1].items = 0; break;
		case 4: d.sub[0].items = MEAS_CUSTOM_MAX_ITEMS + 1; break;
		case 5: d.sub[2].entries = 1; break;	/* beyond nsub */
		case 6: d.nitems = 5; break;
		case 7: d.items = 0; break;		/* nitems without items */
		case 8:
			d.items = (uintptr_t)bad_items;
			bad_items[3].kind = 2;
			break;
		case 9:
			d.items = (uintptr_t)bad_items;
			bad_items[0].reserved = 1;
			break;
		case 10:
			code = MEAS_DEFINE_BADNAME;
			memset(d.name, 'x', sizeof(d.name));	/* no NUL */
			break;
		case 11:
			code = MEAS_DEFINE_BADNAME;
			strcpy(d.sub[0].name, "has space");
			break;
		case 12:
			code = MEAS_DEFINE_BADNAME;
			d.sub[1].name[0] = '\x80';
			break;
		case 13:
			code = MEAS_DEFINE_BADNAME;
			d.items = (uintptr_t)bad_items;
			strcpy(bad_items[4].name, "tab\there");
			break;
		case 14:
			code = MEAS_DEFINE_TOOBIG;
			err = -E2BIG;
			d.sub[0].entries = MEAS_CUSTOM_MAX_CLASS_ITEMS;
			break;
		case 15:
			code = MEAS_DEFINE_TOOBIG;
			err = -E2BIG;
			d.sub[0].entries = UINT32_MAX;
			d.sub[0].items = MEAS_CUSTOM_MAX_ITEMS;
			break;
		}
		rc = -9;
		EXPECT_EQ(err, meas_define(self->fd, &d, &rc)) {
			TH_LOG("case %d", i);
		}
		EXPECT_EQ(code, rc) {
			TH_LOG("case %d", i);
		}
		EXPECT_EQ(0, defined_mask(self->fd) & 1U << CA);
	}
	/* The longest name, 31 characters, is fine. */
	test_def(&d, CA);
	memset(d.name, 'n', MEAS_NAME_MAX - 1);
	EXPECT_EQ(0, meas_define(self->fd, &d, &rc));
	/* What follows a NUL is ignored and kept as zeros. */
	test_def(&d, CA);
	d.flags = MEAS_DEFINE_REPLACE;
	memcpy(d.sub[0].name, "s0\0junk", 8);
	ASSERT_EQ(0, meas_define(self->fd, &d, &rc));
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, NULL, 0, &rc));
	EXPECT_STREQ("s0", d.sub[0].name);
	EXPECT_EQ(0, d.sub[0].name[3]);
}

/* A malformed struct is refused as a whole: no result, nothing defined. */
TEST_F(upd, define_malformed_struct)
{
	struct meas_define d;
	int rc;

	/*
	 * Item definitions that cannot be read.  The rules every struct
	 * follows are tested once for all ioctls, in struct_rules_test.c.
	 */
	test_def(&d, CA);
	d.items = 8;
	EXPECT_EQ(-EFAULT, meas_define(self->fd, &d, &rc));
	EXPECT_EQ(MEAS_RC_NONE, rc);
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CA);
	/* UNDEFINE reads only size, flags and class. */
	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	test_def(&d, CA);
	d.size = sizeof(d);
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_UNDEFINE, &d));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1U << CA, defined_mask(self->fd) & 1U << CA);
}

TEST_F(upd, undefine_codes)
{
	int rc = -9;

	EXPECT_EQ(-ENOENT, meas_undefine(self->fd, CUNDEF, &rc));
	EXPECT_EQ(MEAS_DEFINE_NOCLASS, rc);
	EXPECT_EQ(-EINVAL, meas_undefine(self->fd, 99, &rc));
	EXPECT_EQ(MEAS_DEFINE_BADCLASS, rc);
	EXPECT_EQ(-EINVAL, meas_undefine(self->fd, 0, &rc));
	EXPECT_EQ(MEAS_DEFINE_RESERVED, rc);
	EXPECT_EQ(1, defined_mask(self->fd) & 1);
}

/* Redefining or removing a class in use is refused: MEAS_DEFINE_BUSY. */
TEST_F(upd, enabled_class_cannot_be_redefined_or_removed)
{
	struct meas_define d;
	int rc = -9, fd2;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	fd2 = meas_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, meas_start(fd2, 1U << CA, &rc));
	EXPECT_EQ(-EBUSY, meas_undefine(self->fd, CA, &rc));
	EXPECT_EQ(MEAS_DEFINE_BUSY, rc);
	test_def(&d, CA);
	d.flags = MEAS_DEFINE_REPLACE;
	d.sub[0].entries = 9;
	EXPECT_EQ(-EBUSY, meas_define(self->fd, &d, &rc));
	EXPECT_EQ(MEAS_DEFINE_BUSY, rc);
	ASSERT_EQ(0, meas_describe(self->fd, CA, &d, NULL, 0, &rc));
	EXPECT_EQ(S0_ENTRIES, d.sub[0].entries);
	EXPECT_EQ(1U << CA, defined_mask(self->fd) & 1U << CA);
	/* Once nothing has it enabled (the file is closed), it can go. */
	close(fd2);
	EXPECT_EQ(0, info_of(self->fd).enablers[CA]);
	EXPECT_EQ(0, meas_undefine(self->fd, CA, &rc));
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CA);
}

TEST_F(upd, define_and_undefine_need_privilege)
{
	int status, rc;
	pid_t pid;

	ASSERT_EQ(0, define_test_class(self->fd, CB, &rc));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct meas_define d;
		int fd;

		drop_caps();
		fd = meas_open();
		if (fd < 0)
			_exit(10);
		rc = -9;
		if (define_test_class(fd, CA, &rc) != -EPERM ||
		    rc != MEAS_RC_NONE)
			_exit(11);
		if (meas_undefine(fd, CB, &rc) != -EPERM || rc != MEAS_RC_NONE)
			_exit(12);
		/* Anyone may read a definition. */
		if (meas_describe(fd, CB, &d, NULL, 0, &rc) || d.nsub != 2)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CA);
	EXPECT_EQ(1U << CB, defined_mask(self->fd) & 1U << CB);
}

/* ---- enabling and reading ------------------------------------------------- */

TEST_F(upd, start_get_stop_with_header)
{
	struct meas_header h;
	uint64_t v[S0_ENTRIES * S0_ITEMS];
	struct meas_info info;
	int rc = -9, i;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	EXPECT_EQ(-ENODATA, meas_get(self->fd, CA, 0, 0, 1, v, sizeof(v), &rc));
	EXPECT_EQ(MEAS_GET_NOTENABLED, rc);
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	info = info_of(self->fd);
	EXPECT_EQ(1U << CA, info.global_mask & 1U << CA);
	EXPECT_EQ(1, info.enablers[CA]);
	EXPECT_LT(0, info.region_bytes[CA]);
	ASSERT_EQ(0, meas_header(self->fd, CA, 0, &h, &rc));
	EXPECT_EQ(S0_ENTRIES + 1, h.entries);
	EXPECT_EQ(S0_ITEMS, h.entsize);
	EXPECT_EQ(3, h.ent0size);
	ASSERT_EQ(0, meas_header(self->fd, CA, 1, &h, &rc));
	EXPECT_EQ(2, h.entries);
	EXPECT_EQ(S1_ITEMS, h.entsize);
	memset(v, 0xff, sizeof(v));
	ASSERT_EQ(0, meas_get(self->fd, CA, 0, 0, S0_ENTRIES * S0_ITEMS, v,
			      sizeof(v), &rc));
	for (i = 0; i < S0_ENTRIES * S0_ITEMS; i++)
		EXPECT_EQ(0, v[i]);
	EXPECT_EQ(-ERANGE, meas_get(self->fd, CA, 0, S0_ENTRIES * S0_ITEMS, 1,
				    v, sizeof(v), &rc));
	EXPECT_EQ(MEAS_GET_BADITEM, rc);
	EXPECT_EQ(-EINVAL, meas_get(self->fd, CA, 2, 0, 1, v, sizeof(v), &rc));
	EXPECT_EQ(MEAS_GET_BADSUBCLASS, rc);
	ASSERT_EQ(0, meas_stop(self->fd, 1U << CA, &rc));
	EXPECT_EQ(0, info_of(self->fd).region_bytes[CA]);
	EXPECT_EQ(-ENODATA, meas_get(self->fd, CA, 0, 0, 1, v, sizeof(v), &rc));
}

TEST_F(upd, counters_start_at_zero_after_restart)
{
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_A, 0, 5, &rc));
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_B, 0, 6, &rc));
	EXPECT_EQ(5, item(self->fd, CA, 0, s0_item(1, IT_A)));
	ASSERT_EQ(0, meas_stop(self->fd, 1U << CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(1, IT_A)));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(1, IT_B)));
}

TEST_F(upd, start_code2_and_code4_for_a_custom_class)
{
	struct meas_define d;
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	set_param("fail_start", "2");
	EXPECT_EQ(-ENOMEM, meas_start(self->fd, 1U << CA, &rc));
	EXPECT_EQ(MEAS_START_NODST, rc);
	EXPECT_EQ(0, info_of(self->fd).global_mask & 1U << CA);
	EXPECT_EQ(-ENODATA, update(self->fd, CA, 0, 1, 0, 0, 1, &rc));
	/* A region above max_region_kib: 1 KiB is 128 words. */
	test_def(&d, CB);
	d.items = 0;
	d.nitems = 0;
	d.sub[0].entries = 200;
	ASSERT_EQ(0, meas_define(self->fd, &d, &rc));
	set_param("max_region_kib", "1");
	EXPECT_EQ(-E2BIG, meas_start(self->fd, 1U << CB, &rc));
	EXPECT_EQ(MEAS_START_TOOBIG, rc);
	EXPECT_EQ(0, info_of(self->fd).global_mask & 1U << CB);
}

/* ---- UPDATESTATISTICS: the codes ------------------------------------------ */

struct upd_case {
	int class, sub;
	int64_t entry, item;
	uint32_t flags;
	int code, err;
};

static void check_cases(struct __test_metadata *_metadata, int fd,
			const struct upd_case *c, unsigned int n)
{
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = -9;
		EXPECT_EQ(c[i].err, update(fd, c[i].class, c[i].sub,
					   c[i].entry, c[i].item, c[i].flags,
					   1, &rc)) {
			TH_LOG("case %u", i);
		}
		EXPECT_EQ(c[i].code, rc) {
			TH_LOG("case %u", i);
		}
	}
}

TEST_F(upd, update_every_code)
{
	static const struct upd_case bad_class[] = {
		{ -1, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
		{ 16, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
		{ 0, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
		{ 14, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
		{ 15, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
		{ CUNDEF, 0, 1, 0, 0, MEAS_UPDATE_BADCLASS, -EINVAL },
	};
	static const struct upd_case not_enabled[] = {
		{ CA, 0, 1, 0, 0, MEAS_UPDATE_NOTENABLED, -ENODATA },
		/* 1 comes before the other checks */
		{ CA, 99, -5, -5, 0, MEAS_UPDATE_NOTENABLED, -ENODATA },
	};
	static const struct upd_case enabled[] = {
		{ CA, -1, 1, 0, 0, MEAS_UPDATE_BADSUBCLASS, -EINVAL },
		{ CA, 2, 1, 0, 0, MEAS_UPDATE_BADSUBCLASS, -EINVAL },
		{ CA, 2, 0, -1, 0, MEAS_UPDATE_BADSUBCLASS, -EINVAL },
		{ CA, 0, 0, 0, 0, MEAS_UPDATE_BADENTRY, -ERANGE },
		{ CA, 0, -1, 0, 0, MEAS_UPDATE_BADENTRY, -ERANGE },
		{ CA, 0, S0_ENTRIES + 1, 0, 0, MEAS_UPDATE_BADENTRY, -ERANGE },
		{ CA, 0, INT64_MIN, -1, 0, MEAS_UPDATE_BADENTRY, -ERANGE },
		{ CA, 1, 2, 0, 0, MEAS_UPDATE_BADENTRY, -ERANGE },
		{ CA, 0, 1, -1, 0, MEAS_UPDATE_BADITEM, -ERANGE },
		{ CA, 0, 1, S0_ITEMS, 0, MEAS_UPDATE_BADITEM, -ERANGE },
		{ CA, 0, 1, INT64_MAX, 0, MEAS_UPDATE_BADITEM, -ERANGE },
		{ CA, 1, 1, S1_ITEMS, 0, MEAS_UPDATE_BADITEM, -ERANGE },
		/* a double item needs its second word in the entry */
		{ CA, 0, 1, IT_D, MEAS_UPDATE_DOUBLE, MEAS_UPDATE_BADITEM, -ERANGE },
	};
	uint64_t v[S0_ENTRIES * S0_ITEMS];
	int rc = -9, i;

	check_cases(_metadata, self->fd, bad_class, ARRAY_SIZE(bad_class));
	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	check_cases(_metadata, self->fd, not_enabled, ARRAY_SIZE(not_enabled));
	check_cases(_metadata, self->fd, bad_class, ARRAY_SIZE(bad_class));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	check_cases(_metadata, self->fd, enabled, ARRAY_SIZE(enabled));
	/* The refused updates changed nothing. */
	ASSERT_EQ(0, meas_get(self->fd, CA, 0, 0, S0_ENTRIES * S0_ITEMS, v,
			      sizeof(v), &rc));
	for (i = 0; i < S0_ENTRIES * S0_ITEMS; i++)
		EXPECT_EQ(0, v[i]);
	EXPECT_EQ(0, item(self->fd, CA, 1, 0));
	EXPECT_EQ(0, item(self->fd, CA, 1, 1));
	/* Code 0: the last item of the last entry, each subclass. */
	EXPECT_EQ(0, update(self->fd, CA, 0, S0_ENTRIES, IT_D, 0, 1, &rc));
	EXPECT_EQ(MEAS_UPDATE_OK, rc);
	EXPECT_EQ(0, update(self->fd, CA, 1, 1, S1_ITEMS - 1, 0, 1, &rc));
	EXPECT_EQ(MEAS_UPDATE_OK, rc);
	EXPECT_EQ(1, item(self->fd, CA, 0, s0_item(S0_ENTRIES, IT_D)));
	EXPECT_EQ(1, item(self->fd, CA, 1, S1_ITEMS - 1));
}

TEST_F(upd, update_malformed_struct)
{
	struct meas_update u = {
		.size = sizeof(u), .class = CA, .subclass = 0, .entry = 1,
		.startingitem = 0, .valuechange = 1, .result = MEAS_RC_NONE,
	};
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	/*
	 * The rules are tested once for all ioctls in struct_rules_test.c;
	 * here, that a refused update of a live class changes nothing.
	 */
	u.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_UPDATE, &u));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MEAS_RC_NONE, u.result);
	u.pad = 0;
	EXPECT_EQ(0, item(self->fd, CA, 0, 0));
	/* A larger struct with zero tail is accepted. */
	{
		char big[sizeof(u) + 16] = { 0 };

		u.size = sizeof(big);
		memcpy(big, &u, sizeof(u));
		EXPECT_EQ(0, ioctl(self->fd, MEAS_IOC_UPDATE, big));
		EXPECT_EQ(1, item(self->fd, CA, 0, 0));
		big[sizeof(u) + 3] = 1;
		EXPECT_EQ(-1, ioctl(self->fd, MEAS_IOC_UPDATE, big));
		EXPECT_EQ(E2BIG, errno);
		EXPECT_EQ(1, item(self->fd, CA, 0, 0));
	}
}

TEST_F(upd, update_needs_privilege)
{
	int status, rc = -9;
	pid_t pid;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		uint64_t v = 9;
		int fd;

		drop_caps();
		fd = meas_open();
		if (fd < 0)
			_exit(10);
		rc = -9;
		if (update(fd, CA, 0, 1, 0, 0, 1, &rc) != -EPERM ||
		    rc != MEAS_RC_NONE)
			_exit(11);
		if (update(fd, CA, 0, 1, 0, MEAS_UPDATE_FAST, 1, &rc) != -EPERM)
			_exit(12);
		/* Reading needs no privilege. */
		if (meas_get(fd, CA, 0, 0, 1, &v, sizeof(v), &rc) || v)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, item(self->fd, CA, 0, 0));
}

/* ---- UPDATESTATISTICS: values --------------------------------------------- */

TEST_F(upd, newvalueflag_replaces_counter_and_gauge)
{
	int rc = -9, k;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	for (k = IT_A; k <= IT_B; k++) {	/* a counter, then a gauge */
		int64_t n = s0_item(2, k);

		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k, 0, 5, &rc));
		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k, 0, -2, &rc));
		EXPECT_EQ(3, item(self->fd, CA, 0, n));
		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k,
				    MEAS_UPDATE_NEWVALUE, 100, &rc));
		EXPECT_EQ(MEAS_UPDATE_OK, rc);
		EXPECT_EQ(100, item(self->fd, CA, 0, n));
		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k, 0, 1, &rc));
		EXPECT_EQ(101, item(self->fd, CA, 0, n));
		/* Negative values are two's complement words. */
		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k,
				    MEAS_UPDATE_NEWVALUE, -7, &rc));
		EXPECT_EQ((uint64_t)-7, item(self->fd, CA, 0, n));
		ASSERT_EQ(0, update(self->fd, CA, 0, 2, k,
				    MEAS_UPDATE_NEWVALUE, 0, &rc));
		EXPECT_EQ(0, item(self->fd, CA, 0, n));
	}
	/* Neighbours and other entries untouched. */
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(1, IT_A)));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(2, IT_C)));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(3, IT_B)));
}

TEST_F(upd, doubleitemflag_updates_the_first_word)
{
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_C, MEAS_UPDATE_DOUBLE, 7,
			    &rc));
	EXPECT_EQ(MEAS_UPDATE_OK, rc);
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_C, MEAS_UPDATE_DOUBLE, 7,
			    &rc));
	EXPECT_EQ(14, item(self->fd, CA, 0, s0_item(1, IT_C)));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(1, IT_D)));
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_C,
			    MEAS_UPDATE_DOUBLE | MEAS_UPDATE_NEWVALUE,
			    1LL << 40, &rc));
	EXPECT_EQ(1ULL << 40, item(self->fd, CA, 0, s0_item(1, IT_C)));
	EXPECT_EQ(0, item(self->fd, CA, 0, s0_item(1, IT_D)));
}

/* ---- concurrency ---------------------------------------------------------- */

struct adder {
	int fd;
	int k;			/* item of entry 1, subclass 0 */
	long n;
	int failures;
};

static void *adder_run(void *arg)
{
	struct adder *a = arg;
	struct meas_update u = {
		.size = sizeof(u), .class = CA, .subclass = 0, .entry = 1,
		.startingitem = a->k, .valuechange = 1,
	};
	long i;

	for (i = 0; i < a->n; i++)
		if (ioctl(a->fd, MEAS_IOC_UPDATE, &u) || u.result)
			a->failures++;
	return NULL;
}

static void run_adders(struct __test_metadata *_metadata, int fd, int k,
		       int threads, long n)
{
	struct adder a[16];
	pthread_t t[16];
	int i;

	for (i = 0; i < threads; i++) {
		a[i] = (struct adder){ .fd = fd, .k = k, .n = n };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, adder_run, &a[i]));
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, a[i].failures);
	}
}

/* 8 threads, on every CPU, each add 1 a million times: exactly 8,000,000. */
TEST_F_TIMEOUT(upd, eight_threads_million_adds_counter, 600)
{
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	run_adders(_metadata, self->fd, IT_A, 8, 1000000);
	EXPECT_EQ(8000000, item(self->fd, CA, 0, s0_item(1, IT_A)));
}

TEST_F_TIMEOUT(upd, eight_threads_adds_gauge, 600)
{
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_B, MEAS_UPDATE_NEWVALUE,
			    1000, &rc));
	run_adders(_metadata, self->fd, IT_B, 8, 250000);
	EXPECT_EQ(1000 + 2000000, item(self->fd, CA, 0, s0_item(1, IT_B)));
}

struct replacer {
	int fd;
	volatile int *stop;
	long replaces;
	long bad_reads;
	long reads;
	uint64_t limit;
};

/* Replace the counter with 0, again and again. */
static void *replacer_run(void *arg)
{
	struct replacer *r = arg;

	while (!*r->stop) {
		meas_update(r->fd, CA, 0, 1, IT_A, MEAS_UPDATE_NEWVALUE, 0,
			    NULL);
		r->replaces++;
	}
	return NULL;
}

/* A read never sees half a replace: never more than all adds. */
static void *reader_run(void *arg)
{
	struct replacer *r = arg;
	uint64_t v;
	int rc;

	while (!*r->stop) {
		if (meas_get(r->fd, CA, 0, s0_item(1, IT_A), 1, &v, sizeof(v),
			     &rc) || v > r->limit)
			r->bad_reads++;
		r->reads++;
	}
	return NULL;
}

TEST_F_TIMEOUT(upd, counter_replace_races_adds_and_reads, 300)
{
	volatile int stop = 0;
	struct replacer r = { .fd = self->fd, .stop = &stop,
			      .limit = 4 * 100000 };
	pthread_t tr, tg;
	int rc = -9;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CA, &rc));
	ASSERT_EQ(0, pthread_create(&tr, NULL, replacer_run, &r));
	ASSERT_EQ(0, pthread_create(&tg, NULL, reader_run, &r));
	run_adders(_metadata, self->fd, IT_A, 4, 100000);
	stop = 1;
	pthread_join(tr, NULL);
	pthread_join(tg, NULL);
	TH_LOG("%ld replaces, %ld reads during the adds", r.replaces, r.reads);
	EXPECT_EQ(0, r.bad_reads);
	EXPECT_LT(0, r.replaces);
	/* After a last replace, the value is exactly what was set. */
	ASSERT_EQ(0, update(self->fd, CA, 0, 1, IT_A, MEAS_UPDATE_NEWVALUE,
			    42, &rc));
	EXPECT_EQ(42, item(self->fd, CA, 0, s0_item(1, IT_A)));
	run_adders(_metadata, self->fd, IT_A, 4, 1000);
	EXPECT_EQ(42 + 4000, item(self->fd, CA, 0, s0_item(1, IT_A)));
}

/* ---- FUPDATESTATISTICS ---------------------------------------------------- */

/* Where FUPDATESTATISTICS lands, computed here independently. */
static int64_t fupdate_target(int sub, int64_t entry, int64_t it)
{
	static const uint64_t per[2] = { S0_ITEMS, S1_ITEMS };
	static const uint64_t n[2] = { S0_ENTRIES * S0_ITEMS, S1_ITEMS };
	uint64_t off;

	if (sub < 0 || sub > 1)
		return -1;
	off = ((uint64_t)entry - 1) * per[sub] + (uint64_t)it;
	return off < n[sub] ? (int64_t)off : -1;
}

TEST_F(upd, fupdate_absurd_arguments_stay_in_the_class)
{
	static const int subs[] = { INT32_MIN, -1, 0, 1, 2, 16, INT32_MAX };
	static const int64_t nums[] = {
		INT64_MIN, -4097, -1, 0, 1, 2, 3, 4, 5, 13, 1LL << 40,
		INT64_MAX,
	};
	uint64_t expect0[S0_ENTRIES * S0_ITEMS] = { 0 };
	uint64_t expect1[S1_ITEMS] = { 0 };
	uint64_t b_before[S0_ENTRIES * S0_ITEMS], b_after[S0_ENTRIES * S0_ITEMS];
	uint64_t v0[S0_ENTRIES * S0_ITEMS], v1[S1_ITEMS];
	struct meas_header h0, h1;
	unsigned int s, e, i;
	int64_t at;
	int rc = -9, k;

	ASSERT_EQ(0, define_test_class(self->fd, CA, &rc));
	ASSERT_EQ(0, define_test_class(self->fd, CB, &rc));
	/* Not enabled, or no class at all: 0, nothing happens. */
	EXPECT_EQ(0, update(self->fd, CA, 0, 1, 0, MEAS_UPDATE_FAST, 1, &rc));
	EXPECT_EQ(MEAS_UPDATE_OK, rc);
	EXPECT_EQ(0, update(self->fd, 99, 0, 1, 0, MEAS_UPDATE_FAST, 1, &rc));
	EXPECT_EQ(MEAS_UPDATE_OK, rc);
	EXPECT_EQ(0, update(self->fd, 0, 0, 1, 0, MEAS_UPDATE_FAST, 1, &rc));
	ASSERT_EQ(0, meas_start(self->fd, 1 | 1U << CA | 1U << CB, &rc));
	for (k = 0; k < S0_ENTRIES * S0_ITEMS; k++)
		ASSERT_EQ(0, update(self->fd, CB, 0, k / S0_ITEMS + 1,
				    k % S0_ITEMS, 0, 1000 + k, &rc));
	ASSERT_EQ(0, meas_get(self->fd, CB, 0, 0, S0_ENTRIES * S0_ITEMS,
			      b_before, sizeof(b_before), &rc));

	for (s = 0; s < ARRAY_SIZE(subs); s++)
		for (e = 0; e < ARRAY_SIZE(nums); e++)
			for (i = 0; i < ARRAY_SIZE(nums); i++) {
				rc = -9;
				ASSERT_EQ(0, update(self->fd, CA, subs[s],
						    nums[e], nums[i],
						    MEAS_UPDATE_FAST |
						    MEAS_UPDATE_DOUBLE, 1, &rc));
				ASSERT_EQ(MEAS_UPDATE_OK, rc);
				at = fupdate_target(subs[s], nums[e], nums[i]);
				if (at >= 0 && subs[s] == 0)
					expect0[at]++;
				else if (at >= 0)
					expect1[at]++;
			}

	/* Exactly the predicted items of class A moved... */
	ASSERT_EQ(0, meas_get(self->fd, CA, 0, 0, S0_ENTRIES * S0_ITEMS, v0,
			      sizeof(v0), &rc));
	ASSERT_EQ(0, meas_get(self->fd, CA, 1, 0, S1_ITEMS, v1, sizeof(v1),
			      &rc));
	EXPECT_EQ(0, memcmp(expect0, v0, sizeof(v0)));
	EXPECT_EQ(0, memcmp(expect1, v1, sizeof(v1)));
	/* ...its headers did not, nor class B, nor class 0's header. */
	ASSERT_EQ(0, meas_header(self->fd, CA, 0, &h0, &rc));
	ASSERT_EQ(0, meas_header(self->fd, CA, 1, &h1, &rc));
	EXPECT_EQ(S0_ENTRIES + 1, h0.entries);
	EXPECT_EQ(S0_ITEMS, h0.entsize);
	EXPECT_EQ(3, h0.ent0size);
	EXPECT_EQ(2, h1.entries);
	EXPECT_EQ(S1_ITEMS, h1.entsize);
	ASSERT_EQ(0, meas_get(self->fd, CB, 0, 0, S0_ENTRIES * S0_ITEMS,
			      b_after, sizeof(b_after), &rc));
	EXPECT_EQ(0, memcmp(b_before, b_after, sizeof(b_before)));
	EXPECT_EQ(0, item(self->fd, CB, 1, 0));
	EXPECT_EQ(0, item(self->fd, CB, 1, 1));
	ASSERT_EQ(0, meas_header(self->fd, 0, 0, &h0, &rc));
	EXPECT_EQ(2, h0.entries);
	EXPECT_EQ(MEAS_C0_FIXED_ITEMS, h0.entsize);
	/* With good arguments the fast path is an update. */
	ASSERT_EQ(0, update(self->fd, CB, 1, 1, 1,
			    MEAS_UPDATE_FAST | MEAS_UPDATE_NEWVALUE, 77, &rc));
	EXPECT_EQ(77, item(self->fd, CB, 1, 1));
}

/* ---- the example client module -------------------------------------------- */

static const char *example_ko(void)
{
	const char *p = getenv("MEAS_EXAMPLE_KO");

	return p ? p : "module/example/meas_example.ko";
}

static int example_load(const char *params)
{
	int fd = open(example_ko(), O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

static int example_unload(void)
{
	return syscall(SYS_delete_module, "meas_example", O_NONBLOCK) ?
	       -errno : 0;
}

static pid_t exec_true(void)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return pid;
}

FIXTURE(example) {
	int fd;
};

FIXTURE_SETUP(example)
{
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	example_unload();
	undefine_quietly(CEX);
	ASSERT_EQ(0, example_load("class=8 tick_us=2000"));
}

FIXTURE_TEARDOWN(example)
{
	close(self->fd);
	example_unload();
	undefine_quietly(CEX);
}

TEST_F(example, defines_its_class_with_names)
{
	struct meas_item_def items[8];
	struct meas_define d;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int rc = -9;

	EXPECT_EQ(1U << CEX, defined_mask(self->fd) & 1U << CEX);
	ASSERT_EQ(0, meas_describe(self->fd, CEX, &d, items, 8, &rc));
	EXPECT_STREQ("example", d.name);
	EXPECT_EQ(2, d.nsub);
	EXPECT_STREQ("events", d.sub[0].name);
	EXPECT_EQ(1, d.sub[0].entries);
	EXPECT_EQ(3, d.sub[0].items);
	EXPECT_STREQ("cpu", d.sub[1].name);
	EXPECT_LE(cpus, d.sub[1].entries);
	EXPECT_EQ(2, d.sub[1].items);
	EXPECT_STREQ("execs", items[0].name);
	EXPECT_STREQ("last-exec-pid", items[1].name);
	EXPECT_EQ(MEAS_ITEM_GAUGE, items[1].kind);
	EXPECT_STREQ("ticks", items[2].name);
	EXPECT_STREQ("ticks", items[4].name);
	/* Its class is its own: a tool cannot redefine it unasked. */
	EXPECT_EQ(-EEXIST, define_test_class(self->fd, CEX, &rc));
	EXPECT_EQ(MEAS_DEFINE_EXISTS, rc);
}

TEST_F(example, counters_move_with_its_events)
{
	uint64_t ev0[3], ev1[3], *cpu;
	struct meas_define d;
	uint64_t sum = 0, n;
	pid_t last = -1;
	int rc = -9, i;

	ASSERT_EQ(0, meas_describe(self->fd, CEX, &d, NULL, 0, &rc));
	n = (uint64_t)d.sub[1].entries * 2;
	cpu = calloc(n, sizeof(*cpu));
	ASSERT_NE(NULL, cpu);
	ASSERT_EQ(0, meas_start(self->fd, 1U << CEX, &rc));
	ASSERT_EQ(0, meas_get(self->fd, CEX, 0, 0, 3, ev0, sizeof(ev0), &rc));
	for (i = 0; i < 20; i++)
		last = exec_true();
	ASSERT_LT(0, last);
	sleep_ms(100);
	ASSERT_EQ(0, meas_get(self->fd, CEX, 0, 0, 3, ev1, sizeof(ev1), &rc));
	ASSERT_EQ(0, meas_get(self->fd, CEX, 1, 0, n, cpu, n * sizeof(*cpu),
			      &rc));
	/* Our 20 execs are counted (the VM runs nothing else). */
	EXPECT_LE(ev0[0] + 20, ev1[0]);
	EXPECT_GE(ev0[0] + 25, ev1[0]);
	EXPECT_EQ((uint64_t)last, ev1[1]);
	/* The timer ticks every 2 ms, in hard interrupt context. */
	EXPECT_LT(ev0[2], ev1[2]);
	/* The per-CPU entries add up to the totals. */
	for (i = 0; i < (int)n; i += 2)
		sum += cpu[i];
	EXPECT_EQ(ev1[0], sum);
	EXPECT_EQ(0, read_long(EX_PARAM_DIR "errors"));
	free(cpu);
}

TEST_F(example, unload_while_enabled_leaves_the_class)
{
	uint64_t t0, t1;
	int rc = -9;

	ASSERT_EQ(0, meas_start(self->fd, 1U << CEX, &rc));
	sleep_ms(20);
	/* meas.ko is in use by the client, the client by nobody. */
	EXPECT_EQ(-EBUSY, meas_undefine(self->fd, CEX, &rc));
	EXPECT_EQ(MEAS_DEFINE_BUSY, rc);
	ASSERT_EQ(0, example_unload());
	/* The definition stays, readable, and no longer moves. */
	EXPECT_EQ(1U << CEX, defined_mask(self->fd) & 1U << CEX);
	t0 = item(self->fd, CEX, 0, 2);
	sleep_ms(50);
	t1 = item(self->fd, CEX, 0, 2);
	EXPECT_LT(0, t0);
	EXPECT_EQ(t0, t1);
	/* The client is gone: a tool removes the class once it is off. */
	ASSERT_EQ(0, meas_stop(self->fd, 1U << CEX, &rc));
	EXPECT_EQ(0, meas_undefine(self->fd, CEX, &rc));
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CEX);
}

/* The in-kernel define refuses what the ioctl refuses: the load fails. */
TEST_F(example, refused_definition_fails_the_load)
{
	int rc = -9;

	ASSERT_EQ(0, example_unload());
	EXPECT_EQ(-EINVAL, example_load("class=0"));		/* the module's */
	EXPECT_EQ(-EINVAL, example_load("class=15"));
	EXPECT_EQ(-EINVAL, example_load("class=16"));
	EXPECT_EQ(-EINVAL, example_load("class=-1"));
	ASSERT_EQ(0, define_test_class(self->fd, CEX, &rc));
	/* taken: EBUSY, as init_module() keeps EEXIST for "loaded" */
	EXPECT_EQ(-EBUSY, example_load("class=8"));
	ASSERT_EQ(0, meas_start(self->fd, 1U << CEX, &rc));
	EXPECT_EQ(-EBUSY, example_load("class=8"));
	ASSERT_EQ(0, meas_stop(self->fd, 1U << CEX, &rc));
	/* None of them left anything behind. */
	EXPECT_EQ(-ENOENT, example_unload());
	EXPECT_EQ(1, defined_mask(self->fd) & 1);
	EXPECT_EQ(0, meas_undefine(self->fd, CEX, &rc));
	EXPECT_EQ(0, example_load("class=8"));
}

TEST_F(example, unload_when_disabled_removes_the_class)
{
	int rc = -9;

	ASSERT_EQ(0, meas_start(self->fd, 1U << CEX, &rc));
	ASSERT_EQ(0, meas_stop(self->fd, 1U << CEX, &rc));
	ASSERT_EQ(0, example_unload());
	EXPECT_EQ(0, defined_mask(self->fd) & 1U << CEX);
}

TEST_HARNESS_MAIN
