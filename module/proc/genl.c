// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "meas": the record of one process, a dump
 * of every process the sender may see, and the multicast group "exits"
 * that carries each process's final record with its sequence number;
 * the per-cgroup totals, one cgroup or a dump of those the sender may
 * see (MEAS_CMD_CGROUP_GET, cgread.c).
 *
 * Requests are answered in the sender's context, and the rest of a dump
 * in the context of whoever reads the socket: the access rules of
 * procread.c apply to that process and to the socket's opener, both
 * (netlink_capable()'s rule).  The exits group goes to every member
 * alike, so only CAP_SYS_ADMIN may join it (the kernel checks when a
 * socket binds); other callers poll the dump, which filters.  The
 * family's handlers run in parallel, serialised by meas_sir alone, and
 * no handler sleeps with it held.  The family is registered at module
 * load; genl_unregister_family() at unload takes
 * the listeners off the group.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/net.h>
#include <linux/slab.h>
#include "core/ctl.h"
#include "proctab.h"
#include "procread.h"
#include "cgread.h"
#include "genl.h"

static struct genl_family meas_genl_family;

/* Bumped at every enable of class 15: a dump that spans two is marked. */
static unsigned int genl_epoch;
static struct proc_tab *genl_epoch_tab;

static const struct nla_policy meas_genl_policy[MEAS_A_MAX + 1] = {
	[MEAS_A_PID]	= { .type = NLA_U32 },
	[MEAS_A_SLOT]	= { .type = NLA_U32 },
	[MEAS_A_RECORD]	= { .type = NLA_REJECT },
	[MEAS_A_SEQ]	= { .type = NLA_REJECT },
	[MEAS_A_CGROUP]	= { .type = NLA_REJECT },
};

/* MEAS_CMD_CGROUP_GET takes a cgroup ID and nothing else (strict). */
static const struct nla_policy meas_genl_cg_policy[MEAS_A_MAX + 1] = {
	[MEAS_A_CGROUP]	= { .type = NLA_U64 },
};

/* The table, under meas_sir, with its epoch. */
static struct proc_tab *genl_table(void)
{
	struct proc_tab *tab = meas_proc_table;

	if (tab && tab != genl_epoch_tab) {
		genl_epoch_tab = tab;
		genl_epoch++;
	}
	return tab;
}

/* The cgroup of a process record; entry 0 has none. */
static int genl_put_cgroup(struct sk_buff *skb, u32 slot, u64 cgid)
{
	if (!slot)
		return 0;
	return nla_put_u64_64bit(skb, MEAS_A_CGROUP, cgid, MEAS_A_PAD);
}

/* The file of the socket a request came on: its opener's credentials. */
static struct file *genl_opener(const struct sk_buff *skb)
{
	struct sock *sk = NETLINK_CB(skb).sk;

	return sk && sk->sk_socket ? sk->sk_socket->file : NULL;
}

/* The record a GET asks for, as @v may see it; the caller holds meas_sir. */
static int genl_get_record(struct proc_tab *tab, const struct proc_viewer *v,
			   struct genl_info *info, struct meas_proc_rec *rec,
			   u64 *cgid)
{
	u32 slot = 0, gen = 0;
	s32 pid = 0;

	if (info->attrs[MEAS_A_SLOT]) {
		slot = nla_get_u32(info->attrs[MEAS_A_SLOT]);
	} else if (info->attrs[MEAS_A_PID]) {
		pid = nla_get_u32(info->attrs[MEAS_A_PID]);
		if (pid < 0)
			return -ESRCH;
		slot = pid ? meas_procread_find(tab, v, pid) : 0;
		if (pid && !slot)
			return -ESRCH;
	}
	memset(rec, 0, sizeof(*rec));
	rec->size = sizeof(*rec);
	rec->slot = slot;
	if (!slot) {
		meas_procread_header(tab, rec->item, false);
		return 0;
	}
	if (!meas_procread_entry_cg(tab, v, slot, rec->item, &gen, cgid))
		return -ESRCH;
	rec->index = (u64)gen << 32 | slot;
	return 0;
}

static int genl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct meas_proc_rec *rec;
	struct proc_viewer v;
	struct proc_tab *tab;
	struct sk_buff *msg;
	u64 cgid = 0;
	void *hdr;
	int err;

	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	meas_procread_viewer_opener(&v, genl_opener(skb));
	/* a process in its exit window leaves first, with no lock held */
	if (info->attrs[MEAS_A_PID] && !info->attrs[MEAS_A_SLOT])
		meas_procread_settle(&v, nla_get_u32(info->attrs[MEAS_A_PID]));
	if (mutex_lock_killable(&meas_sir)) {
		kfree(rec);
		return -EINTR;
	}
	tab = genl_table();
	if (tab)
		err = genl_get_record(tab, &v, info, rec, &cgid);
	else
		err = -ENODATA;
	mutex_unlock(&meas_sir);
	if (err) {
		if (err == -ENODATA)
			GENL_SET_ERR_MSG(info, "class 15 is not enabled");
		else
			GENL_SET_ERR_MSG(info, "no such process for the caller");
		goto free_rec;
	}
	err = -ENOMEM;
	msg = genlmsg_new(nla_total_size(sizeof(*rec)) +
			  nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		goto free_rec;
	hdr = genlmsg_put_reply(msg, info, &meas_genl_family, 0, MEAS_CMD_GET);
	if (!hdr || nla_put(msg, MEAS_A_RECORD, sizeof(*rec), rec) ||
	    genl_put_cgroup(msg, rec->slot, cgid)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto free_rec;
	}
	genlmsg_end(msg, hdr);
	kfree(rec);
	return genlmsg_reply(msg, info);

free_rec:
	kfree(rec);
	return err;
}

/* The next message of a dump, marked if the dump spans two tables. */
static void *genl_dump_begin(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, &meas_genl_family,
				NLM_F_MULTI, cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* End it, or take it back if @err; false when the message is full. */
static bool genl_dump_end(struct sk_buff *skb, void *hdr, int err)
{
	if (!hdr)
		return false;
	if (err) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
	genlmsg_end(skb, hdr);
	return true;
}

/* Put one record into a dump message; false when the message is full. */
static bool genl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct meas_proc_rec *rec, u64 cgid)
{
	void *hdr = genl_dump_begin(skb, cb, MEAS_CMD_GET);

	return genl_dump_end(skb, hdr, !hdr ||
			     nla_put(skb, MEAS_A_RECORD, sizeof(*rec), rec) ||
			     genl_put_cgroup(skb, rec->slot, cgid));
}

/*
 * Slots one hold of meas_sir walks at most: a caller who may see few
 * processes would otherwise walk the whole table (32768 slots by
 * default) in one part of the dump, holding meas_sir throughout.
 */
#define GENL_DUMP_HOLD_SLOTS	1024

/*
 * After GENL_DUMP_HOLD_SLOTS slots: end this part if it has records, else
 * let the others have meas_sir a moment.  Return: the table to go on
 * with, NULL to end this part (*err set on a fatal signal).
 */
static struct proc_tab *genl_dump_pause(struct sk_buff *skb, int *err)
{
	if (skb->len)
		return NULL;
	mutex_unlock(&meas_sir);
	cond_resched();
	if (mutex_lock_killable(&meas_sir)) {
		*err = -EINTR;
		return NULL;
	}
	/* a table made anew meanwhile marks the dump (cb->seq) next part */
	return genl_table();
}

/*
 * cb->args[0]: the next slot to send.  A record that no longer fits the
 * message is composed again in the next part of the dump.
 */
static int genl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct meas_proc_rec *rec;
	struct proc_viewer v;
	struct proc_tab *tab;
	u32 slot, hwm, gen, walked = 0;
	u64 cgid;
	int err = 0;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	if (mutex_lock_killable(&meas_sir)) {
		kfree(rec);
		return -EINTR;
	}
	tab = genl_table();
	if (!tab) {
		err = cb->args[0] ? 0 : -ENODATA;
		goto unlock;
	}
	cb->seq = genl_epoch;
	/* a dump goes on in the recvmsg() of whoever reads the socket */
	meas_procread_viewer_opener(&v, genl_opener(cb->skb));
	hwm = meas_procread_hwm(tab);
	for (slot = max_t(u32, cb->args[0], 1); slot <= hwm; slot++) {
		if (++walked % GENL_DUMP_HOLD_SLOTS == 0) {
			tab = genl_dump_pause(skb, &err);
			if (!tab)
				break;
			hwm = min(hwm, meas_procread_hwm(tab));
		}
		if (!meas_procread_entry_cg(tab, &v, slot, rec->item, &gen,
					    &cgid))
			continue;
		rec->size = sizeof(*rec);
		rec->slot = slot;
		rec->index = (u64)gen << 32 | slot;
		if (!genl_dump_one(skb, cb, rec, cgid))
			break;
	}
	cb->args[0] = slot;
	if (!err)
		err = skb->len;
	else
		goto free_rec;
unlock:
	mutex_unlock(&meas_sir);
free_rec:
	kfree(rec);
	return err;
}

