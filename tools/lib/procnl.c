// SPDX-License-Identifier: LGPL-2.1
/*
 * libmeas: the generic netlink family "meas" through libnl-genl-3: one
 * process's record, the dump of every process, and the exits group; the
 * per-cgroup totals, one cgroup or the dump of all.  Errors are the
 * kernel's errnos (negative), from the netlink ack.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "libmeas.h"

struct meas_nl {
	struct nl_sock *sk;
	int family;
	int err;		/* errno of the last ack, negative */
	meas_nl_rec_fn fn;
	void *arg;
	int cb_err;		/* what fn returned, if not 0 */
	uint64_t cgid;		/* MEAS_A_CGROUP of the record fn is given */
	meas_nl_cg_fn cgfn;	/* for MEAS_CMD_CGROUP_GET replies */
};

static int nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_PERM:
		return -EPERM;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	default:
		return -EIO;
	}
}

static int nl_on_err(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct meas_nl *nl = arg;

	(void)who;
	nl->err = e->error;
	return NL_STOP;
}

static int nl_on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct meas_nl *)arg)->err = 0;
	return NL_STOP;
}

/* NLMSG_DONE of a dump carries its error, if any. */
static int nl_on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	int err = 0;

	if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
		memcpy(&err, nlmsg_data(h), sizeof(int));
	((struct meas_nl *)arg)->err = err;
	return NL_STOP;
}

/*
 * Copy a struct the kernel sent, of @min bytes at least: what this build
 * knows of a longer one (a newer kernel's), a shorter one (an older
 * kernel's) zero-filled.  -1 if too short.
 */
static int nl_copy(void *dst, size_t size, const struct nlattr *a, size_t min)
{
	size_t len = a ? (size_t)nla_len(a) : 0;

	if (!a || len < min)
		return -1;
	memset(dst, 0, size);
	memcpy(dst, nla_data(a), len < size ? len : size);
	return 0;
}

/* A reply of MEAS_CMD_CGROUP_GET: the header, or a cgroup's record. */
static int nl_on_cgroup(struct meas_nl *nl, struct nlattr **tb)
{
	struct meas_cgroup_hdr hdr;
	struct meas_cgroup_rec rec;
	char path[MEAS_CGROUP_PATH_MAX] = "";
	int err;

	if (!nl_copy(&hdr, sizeof(hdr), tb[MEAS_A_CGROUP_HDR], sizeof(hdr))) {
		err = nl->cgfn ? nl->cgfn(&hdr, NULL, NULL, nl->arg) : 0;
	} else if (!nl_copy(&rec, sizeof(rec), tb[MEAS_A_CGROUP_REC],
			    sizeof(rec))) {
		if (tb[MEAS_A_CGROUP_PATH])
			nla_strlcpy(path, tb[MEAS_A_CGROUP_PATH], sizeof(path));
		err = nl->cgfn ? nl->cgfn(NULL, &rec, tb[MEAS_A_CGROUP_PATH] ?
					  path : NULL, nl->arg) : 0;
	} else {
		return NL_SKIP;
	}
	if (err) {
		nl->cb_err = err;
		return NL_STOP;
	}
	return NL_OK;
}

static int nl_on_valid(struct nl_msg *msg, void *arg)
{
	struct meas_nl *nl = arg;
	struct nlattr *tb[MEAS_A_MAX + 1];
	struct meas_proc_rec rec;
	uint64_t seq = 0;
	int err;

	err = genlmsg_parse(nlmsg_hdr(msg), 0, tb, MEAS_A_MAX, NULL);
	if (err)
		return NL_SKIP;
	if (genlmsg_hdr(nlmsg_hdr(msg))->cmd == MEAS_CMD_CGROUP_GET)
		return nl_on_cgroup(nl, tb);
	/* a module before ABI 3 sends 64 items: the others read 0 */
	if (nl_copy(&rec, sizeof(rec), tb[MEAS_A_RECORD],
		    MEAS_PROC_REC_SIZE_VER0))
		return NL_SKIP;
	if (tb[MEAS_A_SEQ])
		seq = nla_get_u64(tb[MEAS_A_SEQ]);
	nl->cgid = tb[MEAS_A_CGROUP] ? nla_get_u64(tb[MEAS_A_CGROUP]) : 0;
	if (nl->fn) {
		err = nl->fn(&rec, seq, nl->arg);
		if (err) {
			nl->cb_err = err;
			return NL_STOP;
		}
	}
	return NL_OK;
}

