// SPDX-License-Identifier: GPL-2.0
/*
 * clock_spin MS: spend MS milliseconds of CPU time in one named function,
 * for the measctl profile tests (built with a symbol table).
 */
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) unsigned long meas_spin_target(double ms)
{
	volatile unsigned long n = 0;
	double end = cpu_ms() + ms;
	unsigned int i;

	while (cpu_ms() < end)
		for (i = 0; i < 100000; i++)
			n++;
	return n;
}

int main(int argc, char **argv)
{
	meas_spin_target(argc > 1 ? atof(argv[1]) : 1000);
	return 0;
}