/* What a cgroup request composes: the header or a record, and a path. */
struct genl_cg_buf {
	struct meas_cgroup_hdr hdr;
	struct meas_cgroup_rec rec;
	char path[MEAS_CGROUP_PATH_MAX];
};

/* A cgroup record's attributes: the record, and a removed one's path. */
static int genl_put_cg_rec(struct sk_buff *skb, const struct genl_cg_buf *b)
{
	if (nla_put(skb, MEAS_A_CGROUP_REC, sizeof(b->rec), &b->rec))
		return -EMSGSIZE;
	if (!(b->rec.flags & MEAS_CG_REMOVED))
		return 0;
	return nla_put_string(skb, MEAS_A_CGROUP_PATH, b->path);
}

/* What a GET asks for, under meas_sir: the header, or one cgroup. */
static int genl_cg_get(struct proc_tab *tab, struct sk_buff *skb,
		       struct genl_info *info, struct genl_cg_buf *b)
{
	struct proc_viewer v;

	if (!info->attrs[MEAS_A_CGROUP]) {
		meas_cgread_header(tab, &b->hdr, 0);
		return 0;
	}
	meas_procread_viewer_opener(&v, genl_opener(skb));
	return meas_cgread_get(tab, &v, nla_get_u64(info->attrs[MEAS_A_CGROUP]),
			       &b->rec, b->path);
}

