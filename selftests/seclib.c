// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the security tests (sec_test.c, sec2_test.c, adversary.c):
 * module parameters, users, children that report when ready, a PID taken
 * on purpose, class 14's reads, stallfs and a file closed in flight.
 * Built into libselftest.a.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/meas.h>

#include "common.h"
#include "seclib.h"

/* The value of module parameter @name, or -1. */
long param(const char *name)
{
	char path[128], buf[32] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* Wait up to 10 s for module parameter @name to read @v. */
int param_wait(const char *name, long v)
{
	int i;

	for (i = 0; i < 10000 && param(name) != v; i++)
		usleep(1000);
	return param(name) == v ? 0 : -1;
}

/* Become @uid and @gid (all three IDs), a member of meas, no capabilities. */
int become(uid_t uid, gid_t gid)
{
	if (become_member(uid, gid))
		return -1;
	prctl(PR_SET_DUMPABLE, 1);
	return 0;
}

/* Fork a child; it reports on *@ready once it has taken its credentials. */
pid_t fork_ready(int *ready)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		*ready = p[1];
		return 0;
	}
	close(p[1]);
	*ready = p[0];
	return pid;
}

/* Parent: wait for the child's report; the child's PID, or -1. */
pid_t ready_wait(pid_t pid, int ready)
{
	char c;
	int ok = read(ready, &c, 1) == 1;

	close(ready);
	return ok ? pid : -1;
}

/* A child that sleeps until killed, as @uid if not 0; its PID. */
pid_t sleeper(uid_t uid, gid_t gid)
{
	int ready;
	pid_t pid = fork_ready(&ready);

	if (!pid) {
		if (uid && become(uid, gid))
			_exit(97);
		if (write(ready, "r", 1) != 1)
			_exit(98);
		for (;;)
			pause();
	}
	return ready_wait(pid, ready);
}

void reap(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

/*
 * Wait up to @ms for @pid to exit: its status, or -1 if it did not.  The
 * bound is the monotonic clock's, not a count of 1 ms sleeps, which a
 * loaded TCG guest stretches several times; a child already reaped
 * (ECHILD) ends the wait at once, as no status can come.
 */
int wait_for(pid_t pid, int ms)
{
	double end = now_s() + ms / 1000.0;
	pid_t r;
	int st;

	do {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		usleep(1000);
	} while (now_s() < end);
	return -1;
}

/* A child of ours with PID @want, running @fn; -1 if the PID is taken. */
pid_t fork_as(pid_t want, int (*fn)(void *))
{
	char v[16];
	pid_t pid;
	int i, st;

	for (i = 0; i < 20; i++) {
		snprintf(v, sizeof(v), "%d", want - 1);
		if (write_file("/proc/sys/kernel/ns_last_pid", v))
			return -1;
		pid = fork();
		if (!pid)
			_exit(fn(NULL));
		if (pid == want)
			return pid;
		waitpid(pid, &st, 0);
	}
	return -1;
}

/* @n direct reads of the open block device @fd, on CPU 0: 0 or -1. */
int reads_on_cpu0(int fd, int n)
{
	void *buf;
	int i, err = 0;

	if (pin_cpu(0) || posix_memalign(&buf, DIRECT_IO_BS, DIRECT_IO_BS))
		return -1;
	for (i = 0; i < n && !err; i++)
		if (pread(fd, buf, DIRECT_IO_BS, (off_t)(i % 64) * DIRECT_IO_BS) !=
		    DIRECT_IO_BS)
			err = -1;
	free(buf);
	return err;
}

uint64_t io_item(int fd, int item)
{
	uint64_t v = UINT64_MAX;
	int rc;

	meas_get(fd, MEAS_CLASS_IO, 0, item, 1, &v, sizeof(v), &rc);
	return v;
}

/* ---- stallfs, and a file released by the garbage collector -------------- */

static pid_t fuse_pid = -1;
static int fuse_out = -1;
static char fuse_mnt[96];

int fuse_start(const char *mnt)
{
	char prog[300] = "", line[32] = "";
	ssize_t n;
	int p[2];

	n = readlink("/proc/self/exe", prog, sizeof(prog) - 16);
	if (n <= 0 || !memchr(prog, '/', n))
		return -1;
	snprintf(strrchr(prog, '/') + 1, 16, "stallfs");
	snprintf(fuse_mnt, sizeof(fuse_mnt), "%s", mnt);
	if (system("modprobe fuse") || pipe(p))
		return -1;
	fuse_pid = fork();
	if (!fuse_pid) {
		dup2(p[1], 1);
		execl(prog, "stallfs", mnt, (char *)NULL);
		_exit(99);
	}
	close(p[1]);
	fuse_out = p[0];
	return read(fuse_out, line, sizeof(line) - 1) > 0 &&
	       !strncmp(line, "mounted", 7) ? 0 : -1;
}

int fuse_held(int n, int ms)
{
	static char buf[4096];
	static size_t len;
	struct pollfd pfd = { .fd = fuse_out, .events = POLLIN };
	double end = now_s() + ms / 1000.0;
	ssize_t r;
	int held;
	char *l;

	for (;;) {
		buf[len] = '\0';
		l = strrchr(buf, 'h');
		if (l && sscanf(l, "held %d", &held) == 1 && held >= n)
			return 0;
		if (now_s() > end || poll(&pfd, 1, 100) < 0)
			return -1;
		if (pfd.revents & POLLIN) {
			r = read(fuse_out, buf + len, sizeof(buf) - 1 - len);
			if (r <= 0)
				return -1;
			len += r;
			if (len > sizeof(buf) / 2) {
				memmove(buf, buf + len / 2, len - len / 2);
				len -= len / 2;
			}
		}
	}
}

int fuse_ctl(const char *name)
{
	char path[160];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", fuse_mnt, name);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		return -1;
	rc = write(fd, "1", 1) == 1 ? 0 : -1;
	close(fd);
	return rc;
}

void fuse_stop(void)
{
	if (fuse_pid > 0) {
		kill(fuse_pid, SIGTERM);
		if (wait_for(fuse_pid, 5000) < 0)
			reap(fuse_pid);
	}
	umount2(fuse_mnt, MNT_DETACH);
	close(fuse_out);
	fuse_pid = -1;
}

/*
 * The release of any unix socket asks for the collector; but since 6.10
 * a request made while a collection runs is dropped (gc_in_progress), so
 * a cycle closed then waits for the next release, which may never come.
 */
static void gc_poke(void)
{
	int sv[2];

	if (!socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		close(sv[0]);
		close(sv[1]);
	}
}

void in_flight_close(int fd)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int sv[2], fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	fds[0] = fd;
	fds[1] = sv[1];		/* the receiver in its own queue: a cycle */
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	if (sendmsg(sv[0], &msg, 0) != 1)
		printf("# sendmsg: %s\n", strerror(errno));
	close(fd);
	close(sv[0]);
	close(sv[1]);
	gc_poke();
}

int eof_within(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double end = now_s() + ms / 1000.0;
	char c;
	int n;

	/* asking for the collector again every 100 ms (see gc_poke()) */
	do {
		n = poll(&pfd, 1, 100);
		if (n == 1)
			return read(fd, &c, 1) == 0 ? 0 : -1;
		if (n < 0 && errno != EINTR)
			return -1;
		gc_poke();
	} while (now_s() < end);
	return -1;
}
