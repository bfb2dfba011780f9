/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzzers of selftests/fuzz share: the random numbers a seed
 * reproduces, the options that bound a run, and the errno check.
 */
#ifndef MEAS_FUZZ_H
#define MEAS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_opts {
	long calls;	/* -n: calls (or messages) at most */
	long secs;	/* -t: seconds at most */
	uint64_t seed;	/* -s: the seed; the time by default */
	long extra;	/* the program's own option, if it has one */
};

/*
 * Parse -n, -t, -s and @extra_opt (0 for none) into @o, which holds the
 * defaults.  Returns 0, or -1 on an unknown option.
 */
int fuzz_opts(int argc, char **argv, char extra_opt, struct fuzz_opts *o);

/* xorshift64 from the seed: the same seed, the same run. */
void fuzz_seed(uint64_t seed);
uint64_t fuzz_next(void);

/* @e is in @set of @n errnos. */
int fuzz_errno_in(const int *set, size_t n, int e);

#endif
