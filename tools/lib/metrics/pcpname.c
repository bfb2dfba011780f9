// SPDX-License-Identifier: GPL-2.0
/*
 * The PCP names of the metric table's families: what pmdameas exports
 * them as and what measctl reads back from a PCP archive, from one
 * function so that the two cannot drift apart (Documentation/pcp.rst).
 * Pure logic on the table: no libpcp.
 *
 * A name loses the "meas_" prefix, the "disk_" or "io_" of its group and
 * a "_seconds" suffix (PCP keeps units in the descriptor).  A family of
 * class 0 subclass 0 is meas.sched.LEAF, its label values instances; a
 * per-disk family is meas.disk.dev.LEAF[.VALUE], one metric per label
 * value, over the disk instances; the queue-length histogram is
 * meas.disk.LEAF over DISK::BUCKET instances; a process-group family is
 * meas.group.LEAF.
 */
#include <stdio.h>
#include <string.h>

#include "metrics.h"

static int is_disk(enum mx_src s)
{
	return s == MX_SRC_DISC || s == MX_SRC_XFER || s == MX_SRC_LAT ||
	       s == MX_SRC_QLEN || s == MX_SRC_LATHIST;
}

/* @n into @out without a "_seconds" suffix: PCP keeps units apart. */
static void no_seconds(char *out, size_t len, const char *n)
{
	size_t l;

	snprintf(out, len, "%s", n);
	l = strlen(out);
	if (l > 8 && !strcmp(out + l - 8, "_seconds"))
		out[l - 8] = '\0';
}

void mx_pcp_leaf(char *out, size_t len, const struct mx_family *f)
{
	const char *n = f->name;

	if (!strncmp(n, "meas_", 5))
		n += 5;
	if (is_disk(f->src) && !strncmp(n, "disk_", 5))
		n += 5;
	if (f->src == MX_SRC_IO && !strncmp(n, "io_", 3))
		n += 3;
	no_seconds(out, len, n);
}

/*
 * A process-group family: meas.group.LEAF, the name without
 * "meas_process_", a "group_" or "groups_" and "_seconds"
 * (meas_process_group_cpu_seconds: meas.group.cpu).
 */
void mx_pcp_group_name(char *out, size_t len, const struct mx_grp_family *f)
{
	const char *n = f->name;
	char l[96];

	if (!strncmp(n, "meas_process_", 13))
		n += 13;
	if (!strncmp(n, "groups_", 7))
		n += 7;
	else if (!strncmp(n, "group_", 6))
		n += 6;
	no_seconds(l, sizeof(l), n);
	snprintf(out, len, "meas.group.%s", l);
}

int mx_pcp_series_name(char *out, size_t len, const struct mx_family *f,
		       const struct mx_series *se)
{
	char l[96];

	mx_pcp_leaf(l, sizeof(l), f);
	switch (f->src) {
	case MX_SRC_FIXED:
		snprintf(out, len, "meas.sched.%s", l);
		return 0;
	case MX_SRC_DISC:
	case MX_SRC_XFER:
		snprintf(out, len, "meas.disk.dev.%s%s%s", l,
			 se->lv ? "." : "", se->lv ? se->lv : "");
		return 0;
	case MX_SRC_QLEN:
		snprintf(out, len, "meas.disk.%s", l);
		return 0;
	default:
		return -1;
	}
}

/*
 * Class 15, per process: meas.proc.NAME over the process instances, NAME
 * the item's name in libmeas (meas_proc_item_name()) with "_" for "-"
 * and without a "-ns" suffix; program and command are strings.
 */
int mx_pcp_proc_name(char *out, size_t len, unsigned int item)
{
	const char *n = meas_proc_item_name(item);
	size_t l;
	char *p;

	if (!n)
		return -1;
	snprintf(out, len, "meas.proc.%s", n);
	l = strlen(out);
	if (l > 3 && !strcmp(out + l - 3, "-ns"))
		out[l - 3] = '\0';
	for (p = out; *p; p++)
		if (*p == '-')
			*p = '_';
	return 0;
}

/*
 * Per cgroup (pmdameas -C): meas.cgroup.LEAF[.LABEL], the family's name
 * without "meas_cgroup_" and "_seconds", and the series' label value.
 */
void mx_pcp_cgroup_name(char *out, size_t len, const struct mx_cg_series *s)
{
	const char *n = s->family + strlen("meas_cgroup_");
	size_t k = strlen(n);

	if (k > 8 && !strcmp(n + k - 8, "_seconds"))
		k -= 8;
	if (s->lname)
		snprintf(out, len, "meas.cgroup.%.*s.%s", (int)k, n, s->lval);
	else
		snprintf(out, len, "meas.cgroup.%.*s", (int)k, n);
}

/* Class 15's entry 0: the table's own counts, meas.proc.table.NAME. */
const struct mx_pcp_p0 mx_pcp_p0[] = {
	{ MEAS_P0_LIVE, "live", 0,
	  "Entries of live processes in the class 15 table." },
	{ MEAS_P0_EXITED, "exited", 0,
	  "Entries of exited processes kept in the table (their last values)." },
	{ MEAS_P0_THREADS_LIVE, "threads_live", 0,
	  "Thread records in use." },
	{ MEAS_P0_OVERFLOW, "overflow", 1,
	  "Processes not entered in the table: no free slot (class 15 item 10)." },
	{ MEAS_P0_THREAD_OVERFLOW, "thread_overflow", 1,
	  "Threads not entered: no free thread record." },
	{ MEAS_P0_REUSED, "reused", 1,
	  "Entries of exited processes given to new processes." },
	{ MEAS_P0_EXIT_LOST, "exit_lost", 1,
	  "Exit records lost before they were sent." },
};

const size_t mx_pcp_np0 = ARRAY_SIZE(mx_pcp_p0);
