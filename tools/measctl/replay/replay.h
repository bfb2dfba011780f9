/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live views' snapshots rebuilt from a PCP archive (replay.c).
 */
#ifndef MEASCTL_REPLAY_H
#define MEASCTL_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "replay/archive.h"

struct mx_family;
struct c0_snap;
struct io_snap;
struct proc_snap;
struct cg_snap;
struct rate_when;

/* A replay: the archive, the PCP metrics it reads and their families. */
struct replay {
	struct arch *a;
	char **names;
	const struct mx_family **fam;
	size_t n;
	char **disks;		/* disk names, in the order first seen */
	size_t ndisks;
	int *item;		/* top: each metric's item; cgroup: series */
	int *insts;		/* top: process instances, slot - 1 */
	size_t ninsts;
};

/* The families of @srcs, a bit per enum mx_src; an exit status. */
int replay_open(struct cmd_ctx *ctx, const struct arch_opts *o,
		unsigned int srcs, struct replay *r);
void replay_close(struct replay *r);

/* How a replay loop ended. */
struct replay_end {
	int rc;			/* its exit status so far */
	int got;		/* arch_next()'s last: 0 or a negated status */
	uint64_t n;		/* intervals shown */
	const char *path;	/* the archive */
	const char *what;	/* the metrics it read, for the message */
	const char *hint;	/* or NULL */
};

/* One more metric to read: @name, of family @f or item (series) @item. */
int replay_push(struct cmd_ctx *ctx, struct replay *r, const char *name,
		const struct mx_family *f, int item);
/* The metrics named (@rc 0): open the archive; on an error, undo. */
int replay_start(struct cmd_ctx *ctx, const struct arch_opts *o,
		 struct replay *r, int rc);
/* A snapshot's time: the frame's, recorded (no kernel stamps). */
void replay_stamp(const struct replay *r, uint64_t *t_ns,
		  struct rate_when *when);

/* The exit status of a replay: an error, or none shown (ENODATA), or 0. */
int replay_done(struct cmd_ctx *ctx, const struct replay_end *e);

/* Class 0 subclass 0 from the current frame; false if it lacks values. */
bool replay_c0(struct replay *r, struct c0_snap *s);
/* The disks from the current frame (after @prev, or NULL); -errno. */
int replay_io(struct replay *r, const struct io_snap *prev, struct io_snap *s);

/* Class 15 (meas.proc.*): the items of each process and of entry 0. */
int replay_open_proc(struct cmd_ctx *ctx, const struct arch_opts *o,
		     struct replay *r);
/*
 * Every process of the current frame in a slot of its own for the whole
 * replay (so that top follows it); -errno, -ENODATA without processes.
 */
int replay_proc(struct replay *r, struct proc_snap *s);

/* Per cgroup (meas.cgroup.*, pmdameas -C): a metric per series. */
int replay_open_cgroup(struct cmd_ctx *ctx, const struct arch_opts *o,
		       struct replay *r);
/*
 * The cgroup tree of the current frame, a node per instance path and
 * its ancestors; -errno, -ENODATA without a cgroup in the frame.
 */
int replay_cgroup(struct replay *r, struct cg_snap *s);

#endif /* MEASCTL_REPLAY_H */
