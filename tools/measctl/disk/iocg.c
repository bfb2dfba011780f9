// SPDX-License-Identifier: GPL-2.0
/*
 * measctl iostat -c PATH: the iostat table of one cgroup subtree, from
 * class 14's records, since class 0's disk counters know no cgroup.  It
 * holds class 14 on its own open file and, at each tick, reads the
 * records that completed since the last one (ioring.c), keeps those
 * charged to PATH or below, and adds them up per disk as class 0
 * subclass 4 adds up its items: the same reads, writes, bytes, and
 * insert-to-completion times of the requests seen entering, so that
 * io_rate() turns two of these sums into the same r/s, await and aqu-sz
 * as class 0's (Documentation/measctl.rst, "iostat by cgroup").  A
 * request counts in the interval its completion time falls in; records
 * the ring overwrote are counted in the interval that found them lost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/interval.h"
#include "cli/rate.h"
#include "replay/view.h"
#include "disk/disk.h"
#include "disk/ioring.h"

/* One snapshot: the subtree's sums per disk since the start. */
struct iocg_snap {
	struct io_snap io;	/* disks by first appearance; when.mono only */
	uint64_t lost;		/* records lost so far, all cgroups */
};

/* What the view keeps between its ticks. */
struct iocg_state {
	const struct iocg_opts *o;
	struct io_ring ring;
	struct disk_snap *d;	/* the running sums, by first appearance */
	size_t n, cap;
	uint64_t lost;
};

/* The running sums of disk @dev, added if new; NULL without memory. */
static uint64_t *iocg_disk(struct iocg_state *st, uint64_t dev)
{
	struct disk_snap *d;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->d[i].disc[MEAS_C0_DISC_DEV] == dev)
			return st->d[i].xfer;
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 8;

		d = reallocarray(st->d, cap, sizeof(*d));
		if (!d)
			return NULL;
		st->d = d;
		st->cap = cap;
	}
	d = &st->d[st->n++];
	memset(d, 0, sizeof(*d));
	d->disc[MEAS_C0_DISC_DEV] = dev;
	return d->xfer;
}

/*
 * One record into subclass 4's items, as the block unit counts a
 * completion into class 0 (module/disk/blk.c, blk_count_disk()): bytes
 * at every event; the request, at its last event, in the reads (a read)
 * or the writes (a write or zone append, meas_blk_op_is_write()); its
 * insert-to-completion time in the queue time, and in the read or write
 * time, if meas saw it enter.  Records of tapes and of no disk are not
 * disks' I/O.
 */
static int iocg_count(struct iocg_state *st, const struct meas_io_record *r)
{
	bool rd = r->op == MEAS_IO_OP_READ;
	bool wr = r->op == MEAS_IO_OP_WRITE || r->op == MEAS_IO_OP_ZONE_APPEND;
	uint64_t *x, q;

	if (!r->dev || (r->flags & MEAS_IO_F_TAPE))
		return 0;
	x = iocg_disk(st, r->dev);
	if (!x)
		return -ENOMEM;
	if (rd)
		x[MEAS_C0_XFER_READ_BYTES] += r->bytes;
	else if (wr)
		x[MEAS_C0_XFER_WRITE_BYTES] += r->bytes;
	if (r->flags & MEAS_IO_F_PARTIAL)
		return 0;
	x[MEAS_C0_XFER_READS] += rd;
	x[MEAS_C0_XFER_WRITES] += wr;
	if ((r->flags & MEAS_IO_F_UNTRACKED) || !r->insert_ns ||
	    r->complete_ns < r->insert_ns) {
		x[MEAS_C0_XFER_UNTRACKED]++;
		return 0;
	}
	q = r->complete_ns - r->insert_ns;
	x[MEAS_C0_XFER_QUEUE_NS] += q;
	if (rd || wr) {
		x[rd ? MEAS_C0_XFER_READ_NS : MEAS_C0_XFER_WRITE_NS] += q;
		x[rd ? MEAS_C0_XFER_READS_TIMED : MEAS_C0_XFER_WRITES_TIMED]++;
	}
	return 0;
}

static int iocg_read(struct cmd_ctx *ctx, struct iocg_state *st)
{
	int rc = io_ring_read(ctx, &st->ring);

	if (!rc)
		st->lost += st->ring.lost;
	return rc;
}

/* Whether the batch, in completion order, reached past @until. */
static bool iocg_past(const struct io_ring *r, uint64_t until)
{
	return r->n && r->buf[r->n - 1].complete_ns > until;
}

/*
 * Count every kept record that completed by @until: the batch held,
 * then reads until the ring has no more or a record completed later
 * (a kept one waits in the batch for the next tick), so that other
 * cgroups' I/O cannot keep it reading.  At least one read: the last one
 * may be a tick old.
 */
