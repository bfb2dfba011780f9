// SPDX-License-Identifier: GPL-2.0
/*
 * The HTTP side of meas-exporter, on Debian's libmicrohttpd rather than
 * a parser of our own: GET /metrics and nothing else.  Bounded: at most
 * max_conns connections, each closed after timeout_s seconds of silence
 * (a half-open or slow client), a request's headers within
 * MX_HTTP_MEMORY bytes (libmicrohttpd answers larger ones with an
 * error), no request body.  One internal thread serves every
 * connection, so scrapes never overlap.  With --min-interval, a scrape's
 * text is served again to every request for that long: anyone who can
 * connect could otherwise make the exporter read the module (and, with
 * process groups, compose the whole class 15 table) as often as it
 * likes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <microhttpd.h>

#include "exporter.h"

#define MX_HTTP_MEMORY	(32 * 1024)	/* per connection: headers, buffers */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* What the server thread serves: the options, and the last scrape. */
struct mx_served {
	struct mx_hold *h;
	unsigned int min_interval_s;
	char *text[2];			/* the last scrape, by format */
	size_t len[2];
	struct timespec at[2];
};

static struct mx_served served;

/* The last scrape in format @fmt, if it is younger than min_interval_s. */
static int cached(enum om_format fmt)
{
	struct timespec now;
	double age;

	if (!served.min_interval_s || !served.text[fmt] ||
	    clock_gettime(CLOCK_MONOTONIC, &now))
		return 0;
	age = (double)(now.tv_sec - served.at[fmt].tv_sec) +
	      (double)(now.tv_nsec - served.at[fmt].tv_nsec) / 1e9;
	return age >= 0 && age < served.min_interval_s;
}

/* A new scrape in @b's format, kept as the last: 0 or an error. */
static int scrape_new(struct om_buf *b)
{
	char *text = NULL;
	size_t len = 0;
	int err;

	b->f = open_memstream(&text, &len);
	if (!b->f)
		return -ENOMEM;
	err = mx_scrape(served.h, b);
	if (fclose(b->f) || err) {
		free(text);
		return err ?: -EIO;
	}
	free(served.text[b->fmt]);
	served.text[b->fmt] = text;
	served.len[b->fmt] = len;
	clock_gettime(CLOCK_MONOTONIC, &served.at[b->fmt]);
	return 0;
}

static enum MHD_Result serve_metrics(struct MHD_Connection *c)
{
	struct om_buf b = { 0 };
	struct MHD_Response *r;
	enum MHD_Result ret;

	b.fmt = om_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT));
	if (!cached(b.fmt) && scrape_new(&b))
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			     "meas: the regions could not be read\n");
	r = MHD_create_response_from_buffer(served.len[b.fmt],
					    served.text[b.fmt],
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om_content_type(b.fmt));
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * Called once when the headers are in (*state NULL), then again for any
 * body.  A method other than GET, or a body, is refused at once.
 */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	static int seen;

	(void)cls;
	(void)version;
	(void)upload;
	if (strcmp(method, MHD_HTTP_METHOD_GET))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET only\n");
	if (!*state) {
		*state = &seen;
		return MHD_YES;
	}
	if (*upload_size)
		return reply(c, MHD_HTTP_BAD_REQUEST, "no body, please\n");
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "see /metrics\n");
	return serve_metrics(c);
}

/* A numeric IPv4 or IPv6 address and a port. */
static int listen_addr(const char *addr, unsigned int port,
		       struct sockaddr_storage *ss, int *v6)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *ai;
	char service[8];

	snprintf(service, sizeof(service), "%u", port);
	if (getaddrinfo(addr, service, &hints, &ai))
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	return 0;
}

/**
 * mx_http_start() - listen and serve, from libmicrohttpd's own thread
 * @o: address, port and bounds
 * @h: what the scrapes read
 *
 * Return: the daemon, or NULL with a message on stderr.
 */
struct MHD_Daemon *mx_http_start(const struct mx_http_opts *o,
				 struct mx_hold *h)
{
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	int v6;

	if (listen_addr(o->addr, o->port, &ss, &v6)) {
		fprintf(stderr, "meas-exporter: %s: not a numeric address\n",
			o->addr);
		return NULL;
	}
	served.h = h;
	served.min_interval_s = o->min_interval_s;
	d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
			     (v6 ? MHD_USE_IPv6 : 0),
			     (uint16_t)o->port, NULL, NULL, handle, NULL,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_LIMIT, o->max_conns,
			     MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			     (size_t)MX_HTTP_MEMORY,
			     MHD_OPTION_END);
	if (!d)
		fprintf(stderr, "meas-exporter: cannot listen on %s port %u\n",
			o->addr, o->port);
	return d;
}
