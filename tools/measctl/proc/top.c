// SPDX-License-Identifier: GPL-2.0
/*
 * measctl top: a live view of class 15.  Every interval it reads every
 * entry (GETPROCSTATS allpins) and shows what each process did since the
 * last: CPU and run-queue wait as % of one CPU, switches, stops by
 * reason, the time paused by reason as % of the interval, disc bytes,
 * and why it stopped last.  A process is followed by its entry and
 * generation, so a reused PID starts from zero.  Holds class 15 enabled
 * on its own open file while it runs (or uses it if someone else does);
 * SIGINT, SIGTERM and SIGHUP end it cleanly, as for watch.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "replay/view.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "proc/proc.h"

#define TOP_INTERVAL_MIN	0.05
#define TOP_INTERVAL_MAX	86400.0

struct top_args {
	struct view_opts v;	/* -i, -n, --archive... */
	struct proc_opts p;	/* -s KEY; -x: the exited too */
	uint64_t lines;		/* rows shown, 0: all */
	struct proc_row *rows;	/* the rows of an interval, kept */
	struct proc_src src;	/* where a live view reads */
};

/* Whether a counter of the entry changed from @p to @e. */
static bool top_changed(const uint64_t *p, const uint64_t *e)
{
	unsigned int k;

	for (k = 0; k < MEAS_PROC_ITEMS; k++)
		if (meas_proc_item_is_counter(k) && p[k] != e[k])
			return true;
	return false;
}

/* The rows of an interval: what changed from @a to @b. */
static size_t top_rows(const struct proc_snap *a, const struct proc_snap *b,
		       const struct top_args *t, struct proc_row *rows)
{
	const uint64_t *e, *p;
	size_t i, n = 0;
	unsigned int k;

	for (i = 1; i < b->nent; i++) {
		e = proc_snap_ent(b, i);
		p = proc_snap_find(a, i, e[MEAS_P_GENERATION]);
		if (e[MEAS_P_STATE] == MEAS_PSTATE_EMPTY ||
		    !proc_in_cgroup(&t->p, e))
			continue;
		/*
		 * Exited before the interval: nothing happened.  (A replay's
		 * interpolation can see the exit before the last of its
		 * counts: those still show.)
		 */
		if (e[MEAS_P_STATE] == MEAS_PSTATE_EXITED &&
		    (!t->p.exited || (p && p[MEAS_P_STATE] ==
				    MEAS_PSTATE_EXITED && !top_changed(p, e))))
			continue;
		rows[n].e = e;
		rows[n].slot = i;
		for (k = 0; k < MEAS_PROC_ITEMS; k++)
			rows[n].v[k] = meas_proc_item_is_counter(k) && p ? e[k] - p[k] : e[k];
		n++;
	}
	return n;
}

/* Of one CPU or of one thread's time: bound 100% x the threads. */
static double pct(uint64_t ns, double secs)
{
	return rate_pct(ns, secs, 1);
}

