// SPDX-License-Identifier: GPL-2.0
/*
 * The one runner of the periodic views, live and replayed (view.h).
 * Live: a snapshot, then one per tick of the interval (cli/interval.c),
 * each interval shown from the last snapshot to this one.  Replayed:
 * one snapshot per frame of the archive, each interval shown between
 * two frames that have the view's values, with the times they were
 * recorded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/interval.h"
#include "replay/view.h"

const struct opt view_options[] = {
	{ "interval", 'i', OPT_ARG, VIEW_OPT_INTERVAL },
	{ "count", 'n', OPT_ARG, VIEW_OPT_COUNT },
	{ "archive", 'a', OPT_ARG, VIEW_OPT_ARCHIVE },
	{ "start", 'S', OPT_ARG, VIEW_OPT_START },
	{ "finish", 'T', OPT_ARG, VIEW_OPT_FINISH },
	{ NULL, 0, OPT_NONE, 0 },
};

int view_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct view_opts *v)
{
	int rc;

	switch (id) {
	case VIEW_OPT_INTERVAL:
		/* in a replay: PCP's interpolation at this step */
		rc = interval_arg(ctx, arg, v->min, v->max, &v->interval);
		v->arch.interval = v->interval;
		return rc;
	case VIEW_OPT_COUNT:
		return count_arg(ctx, arg, UINT32_MAX, &v->count);
	case VIEW_OPT_ARCHIVE:
		return arch_opt(ctx, 'a', arg, &v->arch);
	case VIEW_OPT_START:
		return arch_opt(ctx, 'S', arg, &v->arch);
	default:
		return arch_opt(ctx, 'T', arg, &v->arch);
	}
}

int view_check(struct cmd_ctx *ctx, const struct opt_state *st,
	       const struct view_opts *v)
{
	if (st->npos)
		return usage_error(ctx, "unexpected argument '%s' (%s takes options only)",
				   st->pos[0], ctx->name);
	return arch_check(ctx, &v->arch);
}

static void view_release(const struct view_ops *ops, void *s)
{
	if (ops->release)
		ops->release(s);
}

static void view_swap(void **a, void **b)
{
	void *t = *a;

	*a = *b;
	*b = t;
}

int view_live(struct cmd_ctx *ctx, int fd, const sigset_t *set,
	      const struct view_opts *v, const struct view_ops *ops,
	      void *data)
{
	void *a = calloc(2, ops->size), *b = (char *)a + ops->size;
	struct tick t;
	int rc;

	if (!a)
		return fail(ctx, ENOMEM, "no memory for two snapshots");
	rc = ops->take(ctx, fd, a, data);
	if (rc)
		goto out;
	tick_init(&t, set, v->interval, v->count, ops->taken(a));
	while (tick_wait(&t)) {
		memset(b, 0, ops->size);
		rc = ops->take(ctx, fd, b, data);
		if (!rc)
			rc = ops->show(ctx, t.n, a, b, NULL, data);
		if (rc) {
			view_release(ops, b);
			break;
		}
		view_release(ops, a);
		view_swap(&a, &b);
		tick_taken(&t, ops->taken(a));
	}
	view_release(ops, a);
out:
	free(a < b ? a : b);
	return rc;
}

int view_replay(struct cmd_ctx *ctx, const struct view_opts *v,
		const struct view_ops *ops, void *data)
{
	void *a = calloc(2, ops->size), *b = (char *)a + ops->size;
	struct replay r;
	uint64_t n = 0;
	bool have = false;
	int rc, got = 0, f;

	if (!a)
		return fail(ctx, ENOMEM, "no memory for two snapshots");
	if (ops->open)
		rc = ops->open(ctx, &v->arch, &r);
	else
		rc = ops->srcs ? replay_open(ctx, &v->arch, ops->srcs, &r) :
				 replay_open_proc(ctx, &v->arch, &r);
	if (rc) {
		free(a);
		return rc;
	}
	while ((!v->count || n < v->count) && (got = arch_next(ctx, r.a)) > 0) {
		memset(b, 0, ops->size);
		f = ops->frame(ctx, &r, have ? a : NULL, b, data);
		if (f) {
			view_release(ops, b);
			if (f == VIEW_SKIP)
				continue;
			rc = f;
			break;
		}
		if (have)
			rc = ops->show(ctx, ++n, a, b, arch_time(r.a), data);
		view_release(ops, a);
		view_swap(&a, &b);
		have = true;
		if (rc)
			break;
	}
	view_release(ops, a);
	free(a < b ? a : b);
	replay_close(&r);
	return replay_done(ctx, &(struct replay_end){ rc, got, n, v->arch.path,
						      ops->what, ops->hint });
}
