// SPDX-License-Identifier: GPL-2.0
/*
 * measctl iostat: per-disk rates, as iostat -x prints them, and the
 * queue-length histogram, from class 0 subclasses 1 (the MPE disk
 * profile) and 4 (bytes and times).  iostat holds class 0 on its own
 * open file while it runs, reads both subclasses every interval and
 * prints the differences: one table per interval under a timestamp
 * line, or one JSON object per line.  Entry 0, the disks beyond
 * max_disks, is the row "(others)".  SIGINT, SIGTERM and SIGHUP end it
 * cleanly, as they end watch.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "replay/view.h"
#include "metrics.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "disk/disk.h"
#include "cgroup/cgroup.h"

#define IOSTAT_INTERVAL_MIN	0.001
#define IOSTAT_INTERVAL_MAX	86400.0

struct iostat_args {
	struct view_opts v;	/* -i, -n, --archive... */
	bool idle;		/* show disks without activity (not -z) */
	char cgroup[CG_PATH_ARG_LEN];	/* -c PATH, "" for class 0's table */
};

static void io_print_text(const struct io_rate *r)
{
	io_rate_text(r);
	printf(" %8.1f %8.1f", r->ctl_s, r->busy_s);
	printf("  %llu/%llu/%llu/%llu/%llu/%llu/%llu\n",
	       (unsigned long long)r->qlen[0], (unsigned long long)r->qlen[1],
	       (unsigned long long)r->qlen[2], (unsigned long long)r->qlen[3],
	       (unsigned long long)r->qlen[4], (unsigned long long)r->qlen[5],
	       (unsigned long long)r->qlen[6]);
}

static void io_print_json(struct json *j, const struct io_rate *r, size_t e)
{
	char dev[32];
	unsigned int i;

	snprintf(dev, sizeof(dev), "%u:%u", MEAS_DEV_MAJOR(r->dev),
		 MEAS_DEV_MINOR(r->dev));
	json_obj_begin(j, NULL);
	json_str(j, "device", r->name);
	/* a replay knows disks by name only */
	if (e && r->dev)
		json_str(j, "dev", dev);
	json_u64(j, "entry", e);
	io_rate_json_rates(j, r);
	json_double(j, "ctl_s", r->ctl_s);
	json_double(j, "busy_s", r->busy_s);
	io_rate_json_counts(j, r);
	json_u64(j, "control", r->control);
	json_u64(j, "busy", r->busy);
	json_u64(j, "in_flight", r->inflight);
	json_arr_begin(j, "qlen");
	for (i = 0; i < MEAS_C0_DISC_QLEN_BUCKETS; i++)
		json_u64(j, NULL, r->qlen[i]);
	json_arr_end(j);
	json_obj_end(j);
}

/* An interval: a row per disk that did something (or every one). */
static int io_show(struct cmd_ctx *ctx, uint64_t n, const void *sa,
		   const void *sb, const struct timespec *at, void *data)
{
	const struct io_snap *a = sa, *b = sb;
	const struct iostat_args *w = data;
	double secs = rate_interval_s(&a->when, &b->when);
	struct io_rate r;
	struct json j;
	char ts[64];
	size_t e;

	meas_timestamp(ts, sizeof(ts), at);
	if (ctx->json) {
		json_doc_begin(&j, stdout, "iostat");
		json_u64(&j, "interval", n);
		json_str(&j, "time", ts);
		json_double(&j, "elapsed_s", secs);
		json_arr_begin(&j, "disks");
	} else {
		printf("--- %s  interval %llu  %.3f s ---\n", ts,
		       (unsigned long long)n, secs);
		printf("%-12s %9s %9s %10s %10s %8s %8s %7s %8s %8s  %s\n",
		       "device", "r/s", "w/s", "rkB/s", "wkB/s", "r_await",
		       "w_await", "aqu-sz", "ctl/s", "busy/s",
		       "qlen 0/1/2/3/4/5/6+");
	}
	for (e = 0; e < b->n; e++) {
		io_rate(e < a->n ? &a->d[e] : NULL, &b->d[e], e, secs, &r);
		if (!io_active(&r) && (!e || !w->idle))
			continue;
		if (ctx->json)
			io_print_json(&j, &r, e);
		else
			io_print_text(&r);
	}
	if (ctx->json) {
		json_arr_end(&j);
		json_doc_end(&j);
	}
	fflush(stdout);
	return EXIT_OK;
}

