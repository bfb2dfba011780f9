// SPDX-License-Identifier: GPL-2.0
/*
 * clock_spin MS [nested]: spend MS milliseconds of CPU time in one named
 * function, for the measctl profile tests (built with a symbol table and
 * frame pointers).  With "nested", through a known call chain: main ->
 * meas_outer -> meas_middle -> meas_spin_target, for the call stacks; the
 * functions are kept apart (noinline) and their calls are no tail calls
 * (each uses the result), so every caller keeps its frame.
 */
#include <stdlib.h>
#include <string.h>
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

__attribute__((noinline)) unsigned long meas_middle(double ms)
{
	volatile unsigned long r = meas_spin_target(ms);

	return r + 1;
}

__attribute__((noinline)) unsigned long meas_outer(double ms)
{
	volatile unsigned long r = meas_middle(ms);

	return r + 1;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000;

	if (argc > 2 && !strcmp(argv[2], "nested"))
		return meas_outer(ms) == 0;
	meas_spin_target(ms);
	return 0;
}
