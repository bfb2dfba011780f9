// SPDX-License-Identifier: GPL-2.0
/* A shared object task_test dlopen()s while it is measured in detail. */
unsigned long meas_dso_work(unsigned long n);

unsigned long meas_dso_work(unsigned long n)
{
	unsigned long i, x = n;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}