static struct nl_sock *nl_sock_new(struct meas_nl *nl)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk)
		return NULL;
	if (genl_connect(sk)) {
		nl_socket_free(sk);
		return NULL;
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, nl_on_valid, nl);
	nl_socket_modify_cb(sk, NL_CB_ACK, NL_CB_CUSTOM, nl_on_ack, nl);
	nl_socket_modify_cb(sk, NL_CB_FINISH, NL_CB_CUSTOM, nl_on_finish, nl);
	nl_socket_modify_err_cb(sk, NL_CB_CUSTOM, nl_on_err, nl);
	/*
	 * Dump messages are as large as the reader's receive buffers (up to
	 * 32 KB): about 60 records a message instead of 6 with a page.
	 */
	nl_socket_set_msg_buf_size(sk, 32768);
	return sk;
}

struct meas_nl *meas_nl_open(int *err)
{
	struct meas_nl *nl = calloc(1, sizeof(*nl));

	*err = -ENOMEM;
	if (!nl)
		return NULL;
	nl->sk = nl_sock_new(nl);
	if (!nl->sk) {
		free(nl);
		return NULL;
	}
	nl->family = genl_ctrl_resolve(nl->sk, MEAS_GENL_NAME);
	if (nl->family < 0) {
		*err = -ENOENT;	/* meas.ko not loaded */
		meas_nl_close(nl);
		return NULL;
	}
	*err = 0;
	return nl;
}

