// SPDX-License-Identifier: GPL-2.0
/*
 * The rules every ioctl struct of /dev/meas follows (<linux/meas.h>), in
 * one table, after iommufd's TEST_LENGTH: a size below the first
 * published one is EINVAL, non-zero bytes past what the kernel knows are
 * E2BIG (zero bytes are accepted), a size above a page is E2BIG (the
 * kernel reads no more, as clone3() does), an unknown flag is EOPNOTSUPP, a
 * non-zero reserved byte or pad word is EINVAL, a struct that cannot be
 * read is EFAULT.  Each case is malformed, so no call does anything.
 * This is the one place these rules are tested; the test of each area
 * checks only what is particular to its ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/meas.h>

#include "kselftest_harness.h"

/**
 * struct rule - one ioctl struct
 * @name: for messages
 * @cmd: the ioctl
 * @size: sizeof the struct
 * @ver0: its first published size
 * @flags: offset of its __u32 flags, or -1 when the kernel does not
 *	check the flags with the common rules
 * @known: the flags the kernel knows
 * @reserved: offset of its reserved area (to the end of the struct), or -1
 * @result: offset of its __s32 result, or -1
 * @pad: offset of its __u32 pad word, which must be 0, or -1
 */
struct rule {
	const char *name;
	unsigned long cmd;
	size_t size, ver0;
	ssize_t flags;
	uint32_t known;
	ssize_t reserved;
	ssize_t result;
	ssize_t pad;
};

#define RULE(c, s, v, k) { #c, c, sizeof(struct s), v, \
	offsetof(struct s, flags), k, offsetof(struct s, reserved), \
	offsetof(struct s, result), -1 }
#define RULE_PAD(c, s, v, k) { #c, c, sizeof(struct s), v, \
	offsetof(struct s, flags), k, offsetof(struct s, reserved), \
	offsetof(struct s, result), offsetof(struct s, pad) }
#define SIZE_ONLY(c, s, v) { #c, c, sizeof(struct s), v, -1, 0, -1, -1, -1 }
/* DESCRIBE: every field but size, flags, class, items, nitems is output */
#define NO_RESERVED(c, s, v, k) { #c, c, sizeof(struct s), v, \
	offsetof(struct s, flags), k, -1, offsetof(struct s, result), -1 }

static const struct rule rules[] = {
	RULE(MEAS_IOC_START, meas_start, MEAS_START_SIZE_VER0, 0),
	RULE(MEAS_IOC_STOP, meas_start, MEAS_START_SIZE_VER0, 0),
	RULE_PAD(MEAS_IOC_GET, meas_get, MEAS_GET_SIZE_VER0, MEAS_GET_FAST),
	RULE_PAD(MEAS_IOC_UPDATE, meas_update, MEAS_UPDATE_SIZE_VER0,
		 MEAS_UPDATE_FAST | MEAS_UPDATE_NEWVALUE | MEAS_UPDATE_DOUBLE),
	RULE(MEAS_IOC_GETCLOCK, meas_getclock, MEAS_GETCLOCK_SIZE_VER0, 0),
	RULE(MEAS_IOC_GIVECLOCK, meas_giveclock, MEAS_GIVECLOCK_SIZE_VER0, 0),
	RULE_PAD(MEAS_IOC_GETPROCSTATS, meas_procstats,
		 MEAS_PROCSTATS_SIZE_VER0,
		 MEAS_PROCSTATS_FAST | MEAS_PROCSTATS_SLOT),
	RULE_PAD(MEAS_IOC_READACTIVE, meas_readactive,
		 MEAS_READACTIVE_SIZE_VER0, 0),
	RULE(MEAS_IOC_IOTRACE_READ, meas_iotrace_read, MEAS_IOTRACE_SIZE_VER0,
	     MEAS_IOTRACE_FROM_NOW),
	SIZE_ONLY(MEAS_IOC_INFO, meas_info, MEAS_INFO_SIZE_VER0),
	SIZE_ONLY(MEAS_IOC_CLOCKINFO, meas_clockinfo, MEAS_CLOCKINFO_SIZE_VER0),
	RULE_PAD(MEAS_IOC_DEFINE, meas_define, MEAS_DEFINE_SIZE_VER0,
		 MEAS_DEFINE_REPLACE),
	RULE_PAD(MEAS_IOC_UNDEFINE, meas_define, MEAS_DEFINE_SIZE_VER0, 0),
	NO_RESERVED(MEAS_IOC_DESCRIBE, meas_define, MEAS_DEFINE_SIZE_VER0, 0),
	RULE_PAD(MEAS_IOC_TASK_START, meas_task_start,
		 MEAS_TASK_START_SIZE_VER0, MEAS_TASK_SVC | MEAS_TASK_OWNED),
	RULE(MEAS_IOC_TASK_STOP, meas_task_stop, MEAS_TASK_STOP_SIZE_VER0, 0),
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))
#define BUF 4096

FIXTURE(rules) {
	int fd;
	unsigned char buf[BUF];
};

