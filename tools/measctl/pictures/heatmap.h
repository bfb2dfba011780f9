/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: the arithmetic of the I/O latency heat map, pure (no I/O),
 * unit-tested on the host (selftests/unit/heatmap_test.c); heatsvg.c
 * draws it.  Completed requests (completion time, latency from issue to
 * completion, disk) fall into cells: time in equal columns from the first
 * completion to the last, latency in rows of powers of two of
 * microseconds, one grid per disk.
 */
#ifndef MEASCTL_HEATMAP_H
#define MEASCTL_HEATMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* row r: [2^r, 2^(r+1)) us; row 0 also below 1 us, row 23 also above */
#define HM_ROWS		24
#define HM_COLS		60	/* time columns */
#define HM_DISK_NAME	32

struct hm_rec {
	uint64_t t_ns;		/* completion, CLOCK_MONOTONIC */
	uint64_t lat_ns;	/* issue to completion */
	uint32_t disk;		/* index in heatmap.disk */
};

struct hm_disk {
	char name[HM_DISK_NAME];
	uint64_t cell[HM_COLS][HM_ROWS];
	uint64_t count;		/* requests */
	uint64_t max;		/* largest cell */
};

struct heatmap {
	struct hm_rec *rec;
	size_t nrec, caprec;
	struct hm_disk *disk;
	size_t ndisk;
	uint64_t lost;		/* records the ring overwrote: not drawn */
	uint64_t untimed;	/* requests without an issue time: not drawn */
	uint64_t t0, col_ns;	/* after hm_fold(): the time axis */
};

void hm_init(struct heatmap *h);
void hm_free(struct heatmap *h);
/* One request: 0, or -ENOMEM (nothing added). */
int hm_add(struct heatmap *h, const char *disk, uint64_t t_ns,
	   uint64_t lat_ns);
/* A request by its issue and completion times; none issued: untimed. */
int hm_add_request(struct heatmap *h, const char *disk, uint64_t issue_ns,
		   uint64_t complete_ns);
/* Fill the grids from the requests added; again after more are added. */
void hm_fold(struct heatmap *h);
/* The row of a latency, and the lower bound of a row in ns. */
unsigned int hm_row(uint64_t lat_ns);
uint64_t hm_row_low_ns(unsigned int row);
/* The rows from *lo to *hi hold every request of @d (0 and 0 if none). */
void hm_rows_used(const struct hm_disk *d, unsigned int *lo, unsigned int *hi);
/*
 * Colour of a cell of @count requests where the fullest has @max: from
 * pale yellow (1) to dark red (@max) on a logarithmic scale; white for 0.
 */
void hm_colour(uint64_t count, uint64_t max, unsigned int rgb[3]);

/*
 * heatjson.c: the requests of iotrace --json output in @f; the count of
 * lost records from its "lost" lines.  0, -EINVAL (at line *@lineno),
 * -ENOMEM, -EIO.
 */
int hm_load_json(FILE *f, struct heatmap *h, size_t *lineno);

#endif /* MEASCTL_HEATMAP_H */
