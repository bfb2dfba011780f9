// SPDX-License-Identifier: GPL-2.0
/*
 * Class 0 subclass 0 snapshots and their deltas, for run and watch.
 * Only the items mapped on Linux (those with a name) are shown.  Counts
 * get a rate per second; time items (ns) are shown in ms and as a share
 * of the elapsed time × @cpus.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <time.h>
#include "cli/cli.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "sched/sched.h"

/* Returns 0 or a negative errno; *result is the GETSTATISTICS code. */
int c0_snapshot(int fd, struct c0_snap *s, int *result)
{
	int err = meas_get(fd, MEAS_CLASS_GLOBAL, MEAS_C0_SUB_FIXED, 0,
			   MEAS_C0_FIXED_ITEMS, s->v, sizeof(s->v), result);

	s->t_ns = mono_ns();
	s->when.start = err ? 0 : s->v[MEAS_C0_CLOCK_START];
	s->when.end = err ? 0 : s->v[MEAS_C0_CLOCK_END];
	s->when.mono = s->t_ns;
	return err;
}

struct c0_delta {
	const char *name;
	uint64_t delta;
	double per_sec;
	bool time;
	double ms;		/* time items */
	double pct;		/* time items: % of elapsed × cpus */
};

static void c0_delta(const struct c0_snap *a, const struct c0_snap *b,
		     unsigned int item, unsigned int cpus, struct c0_delta *d)
{
	double secs = rate_interval_s(&a->when, &b->when);

	d->name = meas_c0_item_name(item);
	d->delta = b->v[item] - a->v[item];
	d->per_sec = rate_per_s(d->delta, secs);
	d->time = meas_c0_item_is_time(item);
	d->ms = (double)d->delta / 1e6;
	d->pct = rate_pct(d->delta, secs, cpus);
}

void c0_print_text(FILE *f, const struct c0_snap *a, const struct c0_snap *b,
		   unsigned int cpus)
{
	struct c0_delta d;
	char val[32], rate[32];
	unsigned int i;

	fprintf(f, "%4s  %-22s %18s %14s\n", "item", "name", "delta",
		cpus == 1 ? "/s or %cpu" : "/s or %");
	for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++) {
		if (!meas_c0_item_name(i))
			continue;
		c0_delta(a, b, i, cpus, &d);
		if (d.time) {
			snprintf(val, sizeof(val), "%.3f ms", d.ms);
			snprintf(rate, sizeof(rate), "%.1f%%", d.pct);
		} else {
			snprintf(val, sizeof(val), "%" PRIu64, d.delta);
			snprintf(rate, sizeof(rate), "%.1f", d.per_sec);
		}
		fprintf(f, "%4u  %-22s %18s %14s\n", i, d.name, val, rate);
	}
}

void c0_print_json(struct json *j, const char *key, const struct c0_snap *a,
		   const struct c0_snap *b, unsigned int cpus)
{
	struct c0_delta d;
	unsigned int i;

	json_arr_begin(j, key);
	for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++) {
		if (!meas_c0_item_name(i))
			continue;
		c0_delta(a, b, i, cpus, &d);
		json_obj_begin(j, NULL);
		json_u64(j, "item", i);
		json_str(j, "name", d.name);
		json_u64(j, "delta", d.delta);
		json_double(j, "per_sec", d.per_sec);
		if (d.time) {
			json_double(j, "ms", d.ms);
			json_double(j, "pct", d.pct);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}