static int iocg_drain(struct cmd_ctx *ctx, struct iocg_state *st,
		      uint64_t until)
{
	const struct meas_io_record *r;
	bool read = false;
	int rc;

	for (;;) {
		while ((r = io_ring_peek(&st->ring))) {
			if (r->complete_ns > until)
				return EXIT_OK;
			io_ring_next(&st->ring);
			if (iocg_count(st, r))
				return fail(ctx, ENOMEM, "no memory for %zu disks",
					    st->n + 1);
		}
		if (read && (!st->ring.pending || iocg_past(&st->ring, until)))
			return EXIT_OK;
		rc = iocg_read(ctx, st);
		if (rc)
			return rc;
		read = true;
	}
}

static int iocg_take(struct cmd_ctx *ctx, int fd, void *s, void *data)
{
	struct iocg_state *st = data;
	struct iocg_snap *b = s;
	uint64_t until;
	int rc;

	(void)fd;
	/* the first read moves the cursor to now: the start is after it */
	if (!st->ring.reads) {
		rc = iocg_read(ctx, st);
		if (rc)
			return rc;
	}
	until = mono_ns();
	rc = iocg_drain(ctx, st, until);
	if (rc)
		return rc;
	b->io.d = calloc(st->n ? st->n : 1, sizeof(*b->io.d));
	if (!b->io.d)
		return fail(ctx, ENOMEM, "no memory for %zu disks", st->n);
	if (st->n)
		memcpy(b->io.d, st->d, st->n * sizeof(*b->io.d));
	b->io.n = st->n;
	b->io.t_ns = until;
	b->io.when.mono = until;	/* the records' own clock */
	b->lost = st->lost;
	return EXIT_OK;
}

static uint64_t iocg_taken(const void *s)
{
	return ((const struct iocg_snap *)s)->io.t_ns;
}

static void iocg_release(void *s)
{
	io_snap_free(&((struct iocg_snap *)s)->io);
}

/* class 14 has no control operations, requeues or queue lengths by cgroup */
static void iocg_print_json(struct json *j, const struct io_rate *r)
{
	char dev[32];

	snprintf(dev, sizeof(dev), "%u:%u", MEAS_DEV_MAJOR(r->dev),
		 MEAS_DEV_MINOR(r->dev));
	json_obj_begin(j, NULL);
	json_str(j, "device", r->name);
	json_str(j, "dev", dev);
	io_rate_json_rates(j, r);
	io_rate_json_counts(j, r);
	json_obj_end(j);
}

static void iocg_head(struct cmd_ctx *ctx, struct json *j, uint64_t n,
		      double secs, const char *cgroup, uint64_t lost)
{
	char ts[64];

	meas_timestamp(ts, sizeof(ts), NULL);
	if (ctx->json) {
		json_doc_begin(j, stdout, "iostat");
		json_u64(j, "interval", n);
		json_str(j, "time", ts);
		json_double(j, "elapsed_s", secs);
		json_str(j, "cgroup", cgroup);
		json_u64(j, "lost", lost);
		json_arr_begin(j, "disks");
		return;
	}
	printf("--- %s  interval %llu  %.3f s  cgroup %s ---\n", ts,
	       (unsigned long long)n, secs, cgroup);
	printf("%-12s %9s %9s %10s %10s %8s %8s %7s\n", "device", "r/s", "w/s",
	       "rkB/s", "wkB/s", "r_await", "w_await", "aqu-sz");
}

/* An interval: a row per disk the subtree used (with -z, in it). */
static int iocg_show(struct cmd_ctx *ctx, uint64_t n, const void *sa,
		     const void *sb, const struct timespec *at, void *data)
{
	const struct iocg_snap *a = sa, *b = sb;
	const struct iocg_state *st = data;
	double secs = rate_interval_s(&a->io.when, &b->io.when);
	uint64_t lost = b->lost - a->lost;
	struct io_rate r;
	struct json j;
	size_t e;

	(void)at;
	iocg_head(ctx, &j, n, secs, st->o->cgroup, lost);
	for (e = 0; e < b->io.n; e++) {
		/* entry e + 1: named by its device, never "(others)" */
		io_rate(e < a->io.n ? &a->io.d[e] : NULL, &b->io.d[e], e + 1,
			secs, &r);
		if (!io_active(&r) && !st->o->idle)
			continue;
		if (ctx->json) {
			iocg_print_json(&j, &r);
		} else {
			io_rate_text(&r);
			putchar('\n');
		}
	}
	if (ctx->json) {
		json_arr_end(&j);
		json_doc_end(&j);
	} else if (lost) {
		printf("# %llu records lost: the ring was overwritten before they were read; this interval's figures are lower bounds\n",
		       (unsigned long long)lost);
	}
	fflush(stdout);
	return EXIT_OK;
}

static const struct view_ops iocg_ops = {
	.size = sizeof(struct iocg_snap),
	.take = iocg_take,
	.taken = iocg_taken,
	.show = iocg_show,
	.release = iocg_release,
};

int iocg_live(struct cmd_ctx *ctx, int fd, const sigset_t *set,
	      const void *args)
{
	struct iocg_state st = { .o = args };
	int rc;

	rc = io_ring_init(ctx, &st.ring, fd, false, st.o->cgroup);
	if (rc)
		return rc;
	rc = view_live(ctx, fd, set, st.o->v, &iocg_ops, &st);
	io_ring_free(&st.ring);
	free(st.d);
	return rc;
}
