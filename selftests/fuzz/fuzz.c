// SPDX-License-Identifier: GPL-2.0
/* What the fuzzers share: see fuzz.h. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

static uint64_t rng = 1;

int fuzz_opts(int argc, char **argv, char extra_opt, struct fuzz_opts *o)
{
	char spec[] = "n:t:s:x:";
	int opt;

	o->seed = (uint64_t)time(NULL);
	spec[6] = extra_opt ? extra_opt : 'n';
	while ((opt = getopt(argc, argv, spec)) != -1) {
		if (opt == 'n')
			o->calls = strtol(optarg, NULL, 0);
		else if (opt == 't')
			o->secs = strtol(optarg, NULL, 0);
		else if (opt == 's')
			o->seed = strtoull(optarg, NULL, 0);
		else if (extra_opt && opt == extra_opt)
			o->extra = strtol(optarg, NULL, 0);
		else
			return -1;
	}
	return 0;
}

void fuzz_seed(uint64_t seed)
{
	rng = seed ? seed : 1;
}

uint64_t fuzz_next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int fuzz_errno_in(const int *set, size_t n, int e)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == e)
			return 1;
	return 0;
}
