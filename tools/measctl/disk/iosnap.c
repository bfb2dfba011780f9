// SPDX-License-Identifier: GPL-2.0
/*
 * The disks of class 0: a snapshot of subclasses 1 (the MPE disk
 * profile) and 4 (bytes and times) of every disk, and what one disk did
 * between two snapshots, in iostat -x's terms, and the columns of those
 * terms that iostat and iostat -c print alike.  iostat shows them, live
 * and replayed (replay.c builds the same snapshots from an archive), and
 * run --html.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "disk/disk.h"
#include "cli/cli.h"
#include "cli/interval.h"
#include "cli/rate.h"

void io_snap_free(struct io_snap *s)
{
	free(s->d);
	s->d = NULL;
	s->n = 0;
}

/*
 * The kernel's clock at a read of class 0 (MEAS_C0_CLOCK_START, END): a
 * GET of any subclass folds the whole class, so two of these bracket the
 * reads of the disks.  0 from a module before ABI 2.
 */
static void io_stamp(int fd, uint64_t *start, uint64_t *end)
{
	uint64_t st[2] = { 0, 0 };
	int result;

	if (meas_get(fd, MEAS_CLASS_GLOBAL, MEAS_C0_SUB_FIXED,
		     MEAS_C0_CLOCK_START, 2, st, sizeof(st), &result))
		memset(st, 0, sizeof(st));
	if (start)
		*start = st[0];
	if (end)
		*end = st[1];
}

/* Returns 0 or a negative errno; *result is the GETSTATISTICS code. */
int io_snapshot(int fd, struct io_snap *s, int *result)
{
	struct meas_header h1, h4;
	uint64_t *disc, *xfer;
	size_t n1, n4, e;
	int err;

	io_stamp(fd, &s->when.start, NULL);
	err = meas_get_subclass(fd, 0, MEAS_C0_SUB_DISC, &h1, &disc, &n1,
				result);
	if (err)
		return err;
	err = meas_get_subclass(fd, 0, MEAS_C0_SUB_XFER, &h4, &xfer, &n4,
				result);
	if (err) {
		free(disc);
		return err;
	}
	io_stamp(fd, NULL, &s->when.end);
	s->t_ns = mono_ns();
	s->when.mono = s->t_ns;
	/* a disk that appeared between the two reads waits for the next */
	s->n = h1.entries < h4.entries ? h1.entries : h4.entries;
	s->d = calloc(s->n, sizeof(*s->d));
	if (!s->d)
		err = -ENOMEM;
	for (e = 0; s->d && e < s->n; e++) {
		memcpy(s->d[e].disc, disc + e * MEAS_C0_DISC_ITEMS,
		       sizeof(s->d[e].disc));
		memcpy(s->d[e].xfer, xfer + e * MEAS_C0_XFER_ITEMS,
		       sizeof(s->d[e].xfer));
	}
	free(disc);
	free(xfer);
	return err;
}

static double per(uint64_t n, double d)
{
	return rate_per_s(n, d);
}

/* The growth of counter @i from @a to @b */
static uint64_t delta(const uint64_t *a, const uint64_t *b, unsigned int i)
{
	return b[i] - a[i];
}

void io_rate(const struct disk_snap *a, const struct disk_snap *b,
	     size_t e, double secs, struct io_rate *r)
{
	static const struct disk_snap zero;
	const uint64_t *xa, *xb, *da, *db;
	unsigned int i;

	if (!a)
		a = &zero;
	xa = a->xfer;
	xb = b->xfer;
	da = a->disc;
	db = b->disc;
	memset(r, 0, sizeof(*r));
	r->dev = db[MEAS_C0_DISC_DEV];
	if (e && b->name[0])
		snprintf(r->name, sizeof(r->name), "%s", b->name);
	else if (e)
		meas_dev_name(r->dev, r->name, sizeof(r->name));
	else
		snprintf(r->name, sizeof(r->name), "(others)");
	r->reads = delta(xa, xb, MEAS_C0_XFER_READS);
	r->writes = delta(xa, xb, MEAS_C0_XFER_WRITES);
	r->rbytes = delta(xa, xb, MEAS_C0_XFER_READ_BYTES);
	r->wbytes = delta(xa, xb, MEAS_C0_XFER_WRITE_BYTES);
	r->control = delta(da, db, MEAS_C0_DISC_CONTROL);
	r->busy = delta(da, db, MEAS_C0_DISC_BUSY);
	for (i = 0; i < MEAS_C0_DISC_QLEN_BUCKETS; i++)
		r->qlen[i] = delta(da, db, MEAS_C0_DISC_QLEN0 + i);
	r->secs = secs;
	r->r_s = per(r->reads, secs);
	r->w_s = per(r->writes, secs);
	r->rkb_s = per(r->rbytes, secs) / 1024;
	r->wkb_s = per(r->wbytes, secs) / 1024;
	r->r_await = per(delta(xa, xb, MEAS_C0_XFER_READ_NS),
			 delta(xa, xb, MEAS_C0_XFER_READS_TIMED)) / 1e6;
	r->w_await = per(delta(xa, xb, MEAS_C0_XFER_WRITE_NS),
			 delta(xa, xb, MEAS_C0_XFER_WRITES_TIMED)) / 1e6;
	r->aqu = per(delta(xa, xb, MEAS_C0_XFER_QUEUE_NS), secs) / 1e9;
	r->ctl_s = per(r->control, secs);
	r->busy_s = per(r->busy, secs);
	r->inflight = xb[MEAS_C0_XFER_INFLIGHT];
}

void io_rate_text(const struct io_rate *r)
{
	printf("%-12s %9.1f %9.1f %10.1f %10.1f %8.3f %8.3f %7.2f", r->name,
	       r->r_s, r->w_s, r->rkb_s, r->wkb_s, r->r_await, r->w_await,
	       r->aqu);
}

void io_rate_json_rates(struct json *j, const struct io_rate *r)
{
	json_double(j, "r_s", r->r_s);
	json_double(j, "w_s", r->w_s);
	json_double(j, "rkB_s", r->rkb_s);
	json_double(j, "wkB_s", r->wkb_s);
	json_double(j, "r_await_ms", r->r_await);
	json_double(j, "w_await_ms", r->w_await);
	json_double(j, "aqu_sz", r->aqu);
}

void io_rate_json_counts(struct json *j, const struct io_rate *r)
{
	json_u64(j, "reads", r->reads);
	json_u64(j, "writes", r->writes);
	json_u64(j, "read_bytes", r->rbytes);
	json_u64(j, "write_bytes", r->wbytes);
}

bool io_active(const struct io_rate *r)
{
	unsigned int i;

	for (i = 0; i < MEAS_C0_DISC_QLEN_BUCKETS; i++)
		if (r->qlen[i])
			return true;
	return r->reads || r->writes || r->control || r->busy || r->inflight;
}
