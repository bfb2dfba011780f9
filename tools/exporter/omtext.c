// SPDX-License-Identifier: GPL-2.0
/*
 * The two text formats of a scrape: OpenMetrics 1.0
 * (application/openmetrics-text) and the classic Prometheus text format
 * 0.0.4 (text/plain), chosen by the scraper's Accept header.  They differ
 * in the metadata: OpenMetrics names a counter family without "_total",
 * has UNIT lines and the info type, and ends with "# EOF".
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exporter.h"

void om_printf(struct om_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(b->f, fmt, ap);
	va_end(ap);
}

static const char *const om_type_name[] = {
	[MX_COUNTER] = "counter",
	[MX_GAUGE] = "gauge",
	[MX_HISTOGRAM] = "histogram",
};

/*
 * The metadata of a family.  The classic format names a counter by its
 * sample name (with "_total") and has no UNIT.
 */
void om_family(struct om_buf *b, const char *name, enum mx_type type,
	       const char *unit, const char *help)
{
	const char *sfx = "", *t = om_type_name[type];

	if (b->fmt == OM_PROMETHEUS) {
		if (type == MX_COUNTER)
			sfx = "_total";
		om_printf(b, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, sfx,
			  help, name, sfx, t);
		return;
	}
	om_printf(b, "# TYPE %s %s\n", name, t);
	if (unit[0])
		om_printf(b, "# UNIT %s %s\n", name, unit);
	om_printf(b, "# HELP %s %s\n", name, help);
}

static void om_name(struct om_buf *b, const char *name, const char *suffix,
		    const char *labels)
{
	if (labels[0])
		om_printf(b, "%s%s{%s} ", name, suffix, labels);
	else
		om_printf(b, "%s%s ", name, suffix);
}

void om_sample_u64(struct om_buf *b, const char *name, const char *suffix,
		   const char *labels, uint64_t v)
{
	om_name(b, name, suffix, labels);
	om_printf(b, "%llu\n", (unsigned long long)v);
}

/* Enough digits that a value read back is the value written. */
void om_sample_f(struct om_buf *b, const char *name, const char *suffix,
		 const char *labels, double v)
{
	om_name(b, name, suffix, labels);
	om_printf(b, "%.17g\n", v);
}

void om_sample_ns(struct om_buf *b, const char *name, const char *suffix,
		  const char *labels, uint64_t ns)
{
	om_name(b, name, suffix, labels);
	om_printf(b, "%llu.%09llu\n", (unsigned long long)(ns / 1000000000),
		  (unsigned long long)(ns % 1000000000));
}

void om_end(struct om_buf *b)
{
	if (b->fmt == OM_OPENMETRICS)
		om_printf(b, "# EOF\n");
}

const char *om_content_type(enum om_format fmt)
{
	return fmt == OM_OPENMETRICS ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}

/*
 * OpenMetrics unless the scraper names the classic text format and not
 * OpenMetrics: Prometheus offers both and prefers OpenMetrics; curl's
 * "*" + "/" + "*" gets OpenMetrics.
 */
enum om_format om_negotiate(const char *accept)
{
	if (!accept || strstr(accept, "application/openmetrics-text"))
		return OM_OPENMETRICS;
	if (strstr(accept, "text/plain"))
		return OM_PROMETHEUS;
	return OM_OPENMETRICS;
}
