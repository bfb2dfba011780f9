// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the security tests (sec_test.c, sec2_test.c): module
 * parameters, users, children that report when ready, a PID taken on
 * purpose, and class 14's reads.  Built into libselftest.a.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>
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

/* Wait up to @ms for @pid to exit: its status, or -1 if it did not. */
int wait_for(pid_t pid, int ms)
{
	int st, i;

	for (i = 0; i < ms; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(1000);
	}
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

