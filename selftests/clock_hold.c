// SPDX-License-Identifier: GPL-2.0
/*
 * clock_hold: take the shared clock and keep it ticking until killed,
 * for the unload test (clock_unload.sh) and the benchmark.
 *   clock_hold [-i MS] [-c pc|snap|stack] [-r RECORDS]
 * Prints "ticking MS" once the clock runs, then waits for a signal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libmeas.h"

int main(int argc, char **argv)
{
	struct meas_getclock g = { .intrate = 10,
				   .collector = MEAS_COLLECTOR_PC };
	int fd, err, opt;

	while ((opt = getopt(argc, argv, "i:c:r:")) != -1) {
		switch (opt) {
		case 'i':
			g.intrate = atoi(optarg);
			break;
		case 'c':
			g.collector = !strcmp(optarg, "snap") ?
				      MEAS_COLLECTOR_SNAP :
				      !strcmp(optarg, "stack") ?
				      MEAS_COLLECTOR_STACK : MEAS_COLLECTOR_PC;
			break;
		case 'r':
			g.records = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: clock_hold [-i MS] [-c pc|snap|stack] [-r RECORDS]\n");
			return 2;
		}
	}
	fd = meas_open();
	if (fd < 0) {
		fprintf(stderr, "clock_hold: open: %s\n", strerror(-fd));
		return 1;
	}
	err = meas_getclock(fd, &g);
	if (err) {
		fprintf(stderr, "clock_hold: GETCLOCK: result %d: %s\n",
			g.result, strerror(-err));
		return 1;
	}
	printf("ticking %d\n", g.intrate);
	fflush(stdout);
	for (;;)
		pause();
}
