// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded fuzzer of the generic netlink family "meas": random commands
 * (the process and the cgroup GETs most), flags and versions, random
 * attributes (unknown types, wrong and zero lengths, truncated and
 * oversized, NLA_F_NESTED on plain values, nests of garbage), truncated
 * and overlong messages, dumps read through tiny buffers and dumps
 * abandoned half way, over many processes, with class 15 switched on
 * and off under it and a listener on the "exits" group.
 * Every error in a reply (NLMSG_ERROR, or the status of NLMSG_DONE) must
 * be one that uapi/linux/meas.h documents for the family; anything else,
 * or no answer to a well-formed request, is reported with the seed and
 * message number that reproduce it.
 *   genl_fuzz [-n MESSAGES] [-t SECONDS] [-s SEED] [-p PROCESSES]
 * Prints TAP.  Run as root in the test VM with meas.ko loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/meas.h>

#include "fuzz.h"
#include "genlraw.h"

#define MSG_MAX		4096
#define BIG_BUF		65536	/* a read that holds any message */
#define REPLY_WAIT_MS	2000

/*
 * What the family documents (uapi/linux/meas.h, "generic netlink"):
 * ENOENT and EACCES are MEAS_CMD_CGROUP_GET's.
 */
static const int documented[] = {
	ENODATA, ESRCH, EINVAL, EOPNOTSUPP, EBUSY, ENOMEM, EMSGSIZE, EINTR,
	ENOENT, EACCES,
};

static uint32_t rnd(void)
{
	return (uint32_t)(fuzz_next() >> 11);
}

struct tally {
	long sent, acked, errors, dumps, dump_msgs, records, no_reply;
	long dropped, abandoned, overruns, exits, undocumented;
	long hist[256];
};

/* A random value for an attribute: small, a live PID, an edge, garbage. */
static uint32_t attr_value(void)
{
	static const uint32_t edges[] = {
		0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 32768, 4194304,
	};

	switch (rnd() % 4) {
	case 0:
		return edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return getpid() + rnd() % 64;
	case 2:
		return rnd() % 512;
	default:
		return rnd();
	}
}

/* Random attributes at @len, nested up to three deep. */
static void fill_attrs(char *msg, size_t *len, size_t room, int depth)
{
	int i, n = rnd() % 5;

	for (i = 0; i < n && *len + 64 < room; i++) {
		uint16_t type = rnd() % 3 ? 1 + rnd() % MEAS_A_MAX :
					    rnd() % 16;
		uint32_t v[8];
		struct nlattr *a;
		size_t start = *len;
		unsigned int k;

		for (k = 0; k < 8; k++)
			v[k] = attr_value();
		switch (rnd() % 10) {
		case 0:		/* wrong length */
			put_attr(msg, len, type, v, rnd() % 32);
			break;
		case 1:		/* NLA_F_NESTED on a plain value */
			put_attr(msg, len, type | NLA_F_NESTED, v, 4);
			break;
		case 2:		/* a nest of garbage, maybe nested again */
			a = put_attr(msg, len, type | NLA_F_NESTED, v, 0);
			if (depth < 3)
				fill_attrs(msg, len, room, depth + 1);
			a->nla_len = *len - start;
			break;
		case 3:		/* nla_len past the end of the message */
			a = put_attr(msg, len, type, v, 4);
			a->nla_len = 200 + rnd() % 60000;
			return;
		case 4:		/* nla_len below the header */
			a = put_attr(msg, len, type, v, 4);
			a->nla_len = rnd() % NLA_HDRLEN;
			return;
		case 5:		/* oversized: a record's worth and more */
			if (*len + 600 < room) {
				char big[560];

				memset(big, rnd(), sizeof(big));
				put_attr(msg, len, type, big, 64 + rnd() % 496);
			}
			break;
		case 6:
			put_attr(msg, len, type | NLA_F_NET_BYTEORDER, v, 4);
			break;
		default:	/* well formed */
			put_attr(msg, len, type, v, 4);
			break;
		}
	}
}

static void note_error(struct tally *t, int e, long n, const char *what)
{
	t->errors++;
	t->hist[e & 0xff]++;
	if (!fuzz_errno_in(documented, sizeof(documented) / sizeof(documented[0]),
			   e) && t->undocumented++ < 20)
		printf("# message %ld: %s errno %d (%s), not documented\n",
		       n, what, e, strerror(e));
}

