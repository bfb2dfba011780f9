// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading meas with generic netlink users around: a listener on the
 * "exits" group, a dump left half read, requests racing the unload and
 * processes exiting while class 15 goes.  The module must go once no
 * file of /dev/meas is open (a dump in progress holds it), leave the
 * sockets working and quiet, and load again.  Any touch of freed memory
 * shows in the debug lane (KASAN).  Run as root in the test VM with
 * meas.ko not loaded; it loads and unloads $MEAS_KO (module/meas.ko).
 * The shared clock only ticks for an open file: clock_unload.sh covers it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/genetlink.h>

#include "kselftest_harness.h"
#include "libmeas.h"
#include "common.h"
#include "genlraw.h"

#define C15	(1U << MEAS_CLASS_PROC)

static bool loaded(void)
{
	return !access("/sys/module/meas", F_OK);
}

static int load(void)
{
	const char *ko = getenv("MEAS_KO");
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "insmod %s", ko && *ko ? ko : "module/meas.ko");
	return system(cmd) || meas_udev() ? -1 : 0;
}

/* delete_module until it goes (references dropped late), up to @ms. */
static int unload(int ms)
{
	for (;;) {
		if (!syscall(SYS_delete_module, "meas", O_NONBLOCK))
			return 0;
		if ((errno != EAGAIN && errno != EBUSY) || ms <= 0)
			return -errno;
		usleep(10000);
		ms -= 10;
	}
}

/* @n children that exit at once. */
static void exit_children(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fork() == 0)
			_exit(0);
	while (wait(NULL) > 0)
		;
}

/* Read what is pending on @s within @ms; the messages of @family counted. */
static int pending(int s, int ms, uint16_t family, int *bad)
{
	static char buf[65536];
	struct pollfd p = { .fd = s, .events = POLLIN };
	struct nlmsghdr *nh;
	int n = 0, rem;
	ssize_t r;

	while (poll(&p, 1, ms) > 0) {
		r = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
		if (r < 0 && errno == ENOBUFS)
			continue;
		if (r <= 0)
			break;
		rem = r;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, rem);
		     nh = NLMSG_NEXT(nh, rem)) {
			struct genlmsghdr *g = NLMSG_DATA(nh);

			if (nh->nlmsg_type == family && g->cmd == MEAS_CMD_EXIT)
				n++;
			else if (nh->nlmsg_type != NLMSG_DONE)
				(*bad)++;
		}
		ms = 0;
	}
	return n;
}

/* A GET of entry 0 on @s: the error of the answer (0 for a record). */
static int get0(int s, uint16_t family)
{
	char msg[64] = { 0 }, buf[8192];
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	uint32_t pid = 0;
	ssize_t r;

	g->cmd = MEAS_CMD_GET;
	g->version = MEAS_GENL_VERSION;
	put_attr(msg, &len, MEAS_A_PID, &pid, sizeof(pid));
	nh->nlmsg_len = len;
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = ++genl_seq;
	if (send(s, msg, len, 0) < 0)
		return -errno;
	for (;;) {
		r = recv(s, buf, sizeof(buf), 0);
		if (r < (ssize_t)NLMSG_HDRLEN)
			return r < 0 ? -errno : -EPROTO;
		nh = (struct nlmsghdr *)buf;
		if (nh->nlmsg_seq != genl_seq)
			continue;
		if (nh->nlmsg_type == NLMSG_ERROR)
			return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	}
}

FIXTURE(unload) {
	int fd;		/* /dev/meas, or -1 */
	int s;		/* a listener on "exits" */
	uint16_t family;
	uint32_t exits;
	bool held;	/* an earlier test left meas loaded and held */
};

/* As clock_unload.sh: nothing to test while someone else holds meas. */
#define NEED_UNLOADABLE() do {						\
	if (self->held)							\
		SKIP(return, "meas.ko is still held by an earlier test");	\
} while (0)

FIXTURE_SETUP(unload)
{
	self->fd = -1;
	self->s = -1;
	if (loaded() && unload(5000)) {
		self->held = true;
		return;
	}
	ASSERT_EQ(0, load());
	self->s = nl_socket(1 << 20);
	ASSERT_LE(0, self->s);
	ASSERT_EQ(0, genl_resolve(self->s, &self->family, &self->exits));
	if (!self->exits)
		return;
	ASSERT_EQ(0, setsockopt(self->s, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&self->exits, sizeof(self->exits)));
}

FIXTURE_TEARDOWN(unload)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->s >= 0)
		close(self->s);
	if (!self->held)
		unload(5000);
}

