// SPDX-License-Identifier: GPL-2.0
/*
 * Task measurement benchmark: a fixed workload timed unmeasured, or
 * measuring itself at PCOUNTER-INTERVAL 1 ms with SVC statistics on.
 *   task_bench [-m] [-s] [-n CHUNKS] [-f FILE]
 *   -m  measured (MEAS_IOC_TASK_START on itself; stopped at the end)
 *   -s  system-call bound: getppid() only, no computing in between
 * Prints the workload's rate (chunks per second of wall time).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/meas_task.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Some tens of microseconds of arithmetic under TCG, then a system call. */
static void chunk(int syscalls_only)
{
	unsigned long i, x = sink;

	if (!syscalls_only)
		for (i = 0; i < 20000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	syscall(SYS_getppid);
}

static int task_ioctl(int fd, unsigned long cmd, const char *file)
{
	struct meas_task_start start = {
		.size = sizeof(start), .pcounter_ms = 1,
		.flags = MEAS_TASK_SVC, .path = (uintptr_t)file,
	};
	struct meas_task_stop stop = { .size = sizeof(stop) };

	if (cmd == MEAS_IOC_TASK_START)
		return ioctl(fd, cmd, &start);
	if (ioctl(fd, cmd, &stop))
		return -1;
	fprintf(stderr, "samples %llu, system calls %llu, lost %llu\n",
		(unsigned long long)stop.samples,
		(unsigned long long)stop.svcs,
		(unsigned long long)stop.lost);
	return 0;
}

int main(int argc, char **argv)
{
	const char *file = "/tmp/task_bench.out";
	int opt, measured = 0, sc = 0, fd = -1;
	long i, n = 100000;
	double t;

	while ((opt = getopt(argc, argv, "msn:f:")) != -1) {
		switch (opt) {
		case 'm':
			measured = 1;
			break;
		case 's':
			sc = 1;
			break;
		case 'n':
			n = atol(optarg);
			break;
		case 'f':
			file = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-m] [-s] [-n CHUNKS] [-f FILE]\n", argv[0]);
			return 2;
		}
	}
	if (measured) {
		fd = open(MEAS_DEVICE, O_RDWR);
		unlink(file);
		if (fd < 0 || task_ioctl(fd, MEAS_IOC_TASK_START, file)) {
			perror("MEAS_IOC_TASK_START");
			return 1;
		}
	}
	t = now();
	for (i = 0; i < n; i++)
		chunk(sc);
	t = now() - t;
	if (measured && task_ioctl(fd, MEAS_IOC_TASK_STOP, NULL)) {
		perror("MEAS_IOC_TASK_STOP");
		return 1;
	}
	printf("%.0f\n", n / t);
	return 0;
}
