// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: a flame graph as SVG, with its script inline (no fetch, no
 * font but the browser's own monospace).  One box per node of the tree
 * (flame.c), the root "all" at the bottom, callees above their callers,
 * widths in proportion to samples.  Each box is a <g class="fr"> with a
 * <title> (the browser's tooltip: name, samples, percent of all), its
 * place in samples (data-x, data-w) and depth (data-d), so the script can
 * zoom: a click on a box widens it to the whole graph, shows its callees
 * and dims its callers; a click on "Reset zoom" or the root undoes it.
 * "Search" asks for a regular expression, colours the matching boxes and
 * shows the share of samples under them.  The line at the bottom says
 * what the pointer is on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "pictures/picture.h"

#define FL_WIDTH	1200.0	/* px */
#define FL_PAD		10.0	/* px left and right */
#define FL_ROW		16	/* px per frame */
#define FL_TOP		44	/* px above the frames: title, buttons */
#define FL_BOTTOM	28	/* px below: the details line */
#define FL_CHAR		7.3	/* px of a 12 px monospace character */
#define FL_MIN_PX	0.1	/* narrower boxes are drawn when zoomed */

/* A warm colour from the name: the same function, the same colour. */
static void fl_colour(const char *name, unsigned int *r, unsigned int *g,
		      unsigned int *b)
{
	uint32_t h = 2166136261u;
	size_t n = strlen(name);
	const char *p;

	for (p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	if (n > 4 && !strcmp(name + n - 4, "_[k]")) {
		/* kernel: orange */
		*r = 220 + h % 36;
		*g = 120 + (h >> 8) % 60;
		*b = 40 + (h >> 16) % 40;
	} else {
		/* user: red to yellow */
		*r = 205 + h % 50;
		*g = (h >> 8) % 200;
		*b = (h >> 16) % 55;
	}
}

static const char fl_style[] =
	"<style>\n"
	"#meas-flame text { font-family: monospace; font-size: 12px; fill: #000; }\n"
	"#meas-flame .fr { cursor: pointer; }\n"
	"#meas-flame .fr:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	"#meas-flame .fr.parent { opacity: 0.5; }\n"
	"#meas-flame .fr text { pointer-events: none; }\n"
	"#meas-flame .btn { cursor: pointer; fill: #336; }\n"
	"#meas-flame .title { font-size: 17px; text-anchor: middle; }\n"
	"</style>\n";

/*
 * The script: plain ECMAScript, no ]]> inside.  measFlame.zoom(g),
 * .search(re) and .reset() are there for tests and the console.
 */
static const char fl_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"  var root = document.getElementById('meas-flame');\n"
	"  var W = +root.getAttribute('data-width'), P = +root.getAttribute('data-pad');\n"
	"  var C = +root.getAttribute('data-char'), total = +root.getAttribute('data-total');\n"
	"  var frames = root.querySelectorAll('g.fr');\n"
	"  var details = root.querySelector('#meas-details');\n"
	"  var unzoomBtn = root.querySelector('#meas-unzoom');\n"
	"  var matchedText = root.querySelector('#meas-matched');\n"
	"  function num(g, a) { return +g.getAttribute('data-' + a); }\n"
	"  function fit(name, px) {\n"
	"    var n = Math.floor((px - 6) / C);\n"
	"    if (n < 3) return '';\n"
	"    return name.length <= n ? name : name.slice(0, n - 2) + '..';\n"
	"  }\n"
	"  function place(g, left, px) {\n"
	"    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"    g.style.display = px < 0.1 ? 'none' : '';\n"
	"    r.setAttribute('x', left.toFixed(2));\n"
	"    r.setAttribute('width', Math.max(px - 0.5, 0.1).toFixed(2));\n"
	"    t.setAttribute('x', (left + 3).toFixed(2));\n"
	"    t.textContent = fit(g.getAttribute('data-n'), px);\n"
	"  }\n"
	"  function zoom(z) {\n"
	"    var x0 = num(z, 'x'), w0 = num(z, 'w'), d0 = num(z, 'd'), i;\n"
	"    for (i = 0; i < frames.length; i++) {\n"
	"      var g = frames[i], x = num(g, 'x'), w = num(g, 'w'), d = num(g, 'd');\n"
	"      if (x + w <= x0 || x >= x0 + w0) { g.style.display = 'none'; continue; }\n"
	"      if (d < d0) {\n"
	"        g.classList.add('parent');\n"
	"        place(g, P, W - 2 * P);\n"
	"      } else {\n"
	"        g.classList.remove('parent');\n"
	"        place(g, P + (x - x0) * (W - 2 * P) / w0, w * (W - 2 * P) / w0);\n"
	"      }\n"
	"    }\n"
	"    unzoomBtn.style.opacity = d0 ? '1' : '0.3';\n"
	"  }\n"
	"  function reset() { zoom(frames[0]); }\n"
	"  function search(re) {\n"
	"    var rx = null, hit = [], i, sum = 0, end = -1;\n"
	"    if (re) rx = new RegExp(re);\n"
	"    for (i = 0; i < frames.length; i++) {\n"
	"      var g = frames[i], r = g.querySelector('rect');\n"
	"      if (rx && rx.test(g.getAttribute('data-n'))) {\n"
	"        r.setAttribute('fill', 'rgb(230,0,230)');\n"
	"        hit.push(g);\n"
	"      } else {\n"
	"        r.setAttribute('fill', g.getAttribute('data-fill'));\n"
	"      }\n"
	"    }\n"
	"    hit.sort(function (a, b) { return num(a, 'x') - num(b, 'x') || num(b, 'w') - num(a, 'w'); });\n"
	"    for (i = 0; i < hit.length; i++) {\n"
	"      var x = num(hit[i], 'x'), w = num(hit[i], 'w');\n"
	"      if (x >= end) { sum += w; end = x + w; }\n"
	"    }\n"
	"    matchedText.textContent = rx ? 'Matched: ' + (total ? 100 * sum / total : 0).toFixed(1) + '%' : '';\n"
	"    return hit.length;\n"
	"  }\n"
	"  root.addEventListener('click', function (e) {\n"
	"    var g = e.target.closest('g.fr');\n"
	"    if (g) zoom(g);\n"
	"  });\n"
	"  root.addEventListener('mouseover', function (e) {\n"
	"    var g = e.target.closest('g.fr');\n"
	"    if (g) details.textContent = g.querySelector('title').textContent;\n"
	"  });\n"
	"  root.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"  unzoomBtn.addEventListener('click', reset);\n"
	"  root.querySelector('#meas-search').addEventListener('click', function () {\n"
	"    var re = window.prompt('Search (regular expression)', '');\n"
	"    if (re !== null) search(re);\n"
	"  });\n"
	"  window.measFlame = { zoom: zoom, search: search, reset: reset };\n"
	"})();\n"
	"]]></script>\n";

static void fl_node(FILE *f, const struct flame *fl, size_t i, double height)
{
	const struct flame_node *n = &fl->n[i];
	uint64_t total = fl->n[0].count;
	unsigned int r, g, b;
	char label[512];
	double left, px, y;

	px = flame_px(n->x, n->count, 0, total, FL_PAD, FL_WIDTH - 2 * FL_PAD,
		      &left);
	y = height - FL_BOTTOM - (n->depth + 1) * FL_ROW;
	fl_colour(n->name, &r, &g, &b);
	fprintf(f, "<g class=\"fr\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64
		"\" data-d=\"%u\" data-fill=\"rgb(%u,%u,%u)\" data-n=\"",
		n->x, n->count, n->depth, r, g, b);
	xml_text(f, n->name);
	fprintf(f, "\"%s><title>", px < FL_MIN_PX ? " style=\"display:none\"" : "");
	xml_text(f, n->name);
	fprintf(f, " (%" PRIu64 " samples, %.2f%%)</title>", n->count,
		total ? 100.0 * n->count / total : 0.0);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
		"rx=\"2\" fill=\"rgb(%u,%u,%u)\"/>", left, y,
		px - 0.5 > 0.1 ? px - 0.5 : 0.1, FL_ROW - 1, r, g, b);
	flame_fit(n->name, px, FL_CHAR, label, sizeof(label));
	fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", left + 3, y + FL_ROW - 4.5);
	xml_text(f, label);
	fputs("</text></g>\n", f);
}

void flame_svg(FILE *f, struct flame *fl, const char *title,
	       const char *subtitle, bool standalone)
{
	double height = FL_TOP + FL_BOTTOM + (fl->max_depth + 1) * FL_ROW;
	size_t i;

	flame_layout(fl);
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"meas-flame\" "
		"version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" data-width=\"%.0f\" data-pad=\"%.0f\" "
		"data-char=\"%.1f\" data-total=\"%" PRIu64 "\">\n",
		FL_WIDTH, height, FL_WIDTH, height, FL_WIDTH, FL_PAD, FL_CHAR,
		fl->n[0].count);
	fputs(fl_style, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f8f8f0\"/>\n",
		FL_WIDTH, height);
	fprintf(f, "<text class=\"title\" x=\"%.0f\" y=\"20\">", FL_WIDTH / 2);
	xml_text(f, title);
	fputs("</text>\n", f);
	if (subtitle) {
		fprintf(f, "<text x=\"%.0f\" y=\"36\" style=\"text-anchor: middle\">",
			FL_WIDTH / 2);
		xml_text(f, subtitle);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"meas-unzoom\" class=\"btn\" x=\"%.0f\" y=\"20\" "
		"style=\"opacity: 0.3\">Reset zoom</text>\n", FL_PAD);
	fprintf(f, "<text id=\"meas-search\" class=\"btn\" x=\"%.0f\" y=\"20\" "
		"style=\"text-anchor: end\">Search</text>\n", FL_WIDTH - FL_PAD);
	fprintf(f, "<text id=\"meas-matched\" x=\"%.0f\" y=\"%.0f\" "
		"style=\"text-anchor: end\"></text>\n", FL_WIDTH - FL_PAD,
		height - 10);
	fprintf(f, "<text id=\"meas-details\" x=\"%.0f\" y=\"%.0f\"> </text>\n",
		FL_PAD, height - 10);
	fputs("<g id=\"meas-frames\">\n", f);
	for (i = 0; i < fl->nn; i++)
		fl_node(f, fl, i, height);
	fputs("</g>\n", f);
	fputs(fl_script, f);
	fputs("</svg>\n", f);
}
