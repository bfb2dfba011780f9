// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: the I/O latency heat map as SVG (heatmap.c has the cells).
 * One panel per disk: time on x (seconds from the first completion),
 * latency from issue to completion on y (rows of powers of two of
 * microseconds, the rows in use and one either side), one cell per
 * column and row coloured by its count of requests, with a <title>
 * tooltip (disk, time, latency range, count).  Records lost by the ring
 * are not in any cell: their count is written above the panels when it
 * is not 0, and so is that of requests without an issue time.  No
 * script: the picture needs none.
 */
#include <inttypes.h>
#include <stdio.h>
#include "pictures/heatmap.h"
#include "pictures/picture.h"

#define HS_LEFT		90	/* px: latency labels */
#define HS_CELL_W	16
#define HS_CELL_H	14
#define HS_TOP		50	/* px: title, lost count */
#define HS_PANEL_GAP	70	/* px: time axis, next disk's name */
#define HS_WIDTH	(HS_LEFT + HM_COLS * HS_CELL_W + 150)

static void hs_latency(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%g s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else
		snprintf(buf, len, "%g us", ns / 1e3);
}

static void hs_cells(FILE *f, const struct heatmap *h, const struct hm_disk *d,
		     unsigned int lo, unsigned int hi, double y0)
{
	char a[32], b[32];
	unsigned int c, r, rgb[3];

	for (c = 0; c < HM_COLS; c++)
		for (r = lo; r <= hi; r++) {
			if (!d->cell[c][r])
				continue;
			hm_colour(d->cell[c][r], d->max, rgb);
			hs_latency(hm_row_low_ns(r), a, sizeof(a));
			hs_latency(hm_row_low_ns(r + 1), b, sizeof(b));
			fprintf(f, "<rect class=\"hm-cell\" x=\"%d\" y=\"%.0f\" "
				"width=\"%d\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" "
				"data-count=\"%" PRIu64 "\" data-col=\"%u\" "
				"data-low-ns=\"%" PRIu64 "\"><title>", HS_LEFT +
				c * HS_CELL_W, y0 + (hi - r) * HS_CELL_H,
				HS_CELL_W, HS_CELL_H, rgb[0], rgb[1], rgb[2],
				d->cell[c][r], c, hm_row_low_ns(r));
			xml_text(f, d->name);
			fprintf(f, ", %.3f-%.3f s, %s%s to %s: %" PRIu64
				" requests</title></rect>\n",
				(double)c * h->col_ns / 1e9,
				(double)(c + 1) * h->col_ns / 1e9,
				r ? "" : "below ", r ? a : b,
				r == HM_ROWS - 1 ? "above" : b, d->cell[c][r]);
		}
}

static void hs_axes(FILE *f, const struct heatmap *h, unsigned int lo,
		    unsigned int hi, double y0)
{
	double bottom = y0 + (hi - lo + 1) * HS_CELL_H;
	unsigned int r, c;
	char lab[32];

	fprintf(f, "<g class=\"hm-yaxis\"><line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" "
		"y2=\"%.0f\" stroke=\"#000\"/>\n", HS_LEFT - 1, y0, HS_LEFT - 1,
		bottom);
	for (r = lo; r <= hi + 1; r++) {
		hs_latency(hm_row_low_ns(r), lab, sizeof(lab));
		fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n",
			HS_LEFT - 5, y0 + (hi + 1 - r) * HS_CELL_H + 4, lab);
	}
	fprintf(f, "<text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\" "
		"text-anchor=\"middle\">latency</text></g>\n",
		(y0 + bottom) / 2, (y0 + bottom) / 2);
	fprintf(f, "<g class=\"hm-xaxis\"><line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" "
		"y2=\"%.0f\" stroke=\"#000\"/>\n", HS_LEFT - 1, bottom + 1,
		HS_LEFT + HM_COLS * HS_CELL_W, bottom + 1);
	for (c = 0; c <= HM_COLS; c += HM_COLS / 6)
		fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">%.3g</text>\n",
			HS_LEFT + c * HS_CELL_W, bottom + 16,
			(double)c * h->col_ns / 1e9);
	fprintf(f, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">time (s) "
		"from the first completion</text></g>\n",
		HS_LEFT + HM_COLS * HS_CELL_W / 2, bottom + 34);
}