/* The ack's message: literals only (NL_SET_ERR_MSG keeps a pointer). */
static void genl_cg_errmsg(struct genl_info *info, int err)
{
	switch (err) {
	case -ENODATA:
		GENL_SET_ERR_MSG(info, "class 15 is not enabled");
		break;
	case -EACCES:
		GENL_SET_ERR_MSG(info, "a process of the cgroup is not visible to the caller");
		break;
	case -ENOENT:
		GENL_SET_ERR_MSG(info, "no such cgroup in the table");
		break;
	}
}

static int genl_cg_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct genl_cg_buf *b = kzalloc(sizeof(*b), GFP_KERNEL);
	struct proc_tab *tab;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!b)
		return -ENOMEM;
	err = -EINTR;
	if (mutex_lock_killable(&meas_sir))
		goto free_buf;
	tab = genl_table();
	err = tab ? genl_cg_get(tab, skb, info, b) : -ENODATA;
	mutex_unlock(&meas_sir);
	if (err) {
		genl_cg_errmsg(info, err);
		goto free_buf;
	}
	err = -ENOMEM;
	msg = genlmsg_new(nla_total_size(sizeof(b->rec)) +
			  nla_total_size(sizeof(b->path)), GFP_KERNEL);
	if (!msg)
		goto free_buf;
	hdr = genlmsg_put_reply(msg, info, &meas_genl_family, 0,
				MEAS_CMD_CGROUP_GET);
	if (!hdr || (info->attrs[MEAS_A_CGROUP] ?
		     genl_put_cg_rec(msg, b) :
		     nla_put(msg, MEAS_A_CGROUP_HDR, sizeof(b->hdr), &b->hdr))) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto free_buf;
	}
	genlmsg_end(msg, hdr);
	kfree(b);
	return genlmsg_reply(msg, info);

