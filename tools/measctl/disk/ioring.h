/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the reader of the class 14 ring (ioring.c), which iotrace and
 * iostat -c share: MEAS_IOC_IOTRACE_READ in batches on the caller's own
 * open file (its cursor), the records lost before they could be read,
 * and the --cgroup PATH filter.
 */
#ifndef MEASCTL_IORING_H
#define MEASCTL_IORING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "libmeas.h"
#include "cli/cli.h"

/**
 * struct io_ring - a reader of the class 14 ring
 * @fd: the open file holding class 14: its cursor is the reader's
 * @flags: of the next read (MEAS_IOTRACE_FROM_NOW before the first)
 * @cgroup: keep only the records charged to this cgroup or below (a
 *	--cgroup PATH); "" or NULL: every record
 * @buf: the last batch read
 * @cap: room in @buf
 * @n: records in @buf
 * @pos: the next one to hand out
 * @reads: reads made so far
 * @lost: records the ring overwrote before the last read could return
 *	them (all cgroups: the ring does not say whose)
 * @lost_sum: the same, summed over every read
 * @total: records written since class 14 was enabled
 * @pending: records were left in the ring by the last read
 */
struct io_ring {
	int fd;
	uint32_t flags;
	const char *cgroup;
	struct meas_io_record *buf;
	size_t cap, n, pos;
	uint64_t reads, lost, lost_sum, total;
	bool pending;
};

/* A reader on @fd; @all: from the oldest record held, not from now. */
int io_ring_init(struct cmd_ctx *ctx, struct io_ring *r, int fd, bool all,
		 const char *cgroup);
void io_ring_free(struct io_ring *r);
/*
 * Read the next batch (what the last one still held is dropped): EXIT_OK,
 * or an exit status after the failed call's message.
 */
int io_ring_read(struct cmd_ctx *ctx, struct io_ring *r);
/* The next record of the batch that the filter keeps, or NULL. */
const struct meas_io_record *io_ring_peek(struct io_ring *r);
/* The same, and past it. */
const struct meas_io_record *io_ring_next(struct io_ring *r);

#endif /* MEASCTL_IORING_H */
