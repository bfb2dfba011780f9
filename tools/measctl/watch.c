// SPDX-License-Identifier: GPL-2.0
/*
 * measctl watch: hold class 0 (and -c CLASSES) on our own open file and
 * print the class 0 subclass 0 rates every interval: one table per
 * interval under a timestamp line, or one JSON object per line.  Times
 * are shown as % of one CPU.  SIGINT, SIGTERM and SIGHUP end it cleanly
 * (interval.c): watch then STOPs its classes and exits 0.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "measctl.h"

#define WATCH_INTERVAL_MIN	0.001
#define WATCH_INTERVAL_MAX	86400.0

struct watch_args {
	double interval;
	uint64_t count;		/* 0: until a signal */
	struct classes cls;
};

static void watch_print(struct cmd_ctx *ctx, uint64_t n,
			const struct c0_snap *a, const struct c0_snap *b,
			const struct custom_watch *cw)
{
	double secs = rate_interval_s(&a->when, &b->when);
	char ts[64];
	struct json j;

	meas_timestamp(ts, sizeof(ts));
	if (!ctx->json) {
		printf("--- %s  interval %llu  %.3f s ---\n", ts,
		       (unsigned long long)n, secs);
		c0_print_text(stdout, a, b, 1);
		custom_watch_text(stdout, cw, secs);
		fflush(stdout);
		return;
	}
	json_doc_begin(&j, stdout, "watch");
	json_u64(&j, "interval", n);
	json_str(&j, "time", ts);
	json_double(&j, "elapsed_s", secs);
	c0_print_json(&j, "items", a, b, 1);
	custom_watch_json(&j, "custom", cw, secs);
	json_doc_end(&j);
}

static int watch_loop(struct cmd_ctx *ctx, int fd, const struct watch_args *w,
		      const sigset_t *set, struct custom_watch *cw)
{
	struct c0_snap a, b;
	int err, result;
	struct tick t;

	err = c0_snapshot(fd, &a, &result);
	if (err)
		return fail_call(ctx, "get", result, -err, "GETSTATISTICS of class 0");
	custom_watch_snap(fd, cw);
	tick_init(&t, set, w->interval, w->count, a.t_ns);
	while (tick_wait(&t)) {
		err = c0_snapshot(fd, &b, &result);
		if (err)
			return fail_call(ctx, "get", result, -err,
					 "GETSTATISTICS of class 0");
		custom_watch_snap(fd, cw);
		watch_print(ctx, t.n, &a, &b, cw);
		a = b;
		tick_taken(&t, a.t_ns);
	}
	return EXIT_OK;
}

static int watch_do(struct cmd_ctx *ctx, const struct watch_args *w)
{
	struct meas_info info;
	uint32_t mask = w->cls.mask;
	int fd, err, result, rc;
	sigset_t set;
	char cl[64];

	fd = interval_open(ctx, &set);
	if (fd < 0)
		return EXIT_FAIL;
	if (w->cls.all && !meas_info(fd, &info))
		mask = info.defined_mask;
	mask |= 1U << MEAS_CLASS_GLOBAL;
	err = meas_start(fd, mask, &result);
	if (err) {
		format_classes(mask, cl, sizeof(cl));
		rc = fail_call(ctx, "start", result, -err,
			       "STARTSTATISTICS of classes %s (0x%04x)", cl, mask);
	} else {
		/* user-defined classes in the mask: their items, named */
		struct custom_watch *cw = custom_watch_new(fd, mask);

		rc = watch_loop(ctx, fd, w, &set, cw);
		custom_watch_free(cw);
		meas_stop(fd, mask, NULL);
	}
	close(fd);
	return rc;
}

static int watch_opt(struct cmd_ctx *ctx, int id, const char *arg,
		     void *data)
{
	struct watch_args *w = data;

	switch (id) {
	case 'i':
		return interval_arg(ctx, arg, WATCH_INTERVAL_MIN,
				    WATCH_INTERVAL_MAX, &w->interval);
	case 'n':
		return count_arg(ctx, arg, UINT32_MAX, &w->count);
	default:
		return classes_arg(ctx, arg, &w->cls);
	}
}

int cmd_watch(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "interval", 'i', OPT_ARG, 'i' },
		{ "count", 'n', OPT_ARG, 'n' },
		{ "classes", 'c', OPT_ARG, 'c' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct watch_args w = { .interval = 1.0 };
	struct opt_state st;
	int rc;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, watch_opt, &w);
	if (rc != OPT_END)
		return rc;
	if (st.npos)
		return usage_error(ctx, "unexpected argument '%s' (%s takes options only)",
				   st.pos[0], ctx->name);
	return watch_do(ctx, &w);
}
