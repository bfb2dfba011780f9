// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the in-VM selftests: see common.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "common.h"

int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int try_set_param(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	return write_file(path, value);
}

void set_param(const char *name, const char *value)
{
	int err = try_set_param(name, value);

	if (err) {
		fprintf(stderr, PARAM_DIR "%s: %s\n", name, strerror(-err));
		exit(1);
	}
}

struct meas_info info_of(int fd)
{
	struct meas_info info;

	if (meas_info(fd, &info))
		memset(&info, 0xff, sizeof(info));
	return info;
}

void drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capset, &h, d)) {
		perror("capset");
		exit(99);
	}
}

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t mono_ns(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}
