/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measctl: pictures, self-contained SVG and HTML files that a browser
 * shows without fetching anything (Documentation/pictures.rst).
 * xmlout.c escapes text; flamesvg.c draws a flame graph (its arithmetic
 * in flame.c); heatsvg.c the I/O latency heat map (its cells in
 * heatmap.c); htmlreport.c the page of measctl run --html.
 */
#ifndef MEASCTL_PICTURE_H
#define MEASCTL_PICTURE_H

#include <stdbool.h>
#include <stdio.h>
#include "pictures/flame.h"
#include "pictures/heatmap.h"

/* xmlout.c: @s as XML character data or attribute value. */
void xml_text(FILE *f, const char *s);

/*
 * flamesvg.c: the flame graph of @fl (laid out here) as an <svg> element
 * with its script: zoom on click, search, a tooltip and a details line
 * with counts and percent.  @standalone: a whole SVG file (XML
 * declaration and namespace); otherwise an element to put in HTML.
 */
void flame_svg(FILE *f, struct flame *fl, const char *title,
	       const char *subtitle, bool standalone);

/*
 * flamecmd.c: folded stacks from @in into @fl, skipping empty lines and
 * '#' comments.  0, -EINVAL (at line *@lineno), -ENOMEM, -EIO.
 */
int flame_load(FILE *in, struct flame *fl, size_t *lineno);

/*
 * heatsvg.c: the latency heat map of @h (folded here), one panel per
 * disk, as an <svg> element; @standalone as for flame_svg().
 */
void heatmap_svg(FILE *f, struct heatmap *h, const char *title,
		 bool standalone);

/* htmlreport.c: the page of measctl run --html. */
struct c0_snap;
struct io_snap;

struct html_run {
	char *const *cmd;
	int status, exit_code;		/* wait status, shell's status */
	unsigned int cpus;
	const struct c0_snap *a, *b;	/* class 0 subclass 0 before, after */
	const struct io_snap *ia, *ib;	/* disks before, after; or NULL */
	struct flame *fl;		/* the profile, or NULL */
};

void run_html(FILE *f, const struct html_run *r);

#endif /* MEASCTL_PICTURE_H */
