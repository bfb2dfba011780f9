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
#include "replay/view.h"
#include "metrics.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "sched/sched.h"
#include "custom/custom.h"

#define WATCH_INTERVAL_MIN	0.001
#define WATCH_INTERVAL_MAX	86400.0

struct watch_args {
	struct view_opts v;	/* -i, -n, --archive... */
	struct classes cls;
};

/* An interval: class 0's table, then the user-defined classes' (@data). */
static int watch_show(struct cmd_ctx *ctx, uint64_t n, const void *sa,
		      const void *sb, const struct timespec *at, void *data)
{
	const struct c0_snap *a = sa, *b = sb;
	const struct custom_watch *cw = data;
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
		return EXIT_OK;
	}
	json_doc_begin(&j, stdout, "watch");
	json_u64(&j, "interval", n);
	json_str(&j, "time", ts);
	json_double(&j, "elapsed_s", secs);
	c0_print_json(&j, "items", a, b, 1);
	custom_watch_json(&j, "custom", cw, secs);
	json_doc_end(&j);
	return EXIT_OK;
}

/* Class 0 subclass 0, and the user-defined classes' items (@data). */
static int watch_take(struct cmd_ctx *ctx, int fd, void *s, void *data)
{
	int err, result;

	err = c0_snapshot(fd, s, &result);
	if (err)
		return fail_call(ctx, "get", result, -err, "GETSTATISTICS of class 0");
	custom_watch_snap(fd, data);
	return EXIT_OK;
}

static uint64_t watch_taken(const void *s)
{
	return ((const struct c0_snap *)s)->t_ns;
}

/*
 * A replay: the differences between the frames of the archive, printed
 * as live.  Frames without meas's values (before its first sample, in
 * interpolation) wait for the first that has them.
 */
static int watch_frame(struct cmd_ctx *ctx, struct replay *r, const void *prev,
		       void *s, void *data)
{
	(void)ctx;
	(void)prev;
	(void)data;
	return replay_c0(r, s) ? EXIT_OK : VIEW_SKIP;
}

static const struct view_ops watch_ops = {
	.size = sizeof(struct c0_snap),
	.srcs = 1U << MX_SRC_FIXED,
	.what = "meas.sched",
	.take = watch_take,
	.taken = watch_taken,
	.frame = watch_frame,
	.show = watch_show,
};

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

		rc = view_live(ctx, fd, &set, &w->v, &watch_ops, cw);
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

	if (id == 'c')
		return classes_arg(ctx, arg, &w->cls);
	return view_opt(ctx, id, arg, &w->v);
}

static int cmd_watch(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "classes", 'c', OPT_ARG, 'c' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct watch_args w = {
		.v = { .interval = 1.0, .min = WATCH_INTERVAL_MIN,
		       .max = WATCH_INTERVAL_MAX },
	};
	struct opt_state st;
	int rc;

	rc = opt_parse_more(ctx, &st, argc, argv, opts, view_options,
			    watch_opt, &w);
	if (rc != OPT_END)
		return rc;
	rc = view_check(ctx, &st, &w.v);
	if (rc)
		return rc;
	if (w.v.arch.path && (w.cls.mask || w.cls.all))
		return usage_error(ctx, "--classes enables classes: not in a replay (--archive)");
	return w.v.arch.path ? view_replay(ctx, &w.v, &watch_ops, NULL) :
			       watch_do(ctx, &w);
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
