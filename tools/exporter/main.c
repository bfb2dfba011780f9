// SPDX-License-Identifier: GPL-2.0
/*
 * meas-exporter: serve the meas counters to Prometheus.
 *
 *   meas-exporter [--listen ADDR] [--port N] [--max-connections N]
 *                 [--timeout SEC] [--min-interval SEC] [--classes LIST]
 *                 [--no-user-classes]
 *                 [--process-groups] [--group-config FILE]
 *                 [--cgroups] [--cgroup-depth N] [--cgroup-max N]
 *   meas-exporter --once [--format openmetrics|prometheus] [...]
 *
 * Documentation/exporter.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <microhttpd.h>

#include "exporter.h"

#define DEFAULT_PORT	9872

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: meas-exporter [options]\n"
		"  --listen ADDR          numeric address to listen on (127.0.0.1)\n"
		"  --port N               TCP port (%u)\n"
		"  --max-connections N    connections at once, 1..1024 (8)\n"
		"  --timeout SEC          close a silent connection after SEC, 1..300 (10)\n"
		"  --min-interval SEC     serve a scrape again for SEC, 0..60 (0: never)\n"
		"  --classes LIST         module classes to hold: 0 and/or 14 (0,14)\n"
		"  --no-user-classes      do not hold and export user-defined classes\n"
		"  --process-groups       hold class 15 and export process groups\n"
		"  --group-config FILE    the groups' configuration (implies --process-groups)\n"
		"  --cgroups              hold class 15 and export per-cgroup families\n"
		"  --cgroup-depth N       levels of the cgroup tree, 0..16, 0 all (%u)\n"
		"  --cgroup-max N         cgroups exported, 1..4096, the rest as (other) (%u)\n"
		"  --once                 print one scrape on stdout and exit\n"
		"  --format FMT           with --once: openmetrics (default) or prometheus\n"
		"  --version              print the version\n",
		DEFAULT_PORT, MX_CG_DEPTH_DEFAULT, MX_CG_MAX_DEFAULT);
}

/* "0,14": the module's classes an exporter may hold. */
static int parse_classes(const char *s, uint32_t *mask)
{
	char *copy = strdup(s), *tok, *save = NULL;
	unsigned int c;
	int err = 0;

	if (!copy)
		return -1;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		if (mx_parse_uint(tok, 0, 15, &c) ||
		    (c != MEAS_CLASS_GLOBAL && c != MEAS_CLASS_IO))
			err = -1;
		else
			*mask |= 1U << c;
	}
	free(copy);
	return err || !*mask ? -1 : 0;
}

struct opts {
	struct mx_http_opts http;
	uint32_t classes;
	int user;
	int once;
	enum om_format fmt;
	int groups;
	struct mx_grpconf grp;
	int cgroups;
	unsigned int cg_depth, cg_max;
};

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "port", required_argument, NULL, 'p' },
		{ "max-connections", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "min-interval", required_argument, NULL, 'i' },
		{ "classes", required_argument, NULL, 'C' },
		{ "no-user-classes", no_argument, NULL, 'U' },
		{ "once", no_argument, NULL, '1' },
		{ "process-groups", no_argument, NULL, 'g' },
		{ "group-config", required_argument, NULL, 'G' },
		{ "cgroups", no_argument, NULL, 'k' },
		{ "cgroup-depth", required_argument, NULL, 'D' },
		{ "cgroup-max", required_argument, NULL, 'M' },
		{ "format", required_argument, NULL, 'f' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, bad = 0;

	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'l':
			o->http.addr = optarg;
			break;
		case 'p':
			bad |= mx_parse_uint(optarg, 1, 65535, &o->http.port);
			break;
		case 'c':
			bad |= mx_parse_uint(optarg, 1, 1024, &o->http.max_conns);
			break;
		case 't':
			bad |= mx_parse_uint(optarg, 1, 300, &o->http.timeout_s);
			break;
		case 'i':
			bad |= mx_parse_uint(optarg, 0, 60,
					     &o->http.min_interval_s);
			break;
		case 'C':
			bad |= parse_classes(optarg, &o->classes);
			break;
		case 'U':
			o->user = 0;
			break;
		case '1':
			o->once = 1;
			break;
		case 'g':
			o->groups = 1;
			break;
		case 'G':
			o->groups = 1;
			if (mx_grpconf_load(&o->grp, optarg))
				exit(2);
			break;
		case 'k':
			o->cgroups = 1;
			break;
		case 'D':
			o->cgroups = 1;
			bad |= mx_parse_uint(optarg, 0, MX_GRP_DEPTH_MAX,
					     &o->cg_depth);
			break;
		case 'M':
			o->cgroups = 1;
			bad |= mx_parse_uint(optarg, 1, MX_GRP_MAX_LIMIT,
					     &o->cg_max);
			break;
		case 'f':
			if (!strcmp(optarg, "prometheus"))
				o->fmt = OM_PROMETHEUS;
			else if (strcmp(optarg, "openmetrics"))
				bad = -1;
			break;
		case 'V':
			printf("meas-exporter %s\n", MEAS_VERSION);
			exit(0);
		case 'h':
			print_usage(stdout);
			exit(0);
		default:
			bad = -1;
		}
	}
	if (bad || optind != argc) {
		print_usage(stderr);
		return -1;
	}
	return 0;
}

static int scrape_once(struct mx_hold *h, enum om_format fmt)
{
	struct om_buf b = { .f = stdout, .fmt = fmt };
	int err = mx_scrape(h, &b);

	if (err)
		fprintf(stderr, "meas-exporter: scrape: %s\n", strerror(-err));
	return err || fflush(stdout) ? 1 : 0;
}

/* Serve until SIGTERM or SIGINT. */
static int serve(struct opts *o, struct mx_hold *h)
{
	struct MHD_Daemon *d;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);	/* the server thread too */
	signal(SIGPIPE, SIG_IGN);
	d = mx_http_start(&o->http, h);
	if (!d)
		return 1;
	fprintf(stderr, "meas-exporter: listening on %s port %u\n",
		o->http.addr, o->http.port);
	sigwait(&set, &sig);
	MHD_stop_daemon(d);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.http = { "127.0.0.1", DEFAULT_PORT, 8, 10, 0 },
		.classes = 1U | 1U << MEAS_CLASS_IO,
		.user = 1,
		.cg_depth = MX_CG_DEPTH_DEFAULT,
		.cg_max = MX_CG_MAX_DEFAULT,
	};
	struct mx_hold h = { 0 };
	int rc;

	mx_grpconf_default(&o.grp);
	if (parse(argc, argv, &o))
		return 2;
	if (o.groups || o.cgroups)
		o.classes |= 1U << MEAS_CLASS_PROC;
	if (mx_hold_start(&h, o.classes, o.user))
		return 1;
	if (o.groups && mx_groups_start(&o.grp)) {
		mx_hold_stop(&h);
		return 1;
	}
	if (o.cgroups && mx_cgroups_start(o.cg_depth, o.cg_max)) {
		fprintf(stderr, "meas-exporter: cannot open the generic netlink family '%s'\n",
			MEAS_GENL_NAME);
		mx_groups_stop();
		mx_hold_stop(&h);
		return 1;
	}
	rc = o.once ? scrape_once(&h, o.fmt) : serve(&o, &h);
	mx_cgroups_stop();
	mx_groups_stop();
	mx_hold_stop(&h);
	return rc;
}