free_buf:
	kfree(b);
	return err;
}

/*
 * A cgroup dump's parts (cb->args[0]): first the entries are judged, to
 * count in the header those the sender may not see (cb->args[2]); then
 * the header goes; then the entries it may see.  cb->args[1] is the next
 * entry of the walk.
 */
enum { GENL_CG_JUDGE, GENL_CG_HEADER, GENL_CG_ENTRIES };

/*
 * Walk the entries from cb->args[1], GENL_DUMP_HOLD_SLOTS per hold of
 * meas_sir, judging them or sending them.  Return: the table to go on
 * with, NULL when this part ends (*err set on a fatal signal).
 */
static struct proc_tab *genl_cg_walk(struct proc_tab *tab,
				     const struct proc_viewer *v,
				     struct sk_buff *skb,
				     struct netlink_callback *cb,
				     struct genl_cg_buf *b, int *err)
{
	bool send = cb->args[0] == GENL_CG_ENTRIES;
	u32 n, used = meas_cgread_used(tab), walked = 0;
	void *hdr;
	int rc;

	for (n = cb->args[1]; n <= used; n++) {
		if (++walked % GENL_DUMP_HOLD_SLOTS == 0) {
			tab = genl_dump_pause(skb, err);
			if (!tab)
				break;
			used = min(used, meas_cgread_used(tab));
		}
		rc = meas_cgread_record(tab, v, n, &b->rec, send ? b->path : NULL);
		if (!send) {
			cb->args[2] += rc == -EACCES;
			continue;
		}
		if (rc || meas_cgread_empty(&b->rec))
			continue;
		hdr = genl_dump_begin(skb, cb, MEAS_CMD_CGROUP_GET);
		if (!genl_dump_end(skb, hdr, !hdr || genl_put_cg_rec(skb, b))) {
			tab = NULL;
			break;
		}
	}
	cb->args[1] = n;
	return n > used ? tab : NULL;
}

/* One part of a cgroup dump, under meas_sir. */
static int genl_cg_dump_part(struct proc_tab *tab, struct sk_buff *skb,
			     struct netlink_callback *cb,
			     struct genl_cg_buf *b)
{
	struct proc_viewer v;
	void *hdr;
	int err = 0;

	/* a dump goes on in the recvmsg() of whoever reads the socket */
	meas_procread_viewer_opener(&v, genl_opener(cb->skb));
	if (cb->args[0] == GENL_CG_JUDGE) {
		if (!v.all) {
			tab = genl_cg_walk(tab, &v, skb, cb, b, &err);
			if (!tab)
				return err ?: skb->len;
		}
		cb->args[0] = GENL_CG_HEADER;
		cb->args[1] = 0;
	}
	if (cb->args[0] == GENL_CG_HEADER) {
		meas_cgread_header(tab, &b->hdr, cb->args[2]);
		hdr = genl_dump_begin(skb, cb, MEAS_CMD_CGROUP_GET);
		if (!genl_dump_end(skb, hdr, !hdr ||
				   nla_put(skb, MEAS_A_CGROUP_HDR,
					   sizeof(b->hdr), &b->hdr)))
			return -EMSGSIZE;
		cb->args[0] = GENL_CG_ENTRIES;
	}
	genl_cg_walk(tab, &v, skb, cb, b, &err);
	return err ?: skb->len;
}

