// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of module/logic/access.c: each rule of
 * __ptrace_may_access() with PTRACE_MODE_READ_FSCREDS, one row of the
 * table each, with the capability questions it must ask (and only those,
 * in ptrace's order).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "logic/access.h"

/* what the looker's capabilities answer, and what was asked */
struct caps {
	bool cred_ns, dump_ns;
	unsigned int asked;	/* bit 0: CRED_NS, bit 1: DUMP_NS */
	unsigned int order;	/* CRED_NS asked before DUMP_NS: 0, else 1 */
};

static bool cap(void *ctx, enum meas_access_ask ask)
{
	struct caps *c = ctx;

	if (ask == MEAS_ACCESS_CAP_CRED_NS && (c->asked & 2))
		c->order = 1;
	c->asked |= 1U << ask;
	return ask == MEAS_ACCESS_CAP_CRED_NS ? c->cred_ns : c->dump_ns;
}

#define U 1000	/* the looker */
#define O 2000	/* another user */

/* A target whose every ID is the looker's. */
#define SAME	{ U, U, U, U, U, U, U, U }

static const struct row {
	const char *what;
	bool self;
	struct meas_access_ids ids;	/* fsuid fsgid uid euid suid gid egid sgid */
	enum meas_access_dump dump;
	bool cred_ns, dump_ns;		/* the looker's answers */
	int want;
	unsigned int asked;
} rows[] = {
	{ "own thread group, another's IDs, not dumpable", true,
	  { U, U, O, O, O, O, O, O }, MEAS_ACCESS_DUMP_NOT, false, false,
	  MEAS_ACCESS_OK_SELF, 0 },
	{ "every ID the looker's, dumpable", false, SAME,
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_OK_IDS, 0 },
	{ "every ID the looker's, no mm (no dump rule)", false, SAME,
	  MEAS_ACCESS_DUMP_NONE, false, false, MEAS_ACCESS_OK_IDS, 0 },
	{ "real uid another's", false, { U, U, O, U, U, U, U, U },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "effective uid another's", false, { U, U, U, O, U, U, U, U },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "saved uid another's", false, { U, U, U, U, O, U, U, U },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "real gid another's", false, { U, U, U, U, U, O, U, U },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "effective gid another's", false, { U, U, U, U, U, U, O, U },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "saved gid another's", false, { U, U, U, U, U, U, U, O },
	  MEAS_ACCESS_DUMP_OWNER, false, false, MEAS_ACCESS_DENY_IDS, 1 },
	{ "looker's fsuid not its uid: fsuid counts", false,
	  { O, U, O, O, O, U, U, U }, MEAS_ACCESS_DUMP_OWNER, false, false,
	  MEAS_ACCESS_OK_IDS, 0 },
	{ "looker's fsgid another's: refused", false,
	  { U, O, U, U, U, U, U, U }, MEAS_ACCESS_DUMP_OWNER, false, false,
	  MEAS_ACCESS_DENY_IDS, 1 },
	{ "another's IDs, CAP_SYS_PTRACE over them", false,
	  { U, U, O, O, O, O, O, O }, MEAS_ACCESS_DUMP_OWNER, true, false,
	  MEAS_ACCESS_OK_CAP, 1 },
	{ "not dumpable, no capability", false, SAME, MEAS_ACCESS_DUMP_NOT,
	  false, false, MEAS_ACCESS_DENY_DUMP, 2 },
	{ "not dumpable, CAP_SYS_PTRACE over its namespace", false, SAME,
	  MEAS_ACCESS_DUMP_NOT, false, true, MEAS_ACCESS_OK_IDS, 2 },
	{ "not dumpable, the capability over the IDs' namespace only", false,
	  { U, U, O, O, O, O, O, O }, MEAS_ACCESS_DUMP_NOT, true, false,
	  MEAS_ACCESS_DENY_DUMP, 3 },
	{ "another's IDs, not dumpable, both capabilities", false,
	  { U, U, O, O, O, O, O, O }, MEAS_ACCESS_DUMP_NOT, true, true,
	  MEAS_ACCESS_OK_CAP, 3 },
	{ "another's IDs, no capability: dumpability never asked", false,
	  { U, U, O, O, O, O, O, O }, MEAS_ACCESS_DUMP_NOT, false, true,
	  MEAS_ACCESS_DENY_IDS, 1 },
};

TEST(every_rule)
{
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct caps c = { r->cred_ns, r->dump_ns, 0, 0 };
		int got = meas_access_decide(r->self, &r->ids, r->dump, cap,
					     &c);

		TH_LOG("%s", r->what);
		EXPECT_EQ(r->want, got);
		EXPECT_EQ(r->asked, c.asked);
		EXPECT_EQ(0, c.order);
		EXPECT_EQ(got > 0, r->want > 0);
	}
}

TEST(ids_match_needs_all_six)
{
	struct meas_access_ids ids = SAME;
	uint32_t *f = &ids.uid;
	unsigned int i;

	EXPECT_TRUE(meas_access_ids_match(&ids));
	for (i = 0; i < 6; i++) {
		ids = (struct meas_access_ids)SAME;
		f = &ids.uid;
		f[i] = O;
		EXPECT_FALSE(meas_access_ids_match(&ids));
	}
	ids = (struct meas_access_ids)SAME;
	ids.fsuid = O;
	EXPECT_FALSE(meas_access_ids_match(&ids));
}

TEST_HARNESS_MAIN
