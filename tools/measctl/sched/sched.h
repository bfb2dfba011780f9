/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: class 0 subclass 0, the scheduler counters (report.c): a
 * snapshot and the deltas and rates between two, as watch and run print
 * them.
 */
#ifndef MEASCTL_SCHED_H
#define MEASCTL_SCHED_H

#include <stdint.h>
#include <stdio.h>
#include "libmeas.h"
#include "cli/cli.h"
#include "cli/rate.h"

struct c0_snap {
	uint64_t v[MEAS_C0_FIXED_ITEMS];
	uint64_t t_ns;		/* CLOCK_MONOTONIC when taken */
	struct rate_when when;	/* the time base of its deltas */
};

int c0_snapshot(int fd, struct c0_snap *s, int *result);

/* How time items are shown: as % of elapsed × @cpus. */
void c0_print_text(FILE *f, const struct c0_snap *a, const struct c0_snap *b,
		   unsigned int cpus);
void c0_print_json(struct json *j, const char *key, const struct c0_snap *a,
		   const struct c0_snap *b, unsigned int cpus);

#endif /* MEASCTL_SCHED_H */
