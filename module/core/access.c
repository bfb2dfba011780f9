// SPDX-License-Identifier: GPL-2.0
/*
 * Who may see whom (access.h): the facts the kernel keeps, handed to
 * the rules of logic/access.c.
 *
 * The kernel does not export ptrace_may_access() to modules, so these
 * are its rules, applied to the same facts in the same order: the
 * looker's fsuid and fsgid against the target's real, effective and
 * saved IDs, else CAP_SYS_PTRACE over the user namespace of the target's
 * credentials; then, for a target that is not dumpable, CAP_SYS_PTRACE
 * over the namespace its dumpability is judged in (meas_task_dumpable()).
 * What a module cannot do is ask the security modules (Yama, SELinux,
 * AppArmor) their ptrace hook: Documentation/security.rst says so.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/user_namespace.h>
#include "compat.h"
#include "access.h"

/**
 * meas_access_current() - the looker is current, with its credentials
 * @l: filled in
 * @noaudit: a scan: capability questions are not audited
 */
void meas_access_current(struct meas_looker *l, bool noaudit)
{
	l->cred = current_cred();
	l->file = NULL;
	l->noaudit = noaudit;
}

/**
 * meas_access_opener() - the looker is whoever opened @file
 * @l: filled in
 * @file: a socket's or /dev/meas's file, referenced by the caller
 */
void meas_access_opener(struct meas_looker *l, struct file *file)
{
	l->cred = file->f_cred;
	l->file = file;
	l->noaudit = false;
}

static bool access_capable(const struct meas_looker *l,
			   struct user_namespace *ns, int cap)
{
	if (l->file)
		return file_ns_capable(l->file, ns, cap);
	return l->noaudit ? ns_capable_noaudit(ns, cap) : ns_capable(ns, cap);
}

/**
 * meas_access_privileged() - CAP_PERFMON or CAP_SYS_ADMIN: every process
 * @l: the looker
 *
 * Return: what perfmon_capable() says of the looker.
 */
bool meas_access_privileged(const struct meas_looker *l)
{
	if (!l->file)
		return perfmon_capable();
	return file_ns_capable(l->file, &init_user_ns, CAP_PERFMON) ||
	       file_ns_capable(l->file, &init_user_ns, CAP_SYS_ADMIN);
}

struct access_ctx {
	const struct meas_looker *l;
	struct user_namespace *cred_ns;
	struct user_namespace *dump_ns;
};

static bool access_ask(void *p, enum meas_access_ask ask)
{
	struct access_ctx *c = p;

	return access_capable(c->l, ask == MEAS_ACCESS_CAP_CRED_NS ?
				    c->cred_ns : c->dump_ns, CAP_SYS_PTRACE);
}

static void access_looker_ids(struct meas_access_ids *ids,
			      const struct meas_looker *l)
{
	ids->fsuid = __kuid_val(l->cred->fsuid);
	ids->fsgid = __kgid_val(l->cred->fsgid);
}

/**
 * meas_access_task() - may the looker see the live task @t
 * @l: the looker
 * @t: the task, referenced or under RCU
 *
 * Takes task_lock(@t), as ptrace_may_access() does: an exec cannot
 * change @t's program between the reading of its credentials and of
 * its dumpability.
 *
 * Return: true if ptrace with PTRACE_MODE_READ_FSCREDS would allow it
 * (without the security modules' hook).
 */
bool meas_access_task(const struct meas_looker *l, struct task_struct *t)
{
	struct access_ctx c = { .l = l };
	struct meas_access_ids ids;
	const struct cred *tc;
	enum meas_dumpable d;
	bool self;
	int rule;

	BUILD_BUG_ON((int)MEAS_DUMP_NONE != (int)MEAS_ACCESS_DUMP_NONE ||
		     (int)MEAS_DUMP_OWNER != (int)MEAS_ACCESS_DUMP_OWNER ||
		     (int)MEAS_DUMP_NOT != (int)MEAS_ACCESS_DUMP_NOT);
	/* only current has a thread group; an opener is judged by its IDs */
	self = !l->file && same_thread_group(t, current);
	access_looker_ids(&ids, l);
	task_lock(t);
	rcu_read_lock();
	tc = __task_cred(t);
	ids.uid = __kuid_val(tc->uid);
	ids.euid = __kuid_val(tc->euid);
	ids.suid = __kuid_val(tc->suid);
	ids.gid = __kgid_val(tc->gid);
	ids.egid = __kgid_val(tc->egid);
	ids.sgid = __kgid_val(tc->sgid);
	c.cred_ns = tc->user_ns;
	/* the IDs before the dumpability: pairs with commit_creds()'s wmb */
	smp_rmb();
	d = meas_task_dumpable(t, &c.dump_ns);
	rule = meas_access_decide(self, &ids, (enum meas_access_dump)d,
				  access_ask, &c);
	rcu_read_unlock();
	task_unlock(t);
	return rule > 0;
}

/**
 * meas_access_exited() - may the looker see what an exited process left
 * @l: the looker
 * @ids: the process's IDs when it went (uid, euid, suid, gid, egid, sgid
 *	as the initial namespace numbers them); fsuid and fsgid are set here
 * @dumpable: whether it was dumpable when it went
 *
 * The process's namespaces are gone with it: the capability is asked
 * over the initial user namespace, which no less than ptrace would ask.
 *
 * Return: true if the rules allow it.
 */
bool meas_access_exited(const struct meas_looker *l,
			struct meas_access_ids *ids, bool dumpable)
{
	struct access_ctx c = {
		.l = l, .cred_ns = &init_user_ns, .dump_ns = &init_user_ns,
	};

	access_looker_ids(ids, l);
	return meas_access_decide(false, ids, dumpable ?
				  MEAS_ACCESS_DUMP_OWNER : MEAS_ACCESS_DUMP_NOT,
				  access_ask, &c) > 0;
}
