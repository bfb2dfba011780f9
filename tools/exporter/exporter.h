/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meas-exporter: the meas counters as an OpenMetrics (and classic
 * Prometheus text) endpoint.  Documentation/exporter.rst.  The metric
 * table, the classes held and the process groups are the metrics
 * library's (tools/lib/metrics/metrics.h).
 *
 *   scrape.c    one GETSTATISTICS per subclass, rendered by the table
 *   omtext.c    the two text formats
 *   http.c      GET /metrics over libmicrohttpd, bounded
 *   main.c      options, start, signals
 */
#ifndef MEAS_EXPORTER_H
#define MEAS_EXPORTER_H

#include <stdint.h>
#include <stdio.h>

#include "metrics.h"

/* ---- text output (omtext.c) --------------------------------------- */

enum om_format { OM_OPENMETRICS, OM_PROMETHEUS };

/* The text of a scrape, in a memory stream (open_memstream()). */
struct om_buf {
	FILE *f;
	enum om_format fmt;
};

void om_printf(struct om_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void om_family(struct om_buf *b, const char *name, enum mx_type type,
	       const char *unit, const char *help);
/* One sample: @suffix ("_total", "_bucket"...), @labels ("" or k="v",...). */
void om_sample_u64(struct om_buf *b, const char *name, const char *suffix,
		   const char *labels, uint64_t v);
void om_sample_f(struct om_buf *b, const char *name, const char *suffix,
		 const char *labels, double v);
/* Nanoseconds as seconds, exactly: nine decimals. */
void om_sample_ns(struct om_buf *b, const char *name, const char *suffix,
		  const char *labels, uint64_t ns);
void om_end(struct om_buf *b);
const char *om_content_type(enum om_format fmt);
enum om_format om_negotiate(const char *accept);

/* ---- a scrape (scrape.c) --------------------------------------------- */

int mx_scrape(struct mx_hold *h, struct om_buf *out);

/* ---- the HTTP side (http.c) ------------------------------------------ */

struct mx_http_opts {
	const char *addr;	/* listen address, 127.0.0.1 by default */
	unsigned int port;
	unsigned int max_conns;
	unsigned int timeout_s;
	unsigned int min_interval_s;	/* a scrape's text serves this long */
};

struct MHD_Daemon;
struct MHD_Daemon *mx_http_start(const struct mx_http_opts *o,
				 struct mx_hold *h);

#endif /* MEAS_EXPORTER_H */
