// SPDX-License-Identifier: GPL-2.0
/*
 * Context-switch benchmark: two processes pinned to CPU 0 pass a byte
 * back and forth through pipes.  With -e, class 0 is enabled for the run.
 *   pingpong [-n ROUNDTRIPS] [-e]
 * Prints: round trips per second.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "libmeas.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void child(int in, int out, long n)
{
	char c;

	while (n-- > 0)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			_exit(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	int a[2], b[2], opt, fd = -1, rc, status;
	long n = 100000, i;
	cpu_set_t set;
	double t0, t;
	pid_t pid;
	char c = 0;

	while ((opt = getopt(argc, argv, "n:e")) != -1) {
		if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'e')
			fd = 0;
		else
			return 2;
	}
	if (n <= 0)
		return 2;
	if (!fd) {
		fd = meas_open();
		if (fd < 0 || meas_start(fd, 1, &rc)) {
			fprintf(stderr, "pingpong: cannot enable class 0\n");
			return 1;
		}
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || pipe(a) || pipe(b))
		return 1;
	pid = fork();
	if (!pid)
		child(a[0], b[1], n);
	t0 = now_s();
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
	t = now_s() - t0;
	waitpid(pid, &status, 0);
	printf("%.0f\n", n / t);
	return 0;
}
