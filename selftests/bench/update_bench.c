// SPDX-License-Identifier: GPL-2.0
/*
 * UPDATESTATISTICS benchmark: MEAS_IOC_UPDATE calls per second on one
 * item of a user-defined class (class 12), by kind of update, from one
 * thread pinned to CPU 0 and from one thread per CPU.  The first line,
 * an update of a class that is defined but not enabled (code 1), is the
 * cost of the system call and the lookup alone; the difference to it is
 * what the storage costs.
 *   update_bench [-n CALLS]
 * Prints one line per case: name, threads, calls per second (all threads).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "libmeas.h"

#define BCLASS	12

struct bcase {
	const char *name;
	uint32_t flags;
	int item;		/* 0: counter, 1: gauge */
	int enabled;
};

static const struct bcase cases[] = {
	{ "not-enabled (code 1)",	0,			0, 0 },
	{ "counter add",		0,			0, 1 },
	{ "counter add, fast",		MEAS_UPDATE_FAST,	0, 1 },
	{ "gauge add",			0,			1, 1 },
	{ "gauge replace",		MEAS_UPDATE_NEWVALUE,	1, 1 },
	{ "counter replace",		MEAS_UPDATE_NEWVALUE,	0, 1 },
};

struct worker {
	int fd, cpu;
	long n;
	const struct bcase *c;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct meas_update u = {
		.size = sizeof(u), .flags = w->c->flags, .class = BCLASS,
		.subclass = 0, .entry = 1, .startingitem = w->c->item,
		.valuechange = 1,
	};
	cpu_set_t set;
	long i;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < w->n; i++)
		ioctl(w->fd, MEAS_IOC_UPDATE, &u);
	return NULL;
}

static double run(int fd, const struct bcase *c, int threads, long n)
{
	struct worker w[64];
	pthread_t t[64];
	double t0;
	int i;

	t0 = now_s();
	for (i = 0; i < threads; i++) {
		w[i] = (struct worker){ .fd = fd, .cpu = i, .n = n, .c = c };
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	return (double)n * threads / (now_s() - t0);
}

int main(int argc, char **argv)
{
	static struct meas_item_def items[2] = {
		{ .name = "counter", .kind = MEAS_ITEM_COUNTER },
		{ .name = "gauge", .kind = MEAS_ITEM_GAUGE },
	};
	long n = 200000, cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct meas_define d;
	int fd, opt, rc, threads;
	unsigned int i;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return 2;
		n = strtol(optarg, NULL, 10);
	}
	if (cpus > 64)
		cpus = 64;
	fd = meas_open();
	if (fd < 0)
		return 1;
	memset(&d, 0, sizeof(d));
	d.class = BCLASS;
	d.nsub = 1;
	d.sub[0].entries = 1;
	d.sub[0].items = 2;
	d.items = (uintptr_t)items;
	d.nitems = 2;
	d.flags = MEAS_DEFINE_REPLACE;
	if (meas_define(fd, &d, &rc)) {
		fprintf(stderr, "define: code %d\n", rc);
		return 1;
	}
	for (threads = 1; threads <= cpus; threads = threads == 1 ? cpus : cpus + 1)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (cases[i].enabled && meas_start(fd, 1U << BCLASS, &rc))
				return 1;
			printf("%-22s %2d %12.0f\n", cases[i].name, threads,
			       run(fd, &cases[i], threads, n));
			meas_stop(fd, 1U << BCLASS, &rc);
		}
	meas_undefine(fd, BCLASS, &rc);
	close(fd);
	return 0;
}
