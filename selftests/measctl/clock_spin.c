// SPDX-License-Identifier: GPL-2.0
/*
 * clock_spin MS [nested]: spend MS milliseconds of CPU time in one named
 * function, for the measctl profile tests (built with a symbol table and
 * frame pointers).  With "nested", through a known call chain: main ->
 * meas_outer -> meas_middle -> meas_spin_target, for the call stacks; the
 * functions are kept apart (noinline) and their calls are no tail calls
 * (each uses the result), so every caller keeps its frame.
 *
 * The spin makes no system call: the CPU time is counted by ITIMER_PROF,
 * whose SIGPROF ends the loop.  A loop that read the clock itself spent a
 * share of its samples in clock_gettime's system call, and in a debug
 * kernel (KASAN, lockdep) under TCG, that share was large enough to take
 * the function below the tests' bounds.  The call also hid the function
 * from the call stacks: its user frames were unwound from inside the C
 * library, which has no frame pointers.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t spin_done;

static void spin_end(int sig)
{
	(void)sig;
	spin_done = 1;
}

/* SIGPROF after ms of the process's CPU time (at least 1 us: 0 disarms). */
static int spin_timer(double ms)
{
	struct sigaction sa = { .sa_handler = spin_end };
	long long us = ms > 0.001 ? (long long)(ms * 1000) : 1;
	struct itimerval it = {
		.it_value = { .tv_sec = us / 1000000, .tv_usec = us % 1000000 },
	};
	sigset_t prof;

	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	/* a parent may have left it blocked: the loop would never end */
	if (sigaction(SIGPROF, &sa, NULL) ||
	    sigprocmask(SIG_UNBLOCK, &prof, NULL) ||
	    setitimer(ITIMER_PROF, &it, NULL)) {
		perror("clock_spin: SIGPROF timer");
		return -1;
	}
	return 0;
}

__attribute__((noinline)) unsigned long meas_spin_target(double ms)
{
	volatile unsigned long n = 0;

	if (spin_timer(ms))
		exit(2);
	while (!spin_done)
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