static int genl_cg_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct genl_cg_buf *b;
	struct proc_tab *tab;
	int err;

	/* the policy lets MEAS_A_CGROUP through for a GET; a dump has none */
	if (cb->args[0] == GENL_CG_JUDGE && !cb->args[1] &&
	    nlmsg_attrlen(cb->nlh, GENL_HDRLEN))
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	if (mutex_lock_killable(&meas_sir)) {
		kfree(b);
		return -EINTR;
	}
	tab = genl_table();
	if (tab) {
		cb->seq = genl_epoch;
		err = genl_cg_dump_part(tab, skb, cb, b);
	} else {
		err = cb->args[0] == GENL_CG_JUDGE && !cb->args[1] ? -ENODATA : 0;
	}
	mutex_unlock(&meas_sir);
	kfree(b);
	return err;
}

/**
 * meas_genl_send_exit() - multicast a final record
 * @rec: the record
 * @cgid: the cgroup v2 ID the process exited in
 * @seq: its sequence number
 *
 * Return: 0, -ESRCH when nobody listens, -ENOMEM, or the error of the
 * multicast (some listener's buffer was full: that listener sees a gap).
 */
int meas_genl_send_exit(const struct meas_proc_rec *rec, u64 cgid, u64 seq)
{
	struct sk_buff *msg;
	void *hdr;

	if (!meas_genl_family.n_mcgrps ||
	    !genl_has_listeners(&meas_genl_family, &init_net, 0))
		return -ESRCH;
	msg = genlmsg_new(nla_total_size(sizeof(*rec)) +
			  2 * nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, 0, 0, &meas_genl_family, 0, MEAS_CMD_EXIT);
	if (!hdr || nla_put_u64_64bit(msg, MEAS_A_SEQ, seq, MEAS_A_PAD) ||
	    nla_put(msg, MEAS_A_RECORD, sizeof(*rec), rec) ||
	    genl_put_cgroup(msg, rec->slot, cgid)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_multicast(&meas_genl_family, msg, 0, 0, GFP_KERNEL);
}

static const struct genl_small_ops meas_genl_ops[] = {
	{
		.cmd	= MEAS_CMD_GET,
		.doit	= genl_get_doit,
		.dumpit	= genl_get_dumpit,
	},
};

/* A command with a policy of its own: a full genl_ops. */
static const struct genl_ops meas_genl_cg_ops[] = {
	{
		.cmd	= MEAS_CMD_CGROUP_GET,
		.doit	= genl_cg_doit,
		.dumpit	= genl_cg_dumpit,
		.policy	= meas_genl_cg_policy,
		.maxattr = MEAS_A_MAX,
	},
};

#ifdef MEAS_HAVE_GENL_MCAST_CAP
static const struct genl_multicast_group meas_genl_mcgrps[] = {
	{ .name = MEAS_GENL_MCGRP_EXITS, .flags = GENL_MCAST_CAP_SYS_ADMIN },
};
#endif

/*
 * Parallel: the family's handlers take meas_sir, the module's own lock,
 * not the genl_mutex every other generic netlink family (nl80211,
 * devlink, ethtool...) shares, which a request would otherwise hold for
 * as long as meas_sir is busy.
 */
static struct genl_family meas_genl_family __ro_after_init = {
	.name		= MEAS_GENL_NAME,
	.parallel_ops	= true,
	.version	= MEAS_GENL_VERSION,
	.maxattr	= MEAS_A_MAX,
	.policy		= meas_genl_policy,
	.module		= THIS_MODULE,
	.small_ops	= meas_genl_ops,
	.n_small_ops	= ARRAY_SIZE(meas_genl_ops),
	.ops		= meas_genl_cg_ops,
	.n_ops		= ARRAY_SIZE(meas_genl_cg_ops),
#ifdef MEAS_HAVE_GENL_MCAST_CAP
	/* Without the bind check the exits group would leak: none then. */
	.mcgrps		= meas_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(meas_genl_mcgrps),
#endif
};

/**
 * meas_genl_register() - register the family
 *
 * Return: 0 or the error of genl_register_family().
 */
int meas_genl_register(void)
{
	return genl_register_family(&meas_genl_family);
}

/**
 * meas_genl_unregister() - unregister the family; listeners are dropped
 */
void meas_genl_unregister(void)
{
	genl_unregister_family(&meas_genl_family);
}
