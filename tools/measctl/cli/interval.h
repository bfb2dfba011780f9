/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl interval.c: the clock of the periodic views (watch, iostat,
 * top, iotrace): the signals that end them, their ticks, --interval and
 * --count, and the class they hold while they run.
 */
#ifndef MEASCTL_CLI_INTERVAL_H
#define MEASCTL_CLI_INTERVAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "cli/cli.h"

/* CLOCK_MONOTONIC in ns. */
uint64_t mono_ns(void);

/* Block SIGINT, SIGTERM, SIGHUP into @set, to wait for them. */
void meas_block_stop_signals(sigset_t *set);
/* Wait until @deadline (CLOCK_MONOTONIC ns); false if a signal came. */
bool meas_wait_until(const sigset_t *set, uint64_t deadline);
/* Local time with milliseconds and zone, as watch prints it: @at or now. */
void meas_timestamp(char *buf, size_t len, const struct timespec *at);

/* --interval and --count arguments, with their usage errors. */
int interval_arg(struct cmd_ctx *ctx, const char *arg, double min,
		 double max, double *out);
int count_arg(struct cmd_ctx *ctx, const char *arg, uint64_t max,
	      uint64_t *out);

/*
 * The ticks of a periodic view, every @interval from the first snapshot
 * (taken at @t0_ns), @count of them (0: until a signal):
 *
 *	tick_init(&t, set, interval, count, a.t_ns);
 *	while (tick_wait(&t)) {
 *		take b; print interval t.n from a to b; a = b;
 *		tick_taken(&t, a.t_ns);
 *	}
 */
struct tick {
	const sigset_t *set;	/* the stop signals */
	uint64_t step;		/* ns */
	uint64_t deadline;	/* of the current tick, CLOCK_MONOTONIC ns */
	uint64_t count;		/* 0: until a signal */
	uint64_t n;		/* the current interval, from 1 */
};

void tick_init(struct tick *t, const sigset_t *set, double interval,
	       uint64_t count, uint64_t t0_ns);
/* Wait for the next tick; false after @count ticks or on a signal. */
bool tick_wait(struct tick *t);
/* The snapshot of this tick was taken at @t_ns. */
void tick_taken(struct tick *t, uint64_t t_ns);

/* Block the stop signals into @set and open the device; -1 if it fails. */
int interval_open(const struct cmd_ctx *ctx, sigset_t *set);

typedef int (*interval_fn)(struct cmd_ctx *ctx, int fd, const sigset_t *set,
			   const void *args);
/*
 * With the stop signals blocked, hold @class on an open file of our own
 * while @fn runs, then stop it; @fn's exit status.
 */
int interval_hold(struct cmd_ctx *ctx, int class, interval_fn fn,
		  const void *args);

#endif /* MEASCTL_CLI_INTERVAL_H */
