// SPDX-License-Identifier: GPL-2.0
/*
 * measctl run --html: one self-contained HTML page for a measured
 * command, for people who would rather look than read.  The command and
 * its exit, a bar chart of the stops by reason (class 0 items "stops-*"),
 * the rates of each disk that was busy (class 0 subclasses 1 and 4, as
 * iostat computes them), every class 0 delta as a table, and, when the
 * run was profiled (--profile), the flame graph (flamesvg.c) inline.  No
 * external script, style sheet or font: the browser's own sans-serif and
 * monospace.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>
#include "cli/cli.h"
#include "pictures/picture.h"
#include "cli/rate.h"
#include "disk/disk.h"
#include "sched/sched.h"

#define HB_LABEL	180	/* px: a bar's label */
#define HB_WIDTH	560	/* px: the longest bar */
#define HB_ROW		22

static const char hr_style[] =
	"<style>\n"
	"body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
	"h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }\n"
	"table { border-collapse: collapse; font-size: 0.9em; }\n"
	"th, td { border: 1px solid #ccc; padding: 2px 8px; }\n"
	"td.n { text-align: right; font-family: monospace; }\n"
	"th { background: #eee; }\n"
	"tr.zero { color: #999; }\n"
	".note { color: #555; font-size: 0.9em; }\n"
	"</style>\n";

static double hr_secs(const struct html_run *r)
{
	return rate_interval_s(&r->a->when, &r->b->when);
}

static void hr_head(FILE *f, const struct html_run *r)
{
	char *const *c;

	fputs("<h1>measctl run: <code>", f);
	for (c = r->cmd; *c; c++) {
		xml_text(f, *c);
		if (c[1])
			fputc(' ', f);
	}
	fputs("</code></h1>\n<p id=\"meas-summary\">", f);
	if (WIFSIGNALED(r->status))
		fprintf(f, "killed by signal %d", WTERMSIG(r->status));
	else
		fprintf(f, "exit status %d", r->exit_code);
	fprintf(f, ", %.3f s elapsed, %u CPUs. The counters are system-wide: "
		"they cover everything the machine did meanwhile.</p>\n",
		hr_secs(r), r->cpus);
}

/* Horizontal bars, one per stop reason, longest first in item order. */
static void hr_stops(FILE *f, const struct html_run *r)
{
	uint64_t d, max = 0;
	unsigned int i, n = 0;
	const char *name;
	double y;

	for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++) {
		name = meas_c0_item_name(i);
		if (!name || strncmp(name, "stops-", 6))
			continue;
		d = r->b->v[i] - r->a->v[i];
		if (d > max)
			max = d;
		n++;
	}
	fputs("<h2>Stops by reason</h2>\n<p class=\"note\">Why running tasks "
	      "left the CPU (Documentation/class0.rst).</p>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"meas-stops\" "
		"width=\"%d\" height=\"%u\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n", HB_LABEL + HB_WIDTH + 90, n * HB_ROW + 4);
	for (i = 0, y = 2; i < MEAS_C0_FIXED_ITEMS; i++) {
		name = meas_c0_item_name(i);
		if (!name || strncmp(name, "stops-", 6))
			continue;
		d = r->b->v[i] - r->a->v[i];
		fprintf(f, "<g class=\"bar\" data-name=\"%s\" data-count=\"%"
			PRIu64 "\"><text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%s"
			"</text><rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" "
			"height=\"%d\" fill=\"#4a78b5\"><title>%s: %" PRIu64
			"</title></rect><text x=\"%.1f\" y=\"%.0f\">%" PRIu64
			"</text></g>\n", name, d, HB_LABEL - 6, y + 14, name,
			HB_LABEL, y, max ? (double)HB_WIDTH * d / max : 0,
			HB_ROW - 6, name, d,
			HB_LABEL + (max ? (double)HB_WIDTH * d / max : 0) + 6,
			y + 14, d);
		y += HB_ROW;
	}
	fputs("</svg>\n", f);
}

static void hr_disks(FILE *f, const struct html_run *r)
{
	double secs = rate_interval_s(&r->ia->when, &r->ib->when);
	struct io_rate rate;
	size_t e, shown = 0;

	fputs("<h2>Disks</h2>\n<table id=\"meas-disks\">\n<tr><th>disk</th>"
	      "<th>r/s</th><th>w/s</th><th>rkB/s</th><th>wkB/s</th>"
	      "<th>r_await ms</th><th>w_await ms</th><th>aqu-sz</th></tr>\n",
	      f);
	for (e = 0; e < r->ib->n; e++) {
		io_rate(e < r->ia->n ? &r->ia->d[e] : NULL, &r->ib->d[e], e,
			secs, &rate);
		if (!io_active(&rate))
			continue;
		fputs("<tr><td>", f);
		xml_text(f, rate.name);
		fprintf(f, "</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>"
			"<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>"
			"<td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%.2f</td></tr>\n", rate.r_s, rate.w_s,
			rate.rkb_s, rate.wkb_s, rate.r_await, rate.w_await,
			rate.aqu);
		shown++;
	}
	fputs("</table>\n", f);
	if (!shown)
		fputs("<p class=\"note\">No disk was busy.</p>\n", f);
}

static void hr_class0(FILE *f, const struct html_run *r)
{
	double secs = hr_secs(r);
	unsigned int i;
	uint64_t d;

	fputs("<h2>Class 0: every counter</h2>\n<table id=\"meas-class0\">\n"
	      "<tr><th>item</th><th>name</th><th>delta</th><th>per second "
	      "or % of CPU time</th></tr>\n", f);
	for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++) {
		if (!meas_c0_item_name(i))
			continue;
		d = r->b->v[i] - r->a->v[i];
		fprintf(f, "<tr%s><td class=\"n\">%u</td><td>%s</td>",
			d ? "" : " class=\"zero\"", i, meas_c0_item_name(i));
		if (meas_c0_item_is_time(i))
			fprintf(f, "<td class=\"n\">%.3f ms</td><td class=\"n\">%.1f%%</td></tr>\n",
				d / 1e6, rate_pct(d, secs, r->cpus));
		else
			fprintf(f, "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%.1f</td></tr>\n",
				d, rate_per_s(d, secs));
	}
	fputs("</table>\n", f);
}

void run_html(FILE *f, const struct html_run *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>measctl run: ", f);
	xml_text(f, r->cmd[0]);
	fputs("</title>\n", f);
	fputs(hr_style, f);
	fputs("</head>\n<body>\n", f);
	hr_head(f, r);
	hr_stops(f, r);
	if (r->ia && r->ib)
		hr_disks(f, r);
	fputs("<h2>Where the CPUs spent their time</h2>\n", f);
	if (r->fl && r->fl->n[0].count) {
		fputs("<p class=\"note\">Click a frame to zoom, Search to "
		      "highlight; the command and its descendants.</p>\n", f);
		flame_svg(f, r->fl, "Flame graph", NULL, false);
	} else {
		fprintf(f, "<p class=\"note\" id=\"meas-noflame\">%s</p>\n",
			r->fl ? "No sample of the command." :
			"Not profiled: <code>measctl run --html FILE --profile "
			"-- CMD</code> adds the flame graph.");
	}
	hr_class0(f, r);
	fputs("</body>\n</html>\n", f);
}