static int io_take(struct cmd_ctx *ctx, int fd, void *s, void *data)
{
	int err, result;

	(void)data;
	err = io_snapshot(fd, s, &result);
	if (err)
		return fail_call(ctx, "get", result, -err,
				 "GETSTATISTICS of class 0 subclasses 1 and 4");
	return EXIT_OK;
}

static uint64_t io_taken(const void *s)
{
	return ((const struct io_snap *)s)->t_ns;
}

/* A replay: the disks of the archive's frames, none before meas's first. */
static int io_frame(struct cmd_ctx *ctx, struct replay *r, const void *prev,
		    void *s, void *data)
{
	struct io_snap *b = s;

	(void)data;
	if (replay_io(r, prev, b))
		return fail(ctx, ENOMEM, "no memory for %zu disks", r->ndisks);
	return b->n ? EXIT_OK : VIEW_SKIP;
}

static void io_release(void *s)
{
	io_snap_free(s);
}

static const struct view_ops iostat_ops = {
	.size = sizeof(struct io_snap),
	.srcs = 1U << MX_SRC_DISC | 1U << MX_SRC_XFER | 1U << MX_SRC_QLEN,
	.what = "meas.disk",
	.take = io_take,
	.taken = io_taken,
	.frame = io_frame,
	.show = io_show,
	.release = io_release,
};

/* Live: class 0 held on our own open file while the view runs. */
static int io_live(struct cmd_ctx *ctx, int fd, const sigset_t *set,
		   const void *args)
{
	const struct iostat_args *w = args;

	return view_live(ctx, fd, set, &w->v, &iostat_ops, (void *)w);
}

static int iostat_opt(struct cmd_ctx *ctx, int id, const char *arg,
		      void *data)
{
	struct iostat_args *w = data;

	if (id == 'z') {
		w->idle = false;
		return EXIT_OK;
	}
	if (id == 'c')
		return cg_path_arg(ctx, arg, w->cgroup, sizeof(w->cgroup));
	return view_opt(ctx, id, arg, &w->v);
}

static int cmd_iostat(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "active", 'z', OPT_NONE, 'z' },
		{ "cgroup", 'c', OPT_ARG, 'c' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct iostat_args w = {
		.v = { .interval = 1.0, .min = IOSTAT_INTERVAL_MIN,
		       .max = IOSTAT_INTERVAL_MAX },
		.idle = true,
	};
	struct opt_state st;
	int rc;

	rc = opt_parse_more(ctx, &st, argc, argv, opts, view_options,
			    iostat_opt, &w);
	if (rc != OPT_END)
		return rc;
	rc = view_check(ctx, &st, &w.v);
	if (rc)
		return rc;
	if (w.cgroup[0] && w.v.arch.path)
		return usage_error(ctx, "--cgroup needs class 14's records, which an archive does not hold");
	if (w.cgroup[0]) {
		struct iocg_opts o = {
			.v = &w.v, .idle = w.idle, .cgroup = w.cgroup,
		};

		return interval_hold(ctx, MEAS_CLASS_IO, iocg_live, &o);
	}
	if (w.v.arch.path)
		return view_replay(ctx, &w.v, &iostat_ops, &w);
	return interval_hold(ctx, MEAS_CLASS_GLOBAL, io_live, &w);
}

const struct command iostat_command = {
	.name = "iostat",
	.fn = cmd_iostat,
	.args = "[-i SECONDS] [-n COUNT] [-z] [-c PATH]\n"
		"    [--archive PATH [-S START] [-T FINISH]]",
	.help = "enable class 0 while running and print per-disk rates as\n"
		"    iostat -x does, with the queue-length histogram, every\n"
		"    SECONDS (default 1) until COUNT intervals or SIGINT/SIGTERM;\n"
		"    -z leaves out the disks that did nothing; --archive: the\n"
		"    same from a PCP archive of pmdameas; -c: enable class 14\n"
		"    instead and print the rates of the I/O charged to the\n"
		"    cgroup PATH or below (no ctl/s, busy/s or histogram; lost\n"
		"    records reported)",
};
