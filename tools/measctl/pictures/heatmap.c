// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: the I/O latency heat map's cells and colours (heatmap.h).
 * Pure: no I/O, so that the host unit tests check it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pictures/heatmap.h"

void hm_init(struct heatmap *h)
{
	memset(h, 0, sizeof(*h));
}

void hm_free(struct heatmap *h)
{
	free(h->rec);
	free(h->disk);
	memset(h, 0, sizeof(*h));
}

static int hm_disk_index(struct heatmap *h, const char *name, uint32_t *idx)
{
	struct hm_disk *d;
	size_t i;

	for (i = 0; i < h->ndisk; i++)
		if (!strncmp(h->disk[i].name, name, HM_DISK_NAME - 1)) {
			*idx = i;
			return 0;
		}
	d = realloc(h->disk, (h->ndisk + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	h->disk = d;
	d += h->ndisk;
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	*idx = h->ndisk++;
	return 0;
}

int hm_add(struct heatmap *h, const char *disk, uint64_t t_ns,
	   uint64_t lat_ns)
{
	struct hm_rec *r;
	size_t cap;
	uint32_t idx;

	if (h->nrec == h->caprec) {
		cap = h->caprec ? h->caprec * 2 : 1024;
		r = realloc(h->rec, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		h->rec = r;
		h->caprec = cap;
	}
	if (hm_disk_index(h, disk, &idx))
		return -ENOMEM;
	r = &h->rec[h->nrec++];
	r->t_ns = t_ns;
	r->lat_ns = lat_ns;
	r->disk = idx;
	return 0;
}

int hm_add_request(struct heatmap *h, const char *disk, uint64_t issue_ns,
		   uint64_t complete_ns)
{
	/* No issue time (a request not seen issued): no latency to draw. */
	if (!issue_ns || complete_ns < issue_ns) {
		h->untimed++;
		return 0;
	}
	return hm_add(h, disk, complete_ns, complete_ns - issue_ns);
}

unsigned int hm_row(uint64_t lat_ns)
{
	uint64_t us = lat_ns / 1000;
	unsigned int row = 0;

	while (us > 1 && row < HM_ROWS - 1) {
		us >>= 1;
		row++;
	}
	return row;
}

uint64_t hm_row_low_ns(unsigned int row)
{
	return row ? (1000ULL << row) : 0;
}

void hm_fold(struct heatmap *h)
{
	uint64_t t1 = 0, span;
	unsigned int col, row;
	struct hm_disk *d;
	size_t i;

	h->t0 = h->nrec ? UINT64_MAX : 0;
	for (i = 0; i < h->nrec; i++) {
		if (h->rec[i].t_ns < h->t0)
			h->t0 = h->rec[i].t_ns;
		if (h->rec[i].t_ns > t1)
			t1 = h->rec[i].t_ns;
	}
	span = h->nrec ? t1 - h->t0 + 1 : 1;
	/* columns of whole ns, the last one ending at or after t1 */
	h->col_ns = (span + HM_COLS - 1) / HM_COLS;
	for (i = 0; i < h->ndisk; i++) {
		memset(h->disk[i].cell, 0, sizeof(h->disk[i].cell));
		h->disk[i].count = 0;
		h->disk[i].max = 0;
	}
	for (i = 0; i < h->nrec; i++) {
		d = &h->disk[h->rec[i].disk];
		col = (h->rec[i].t_ns - h->t0) / h->col_ns;
		row = hm_row(h->rec[i].lat_ns);
		d->cell[col][row]++;
		d->count++;
		if (d->cell[col][row] > d->max)
			d->max = d->cell[col][row];
	}
}

void hm_rows_used(const struct hm_disk *d, unsigned int *lo, unsigned int *hi)
{
	unsigned int c, r;

	*lo = HM_ROWS;
	*hi = 0;
	for (c = 0; c < HM_COLS; c++)
		for (r = 0; r < HM_ROWS; r++)
			if (d->cell[c][r]) {
				if (r < *lo)
					*lo = r;
				if (r > *hi)
					*hi = r;
			}
	if (*lo == HM_ROWS)
		*lo = 0;
}

void hm_colour(uint64_t count, uint64_t max, unsigned int rgb[3])
{
	static const unsigned int pale[3] = { 255, 237, 160 };
	static const unsigned int dark[3] = { 128, 0, 38 };
	double v;
	int i;

	if (!count || !max) {
		rgb[0] = 255;
		rgb[1] = 255;
		rgb[2] = 255;
		return;
	}
	v = max > 1 ? log((double)count) / log((double)max) : 1;
	if (v > 1)
		v = 1;
	for (i = 0; i < 3; i++)
		rgb[i] = (unsigned int)lround(pale[i] + (double)((int)dark[i] - (int)pale[i]) * v);
}
