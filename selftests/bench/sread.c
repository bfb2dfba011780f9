// SPDX-License-Identifier: GPL-2.0
/*
 * The lean block workload: synchronous 4 KiB O_DIRECT reads of a block
 * device, one at a time, at pseudo-random aligned offsets (the same
 * sequence every run).  Nothing else runs between two requests but the
 * system call, so what a probe adds to a request shows in full.
 *   sread [-f DEVICE] -n REQUESTS
 * DEVICE defaults to /dev/nullb0.  Prints: requests per second.
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
#include <linux/fs.h>

#define BLOCK 4096

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64: a fixed sequence of offsets, no library state */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/nullb0";
	uint64_t size, blocks, seed = 0x9e3779b97f4a7c15ull;
	long n = 0, i;
	void *buf;
	double t0;
	int fd, opt;

	while ((opt = getopt(argc, argv, "f:n:")) != -1) {
		if (opt == 'f')
			dev = optarg;
		else if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (n <= 0) {
		fprintf(stderr, "usage: sread [-f DEVICE] -n REQUESTS\n");
		return 2;
	}
	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size)) {
		fprintf(stderr, "sread: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	blocks = size / BLOCK;
	if (!blocks || posix_memalign(&buf, BLOCK, BLOCK)) {
		fprintf(stderr, "sread: %s: no block to read\n", dev);
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < n; i++) {
		off_t off = (off_t)(next(&seed) % blocks) * BLOCK;

		if (pread(fd, buf, BLOCK, off) != BLOCK) {
			fprintf(stderr, "sread: read at %lld: %s\n",
				(long long)off, strerror(errno));
			return 1;
		}
	}
	printf("%.0f\n", n / (now_s() - t0));
	return 0;
}