/*
 * Read the answers to message @sq until its NLMSG_ERROR or NLMSG_DONE,
 * through @bufsz-byte reads.  Returns 1 when it came, 0 on timeout,
 * -1 when the socket overran (its state is lost: the caller reopens).
 */
static int drain(int s, uint32_t sq, size_t bufsz, struct tally *t, long n,
		 int abandon)
{
	static char buf[BIG_BUF];
	struct pollfd p = { .fd = s, .events = POLLIN };
	ssize_t r;
	int parts = 0;

	for (;;) {
		struct nlmsghdr *nh;
		int rem;

		if (poll(&p, 1, REPLY_WAIT_MS) <= 0)
			return 0;
		r = recv(s, buf, bufsz, MSG_DONTWAIT | MSG_TRUNC);
		if (r < 0 && errno == ENOBUFS) {
			t->overruns++;
			return -1;
		}
		if (r < 0)
			continue;
		if (abandon && ++parts > 1)
			return 1;
		rem = r < (ssize_t)bufsz ? r : (ssize_t)bufsz;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, rem);
		     nh = NLMSG_NEXT(nh, rem)) {
			if (nh->nlmsg_seq != sq)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				if (e->error)
					note_error(t, -e->error, n, "NLMSG_ERROR");
				else
					t->acked++;
				return 1;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				int err = *(int *)NLMSG_DATA(nh);

				if (err)
					note_error(t, -err, n, "NLMSG_DONE");
				t->dumps++;
				return 1;
			}
			t->dump_msgs++;
			if (nh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN +
					    NLA_HDRLEN + sizeof(struct meas_proc_rec))
				t->records++;
		}
		if (r > (ssize_t)bufsz)		/* cut: the rest is lost */
			return 1;
	}
}

/* One random message to the family; returns its sequence number. */
static uint32_t send_random(int s, uint16_t family, int *expect_reply)
{
	static char msg[MSG_MAX];
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *gh = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;

	memset(msg, 0, 64);
	switch (rnd() % 4) {
	case 0:
		gh->cmd = MEAS_CMD_GET;
		break;
	case 1:
		gh->cmd = rnd() % 2 ? MEAS_CMD_GET : MEAS_CMD_CGROUP_GET;
		break;
	case 2:
		gh->cmd = rnd() % (__MEAS_CMD_MAX + 1);
		break;
	default:
		gh->cmd = rnd();
		break;
	}
	gh->version = rnd() % 4 ? MEAS_GENL_VERSION : rnd() % 256;
	gh->reserved = rnd() % 8 ? 0 : rnd();
	if (rnd() % 3 == 0)
		flags |= NLM_F_DUMP;
	if (rnd() % 16 == 0)
		flags |= rnd() & (NLM_F_ECHO | NLM_F_EXCL | NLM_F_CREATE |
				  NLM_F_APPEND | NLM_F_ATOMIC);
	if (rnd() % 32 == 0)
		flags &= ~NLM_F_REQUEST;
	fill_attrs(msg, &len, sizeof(msg), 0);
	nh->nlmsg_len = len;
	nh->nlmsg_type = rnd() % 64 ? family : rnd() % NLMSG_MIN_TYPE;
	nh->nlmsg_flags = flags;
	nh->nlmsg_seq = ++genl_seq;
	*expect_reply = 1;
	switch (rnd() % 32) {
	case 0:		/* the header claims more than is sent: dropped */
		nh->nlmsg_len = len + 4 + rnd() % 4000;
		*expect_reply = 0;
		break;
	case 1:		/* shorter than a generic netlink header */
		nh->nlmsg_len = NLMSG_HDRLEN + rnd() % GENL_HDRLEN;
		len = nh->nlmsg_len;
		break;
	case 2:		/* shorter than a netlink header: dropped */
		len = rnd() % NLMSG_HDRLEN;
		*expect_reply = 0;
		break;
	}
	if (!(flags & NLM_F_REQUEST) && !(flags & NLM_F_ACK))
		*expect_reply = 0;
	if (send(s, msg, len, 0) < 0)
		*expect_reply = 0;
	return nh->nlmsg_seq;
}

/* Children that sleep, so that dumps are long, and exit, for "exits". */
static void spawn_sleepers(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			pause();
			_exit(0);
		}
	}
}

