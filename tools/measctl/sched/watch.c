// SPDX-License-Identifier: GPL-2.0
/*
 * measctl watch: hold class 0 (and -c CLASSES) on our own open file and
 * print the class 0 subclass 0 rates every interval: one table per
 * interval under a timestamp line, or one JSON object per line.  Times
 * are shown as % of one CPU.  SIGINT, SIGTERM and SIGHUP end it cleanly
 * (interval.c): watch then STOPs its classes and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "replay/replay.h"
#include "metrics.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "sched/sched.h"
#include "custom/custom.h"

#define WATCH_INTERVAL_MIN	0.001
#define WATCH_INTERVAL_MAX	86400.0

struct watch_args {
	double interval;
	uint64_t count;		/* 0: until a signal */
	struct classes cls;
	struct arch_opts arch;	/* --archive: a replay */
};

static void watch_print(struct cmd_ctx *ctx, uint64_t n,
			const struct c0_snap *a, const struct c0_snap *b,
			const struct custom_watch *cw, const struct timespec *at)
{
	double secs = rate_interval_s(&a->when, &b->when);
	char ts[64];
	struct json j;

	meas_timestamp(ts, sizeof(ts), at);
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
		watch_print(ctx, t.n, &a, &b, cw, NULL);
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

/*
 * A replay: the differences between the frames of the archive, printed
 * as live.  Frames without meas's values (before its first sample, in
 * interpolation) wait for the first that has them.
 */
static int watch_replay(struct cmd_ctx *ctx, const struct watch_args *w)
{
	struct c0_snap a, b;
	struct replay r;
	uint64_t n = 0;
	bool have = false;
	int rc, got = 0;

	rc = replay_open(ctx, &w->arch, 1U << MX_SRC_FIXED, &r);
	if (rc)
		return rc;
	while ((!w->count || n < w->count) && (got = arch_next(ctx, r.a)) > 0) {
		if (!replay_c0(&r, &b))
			continue;
		if (have)
			watch_print(ctx, ++n, &a, &b, NULL, arch_time(r.a));
		a = b;
		have = true;
	}
	replay_close(&r);
	return replay_done(ctx, &(struct replay_end){ EXIT_OK, got, n,
						      w->arch.path, "meas.sched",
						      NULL });
}

static int watch_opt(struct cmd_ctx *ctx, int id, const char *arg,
		     void *data)
{
	struct watch_args *w = data;
	int rc;

	switch (id) {
	case 'i':
		/* in a replay: PCP's interpolation at this step */
		rc = interval_arg(ctx, arg, WATCH_INTERVAL_MIN,
				  WATCH_INTERVAL_MAX, &w->interval);
		w->arch.interval = w->interval;
		return rc;
	case 'n':
		return count_arg(ctx, arg, UINT32_MAX, &w->count);
	case 'c':
		return classes_arg(ctx, arg, &w->cls);
	default:
		return arch_opt(ctx, id, arg, &w->arch);
	}
}

static int cmd_watch(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "interval", 'i', OPT_ARG, 'i' },
		{ "count", 'n', OPT_ARG, 'n' },
		{ "classes", 'c', OPT_ARG, 'c' },
		{ "archive", 'a', OPT_ARG, 'a' },
		{ "start", 'S', OPT_ARG, 'S' },
		{ "finish", 'T', OPT_ARG, 'T' },
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
	rc = arch_check(ctx, &w.arch);
	if (rc)
		return rc;
	if (w.arch.path && (w.cls.mask || w.cls.all))
		return usage_error(ctx, "--classes enables classes: not in a replay (--archive)");
	return w.arch.path ? watch_replay(ctx, &w) : watch_do(ctx, &w);
}

const struct command watch_command = {
	.name = "watch",
	.fn = cmd_watch,
	.args = "[-i SECONDS] [-n COUNT] [-c CLASSES]\n"
		"    | --archive PATH [-S START] [-T FINISH] [-i SECONDS] [-n COUNT]",
	.help = "enable class 0 (and CLASSES) while running and print the class 0\n"
		"    subclass 0 rates every SECONDS (default 1) until COUNT\n"
		"    intervals or SIGINT/SIGTERM; times in % of one CPU;\n"
		"    --archive: the same from a PCP archive of pmdameas",
};
