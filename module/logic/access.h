/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether one process may look into another: the rules of the kernel's
 * __ptrace_may_access() with PTRACE_MODE_READ_FSCREDS, one by one, as
 * pure logic (built into the module and into the host unit tests).  The
 * kernel side (core/access.c) gathers the facts and answers the
 * capability questions; the security modules' hook, which a module
 * cannot call, is not part of them (Documentation/security.rst).
 */
#ifndef _MEAS_LOGIC_ACCESS_H
#define _MEAS_LOGIC_ACCESS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
typedef unsigned int u32;	/* the tools build it too (tools/pmda) */
#endif

/* The target's dumpability (compat.h's enum meas_dumpable, the same order) */
enum meas_access_dump {
	MEAS_ACCESS_DUMP_NONE,	/* no rule applies (no mm, older kernels) */
	MEAS_ACCESS_DUMP_OWNER,	/* dumpable: its owner may look */
	MEAS_ACCESS_DUMP_NOT,	/* only CAP_SYS_PTRACE over its namespace */
};

/*
 * The numbers compared, as the initial user namespace sees them: the
 * looker's file-system IDs and the target's real, effective and saved
 * IDs.
 */
struct meas_access_ids {
	u32 fsuid, fsgid;
	u32 uid, euid, suid;
	u32 gid, egid, sgid;
};

/* The capability questions, asked only when a rule needs the answer. */
enum meas_access_ask {
	MEAS_ACCESS_CAP_CRED_NS,	/* CAP_SYS_PTRACE over the target's
					 * credentials' user namespace
					 */
	MEAS_ACCESS_CAP_DUMP_NS,	/* CAP_SYS_PTRACE over the namespace
					 * its dumpability is judged in
					 */
};

/* The verdict and the rule that gave it: > 0 allowed, < 0 refused. */
enum meas_access_rule {
	MEAS_ACCESS_DENY_DUMP = -2,	/* not dumpable, no capability */
	MEAS_ACCESS_DENY_IDS = -1,	/* another's IDs, no capability */
	MEAS_ACCESS_OK_SELF = 1,	/* its own thread group */
	MEAS_ACCESS_OK_IDS,		/* every ID the looker's */
	MEAS_ACCESS_OK_CAP,		/* CAP_SYS_PTRACE over the IDs */
};

typedef bool (*meas_access_cap_fn)(void *ctx, enum meas_access_ask ask);

bool meas_access_ids_match(const struct meas_access_ids *ids);
int meas_access_decide(bool self, const struct meas_access_ids *ids,
		       enum meas_access_dump dump, meas_access_cap_fn cap,
		       void *ctx);

#endif /* _MEAS_LOGIC_ACCESS_H */
