/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the disks of class 0, subclasses 1 and 4 (iosnap.c): a
 * snapshot of every disk and what one did between two, as iostat and
 * run --html show them, live or replayed; and iostat -c, the same sums
 * for one cgroup subtree from class 14's records (iocg.c).
 */
#ifndef MEASCTL_DISK_H
#define MEASCTL_DISK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "libmeas.h"
#include "cli/cli.h"
#include "cli/rate.h"

/* One disk's items of subclasses 1 and 4. */
struct disk_snap {
	uint64_t disc[MEAS_C0_DISC_ITEMS];
	uint64_t xfer[MEAS_C0_XFER_ITEMS];
	char name[32];		/* a replay's name; live: "", from the dev */
};

struct io_snap {
	struct disk_snap *d;	/* entry 0 first */
	size_t n;
	uint64_t t_ns;
	struct rate_when when;	/* the time base of its deltas */
};

/* What one disk did in an interval. */
struct io_rate {
	char name[64];
	uint64_t dev;
	uint64_t reads, writes, rbytes, wbytes, control, busy;
	uint64_t qlen[MEAS_C0_DISC_QLEN_BUCKETS];
	double secs, r_s, w_s, rkb_s, wkb_s, r_await, w_await, aqu, ctl_s,
	       busy_s;
	uint64_t inflight;
};

void io_snap_free(struct io_snap *s);
int io_snapshot(int fd, struct io_snap *s, int *result);
/* @a NULL: from zero; @e 0 is the row "(others)". */
void io_rate(const struct disk_snap *a, const struct disk_snap *b,
	     size_t e, double secs, struct io_rate *r);
bool io_active(const struct io_rate *r);
/* The columns device to aqu-sz, without the line's end. */
void io_rate_text(const struct io_rate *r);
/* In JSON: r_s to aqu_sz; and reads, writes and their bytes. */
void io_rate_json_rates(struct json *j, const struct io_rate *r);
void io_rate_json_counts(struct json *j, const struct io_rate *r);

struct view_opts;

/* What iostat -c runs with. */
struct iocg_opts {
	const struct view_opts *v;	/* -i, -n */
	bool idle;			/* show disks without activity */
	const char *cgroup;		/* the subtree, as cg_path_arg() gave */
};

/* iostat -c on @fd, which holds class 14 (interval_hold()'s @fn). */
int iocg_live(struct cmd_ctx *ctx, int fd, const sigset_t *set,
	      const void *args);

#endif /* MEASCTL_DISK_H */
