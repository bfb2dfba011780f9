// SPDX-License-Identifier: GPL-2.0
/*
 * spin: the speed of a CPU-bound loop, for the shared clock benchmark.
 *   spin [-c CPU] [-t SECONDS | -n ITERATIONS]
 * Pins itself to CPU (default 1), counts loop iterations for SECONDS
 * (default 2) of wall time and prints iterations per second.  With -n,
 * runs ITERATIONS (rounded up to a multiple of 100000) instead, a fixed
 * amount of work for the instruction-count benchmark, and prints the
 * seconds it took as well.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = 2, t0, t;
	volatile unsigned long x = 0;
	unsigned long n = 0, i, iters = 0;
	cpu_set_t set;
	int cpu = 1, opt;

	while ((opt = getopt(argc, argv, "c:t:n:")) != -1) {
		if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 't')
			secs = atof(optarg);
		else if (opt == 'n')
			iters = strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	t0 = now_s();
	do {
		for (i = 0; i < 100000; i++)
			x++;
		n += 100000;
		t = now_s();
	} while (iters ? n < iters : t - t0 < secs);
	if (iters)
		printf("%.0f %.6f\n", n / (t - t0), t - t0);
	else
		printf("%.0f\n", n / (t - t0));
	return 0;
}
