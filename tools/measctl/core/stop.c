// SPDX-License-Identifier: GPL-2.0
/*
 * measctl stop: ask the holders (see holder.c) to STOP classes.
 *
 * Every record of a live holder whose mask meets the request gets a
 * sigqueue(SIGUSR2, mask); records of dead holders are removed.  Then
 * stop waits, bounded, until each signalled holder has acted (its record
 * no longer names the classes, or is gone) and reports the global mask
 * from MEAS_IOC_INFO.  Exit status 1 if a holder did not act in time,
 * could not be signalled, or no holder held any of the classes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/dev.h"
#include "cli/interval.h"
#include "core/holder.h"

#define STOP_TIMEOUT_DEF	5.0
#define STOP_POLL_NS		10000000L	/* 10 ms */
#define STOP_RESEND_NS		500000000ULL	/* 0.5 s */

enum stop_state {
	ST_KEPT,	/* holds none of the classes: left alone */
	ST_STALE,	/* process gone: record removed */
	ST_BADREC,	/* record unreadable: left alone */
	ST_SIGERR,	/* sigqueue failed */
	ST_WAITING,	/* signalled, not yet acted */
	ST_STOPPED,	/* stopped the classes, still holds others */
	ST_EXITED,	/* stopped everything and exited */
	ST_DIED,	/* died while we waited */
};

static const char *const state_name[] = {
	[ST_KEPT]	= "kept",
	[ST_STALE]	= "stale-removed",
	[ST_BADREC]	= "bad-record",
	[ST_SIGERR]	= "signal-failed",
	[ST_WAITING]	= "timed-out",
	[ST_STOPPED]	= "stopped",
	[ST_EXITED]	= "exited",
	[ST_DIED]	= "died",
};

struct stop_ent {
	struct holder_ent h;
	enum stop_state state;
	uint32_t after;		/* mask left after acting */
	int err;
};

struct stop_run {
	char dir[PATH_MAX];
	uint32_t req;
	double timeout;
	struct stop_ent *v;
	size_t n;
	bool info_ok;
	struct meas_info info;
	int info_err;
};

static void stop_signal(struct stop_run *s, struct stop_ent *e)
{
	union sigval val = { .sival_int = (int)s->req };

	if (!holder_alive(e->h.pid)) {
		e->state = ST_STALE;
		e->err = -holder_record_remove(s->dir, e->h.pid);
	} else if (!e->h.readable) {
		e->state = ST_BADREC;
	} else if (!(e->h.mask & s->req)) {
		e->state = ST_KEPT;
		e->after = e->h.mask;
	} else if (sigqueue(e->h.pid, SIGUSR2, val)) {
		e->state = ST_SIGERR;
		e->err = errno;
	} else {
		e->state = ST_WAITING;
	}
}

/* Has a signalled holder acted?  Updates its state; true if so. */
static bool stop_check(struct stop_run *s, struct stop_ent *e)
{
	uint32_t mask;
	int err = holder_record_read(s->dir, e->h.pid, &mask);

	if (err == -ENOENT) {
		e->state = ST_EXITED;
		e->after = 0;
	} else if (!err && !(mask & s->req)) {
		e->state = ST_STOPPED;
		e->after = mask;
	} else if (!holder_alive(e->h.pid)) {
		holder_record_remove(s->dir, e->h.pid);
		e->state = ST_DIED;
		e->after = 0;
	}
	return e->state != ST_WAITING;
}

/*
 * SIGUSR2 is not a queued signal: a request sent while another is still
 * pending at the holder (two stops at once) is lost.  So a holder that
 * has not acted is asked again every STOP_RESEND_NS.
 */
static void stop_resend(struct stop_run *s)
{
	union sigval val = { .sival_int = (int)s->req };
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].state == ST_WAITING)
			sigqueue(s->v[i].h.pid, SIGUSR2, val);
}

static void stop_wait(struct stop_run *s)
{
	struct timespec nap = { 0, STOP_POLL_NS };
	uint64_t now = mono_ns(), resend = now + STOP_RESEND_NS;
	uint64_t end = now + (uint64_t)(s->timeout * 1e9);
	size_t i, waiting;

	for (;;) {
		waiting = 0;
		for (i = 0; i < s->n; i++)
			if (s->v[i].state == ST_WAITING && !stop_check(s, &s->v[i]))
				waiting++;
		now = mono_ns();
		if (!waiting || now >= end)
			return;
		if (now >= resend) {
			stop_resend(s);
			resend = now + STOP_RESEND_NS;
		}
		nanosleep(&nap, NULL);
	}
}

static void stop_info(struct stop_run *s)
{
	int fd = meas_open();

	if (fd < 0) {
		s->info_err = -fd;
		return;
	}
	s->info_err = -meas_info(fd, &s->info);
	s->info_ok = !s->info_err;
	close(fd);
}

/* Count the outcomes: signalled holders and failures. */
static void stop_tally(const struct stop_run *s, size_t *acted,
		       size_t *failed)
{
	size_t i;

	*acted = *failed = 0;
	for (i = 0; i < s->n; i++) {
		switch (s->v[i].state) {
		case ST_STOPPED:
		case ST_EXITED:
		case ST_DIED:
			(*acted)++;
			break;
		case ST_WAITING:
		case ST_SIGERR:
			(*failed)++;
			break;
		default:
			break;
		}
	}
}