void meas_nl_close(struct meas_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

int meas_nl_fd(struct meas_nl *nl)
{
	return nl_socket_get_fd(nl->sk);
}

/* Send @msg (freed) and run the replies through nl's callbacks until
 * the ack (a GET) or NLMSG_DONE (a dump).
 */
static int nl_exchange(struct meas_nl *nl, struct nl_msg *msg, int flags)
{
	int err;

	nl->cb_err = 0;
	nl->err = 1;
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_errno(err);
	while (nl->err == 1 && !nl->cb_err) {
		err = nl_recvmsgs_default(nl->sk);
		if (err < 0 && nl->err == 1)
			return nl_errno(err);
		if (flags & NLM_F_DUMP)
			break;
	}
	if (nl->cb_err)
		return nl->cb_err;
	return nl->err == 1 ? 0 : nl->err;
}

/* A request of @cmd with @flags, its attributes to be added; NULL: ENOMEM. */
static struct nl_msg *nl_msg_new(struct meas_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, MEAS_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Send a GET and run the replies through fn until the ack or done. */
static int nl_request(struct meas_nl *nl, int flags, int32_t pid, int slot,
		      meas_nl_rec_fn fn, void *arg)
{
	struct nl_msg *msg = nl_msg_new(nl, MEAS_CMD_GET, flags);
	int err;

	if (!msg || (pid >= 0 && nla_put_u32(msg, MEAS_A_PID, pid)) ||
	    (slot >= 0 && nla_put_u32(msg, MEAS_A_SLOT, slot))) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl->fn = fn;
	nl->arg = arg;
	err = nl_exchange(nl, msg, flags);
	nl->fn = NULL;
	return err;
}

struct nl_one {
	struct meas_proc_rec *rec;
	int got;
};

static int nl_keep_one(const struct meas_proc_rec *rec, uint64_t seq,
		       void *arg)
{
	struct nl_one *one = arg;

	(void)seq;
	*one->rec = *rec;
	one->got = 1;
	return 0;
}

int meas_nl_get(struct meas_nl *nl, int32_t pid, struct meas_proc_rec *rec)
{
	struct nl_one one = { .rec = rec };
	int err = nl_request(nl, NLM_F_ACK, pid, -1, nl_keep_one, &one);

	return err ? err : one.got ? 0 : -EIO;
}

int meas_nl_dump(struct meas_nl *nl, meas_nl_rec_fn fn, void *arg)
{
	return nl_request(nl, NLM_F_DUMP, -1, -1, fn, arg);
}

int meas_nl_exits_join(struct meas_nl *nl, int rcvbuf)
{
	int grp = genl_ctrl_resolve_grp(nl->sk, MEAS_GENL_NAME,
					MEAS_GENL_MCGRP_EXITS);
	int err;

	if (grp < 0)
		return -ENOENT;
	nl_socket_disable_seq_check(nl->sk);
	/* Past rmem_max where allowed (CAP_NET_ADMIN), else up to it. */
	if (rcvbuf > 0 &&
	    setsockopt(meas_nl_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)))
		nl_socket_set_buffer_size(nl->sk, rcvbuf, 0);
	err = nl_socket_add_membership(nl->sk, grp);
	return err ? nl_errno(err) : 0;
}

int meas_nl_exits_recv(struct meas_nl *nl, meas_nl_rec_fn fn, void *arg)
{
	int err;

	nl->fn = fn;
	nl->arg = arg;
	nl->cb_err = 0;
	err = nl_recvmsgs_default(nl->sk);
	nl->fn = NULL;
	if (nl->cb_err)
		return nl->cb_err;
	if (err == -NLE_NOMEM)
		return -ENOBUFS;	/* the socket overflowed: records lost */
	return err < 0 ? nl_errno(err) : 0;
}

uint64_t meas_nl_cgroup(const struct meas_nl *nl)
{
	return nl->cgid;
}

/* A cgroup GET (@id, or the header with @id < 0) or dump through fn. */
static int nl_cg_request(struct meas_nl *nl, int flags, int64_t id,
			 meas_nl_cg_fn fn, void *arg)
{
	struct nl_msg *msg = nl_msg_new(nl, MEAS_CMD_CGROUP_GET, flags);
	int err;

	if (!msg || (id >= 0 && nla_put_u64(msg, MEAS_A_CGROUP, id))) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl->cgfn = fn;
	nl->arg = arg;
	err = nl_exchange(nl, msg, flags);
	nl->cgfn = NULL;
	return err;
}

struct nl_cg_one {
	struct meas_cgroup_hdr *hdr;
	struct meas_cgroup_rec *rec;
	char *path;
	int got;
};

static int nl_cg_keep(const struct meas_cgroup_hdr *hdr,
		      const struct meas_cgroup_rec *rec, const char *path,
		      void *arg)
{
	struct nl_cg_one *one = arg;

	if (hdr && one->hdr) {
		*one->hdr = *hdr;
		one->got = 1;
	}
	if (rec && one->rec) {
		*one->rec = *rec;
		if (one->path)
			snprintf(one->path, MEAS_CGROUP_PATH_MAX, "%s",
				 path ? path : "");
		one->got = 1;
	}
	return 0;
}

int meas_nl_cgroup_get(struct meas_nl *nl, uint64_t id,
		       struct meas_cgroup_rec *rec, char *path)
{
	struct nl_cg_one one = { .rec = rec, .path = path };
	int err;

	if (id > INT64_MAX)
		return -ENOENT;	/* cgroup IDs are 63 bits (kernfs) */
	err = nl_cg_request(nl, NLM_F_ACK, (int64_t)id, nl_cg_keep, &one);
	return err ? err : one.got ? 0 : -EIO;
}

int meas_nl_cgroup_header(struct meas_nl *nl, struct meas_cgroup_hdr *hdr)
{
	struct nl_cg_one one = { .hdr = hdr };
	int err = nl_cg_request(nl, NLM_F_ACK, -1, nl_cg_keep, &one);

	return err ? err : one.got ? 0 : -EIO;
}

int meas_nl_cgroup_dump(struct meas_nl *nl, meas_nl_cg_fn fn, void *arg)
{
	return nl_cg_request(nl, NLM_F_DUMP, -1, fn, arg);
}
