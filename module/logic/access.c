// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of __ptrace_may_access() with PTRACE_MODE_READ_FSCREDS, in
 * its order (access.h).  The order matters beyond the verdict: a
 * capability is asked only where ptrace asks it, so that an audit log
 * shows the same questions as for ptrace.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#endif
#include "access.h"

/**
 * meas_access_ids_match() - the looker's file-system IDs are every ID
 *	of the target
 * @ids: the numbers
 *
 * Return: true if the fsuid equals the real, effective and saved user
 * IDs and the fsgid the real, effective and saved group IDs.
 */
bool meas_access_ids_match(const struct meas_access_ids *ids)
{
	return ids->fsuid == ids->euid && ids->fsuid == ids->suid &&
	       ids->fsuid == ids->uid && ids->fsgid == ids->egid &&
	       ids->fsgid == ids->sgid && ids->fsgid == ids->gid;
}

/**
 * meas_access_decide() - may the looker see the target
 * @self: the target is the looker's own thread group
 * @ids: the looker's and the target's IDs
 * @dump: the target's dumpability
 * @cap: answers a capability question of the looker
 * @ctx: for @cap
 *
 * Return: an enum meas_access_rule, > 0 when allowed.
 */
int meas_access_decide(bool self, const struct meas_access_ids *ids,
		       enum meas_access_dump dump, meas_access_cap_fn cap,
		       void *ctx)
{
	int rule;

	/* the security modules may not deny introspection of oneself */
	if (self)
		return MEAS_ACCESS_OK_SELF;
	if (meas_access_ids_match(ids))
		rule = MEAS_ACCESS_OK_IDS;
	else if (cap(ctx, MEAS_ACCESS_CAP_CRED_NS))
		rule = MEAS_ACCESS_OK_CAP;
	else
		return MEAS_ACCESS_DENY_IDS;
	if (dump == MEAS_ACCESS_DUMP_NOT && !cap(ctx, MEAS_ACCESS_CAP_DUMP_NS))
		return MEAS_ACCESS_DENY_DUMP;
	return rule;
}
