/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl view.c: the one runner of the periodic views (watch, iostat,
 * top, cgroup), live and replayed.  A view says how to take a snapshot,
 * how to rebuild one from a frame of a PCP archive, and how to show an
 * interval between two; the runner takes its options (-i, -n,
 * --archive, -S, -T), keeps the ticks of a live view or walks the
 * frames of a replay, and ends as the view's own loop did.
 */
#ifndef MEASCTL_VIEW_H
#define MEASCTL_VIEW_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "cli/cli.h"
#include "replay/archive.h"
#include "replay/replay.h"

/* The options of every view, after the view's own (opt_parse_more()). */
extern const struct opt view_options[];

/* Their ids, above any view's own. */
enum view_opt_id {
	VIEW_OPT_INTERVAL = 2000, VIEW_OPT_COUNT, VIEW_OPT_ARCHIVE,
	VIEW_OPT_START, VIEW_OPT_FINISH,
};

/**
 * struct view_opts - what the options of a view say
 * @interval: -i, seconds; in a replay, PCP's interpolation step
 * @min: the smallest -i
 * @max: the largest -i
 * @count: -n, intervals shown; 0: until a signal (or the archive's end)
 * @arch: --archive, -S, -T: a replay when @arch.path is set
 */
struct view_opts {
	double interval;
	double min, max;
	uint64_t count;
	struct arch_opts arch;
};

/* A view's option @id of view_options[]: EXIT_OK or a usage error. */
int view_opt(struct cmd_ctx *ctx, int id, const char *arg,
	     struct view_opts *v);
/* After the options: no words, -S and -T with --archive only. */
int view_check(struct cmd_ctx *ctx, const struct opt_state *st,
	       const struct view_opts *v);

#define VIEW_SKIP	(-1)	/* frame(): no snapshot in this frame */

/**
 * struct view_ops - what a view does with its snapshots
 * @size: the size of a snapshot
 * @srcs: the families a replay reads (a bit per enum mx_src); 0: class
 *	15's processes (replay_open_proc()), unless @open is set
 * @open: opens the replay of metrics of another kind (the cgroups'), or
 *	NULL: by @srcs
 * @what: the PCP metrics a replay reads, for its last message
 * @hint: what to check when an archive has none of them, or NULL
 * @take: a live snapshot into @s: EXIT_OK, or an exit status after its
 *	message
 * @taken: when @s was taken (CLOCK_MONOTONIC ns)
 * @frame: the snapshot of a replay's current frame into @s (@prev the
 *	last, NULL before the first): EXIT_OK, VIEW_SKIP, or an exit
 *	status after its message
 * @show: interval @n from @a to @b, recorded at @at (NULL: now): an
 *	exit status
 * @release: frees what a snapshot holds (zeroed or taken), or NULL
 *
 * @data, the view's own, goes to each.
 */
struct view_ops {
	size_t size;
	unsigned int srcs;
	int (*open)(struct cmd_ctx *ctx, const struct arch_opts *o,
		    struct replay *r);
	const char *what;
	const char *hint;
	int (*take)(struct cmd_ctx *ctx, int fd, void *s, void *data);
	uint64_t (*taken)(const void *s);
	int (*frame)(struct cmd_ctx *ctx, struct replay *r, const void *prev,
		     void *s, void *data);
	int (*show)(struct cmd_ctx *ctx, uint64_t n, const void *a,
		    const void *b, const struct timespec *at, void *data);
	void (*release)(void *s);
};

/*
 * A live view on @fd, which holds what it needs, until -n intervals or
 * a stop signal (@set, blocked): an exit status.
 */
int view_live(struct cmd_ctx *ctx, int fd, const sigset_t *set,
	      const struct view_opts *v, const struct view_ops *ops,
	      void *data);
/* A replay of --archive, printed as live: an exit status. */
int view_replay(struct cmd_ctx *ctx, const struct view_opts *v,
		const struct view_ops *ops, void *data);

#endif /* MEASCTL_VIEW_H */