static void stop_print_text(const struct stop_run *s)
{
	const struct stop_ent *e;
	char cl[64];
	size_t i;

	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		format_classes(e->h.mask, cl, sizeof(cl));
		printf("holder %d (classes %s): %s", (int)e->h.pid, cl,
		       state_name[e->state]);
		if (e->state == ST_STOPPED) {
			format_classes(e->after, cl, sizeof(cl));
			printf(", still holds %s", cl);
		}
		if (e->err)
			printf(" (%s)", strerror(e->err));
		putchar('\n');
	}
	if (s->info_ok) {
		format_classes(s->info.global_mask, cl, sizeof(cl));
		printf("enabled classes: %s (0x%04x)\n", cl,
		       s->info.global_mask);
	}
}

static void stop_print_json(const struct stop_run *s, const char *error)
{
	const struct stop_ent *e;
	struct json j;
	size_t i;

	json_doc_ok(&j, stdout, "stop", !error);
	if (error)
		json_str(&j, "error", error);
	json_mask(&j, "mask", s->req);
	json_arr_begin(&j, "holders");
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		json_obj_begin(&j, NULL);
		json_i64(&j, "pid", e->h.pid);
		json_mask(&j, "mask", e->h.mask);
		json_str(&j, "state", state_name[e->state]);
		json_mask(&j, "mask_after", e->after);
		if (e->err)
			json_str(&j, "error", strerror(e->err));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (s->info_ok) {
		json_mask(&j, "global_mask", s->info.global_mask);
		json_classes(&j, "enabled_classes", s->info.global_mask);
	} else {
		json_null(&j, "global_mask");
	}
	json_doc_end(&j);
}

static int stop_report(struct cmd_ctx *ctx, struct stop_run *s)
{
	char msg[256] = "", cl[64];
	size_t acted, failed;

	stop_tally(s, &acted, &failed);
	format_classes(s->req, cl, sizeof(cl));
	if (failed)
		snprintf(msg, sizeof(msg),
			 "%zu holder(s) did not stop classes %s", failed, cl);
	else if (!acted)
		snprintf(msg, sizeof(msg), "no holder holds classes %s", cl);
	else if (!s->info_ok)
		snprintf(msg, sizeof(msg), "cannot read the enabled classes: %s",
			 strerror(s->info_err));
	if (ctx->json)
		stop_print_json(s, msg[0] ? msg : NULL);
	else
		stop_print_text(s);
	if (msg[0])
		warnx_ctx(ctx, "%s", msg);
	return msg[0] ? EXIT_FAIL : EXIT_OK;
}

static int stop_do(struct cmd_ctx *ctx, struct stop_run *s)
{
	struct holder_ent *h;
	size_t i;
	int err;

	err = holder_scan(s->dir, &h, &s->n);
	if (err)
		return fail(ctx, -err, "cannot read %s", s->dir);
	s->v = calloc(s->n ? s->n : 1, sizeof(*s->v));
	if (!s->v) {
		free(h);
		return fail(ctx, ENOMEM, "stop");
	}
	for (i = 0; i < s->n; i++) {
		s->v[i].h = h[i];
		stop_signal(s, &s->v[i]);
	}
	free(h);
	stop_wait(s);
	stop_info(s);
	err = stop_report(ctx, s);
	free(s->v);
	return err;
}

static int stop_opt(struct cmd_ctx *ctx, int id __always_unused,
		    const char *arg, void *data)
{
	struct stop_run *s = data;

	if (parse_seconds(arg, 0, 3600, &s->timeout))
		return usage_error(ctx, "bad timeout '%s' (0..3600 s)", arg);
	return EXIT_OK;
}

static int cmd_stop(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "timeout", 't', OPT_ARG, 't' },
		{ NULL, 0, OPT_NONE, 0 },
	};
	struct stop_run s = { .req = MEAS_CLASSMASK_ALL,
			      .timeout = STOP_TIMEOUT_DEF };
	struct opt_state st;
	struct classes cls;
	int rc, err;

	rc = opt_parse(ctx, &st, argc, argv, opts, false, stop_opt, &s);
	if (rc != OPT_END)
		return rc;
	if (st.npos > 1)
		return usage_error(ctx, "too many arguments (one CLASSES, such as 0,14)");
	if (st.npos) {
		rc = classes_arg(ctx, st.pos[0], &cls);
		if (rc)
			return rc;
		s.req = classes_resolve(&cls, MEAS_CLASSMASK_ALL);
	}
	err = rundir_path(s.dir, sizeof(s.dir));
	return err ? fail(ctx, -err, "bad MEAS_RUNDIR") : stop_do(ctx, &s);
}

const struct command stop_command = {
	.name = "stop",
	.fn = cmd_stop,
	.args = "[-t SECONDS] [CLASSES]",
	.help = "ask the holders to disable CLASSES (default: all, the holders\n"
		"    exit); wait up to -t SECONDS (default 5) and report what is\n"
		"    still enabled",
};
