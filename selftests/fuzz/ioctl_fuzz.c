// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded ioctl fuzzer of /dev/meas: random commands, truncated and
 * oversized structs, reserved fields set, bad and kernel pointers, huge
 * counts and negative items.  Every call must succeed or fail with an
 * errno the uapi header documents; anything else is reported with the
 * seed and iteration that reproduce it.
 *   ioctl_fuzz [-n CALLS] [-t SECONDS] [-s SEED]
 * Prints TAP.  Run as root in the test VM (it also enables classes,
 * takes the clock, defines classes and starts task measurements, all
 * released on close or stopped at the end; it works in /tmp).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/meas.h>
#include <linux/meas_task.h>

#include "fuzz.h"

#define NFDS	3
#define BUFSZ	4096

static const unsigned long cmds[] = {
	MEAS_IOC_START, MEAS_IOC_STOP, MEAS_IOC_GET, MEAS_IOC_INFO,
	MEAS_IOC_IOTRACE_READ, MEAS_IOC_GETCLOCK, MEAS_IOC_GIVECLOCK,
	MEAS_IOC_CLOCKINFO, MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE,
	MEAS_IOC_DESCRIBE, MEAS_IOC_UPDATE, MEAS_IOC_GETPROCSTATS,
	MEAS_IOC_READACTIVE,
	MEAS_IOC_TASK_START, MEAS_IOC_TASK_STOP,
};

/* The errnos uapi/linux/meas.h documents, and ENOTTY for unknown ioctls. */
static const int documented[] = {
	E2BIG, EACCES, EALREADY, EBUSY, EEXIST, EFAULT, EINTR, EINVAL, EIO,
	EMFILE, ENFILE, ENOBUFS, ENODATA, ENOENT, ENOMEM, EOPNOTSUPP,
	EOVERFLOW, EPERM, ERANGE, ESRCH, ESTALE, ENOTTY,
	ENOSPC, EMEDIUMTYPE,
};

/* An interesting 64-bit value: small, edge, huge or an address. */
static uint64_t value(unsigned char *good, unsigned char *guard)
{
	static const uint64_t edges[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 100, 255, 4096, 0x7fffffff,
		0x80000000, 0xffffffff, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, ~0ULL, ~0ULL - 2, 0xffff888000000000ULL,
	};

	switch (fuzz_next() % 6) {
	case 0:
		return edges[fuzz_next() % (sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return (uintptr_t)good + fuzz_next() % BUFSZ;
	case 2:
		return (uintptr_t)guard;
	case 3:
		return fuzz_next() % 64;
	case 4:
		return -(int64_t)(fuzz_next() % 8);
	default:
		return fuzz_next();
	}
}

/* A size field, then random words: everywhere, or within that size. */
static void fill(unsigned char *buf, unsigned char *good, unsigned char *guard)
{
	uint32_t size, span;
	uint64_t v;
	size_t i;

	switch (fuzz_next() % 4) {
	case 0:
		size = fuzz_next() % 600;
		break;
	case 1:
		size = ~0U;
		break;
	default:
		size = 24 + 8 * (fuzz_next() % (fuzz_next() % 3 ? 12 : 40));
		break;
	}
	span = size < 512 ? (size + 7) / 8 : 64;
	if (fuzz_next() % 4 == 0) {
		for (i = 0; i < 512; i += 8) {
			v = value(good, guard);
			memcpy(buf + i, &v, 8);
		}
	} else {
		memset(buf, 0, 512);
		for (i = 0; span && i < 1 + fuzz_next() % 6; i++) {
			v = value(good, guard);
			memcpy(buf + (fuzz_next() % span) * 8, &v, 8);
		}
	}
	memcpy(buf, &size, 4);
}

/* End the task measurements the random calls may have started on @pid. */
static void task_stop(int fd, int pid)
{
	struct meas_task_stop ts = { .size = sizeof(ts), .pid = pid };

	ioctl(fd, MEAS_IOC_TASK_STOP, &ts);
}

/* ... on every process: a random PID may have hit one. */
static void task_stop_all(int fd)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int pid;

	while (fd >= 0 && d && (de = readdir(d)))
		if ((pid = atoi(de->d_name)) > 0)
			task_stop(fd, pid);
	if (d)
		closedir(d);
}

static void reopen(int *fds)
{
	int i;

	/* a measurement of this process would grow its file without end */
	if (fds[0] >= 0)
		task_stop(fds[0], 0);

	for (i = 0; i < NFDS; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = open(MEAS_DEVICE, O_RDWR | O_CLOEXEC);
	}
	/* descriptors that GETCLOCK may have returned */
	for (i = 3; i < 1024; i++)
		if (i != fds[0] && i != fds[1] && i != fds[2])
			close(i);
}

int main(int argc, char **argv)
{
	struct fuzz_opts o = { .calls = 200000, .secs = 120 };
	long n, bad = 0, ok = 0, hist[256] = { 0 };
	unsigned char *buf, *map, *guard;
	int fds[NFDS] = { -1, -1, -1 }, opt;
	struct timespec t0, t;

	if (fuzz_opts(argc, argv, 0, &o))
		return 2;
	fuzz_seed(o.seed);
	map = mmap(NULL, 3 * BUFSZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + 2 * BUFSZ, BUFSZ, PROT_NONE))
		return 1;
	buf = map + BUFSZ;
	guard = map + 2 * BUFSZ;
	printf("TAP version 13\n1..1\n# seed %llu\n", (unsigned long long)o.seed);
	/* relative paths a random call may give land on a tmpfs */
	if (chdir("/tmp"))
		return 1;
	reopen(fds);
	if (fds[0] < 0) {
		printf("not ok 1 - open %s: %s\n", MEAS_DEVICE, strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 0; n < o.calls; n++) {
		unsigned long cmd = cmds[fuzz_next() % (sizeof(cmds) / sizeof(cmds[0]))];
		void *arg = buf;
		int r, e;

		if (n % 1000 == 999) {
			reopen(fds);
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec >= o.secs)
				break;
		}
		if (fuzz_next() % 16 == 0)
			cmd = _IO(MEAS_IOC_TYPE, fuzz_next() % 0x80);
		fill(buf, map, guard);
		switch (fuzz_next() % 16) {
		case 0:
			arg = NULL;
			break;
		case 1:
			arg = guard - 8;	/* struct runs into the guard page */
			memcpy(arg, buf, 8);
			break;
		case 2:
			arg = (void *)0xffff888000000000ULL;
			break;
		}
		r = ioctl(fds[fuzz_next() % NFDS], cmd, arg);
		e = errno;
		if (r >= 0) {
			ok++;
			continue;
		}
		hist[e & 0xff]++;
		if (!fuzz_errno_in(documented, sizeof(documented) /
				   sizeof(documented[0]), e)) {
			if (bad++ < 20)
				printf("# call %ld: ioctl 0x%lx -> errno %d (%s), not documented\n",
				       n, cmd, e, strerror(e));
		}
	}
	task_stop_all(fds[0]);
	printf("# succeeded: %ld\n", ok);
	for (opt = 0; opt < 256; opt++)
		if (hist[opt])
			printf("# %-12s %ld\n", strerror(opt), hist[opt]);
	printf("%s 1 - %ld ioctl calls, every errno documented (%ld not)\n",
	       bad ? "not ok" : "ok", n, bad);
	return bad ? 1 : 0;
}