/* The listener outlives the family, hears nothing after, and rejoins. */
TEST_F(unload, listener_survives)
{
	uint16_t family;
	uint32_t exits;
	int rc, bad = 0, e;

	NEED_UNLOADABLE();
	if (!self->exits)
		SKIP(return, "no \"exits\" group on this kernel");
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, C15, &rc));
	exit_children(20);
	EXPECT_LT(0, pending(self->s, 2000, self->family, &bad));
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, unload(0));

	/* records still queued may come; then nothing */
	pending(self->s, 200, self->family, &bad);
	exit_children(20);
	EXPECT_EQ(0, pending(self->s, 300, self->family, &bad));
	EXPECT_EQ(0, bad);
	/* the socket works: the family is gone */
	e = get0(self->s, self->family);
	EXPECT_TRUE(e == -ENOENT || e == -EOPNOTSUPP) TH_LOG("%s", strerror(-e));
	EXPECT_EQ(-ENOENT, genl_resolve(self->s, &family, &exits));

	/* loaded again, it answers and its group can be joined again */
	ASSERT_EQ(0, load());
	ASSERT_EQ(0, genl_resolve(self->s, &family, &exits));
	EXPECT_EQ(-ENODATA, get0(self->s, family));
	ASSERT_EQ(0, setsockopt(self->s, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&exits, sizeof(exits)));
	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, C15, &rc));
	exit_children(20);
	EXPECT_LT(0, pending(self->s, 2000, family, &bad));
	EXPECT_EQ(0, bad);
}

/*
 * A dump left half read keeps the module; once its socket goes, it goes.
 * 200 processes are forked, dumped, killed and reaped, and the unload may
 * take its 5 s of retries: in the 6.1 debug kernel (KASAN, lockdep) on a
 * loaded host that passed the harness's default 30 s, with nothing wrong
 * in the kernel log and the next test unloading meas at once, so the
 * bound is the test's own.
 */
TEST_F_TIMEOUT(unload, dump_in_progress_holds_module, 120)
{
	static char buf[65536];
	char msg[64] = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct genlmsghdr *g = NLMSG_DATA(nh);
	pid_t kids[200];
	int d, i, rc, done = 0, bad = 0;
	ssize_t r;

	NEED_UNLOADABLE();

	self->fd = meas_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, meas_start(self->fd, C15, &rc));
	for (i = 0; i < 200; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			close(self->fd);	/* it would hold the module */
			pause();
			_exit(0);
		}
	}
	d = nl_socket(0);
	ASSERT_LE(0, d);
	g->cmd = MEAS_CMD_GET;
	g->version = MEAS_GENL_VERSION;
	nh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	nh->nlmsg_type = self->family;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nh->nlmsg_seq = ++genl_seq;
	ASSERT_LT(0, send(d, msg, nh->nlmsg_len, 0));
	/* a 4 KiB read holds one part: the dump stays open */
	ASSERT_LT(0, recv(d, buf, 4096, 0));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-EAGAIN, unload(0));
	/* the rest of the dump, with class 15 gone, ends cleanly */
	while (!done && (r = recv(d, buf, sizeof(buf), MSG_TRUNC)) > 0) {
		int rem = r < (ssize_t)sizeof(buf) ? r : (ssize_t)sizeof(buf);

		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, rem);
		     nh = NLMSG_NEXT(nh, rem)) {
			if (nh->nlmsg_type == NLMSG_DONE)
				done = 1;
			else if (nh->nlmsg_type != self->family)
				bad++;
		}
	}
	EXPECT_EQ(1, done);
	EXPECT_EQ(0, bad);
	close(d);
	EXPECT_EQ(0, unload(5000));
	for (i = 0; i < 200; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
}

/*
 * Processes exit and requests arrive while class 15 goes and meas is
 * unloaded, five times over: every answer is one the family documents or
 * ENOENT (gone), and every unload succeeds.  Each round may take its
 * unload's 5 s of retries and a load beside two busy processes: more
 * than the harness's default 30 s for the five on a loaded host (seen in
 * 7.3 rt under TCG), so the bound is the rounds' own.
 */
TEST_F_TIMEOUT(unload, requests_and_exits_race_unload, 120)
{
	int round, rc, bad = 0, status;
	pid_t asker, exiter;

	NEED_UNLOADABLE();
	if (!self->exits)
		SKIP(return, "no \"exits\" group on this kernel");
	for (round = 0; round < 5; round++) {
		uint16_t family = self->family;

		self->fd = meas_open();
		ASSERT_LE(0, self->fd);
		ASSERT_EQ(0, meas_start(self->fd, C15, &rc));
		asker = fork();
		if (asker == 0) {
			int s = nl_socket(0), e;

			close(self->fd);

			for (;;) {
				e = get0(s, family);
				if (e && e != -ENODATA && e != -ENOENT &&
				    e != -EOPNOTSUPP && e != -EINTR)
					_exit(100 - e);
			}
		}
		exiter = fork();
		if (exiter == 0) {
			close(self->fd);
			for (;;)
				exit_children(50);
		}
		usleep(200000);
		close(self->fd);
		self->fd = -1;
		EXPECT_EQ(0, unload(5000)) TH_LOG("round %d", round);
		usleep(100000);
		kill(exiter, SIGKILL);
		kill(asker, SIGKILL);
		waitpid(exiter, NULL, 0);
		EXPECT_EQ(asker, waitpid(asker, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status))
			TH_LOG("round %d: GET answered errno %d", round,
			       WEXITSTATUS(status) - 100);
		pending(self->s, 100, family, &bad);
		ASSERT_EQ(0, load());
		ASSERT_EQ(0, genl_resolve(self->s, &self->family, &self->exits));
		ASSERT_EQ(0, setsockopt(self->s, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
					&self->exits, sizeof(self->exits)));
	}
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
