// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/logic/rescode.c, the one table per intrinsic
 * of the result codes: every code the uapi headers define has an entry,
 * with a text and an errno, and nothing else has one.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include <linux/meas.h>
#include "logic/rescode.h"

/* The codes of each intrinsic, as uapi/linux/meas*.h define them. */
static const int start_codes[] = {
	MEAS_START_OK, MEAS_START_NOVMEM, MEAS_START_NODST, MEAS_START_NOLOCK,
	MEAS_START_TOOBIG, MEAS_START_BADCLASS,
};
static const int stop_codes[] = { MEAS_STOP_OK, MEAS_STOP_BADPARM };
static const int get_codes[] = {
	MEAS_GET_OK, MEAS_GET_NOTENABLED, MEAS_GET_BOUNDS, MEAS_GET_BADCOUNT,
	MEAS_GET_BADITEM, MEAS_GET_BADSUBCLASS, MEAS_GET_BADCLASS,
};
static const int define_codes[] = {
	MEAS_DEFINE_OK, MEAS_DEFINE_BADCLASS, MEAS_DEFINE_RESERVED,
	MEAS_DEFINE_EXISTS, MEAS_DEFINE_BUSY, MEAS_DEFINE_NOCLASS,
	MEAS_DEFINE_BADSHAPE, MEAS_DEFINE_BADNAME, MEAS_DEFINE_TOOBIG,
	MEAS_DEFINE_NOMEM,
};
static const int update_codes[] = {
	MEAS_UPDATE_OK, MEAS_UPDATE_NOTENABLED, MEAS_UPDATE_BADITEM,
	MEAS_UPDATE_BADENTRY, MEAS_UPDATE_BADSUBCLASS, MEAS_UPDATE_BADCLASS,
};
static const int getclock_codes[] = {
	MEAS_GETCLOCK_OK, MEAS_GETCLOCK_MISSING, MEAS_GETCLOCK_INUSE,
	MEAS_GETCLOCK_BADRATE, MEAS_GETCLOCK_BADCOLLECTOR,
	MEAS_GETCLOCK_NOCODE, MEAS_GETCLOCK_NOBUF, MEAS_GETCLOCK_NONRESIDENT,
	MEAS_GETCLOCK_NOENTRY, MEAS_GETCLOCK_NOTOWNER, MEAS_GETCLOCK_NORESET,
};
static const int giveclock_codes[] = {
	MEAS_GIVECLOCK_OK, MEAS_GIVECLOCK_NOTOWNER, MEAS_GIVECLOCK_BADCOLLECTOR,
};
static const int procstats_codes[] = {
	MEAS_PROC_OK, MEAS_PROC_NOTENABLED, MEAS_PROC_BOUNDS,
	MEAS_PROC_BADCOUNT, MEAS_PROC_BADITEM, MEAS_PROC_BADPIN,
};
static const int readactive_codes[] = {
	MEAS_RA_OK, MEAS_RA_BADDESC, MEAS_RA_BUFTOOSMALL,
	MEAS_RA_CANNOTACCESS, MEAS_RA_NOTMEASURING,
};
static const int iotrace_codes[] = {
	MEAS_IOTRACE_OK, MEAS_IOTRACE_NOTENABLED, MEAS_IOTRACE_BOUNDS,
};
static const int task_codes[] = {
	MEAS_TASK_OK, MEAS_TASK_BUSY, MEAS_TASK_NOTMEASURED, MEAS_TASK_NOTASK,
	MEAS_TASK_SYSERR, MEAS_TASK_NOTALLOWED, MEAS_TASK_LIMIT,
	MEAS_TASK_BADFILE, MEAS_TASK_FILEIO,
};

#define CODES(c) { c, sizeof(c) / sizeof((c)[0]) }
static const struct { const int *codes; unsigned int n; } uapi[] = {
	[MEAS_RC_START]		= CODES(start_codes),
	[MEAS_RC_STOP]		= CODES(stop_codes),
	[MEAS_RC_GET]		= CODES(get_codes),
	[MEAS_RC_DEFINE]	= CODES(define_codes),
	[MEAS_RC_UPDATE]	= CODES(update_codes),
	[MEAS_RC_GETCLOCK]	= CODES(getclock_codes),
	[MEAS_RC_GIVECLOCK]	= CODES(giveclock_codes),
	[MEAS_RC_PROCSTATS]	= CODES(procstats_codes),
	[MEAS_RC_READACTIVE]	= CODES(readactive_codes),
	[MEAS_RC_IOTRACE]	= CODES(iotrace_codes),
	[MEAS_RC_TASK]		= CODES(task_codes),
};

/* The codes the uapi says "does not arise": no errno goes with them. */
static int never_arises(int call, int code)
{
	return call == MEAS_RC_GETCLOCK && (code == MEAS_GETCLOCK_MISSING ||
					    code == MEAS_GETCLOCK_NONRESIDENT);
}