static void drain_exits(int l, struct tally *t)
{
	char buf[8192];
	ssize_t r;

	while ((r = recv(l, buf, sizeof(buf), MSG_DONTWAIT)) != 0) {
		if (r < 0 && errno == ENOBUFS) {
			t->overruns++;
			continue;
		}
		if (r < 0)
			break;
		t->exits++;
	}
}

int main(int argc, char **argv)
{
	struct fuzz_opts o = { .calls = 20000, .secs = 120, .extra = 300 };
	struct tally t = { 0 };
	struct timespec t0, now;
	long n, nproc;
	uint16_t family;
	uint32_t exits, sq;
	int s, l, mfd, enabled = 0, e;
	pid_t *pids;

	if (fuzz_opts(argc, argv, 'p', &o))
		return 2;
	fuzz_seed(o.seed);
	nproc = o.extra;
	printf("TAP version 13\n1..2\n# seed %llu\n", (unsigned long long)o.seed);
	s = nl_socket(0);
	mfd = open(MEAS_DEVICE, O_RDWR | O_CLOEXEC);
	if (s < 0 || mfd < 0 || genl_resolve(s, &family, &exits)) {
		printf("not ok 1 - the family \"%s\" and %s\n", MEAS_GENL_NAME,
		       MEAS_DEVICE);
		printf("not ok 2 - listener on \"%s\"\n", MEAS_GENL_MCGRP_EXITS);
		return 1;
	}
	/* a listener with a small buffer: it overruns, the kernel counts */
	l = nl_socket(4096);
	if (l >= 0 && exits &&
	    setsockopt(l, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &exits,
		       sizeof(exits)))
		printf("# join \"%s\": %s\n", MEAS_GENL_MCGRP_EXITS, strerror(errno));
	pids = calloc(nproc > 0 ? nproc : 1, sizeof(*pids));
	spawn_sleepers(pids, nproc);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 0; n < o.calls; n++) {
		struct meas_start st = { .size = sizeof(st), .classmask = 1U << 15 };
		int expect, r;
		size_t bufsz;

		if (n % 500 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - t0.tv_sec >= o.secs)
				break;
			/* class 15 on and off under the requests */
			if (ioctl(mfd, enabled ? MEAS_IOC_STOP : MEAS_IOC_START, &st) == 0)
				enabled = !enabled;
			/* a few sleepers go: exit records for the listener */
			if (nproc > 0) {
				int k = rnd() % nproc;

				kill(pids[k], SIGKILL);
				waitpid(pids[k], NULL, 0);
				spawn_sleepers(&pids[k], 1);
			}
		}
		sq = send_random(s, family, &expect);
		t.sent++;
		if (!expect) {
			t.dropped++;
			continue;
		}
		bufsz = rnd() % 8 ? BIG_BUF : 16 + rnd() % 2048;
		r = drain(s, sq, bufsz, &t, n, rnd() % 64 == 0);
		if (r <= 0 || bufsz < BIG_BUF) {
			/* cut, overrun or abandoned half way: a new socket */
			if (r == 0)
				t.no_reply++;
			t.abandoned += r > 0;
			close(s);
			s = nl_socket(0);
			if (s < 0)
				break;
		}
		if (r == 0 && t.no_reply <= 5)
			printf("# message %ld: no answer in %d ms\n", n,
			       REPLY_WAIT_MS);
		if (l >= 0)
			drain_exits(l, &t);
	}
	for (e = 0; e < nproc; e++)
		kill(pids[e], SIGKILL);
	while (wait(NULL) > 0)
		;
	printf("# sent %ld (%ld not answerable), acked %ld, dumps %ld (%ld messages, %ld records), cut or abandoned %ld\n",
	       t.sent, t.dropped, t.acked, t.dumps, t.dump_msgs, t.records,
	       t.abandoned);
	printf("# exit records received %ld, overruns %ld, no answer %ld\n",
	       t.exits, t.overruns, t.no_reply);
	for (e = 0; e < 256; e++)
		if (t.hist[e])
			printf("# %-24s %ld\n", strerror(e), t.hist[e]);
	printf("%s 1 - %ld messages, every error documented (%ld not)\n",
	       t.undocumented ? "not ok" : "ok", n, t.undocumented);
	printf("%s 2 - every well-formed request answered (%ld not)\n",
	       t.no_reply ? "not ok" : "ok", t.no_reply);
	close(mfd);
	close(s);
	if (l >= 0)
		close(l);
	return t.undocumented || t.no_reply ? 1 : 0;
}
