/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may see whom: the one check meas applies wherever one process
 * would learn something of another (class 15 records, task measurement),
 * ptrace's rules with PTRACE_MODE_READ_FSCREDS (logic/access.c) on the
 * kernel's facts.  Documentation/security.rst lists where it is used.
 */
#ifndef _MEAS_CORE_ACCESS_H
#define _MEAS_CORE_ACCESS_H

#include <linux/types.h>
#include "logic/access.h"

struct cred;
struct file;
struct task_struct;

/**
 * struct meas_looker - whose credentials a check uses
 * @cred: the IDs: its fsuid and fsgid
 * @file: NULL when @cred is current's, whose capabilities are asked;
 *	else a file opened with @cred (its f_cred), whose opener's
 *	capabilities are asked, as netlink_capable() does
 * @noaudit: a scan of many processes: capability questions current
 *	answers are not audited (PTRACE_MODE_NOAUDIT)
 */
struct meas_looker {
	const struct cred *cred;
	struct file *file;
	bool noaudit;
};

void meas_access_current(struct meas_looker *l, bool noaudit);
void meas_access_opener(struct meas_looker *l, struct file *file);
bool meas_access_privileged(const struct meas_looker *l);
bool meas_access_task(const struct meas_looker *l, struct task_struct *t);
bool meas_access_exited(const struct meas_looker *l,
			struct meas_access_ids *ids, bool dumpable);

#endif /* _MEAS_CORE_ACCESS_H */