TEST(every_code_has_an_errno_and_a_text)
{
	unsigned int c, i;

	for (c = 0; c < MEAS_RC_NR_CALLS; c++) {
		ASSERT_NE(NULL, uapi[c].codes);
		for (i = 0; i < uapi[c].n; i++) {
			int code = uapi[c].codes[i];
			const struct meas_rc *rc = meas_rc_find(c, code);

			ASSERT_NE(NULL, rc) TH_LOG("call %u code %d", c, code);
			ASSERT_NE(NULL, rc->text);
			EXPECT_NE(0, strlen(rc->text));
			EXPECT_LE(rc->err, 0);
			if (code && !never_arises(c, code))
				EXPECT_GT(0, rc->err) TH_LOG("call %u code %d",
							     c, code);
			if (!code)
				EXPECT_EQ(0, rc->err);
		}
	}
}

/* Nothing but the uapi codes, once each, in increasing order. */
TEST(tables_hold_the_uapi_codes_only)
{
	unsigned int c, i;

	for (c = 0; c < MEAS_RC_NR_CALLS; c++) {
		const struct meas_rc_table *t = &meas_rc_tables[c];

		EXPECT_EQ(uapi[c].n, t->n) TH_LOG("call %u", c);
		for (i = 1; i < t->n; i++)
			EXPECT_LT(t->rc[i - 1].code, t->rc[i].code);
	}
}

TEST(lookup_is_bounded)
{
	EXPECT_EQ(NULL, meas_rc_find(MEAS_RC_NR_CALLS, 0));
	EXPECT_EQ(NULL, meas_rc_find(-1, 0));
	EXPECT_EQ(NULL, meas_rc_find(MEAS_RC_GET, -1));
	EXPECT_EQ(NULL, meas_rc_find(MEAS_RC_GET, MEAS_GET_BADCLASS + 1));
	EXPECT_EQ(NULL, meas_rc_text(MEAS_RC_READACTIVE, 3));
	EXPECT_EQ(-EIO, meas_rc_errno(MEAS_RC_STOP, 2));
}

/* The errnos the uapi comments promise, a few of each kind. */
TEST(errnos)
{
	EXPECT_EQ(-ENOMEM, meas_rc_errno(MEAS_RC_START, MEAS_START_NODST));
	EXPECT_EQ(-EINVAL, meas_rc_errno(MEAS_RC_STOP, MEAS_STOP_BADPARM));
	EXPECT_EQ(-ENOBUFS, meas_rc_errno(MEAS_RC_GET, MEAS_GET_BOUNDS));
	EXPECT_EQ(-EEXIST, meas_rc_errno(MEAS_RC_DEFINE, MEAS_DEFINE_EXISTS));
	EXPECT_EQ(-EALREADY,
		  meas_rc_errno(MEAS_RC_GETCLOCK, MEAS_GETCLOCK_NORESET));
	EXPECT_EQ(-ESTALE,
		  meas_rc_errno(MEAS_RC_READACTIVE, MEAS_RA_CANNOTACCESS));
	EXPECT_EQ(-ESRCH, meas_rc_errno(MEAS_RC_PROCSTATS, MEAS_PROC_BADPIN));
}

/* Task measurement: every code (uapi/linux/meas_task.h) */
TEST(task_errnos)
{
	EXPECT_EQ(0, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_OK));
	EXPECT_EQ(-EBUSY, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_BUSY));
	EXPECT_EQ(-ENOENT, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_NOTMEASURED));
	EXPECT_EQ(-ESRCH, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_NOTASK));
	EXPECT_EQ(-ENOMEM, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_SYSERR));
	EXPECT_EQ(-EPERM, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_NOTALLOWED));
	EXPECT_EQ(-ENOSPC, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_LIMIT));
	EXPECT_EQ(-EMEDIUMTYPE, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_BADFILE));
	EXPECT_EQ(-EIO, meas_rc_errno(MEAS_RC_TASK, MEAS_TASK_FILEIO));
}

TEST(call_names)
{
	EXPECT_EQ(MEAS_RC_START, meas_rc_call_of("start"));
	EXPECT_EQ(MEAS_RC_DEFINE, meas_rc_call_of("undefine"));
	EXPECT_EQ(MEAS_RC_DEFINE, meas_rc_call_of("describe"));
	EXPECT_EQ(MEAS_RC_GETCLOCK, meas_rc_call_of("GETCLOCK"));
	EXPECT_EQ(MEAS_RC_READACTIVE, meas_rc_call_of("READACTIVE"));
	EXPECT_EQ(MEAS_RC_TASK, meas_rc_call_of("task"));
	EXPECT_EQ(-1, meas_rc_call_of("nosuchcall"));
}

TEST_HARNESS_MAIN
