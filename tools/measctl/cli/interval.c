// SPDX-License-Identifier: GPL-2.0
/*
 * measctl interval.c: what the periodic views (watch, iostat, top and
 * iotrace) share.  SIGINT, SIGTERM and SIGHUP are blocked and waited for
 * with sigtimedwait(), so a stop request is never lost between two
 * intervals; the views then stop what they hold and exit 0.  The ticks
 * are kept on a fixed grid from the first snapshot; a view that fell
 * behind (suspended, slow terminal) starts afresh from its last one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"
#include "cli/interval.h"

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Block the signals that end the periodic views, to wait for them. */
void meas_block_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/* Wait until @deadline (CLOCK_MONOTONIC ns); false if a signal came. */
bool meas_wait_until(const sigset_t *set, uint64_t deadline)
{
	struct timespec ts;
	uint64_t now;

	for (;;) {
		now = mono_ns();
		if (now >= deadline)
			return true;
		ts.tv_sec = (deadline - now) / 1000000000ULL;
		ts.tv_nsec = (deadline - now) % 1000000000ULL;
		if (sigtimedwait(set, NULL, &ts) > 0)
			return false;
		if (errno != EAGAIN && errno != EINTR)
			return false;
	}
}

/*
 * Local time with milliseconds and the zone, as watch prints it: of @at
 * (a replay's recorded time), or now when @at is NULL.
 */
void meas_timestamp(char *buf, size_t len, const struct timespec *at)
{
	struct timespec ts;
	char date[32], zone[8];
	struct tm tm;

	if (at)
		ts = *at;
	else
		clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s.%03ld%s", date, ts.tv_nsec / 1000000L, zone);
}

/* --interval: seconds in @min..@max. */
int interval_arg(struct cmd_ctx *ctx, const char *arg, double min,
		 double max, double *out)
{
	if (parse_seconds(arg, min, max, out))
		return usage_error(ctx, "bad interval '%s' (%g..%g s)", arg,
				   min, max);
	return EXIT_OK;
}

/* --count: 1..@max. */
int count_arg(struct cmd_ctx *ctx, const char *arg, uint64_t max,
	      uint64_t *out)
{
	if (parse_u64(arg, max, out) || !*out)
		return usage_error(ctx, "bad count '%s' (1 or more)", arg);
	return EXIT_OK;
}

void tick_init(struct tick *t, const sigset_t *set, double interval,
	       uint64_t count, uint64_t t0_ns)
{
	t->set = set;
	t->step = (uint64_t)(interval * 1e9);
	t->deadline = t0_ns;
	t->count = count;
	t->n = 0;
}

bool tick_wait(struct tick *t)
{
	t->n++;
	if (t->count && t->n > t->count)
		return false;
	t->deadline += t->step;
	return meas_wait_until(t->set, t->deadline);
}

void tick_taken(struct tick *t, uint64_t t_ns)
{
	/* Fell behind (suspended, slow terminal): start afresh. */
	if (t_ns > t->deadline + t->step)
		t->deadline = t_ns;
}

/* Block the stop signals into @set and open the device; -1 if it fails. */
int interval_open(const struct cmd_ctx *ctx, sigset_t *set)
{
	meas_block_stop_signals(set);
	return open_dev(ctx);
}

/* Hold @class on our own open file while @fn runs. */
int interval_hold(struct cmd_ctx *ctx, int class, interval_fn fn,
		  const void *args)
{
	int fd, err, result, rc;
	sigset_t set;

	fd = interval_open(ctx, &set);
	if (fd < 0)
		return EXIT_FAIL;
	err = meas_start(fd, 1U << class, &result);
	if (err) {
		rc = fail_call(ctx, "start", result, -err,
			       "STARTSTATISTICS of class %d", class);
	} else {
		rc = fn(ctx, fd, &set, args);
		meas_stop(fd, 1U << class, NULL);
	}
	close(fd);
	return rc;
}