FIXTURE_SETUP(rules)
{
	self->fd = open(MEAS_DEVICE, O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(rules)
{
	close(self->fd);
}

/* A struct of @size bytes, zero but for its size field. */
static unsigned char *blank(unsigned char *buf, uint32_t size)
{
	memset(buf, 0, BUF);
	memcpy(buf, &size, sizeof(size));
	return buf;
}

/*
 * The errno of a malformed call.  Nothing is copied back: a result field
 * preset to MEAS_RC_NONE must still say so, or the call is reported as
 * EIO (no ioctl of meas returns EIO for a malformed struct).
 */
static int call(int fd, const struct rule *r, void *arg)
{
	int32_t none = MEAS_RC_NONE, after;
	unsigned char *b = arg;
	int err;

	if (r->result >= 0 && (uintptr_t)arg > 4096)
		memcpy(b + r->result, &none, sizeof(none));
	err = ioctl(fd, r->cmd, arg) ? errno : 0;
	if (r->result >= 0 && (uintptr_t)arg > 4096) {
		memcpy(&after, b + r->result, sizeof(after));
		if (after != MEAS_RC_NONE)
			return EIO;
	}
	return err;
}

TEST_F(rules, size_below_first_published_is_einval)
{
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];

		EXPECT_EQ(EINVAL, call(self->fd, r, blank(self->buf, 0)))
			TH_LOG("%s", r->name);
		EXPECT_EQ(EINVAL, call(self->fd, r,
				       blank(self->buf, r->ver0 - 1)))
			TH_LOG("%s", r->name);
	}
}

TEST_F(rules, nonzero_trailing_byte_is_e2big)
{
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];
		unsigned char *b = blank(self->buf, r->size + 8);

		b[r->size + 7] = 1;
		EXPECT_EQ(E2BIG, call(self->fd, r, b)) TH_LOG("%s", r->name);
	}
}

/*
 * A size above a page is refused before the tail is read: a zero tail
 * of a page and a byte, and 4 GiB - 1 bytes of which only two pages are
 * mapped (before: the first accepted, the second walked to the hole,
 * EFAULT, with no point to reschedule had it been mapped).
 */
TEST_F(rules, size_above_a_page_is_e2big)
{
	static const uint32_t sizes[] = { 0, UINT32_MAX };
	long pg = sysconf(_SC_PAGESIZE);
	unsigned int i, j;
	unsigned char *b;
	uint32_t size;

	b = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, b);
	for (i = 0; i < NRULES; i++) {
		for (j = 0; j < 2; j++) {
			size = sizes[j] ?: pg + 1;
			memset(b, 0, 2 * pg);
			memcpy(b, &size, sizeof(size));
			EXPECT_EQ(E2BIG, call(self->fd, &rules[i], b))
				TH_LOG("%s, size %u", rules[i].name, size);
		}
	}
	munmap(b, 2 * pg);
}

TEST_F(rules, unknown_flag_is_eopnotsupp)
{
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];
		unsigned char *b;
		uint32_t bad = ~r->known & 0x80000000U;

		if (r->flags < 0)
			continue;
		b = blank(self->buf, r->size);
		memcpy(b + r->flags, &bad, sizeof(bad));
		EXPECT_EQ(EOPNOTSUPP, call(self->fd, r, b)) TH_LOG("%s", r->name);
	}
}

TEST_F(rules, nonzero_reserved_or_pad_is_einval)
{
	uint32_t one = 1;
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];
		unsigned char *b = blank(self->buf, r->size);

		if (r->reserved >= 0) {
			b[r->size - 1] = 1;	/* the last reserved byte */
			EXPECT_EQ(EINVAL, call(self->fd, r, b))
				TH_LOG("%s", r->name);
			b[r->size - 1] = 0;
			b[r->reserved] = 1;	/* the first */
			EXPECT_EQ(EINVAL, call(self->fd, r, b))
				TH_LOG("%s", r->name);
			b[r->reserved] = 0;
		}
		if (r->pad >= 0) {
			memcpy(b + r->pad, &one, sizeof(one));
			EXPECT_EQ(EINVAL, call(self->fd, r, b))
				TH_LOG("%s pad", r->name);
		}
	}
}

/*
 * A struct larger than the kernel's, with a zero tail, passes the rules:
 * the call goes on and, where the struct has one, writes a result (the
 * blank struct may well be refused for what it asks, with an MPE code).
 */
TEST_F(rules, zero_trailing_bytes_are_accepted)
{
	int32_t none = MEAS_RC_NONE, after;
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];
		unsigned char *b = blank(self->buf, r->size + 64);
		int err;

		if (r->result < 0) {
			EXPECT_EQ(0, call(self->fd, r, b)) TH_LOG("%s", r->name);
			continue;
		}
		memcpy(b + r->result, &none, sizeof(none));
		err = ioctl(self->fd, r->cmd, b) ? errno : 0;
		memcpy(&after, b + r->result, sizeof(after));
		EXPECT_NE(MEAS_RC_NONE, after) TH_LOG("%s: errno %d", r->name, err);
		EXPECT_NE(E2BIG, err) TH_LOG("%s", r->name);
	}
}

TEST_F(rules, unreadable_struct_is_efault)
{
	unsigned int i;

	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];

		EXPECT_EQ(EFAULT, call(self->fd, r, (void *)8))
			TH_LOG("%s", r->name);
	}
}

TEST_HARNESS_MAIN