static void hs_legend(FILE *f, const struct hm_disk *d, double y0)
{
	unsigned int rgb[3], i;
	uint64_t v;

	fprintf(f, "<g class=\"hm-legend\"><text x=\"%d\" y=\"%.0f\">requests</text>\n",
		HS_LEFT + HM_COLS * HS_CELL_W + 20, y0 + 10);
	for (i = 0; i < 5; i++) {
		v = d->max ? 1 + (d->max - 1) * i / 4 : 0;
		hm_colour(v, d->max, rgb);
		fprintf(f, "<rect x=\"%d\" y=\"%.0f\" width=\"14\" height=\"14\" "
			"fill=\"rgb(%u,%u,%u)\" stroke=\"#999\"/><text x=\"%d\" "
			"y=\"%.0f\">%" PRIu64 "</text>\n",
			HS_LEFT + HM_COLS * HS_CELL_W + 20, y0 + 18 + i * 18,
			rgb[0], rgb[1], rgb[2], HS_LEFT + HM_COLS * HS_CELL_W + 40,
			y0 + 29 + i * 18, v);
	}
	fputs("</g>\n", f);
}

void heatmap_svg(FILE *f, struct heatmap *h, const char *title,
		 bool standalone)
{
	unsigned int lo[64], hi[64];
	double y = HS_TOP, height = HS_TOP + 20;
	size_t i, n = h->ndisk < 64 ? h->ndisk : 64;

	hm_fold(h);
	for (i = 0; i < n; i++) {
		hm_rows_used(&h->disk[i], &lo[i], &hi[i]);
		lo[i] -= lo[i] > 0;
		hi[i] += hi[i] < HM_ROWS - 1;
		height += 24 + (hi[i] - lo[i] + 1) * HS_CELL_H + HS_PANEL_GAP;
	}
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"meas-heatmap\" "
		"version=\"1.1\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", HS_WIDTH, height,
		HS_WIDTH, height);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" fill=\"#fff\"/>\n",
		HS_WIDTH, height);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"17\" text-anchor=\"middle\">",
		HS_WIDTH / 2);
	xml_text(f, title);
	fputs("</text>\n", f);
	if (h->lost)
		fprintf(f, "<text class=\"hm-lost\" x=\"%d\" y=\"40\" "
			"text-anchor=\"middle\" fill=\"#b00\">%" PRIu64
			" records lost (the ring was overwritten before they "
			"were read): not in the cells</text>\n", HS_WIDTH / 2,
			h->lost);
	if (h->untimed)
		fprintf(f, "<text class=\"hm-untimed\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"middle\">%" PRIu64 " requests without "
			"an issue time: not in the cells</text>\n",
			HS_WIDTH / 2, h->lost ? 56 : 40, h->untimed);
	if (!h->ndisk)
		fprintf(f, "<text class=\"hm-empty\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"middle\">no request completed</text>\n",
			HS_WIDTH / 2, HS_TOP + 10);
	for (i = 0; i < n; i++) {
		fputs("<g class=\"hm-disk\" data-disk=\"", f);
		xml_text(f, h->disk[i].name);
		fprintf(f, "\">\n<text x=\"%d\" y=\"%.0f\" font-weight=\"bold\">",
			HS_LEFT, y + 14);
		xml_text(f, h->disk[i].name);
		fprintf(f, ": %" PRIu64 " requests</text>\n", h->disk[i].count);
		y += 24;
		hs_cells(f, h, &h->disk[i], lo[i], hi[i], y);
		hs_axes(f, h, lo[i], hi[i], y);
		hs_legend(f, &h->disk[i], y);
		fputs("</g>\n", f);
		y += (hi[i] - lo[i] + 1) * HS_CELL_H + HS_PANEL_GAP;
	}
	fputs("</svg>\n", f);
}
