// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of the class 14 ring that iotrace and iostat -c share.  The
 * ring keeps the cursor of each open file, so a reader holding class 14
 * on its own file reads every record written from its start (or, with
 * --all, from the oldest one held), and MEAS_IOC_IOTRACE_READ says how
 * many were overwritten before they could be read: the views report
 * them, never skip them silently.  The cgroup filter keeps the records
 * charged to a cgroup or below it (cgroup/cgsnap.c's paths).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include "disk/ioring.h"
#include "cgroup/cgroup.h"

/* Records per read: 128 KiB, a few milliseconds of a fast disk. */
#define IO_RING_BATCH	1024

int io_ring_init(struct cmd_ctx *ctx, struct io_ring *r, int fd, bool all,
		 const char *cgroup)
{
	*r = (struct io_ring){
		.fd = fd,
		.flags = all ? 0 : MEAS_IOTRACE_FROM_NOW,
		.cgroup = cgroup && cgroup[0] ? cgroup : NULL,
		.cap = IO_RING_BATCH,
	};
	r->buf = calloc(r->cap, sizeof(*r->buf));
	if (!r->buf)
		return fail(ctx, ENOMEM, "no memory for %zu records", r->cap);
	return EXIT_OK;
}

void io_ring_free(struct io_ring *r)
{
	free(r->buf);
	r->buf = NULL;
	r->n = 0;
	r->pos = 0;
}

int io_ring_read(struct cmd_ctx *ctx, struct io_ring *r)
{
	struct meas_iotrace_read rd;
	int err;

	r->n = 0;
	r->pos = 0;
	r->lost = 0;
	err = meas_iotrace_read(r->fd, r->flags, r->buf, r->cap, &rd);
	if (err)
		return fail_call(ctx, "iotrace", rd.result, -err,
				 "MEAS_IOC_IOTRACE_READ");
	r->flags = 0;
	r->reads++;
	r->n = rd.records;
	r->lost = rd.lost;
	r->lost_sum += rd.lost;
	r->total = rd.total;
	r->pending = rd.pending;
	return EXIT_OK;
}

const struct meas_io_record *io_ring_peek(struct io_ring *r)
{
	for (; r->pos < r->n; r->pos++)
		if (!r->cgroup || cg_id_under(r->buf[r->pos].cgroup, r->cgroup))
			return &r->buf[r->pos];
	return NULL;
}

const struct meas_io_record *io_ring_next(struct io_ring *r)
{
	const struct meas_io_record *rec = io_ring_peek(r);

	if (rec)
		r->pos++;
	return rec;
}
