// SPDX-License-Identifier: GPL-2.0
/*
 * spin: the speed of a CPU-bound loop, for the shared clock benchmark.
 *   spin [-c CPU] [-t SECONDS]
 * Pins itself to CPU (default 1), counts loop iterations for SECONDS
 * (default 2) of wall time and prints iterations per second.
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
	unsigned long n = 0, i;
	cpu_set_t set;
	int cpu = 1, opt;

	while ((opt = getopt(argc, argv, "c:t:")) != -1) {
		if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 't')
			secs = atof(optarg);
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
	} while (t - t0 < secs);
	printf("%.0f\n", n / (t - t0));
	return 0;
}
