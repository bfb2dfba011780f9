// SPDX-License-Identifier: GPL-2.0
/*
 * Which user may see which process of class 15: the rules of ptrace
 * (module/logic/access.c, the module's own) applied to the IDs and the
 * dumpable flag of the process's entry, for an agent that serves many
 * users (pmdameas -P; Documentation/security.rst).  The agent knows no
 * capability of its clients: a rule that needs one refuses.
 */
#include <stdbool.h>
#include <stdint.h>

#include "metrics.h"
#include "access.h"

static bool no_capability(void *ctx, enum meas_access_ask ask)
{
	(void)ctx;
	(void)ask;
	return false;
}

/**
 * mx_access_sees() - may a user look into a process
 * @uid: the user's ID
 * @gid: the user's group ID
 * @e: the process's class 15 entry
 *
 * Return: true if ptrace's rules would let that user look into the
 * process without a capability.
 */
bool mx_access_sees(uint32_t uid, uint32_t gid, const uint64_t *e)
{
	struct meas_access_ids ids;

	ids.fsuid = uid;
	ids.fsgid = gid;
	ids.uid = (uint32_t)e[MEAS_P_UID];
	ids.euid = (uint32_t)e[MEAS_P_EUID];
	ids.suid = (uint32_t)e[MEAS_P_SUID];
	ids.gid = (uint32_t)e[MEAS_P_GID];
	ids.egid = (uint32_t)e[MEAS_P_EGID];
	ids.sgid = (uint32_t)e[MEAS_P_SGID];
	return meas_access_decide(false, &ids,
				  e[MEAS_P_FLAGS] & MEAS_PF_DUMPABLE ?
				  MEAS_ACCESS_DUMP_OWNER : MEAS_ACCESS_DUMP_NOT,
				  no_capability, NULL) > 0;
}
