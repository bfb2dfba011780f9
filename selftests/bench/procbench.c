// SPDX-License-Identifier: GPL-2.0
/*
 * Reading every process: class 15 against /proc.  Starts NPROC sleeping
 * processes, enables class 15, then times, alternately and REPS times:
 *  - /proc/<pid>/stat and /proc/<pid>/status of each (open, read, close),
 *  - one GETPROCSTATS with allpins (every entry up to the high-water mark),
 *  - one GETPROCSTATS per process,
 *  - the generic netlink dump of every process.
 * Prints the median of each in microseconds and the ratios against /proc;
 * every method must see every process.
 *   procbench [-p NPROC] [-r REPS]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "libmeas.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n > 0 ? 0 : -1;
}

static int by_proc(const pid_t *pids, int n)
{
	char path[64], buf[4096];
	int i, seen = 0;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pids[i]);
		if (!read_file(path, buf, sizeof(buf)))
			seen++;
	}
	return seen;
}

static int is_child(const pid_t *pids, int n, uint64_t pid)
{
	/* The children's PIDs ascend: a binary search. */
	int lo = 0, hi = n - 1, mid;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if ((uint64_t)pids[mid] == pid)
			return 1;
		if ((uint64_t)pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

static const pid_t *g_pids;
static int g_n;

static int by_allpins(int fd, uint64_t *buf, size_t len)
{
	struct meas_procstats p = {
		.allpins = 1,
		.wordcount = MEAS_PROC_ITEMS,
		.buf = (uintptr_t)buf,
		.buflen = len,
	};
	uint64_t i, *e;
	int seen = 0;

	if (meas_getprocstats(fd, &p))
		return -1;
	for (i = 1; i < p.entries; i++) {
		e = buf + i * MEAS_PROC_ITEMS;
		if (e[MEAS_P_STATE] == MEAS_PSTATE_LIVE &&
		    is_child(g_pids, g_n, e[MEAS_P_PID]))
			seen++;
	}
	return seen;
}

static int by_pin(int fd, const pid_t *pids, int n)
{
	uint64_t e[MEAS_PROC_ITEMS];
	int i, rc, seen = 0;

	for (i = 0; i < n; i++)
		if (!meas_proc_get(fd, 0, pids[i], 0, MEAS_PROC_ITEMS, e,
				   sizeof(e), &rc))
			seen++;
	return seen;
}

static int count_child(const struct meas_proc_rec *r, uint64_t seq,
		       void *arg)
{
	(void)seq;
	if (r->item[MEAS_P_STATE] == MEAS_PSTATE_LIVE &&
	    is_child(g_pids, g_n, r->item[MEAS_P_PID]))
		++*(int *)arg;
	return 0;
}

static int by_dump(struct meas_nl *nl)
{
	int seen = 0;

	return meas_nl_dump(nl, count_child, &seen) ? -1 : seen;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

enum { M_PROC, M_ALL, M_PIN, M_DUMP, NM };

int main(int argc, char **argv)
{
	static const char *const name[NM] = {
		"/proc/<pid>/stat+status", "GETPROCSTATS allpins",
		"GETPROCSTATS per pid", "netlink dump",
	};
	int nproc = 1000, reps = 15, opt, fd, err, rc, i, r, m, seen;
	uint64_t h[MEAS_PROC_ITEMS], *buf;
	double *t[NM], t0, med[NM];
	struct meas_nl *nl;
	pid_t *pids;
	size_t len;

	while ((opt = getopt(argc, argv, "p:r:")) != -1) {
		if (opt == 'p')
			nproc = atoi(optarg);
		else if (opt == 'r')
			reps = atoi(optarg);
		else
			return 2;
	}
	if (nproc < 1 || reps < 1)
		return 2;
	pids = calloc(nproc, sizeof(*pids));
	for (m = 0; m < NM; m++)
		t[m] = calloc(reps, sizeof(double));
	fd = meas_open();
	if (!pids || fd < 0 || meas_start(fd, 1U << MEAS_CLASS_PROC, &rc)) {
		fprintf(stderr, "procbench: cannot enable class 15\n");
		return 1;
	}
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			pause();
			_exit(0);
		}
	}
	g_pids = pids;
	g_n = nproc;
	nl = meas_nl_open(&err);
	if (!nl || meas_proc_header(fd, h, &rc)) {
		fprintf(stderr, "procbench: no netlink family or header\n");
		return 1;
	}
	len = h[MEAS_P0_ENTRIES] * MEAS_PROC_ITEMS * sizeof(uint64_t);
	buf = malloc(len);
	memset(buf, 0, len);
	for (r = -1; r < reps; r++) {	/* round -1 warms up */
		for (m = 0; m < NM; m++) {
			t0 = now_us();
			switch (m) {
			case M_PROC:
				seen = by_proc(pids, nproc);
				break;
			case M_ALL:
				seen = by_allpins(fd, buf, len);
				break;
			case M_PIN:
				seen = by_pin(fd, pids, nproc);
				break;
			default:
				seen = by_dump(nl);
				break;
			}
			if (r >= 0)
				t[m][r] = now_us() - t0;
			if (seen != nproc) {
				fprintf(stderr, "procbench: %s saw %d of %d\n",
					name[m], seen, nproc);
				return 1;
			}
		}
	}
	for (m = 0; m < NM; m++)
		med[m] = median(t[m], reps);
	printf("reading %d processes (%d runs, medians; table of %llu entries, %llu used):\n",
	       nproc, reps, (unsigned long long)h[MEAS_P0_ENTRIES],
	       (unsigned long long)h[MEAS_P0_HIGH_WATER]);
	for (m = 0; m < NM; m++)
		printf("  %-26s %10.0f us  %6.1f x faster than /proc\n",
		       name[m], med[m], med[M_PROC] / med[m]);
	for (i = 0; i < nproc; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	meas_nl_close(nl);
	meas_stop(fd, 1U << MEAS_CLASS_PROC, &rc);
	close(fd);
	return 0;
}