static void top_text(const struct proc_snap *b, const struct proc_row *rows,
		     size_t n, uint64_t interval, double secs,
		     const struct top_args *t)
{
	const uint64_t *h = proc_snap_ent(b, 0);
	char user[16], rb[16], wb[16], comm[MEAS_PROC_COMM_LEN + 1];
	char cg[PROC_CGROUP_COL + 1];
	const uint64_t *v;
	size_t i;

	/* live on a terminal: in place; a replay scrolls, as a log does */
	if (!t->v.arch.path && isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("measctl top  interval %llu  %.3f s  live %llu  exited %llu  overflow %llu  threads %llu\n",
	       (unsigned long long)interval, secs,
	       (unsigned long long)h[MEAS_P0_LIVE],
	       (unsigned long long)h[MEAS_P0_EXITED],
	       (unsigned long long)h[MEAS_P0_OVERFLOW],
	       (unsigned long long)h[MEAS_P0_THREADS_LIVE]);
	printf("%7s %-8s %6s %6s %7s %7s %6s %6s %6s %6s %6s %-10s %8s %8s %-*s %s\n",
	       "PID", "USER", "%CPU", "%WAIT", "SW/s", "STOP/s", "%DISC",
	       "%IO", "%TERM", "%IMP", "TMO", "LAST-STOP", "READ/s",
	       "WRITE/s", PROC_CGROUP_COL, "CGROUP", "COMMAND");
	for (i = 0; i < n && (!t->lines || i < t->lines); i++) {
		v = rows[i].v;
		proc_comm(v, comm);
		printf("%7llu %-8s %6.1f %6.1f %7.0f %7.0f %6.1f %6.1f %6.1f %6.1f %6llu %-10s %8s %8s %-*s %s%s\n",
		       (unsigned long long)v[MEAS_P_PID],
		       proc_user(v[MEAS_P_UID], user, sizeof(user)),
		       pct(v[MEAS_P_CPU_TIME], secs),
		       pct(v[MEAS_P_PAUSE_ACTIVE], secs),
		       rate_per_s(v[MEAS_P_LAUNCHES], secs),
		       rate_per_s(proc_stops(v), secs),
		       pct(v[MEAS_P_PAUSE_DISC], secs),
		       pct(v[MEAS_P_PAUSE_IO], secs),
		       pct(v[MEAS_P_PAUSE_TERMINAL], secs),
		       pct(v[MEAS_P_PAUSE_IMPEDED], secs),
		       (unsigned long long)v[MEAS_P_STOP_TIMED_OUT],
		       meas_proc_stop_name(v[MEAS_P_LAST_STOP]),
		       proc_bytes(rate_per_s(v[MEAS_P_DISC_READ_BYTES], secs),
				  rb, sizeof(rb)),
		       proc_bytes(rate_per_s(v[MEAS_P_DISC_BYTES] -
					     v[MEAS_P_DISC_READ_BYTES], secs),
				  wb, sizeof(wb)),
		       PROC_CGROUP_COL, t->v.arch.path ? "-" :
		       proc_cgroup_name(v, cg, sizeof(cg)),
		       comm,
		       v[MEAS_P_STATE] == MEAS_PSTATE_EXITED ? " (exited)" : "");
	}
	fflush(stdout);
}

static void top_json(const struct proc_snap *b, const struct proc_row *rows,
		     size_t n, uint64_t interval, double secs,
		     const struct top_args *t, const struct timespec *at)
{
	const uint64_t *h = proc_snap_ent(b, 0);
	char comm[MEAS_PROC_COMM_LEN + 1], ts[64];
	const uint64_t *v;
	struct json j;
	size_t i;

	meas_timestamp(ts, sizeof(ts), at);
	json_doc_begin(&j, stdout, "top");
	json_u64(&j, "interval", interval);
	json_str(&j, "time", ts);
	json_double(&j, "elapsed_s", secs);
	json_u64(&j, "live", h[MEAS_P0_LIVE]);
	json_u64(&j, "exited", h[MEAS_P0_EXITED]);
	json_u64(&j, "overflow", h[MEAS_P0_OVERFLOW]);
	json_arr_begin(&j, "processes");
	for (i = 0; i < n && (!t->lines || i < t->lines); i++) {
		v = rows[i].v;
		json_obj_begin(&j, NULL);
		json_u64(&j, "pid", v[MEAS_P_PID]);
		json_u64(&j, "uid", v[MEAS_P_UID]);
		proc_comm(v, comm);
		json_str(&j, "command", comm);
		if (t->v.arch.path)	/* no paths in an archive */
			json_null(&j, "cgroup");
		else
			proc_json_cgroup(&j, v);
		json_str(&j, "state", proc_state_name(v[MEAS_P_STATE]));
		json_u64(&j, "threads", v[MEAS_P_THREADS]);
		json_double(&j, "cpu_pct", pct(v[MEAS_P_CPU_TIME], secs));
		json_double(&j, "wait_pct", pct(v[MEAS_P_PAUSE_ACTIVE], secs));
		json_u64(&j, "launches", v[MEAS_P_LAUNCHES]);
		json_obj_begin(&j, "stops");
		json_u64(&j, "disc", v[MEAS_P_STOP_DISC_BLOCKED] +
			 v[MEAS_P_STOP_DISC_UNBLOCKED]);
		json_u64(&j, "blocked_io", v[MEAS_P_STOP_BLOCKED_IO]);
		json_u64(&j, "terminal", v[MEAS_P_STOP_TERMINAL]);
		json_u64(&j, "impeded", v[MEAS_P_STOP_IMPEDED]);
		json_u64(&j, "timed_out", v[MEAS_P_STOP_TIMED_OUT]);
		json_u64(&j, "preempted", v[MEAS_P_STOP_PREEMPTED]);
		json_u64(&j, "job_control", v[MEAS_P_STOP_JOBCTL]);
		json_u64(&j, "exit", v[MEAS_P_STOP_EXIT]);
		json_obj_end(&j);
		json_obj_begin(&j, "paused_ns");
		json_u64(&j, "disc", v[MEAS_P_PAUSE_DISC]);
		json_u64(&j, "io", v[MEAS_P_PAUSE_IO]);
		json_u64(&j, "terminal", v[MEAS_P_PAUSE_TERMINAL]);
		json_u64(&j, "impeded", v[MEAS_P_PAUSE_IMPEDED]);
		json_u64(&j, "active", v[MEAS_P_PAUSE_ACTIVE]);
		json_u64(&j, "job_control", v[MEAS_P_PAUSE_JOBCTL]);
		json_obj_end(&j);
		json_obj_begin(&j, "paused_pct");
		json_double(&j, "disc", pct(v[MEAS_P_PAUSE_DISC], secs));
		json_double(&j, "io", pct(v[MEAS_P_PAUSE_IO], secs));
		json_double(&j, "terminal", pct(v[MEAS_P_PAUSE_TERMINAL], secs));
		json_double(&j, "impeded", pct(v[MEAS_P_PAUSE_IMPEDED], secs));
		json_obj_end(&j);
		json_str(&j, "last_stop",
			 meas_proc_stop_name(v[MEAS_P_LAST_STOP]));
		json_u64(&j, "read_bytes", v[MEAS_P_DISC_READ_BYTES]);
		json_u64(&j, "write_bytes",
			 v[MEAS_P_DISC_BYTES] - v[MEAS_P_DISC_READ_BYTES]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_doc_end(&j);
}

/* One interval, @a to @b: the rows, sorted, shown; an exit status. */
static int top_show(struct cmd_ctx *ctx, uint64_t n, const void *sa,
		    const void *sb, const struct timespec *at, void *data)
{
	const struct proc_snap *a = sa, *b = sb;
	struct top_args *t = data;
	size_t nrows;
	double secs;

	free(t->rows);
	t->rows = calloc(b->nent ? b->nent : 1, sizeof(*t->rows));
	if (!t->rows)
		return fail(ctx, ENOMEM, "no memory for %zu rows", b->nent);
	nrows = top_rows(a, b, t, t->rows);
	proc_rows_sort(t->rows, nrows, t->p.key);
	secs = rate_interval_s(&a->when, &b->when);
	if (ctx->json)
		top_json(b, t->rows, nrows, n, secs, t, at);
	else
		top_text(b, t->rows, nrows, n, secs, t);
	return EXIT_OK;
}

static int top_take(struct cmd_ctx *ctx, int fd, void *s, void *data)
{
	struct top_args *t = data;

	(void)fd;
	return proc_src_take(ctx, &t->src, s);
}

static uint64_t top_taken(const void *s)
{
	return ((const struct proc_snap *)s)->t_ns;
}

/* A replay: the processes of the archive's frames (pmdameas -P), as live. */
static int top_frame(struct cmd_ctx *ctx, struct replay *r, const void *prev,
		     void *s, void *data)
{
	int err = replay_proc(r, s);

	(void)prev;
	(void)data;
	if (err == -ENODATA)
		return VIEW_SKIP;	/* no process in this frame */
	if (err)
		return fail(ctx, -err, "replaying the processes");
	return EXIT_OK;
}

static void top_release(void *s)
{
	proc_snap_free(s);
}

static const struct view_ops top_ops = {
	.size = sizeof(struct proc_snap),
	.what = "meas.proc",
	.hint = " (was pmdameas run with -P?)",
	.take = top_take,
	.taken = top_taken,
	.frame = top_frame,
	.show = top_show,
	.release = top_release,
};

/*
 * Live: class 15 held on /dev/meas; a caller outside group meas reads
 * over netlink what someone else holds, their own processes.
 */
static int top_do(struct cmd_ctx *ctx, struct top_args *t)
{
	sigset_t set;
	int rc = 0;

	meas_block_stop_signals(&set);
	if (proc_src_open(ctx, &t->src))
		return EXIT_FAIL;
	if (t->src.fd >= 0)
		rc = proc_hold(ctx, t->src.fd, "the live view");
	if (!rc)
		rc = view_live(ctx, t->src.fd, &set, &t->v, &top_ops, t);
	proc_src_close(&t->src);
	return rc;
}

static int top_opt(struct cmd_ctx *ctx, int id, const char *arg, void *data)
{
	struct top_args *t = data;

	if (id == 'N') {
		if (parse_u64(arg, UINT32_MAX, &t->lines))
			return usage_error(ctx, "bad number of lines '%s' (0 for all, or 1..%u)",
					   arg, UINT32_MAX);
		return EXIT_OK;
	}
	if (id == PROC_OPT_SORT || id == PROC_OPT_EXITED ||
	    id == PROC_OPT_CGROUP)
		return proc_opt(ctx, id, arg, &t->p);
	return view_opt(ctx, id, arg, &t->v);
}

static int cmd_top(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "lines", 'N', OPT_ARG, 'N' },
		{ "sort", 's', OPT_ARG, PROC_OPT_SORT },
		{ "exited", 'x', OPT_NONE, PROC_OPT_EXITED },
		{ "cgroup", 'c', OPT_ARG, PROC_OPT_CGROUP },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct top_args t = {
		.v = { .interval = 2.0, .min = TOP_INTERVAL_MIN,
		       .max = TOP_INTERVAL_MAX },
		.p = { .key = PROC_KEY_CPU },
		.lines = 20,
	};
	struct opt_state st;
	int rc;

	rc = opt_parse_more(ctx, &st, argc, argv, opts, view_options,
			    top_opt, &t);
	if (rc != OPT_END)
		return rc;
	rc = view_check(ctx, &st, &t.v);
	if (rc)
		return rc;
	if (t.v.arch.path && t.p.cgroup[0])
		return usage_error(ctx, "--cgroup is for a live view: an archive holds no cgroup paths");
	rc = t.v.arch.path ? view_replay(ctx, &t.v, &top_ops, &t) :
			     top_do(ctx, &t);
	free(t.rows);
	return rc;
}

const struct command top_command = {
	.name = "top",
	.fn = cmd_top,
	.args = "[-i SECONDS] [-n COUNT] [-N LINES] [-s KEY] [-x] [-c PATH]\n"
		"    [--archive PATH [-S START] [-T FINISH]]",
	.help = "live view of class 15 every SECONDS (default 2): %CPU, %WAIT\n"
		"    (runnable), switches and stops/s, paused % by reason, last\n"
		"    stop, disc bytes/s, cgroup; sorted by KEY (default cpu); -x:\n"
		"    also processes that exited in the interval; -c: only the\n"
		"    cgroup PATH and below; --archive: the same from a PCP archive\n"
		"    of pmdameas -P",
};
