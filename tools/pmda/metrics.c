// SPDX-License-Identifier: GPL-2.0
/*
 * The PCP metrics of pmdameas, built at start from meas-exporter's
 * metric table (tools/lib/metrics/families.c), so that one description of
 * every metric serves both front ends and the documentation:
 *
 * - a family of class 0 subclass 0 is meas.sched.NAME; its label, when
 *   it has one (stops by reason, CPU time by mode), is an instance
 *   domain;
 * - a per-disk family is meas.disk.dev.NAME over the disk instance
 *   domain (PCP's disk.dev names), one metric per label value
 *   (meas.disk.dev.reads_by_kind.swap ...) since a PCP metric has one
 *   instance domain;
 * - the histograms are meas.disk.queue_length and
 *   meas.disk.io_latency.GROUP over DISK::BUCKET instances, one count
 *   per bucket (not cumulative), and meas.disk.dev.io_latency_sum.GROUP;
 * - class 14's header is meas.io.NAME.
 *
 * Names lose the "meas_" prefix, the "disk_" or "io_" of their group and
 * a "_seconds" suffix: PCP keeps units in the descriptor.  Times are
 * nanosecond counters, as the module counts them.  The PMIDs are the
 * family's index in the table (cluster) and the series or group (item):
 * the table only grows at its end, so that archives keep their meaning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmdameas.h"

struct pm_metric *pm_metrics;
size_t pm_nmetrics;
unsigned int pm_nfixed_indoms;
static char **long_help, **one_line;
static size_t cap;

static const struct mx_family *fixed_indom_fam[16];

const struct mx_family *pm_fixed_indom_family(unsigned int serial)
{
	unsigned int k = serial - PM_INDOM_FIXED0;

	return serial >= PM_INDOM_FIXED0 && k < pm_nfixed_indoms ?
	       fixed_indom_fam[k] : NULL;
}

struct pm_metric *pm_metric_add(const struct mx_family *f, enum pm_kind kind,
				unsigned int cluster, unsigned int item)
{
	struct pm_metric *m;

	if (pm_nmetrics == cap) {
		size_t n = cap ? cap * 2 : 64;
		struct pm_metric *p = realloc(pm_metrics, n * sizeof(*p));

		if (!p)
			return NULL;
		pm_metrics = p;
		cap = n;
	}
	m = &pm_metrics[pm_nmetrics++];
	memset(m, 0, sizeof(*m));
	m->f = f;
	m->kind = kind;
	m->indom_serial = -1;
	m->desc.pmid = pmID_build(MEAS_DOMAIN, cluster, item);
	m->desc.indom = PM_INDOM_NULL;
	m->desc.type = PM_TYPE_U64;
	if (!f || f->type == MX_GAUGE)
		m->desc.sem = PM_SEM_INSTANT;
	else
		m->desc.sem = PM_SEM_COUNTER;
	if (f && f->ns)
		m->desc.units = (pmUnits)PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_NSEC, 0);
	else if (f && !strcmp(f->unit, "bytes"))
		m->desc.units = (pmUnits)PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0);
	else
		m->desc.units = (pmUnits)PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
	return m;
}

void pm_metric_indom(struct pm_metric *m, int serial)
{
	m->indom_serial = serial;
	m->desc.indom = pmInDom_build(MEAS_DOMAIN, (unsigned int)serial);
}

static int add_fixed(const struct mx_family *f, unsigned int c)
{
	struct pm_metric *m = pm_metric_add(f, f->label ? PM_K_FIXED_IND : PM_K_FIXED,
				  c, 0);

	if (!m)
		return -ENOMEM;
	mx_pcp_series_name(m->name, sizeof(m->name), f, f->series);
	m->se = f->series;
	if (f->label) {
		if (pm_nfixed_indoms == sizeof(fixed_indom_fam) /
					sizeof(fixed_indom_fam[0]))
			return -E2BIG;
		fixed_indom_fam[pm_nfixed_indoms] = f;
		pm_metric_indom(m, PM_INDOM_FIXED0 + (int)pm_nfixed_indoms++);
	}
	return 0;
}

static int add_disk(const struct mx_family *f, unsigned int c)
{
	const struct mx_series *se;
	struct pm_metric *m;
	unsigned int i = 0;

	for (se = f->series; se->item != MX_NONE; se++, i++) {
		m = pm_metric_add(f, PM_K_DISK, c, i);
		if (!m)
			return -ENOMEM;
		m->se = se;
		pm_metric_indom(m, PM_INDOM_DISK);
		mx_pcp_series_name(m->name, sizeof(m->name), f, se);
	}
	return 0;
}

static int add_lat(const struct mx_family *f, unsigned int c)
{
	struct pm_metric *m;
	unsigned int op;
	char l[96];

	mx_pcp_leaf(l, sizeof(l), f);
	for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++) {
		if (f->src == MX_SRC_LAT) {
			m = pm_metric_add(f, PM_K_LAT, c, op);
			if (!m)
				return -ENOMEM;
			pm_metric_indom(m, PM_INDOM_DISK);
			snprintf(m->name, sizeof(m->name), "meas.disk.dev.%s.%s",
				 l, mx_lat_ops[op]);
			m->op = op;
			continue;
		}
		/* the histogram's buckets: counts, not nanoseconds */
		m = pm_metric_add(f, PM_K_LATHIST, c, 2 * op);
		if (!m)
			return -ENOMEM;
		m->desc.units = (pmUnits)PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
		pm_metric_indom(m, PM_INDOM_LAT);
		snprintf(m->name, sizeof(m->name), "meas.disk.%s.%s", l,
			 mx_lat_ops[op]);
		m->op = op;
		m = pm_metric_add(f, PM_K_LATSUM, c, 2 * op + 1);
		if (!m)
			return -ENOMEM;
		pm_metric_indom(m, PM_INDOM_DISK);
		snprintf(m->name, sizeof(m->name), "meas.disk.dev.%s_sum.%s",
			 l, mx_lat_ops[op]);
		m->op = op;
	}
	return 0;
}

static int add_family(const struct mx_family *f, unsigned int c)
{
	struct pm_metric *m = NULL;
	char l[96];

	mx_pcp_leaf(l, sizeof(l), f);
	switch (f->src) {
	case MX_SRC_FIXED:
		return add_fixed(f, c);
	case MX_SRC_DISC:
	case MX_SRC_XFER:
		return add_disk(f, c);
	case MX_SRC_LAT:
	case MX_SRC_LATHIST:
		return add_lat(f, c);
	case MX_SRC_QLEN:
		m = pm_metric_add(f, PM_K_QLEN, c, 0);
		if (m) {
			pm_metric_indom(m, PM_INDOM_QLEN);
			mx_pcp_series_name(m->name, sizeof(m->name), f,
					   f->series);
		}
		break;
	case MX_SRC_IO:
		m = pm_metric_add(f, PM_K_IO, c, 0);
		if (m)
			snprintf(m->name, sizeof(m->name), "meas.io.%s", l);
		break;
	case MX_SRC_BUILD:
		m = pm_metric_add(f, PM_K_VERSION, c, 0);
		if (m) {
			snprintf(m->name, sizeof(m->name), "meas.version");
			m->desc.type = PM_TYPE_STRING;
			m->desc.sem = PM_SEM_DISCRETE;
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 0, 0, 0, 0, 0);
		}
		break;
	case MX_SRC_START:
		m = pm_metric_add(f, PM_K_START, c, 0);
		if (m) {
			snprintf(m->name, sizeof(m->name), "meas.%s", l);
			m->desc.type = PM_TYPE_DOUBLE;
			m->desc.sem = PM_SEM_DISCRETE;
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0);
			pm_metric_indom(m, PM_INDOM_CLASS);
		}
		break;
	case MX_SRC_SCRAPE:	/* pmcd keeps its own (pmcd.agent.*) */
		return 0;
	}
	return m ? 0 : -ENOMEM;
}

static int add_user(void)
{
	struct pm_metric *m;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		m = pm_metric_add(NULL, PM_K_USER, PM_CLUSTER_USER, i);
		if (!m)
			return -ENOMEM;
		m->desc.sem = i ? PM_SEM_INSTANT : PM_SEM_COUNTER;
		pm_metric_indom(m, i ? PM_INDOM_USER_GAUGE : PM_INDOM_USER_COUNTER);
		snprintf(m->name, sizeof(m->name), "meas.user.%s",
			 i ? "gauge" : "counter");
	}
	return 0;
}

/* ---- help --------------------------------------------------------------- */

/* Long help: what the semantics and instances of a metric mean. */
enum { SEM_COUNTER, INDOM_DISK, INDOM_QLEN, INDOM_LAT, INDOM_PROC };
static const char *const help_part[] = {
	"A counter: it only grows while meas holds the class (pmdameas holds it for its whole life); tools show its rate.",
	"\nOne instance per disk meas has seen, named as PCP's disk.dev names it (the kernel's name). The disks beyond the module's max_disks are summed in an entry meas does not name; measctl iostat shows it as \"(others)\".",
	"\nInstances DISK::N: requests that found N requests of the disk in flight when they entered its queue, N = 0..5, and DISK::6+ for six or more. One count per bucket, not cumulative.",
	"\nInstances DISK::le=BOUND: requests of the group whose latency was at most BOUND seconds and more than the bound below (power-of-two nanoseconds, 2^10 to 2^34), DISK::le=+Inf for the rest. One count per bucket, not cumulative.",
	"\nOne instance per entry of class 15's table, a live process or one that exited and keeps its last values until its entry is reused, named \"PID COMMAND\" as PCP's proc agent names processes.",
};

static const char *sem_text(const pmDesc *d)
{
	switch (d->sem) {
	case PM_SEM_COUNTER:
		return help_part[SEM_COUNTER];
	case PM_SEM_DISCRETE:
		return "A discrete value: it changes only when the agent or the module restarts.";
	default:
		return "An instantaneous value, read at each fetch.";
	}
}

static const char *indom_text(const struct pm_metric *m)
{
	switch (m->indom_serial) {
	case -1:
		return "";
	case PM_INDOM_DISK:
		return help_part[INDOM_DISK];
	case PM_INDOM_QLEN:
		return help_part[INDOM_QLEN];
	case PM_INDOM_LAT:
		return help_part[INDOM_LAT];
	case PM_INDOM_CLASS:
		return "\nOne instance per class the agent holds, named by its number.";
	case PM_INDOM_PROC:
		return help_part[INDOM_PROC];
	default:
		return "\nOne instance per value of the label the exporter gives this family.";
	}
}

/* The table's line, or what this metric shows of its family. */
static int build_one_line(size_t i)
{
	const struct pm_metric *m = &pm_metrics[i];
	const char *h = m->f ? m->f->help : "";
	int n = 0;

	switch (m->kind) {
	case PM_K_USER:
		n = asprintf(&one_line[i], "Items of the user-defined classes, by name.");
		break;
	case PM_K_VERSION:
		n = asprintf(&one_line[i], "The version of meas this agent was built from.");
		break;
	case PM_K_PROC:
		n = asprintf(&one_line[i], "Per process: class 15 item %u, %s, as measctl ps shows it.",
			     m->op, meas_proc_item_name(m->op));
		break;
	case PM_K_PROC0:
		one_line[i] = (char *)mx_pcp_p0[m->op].help;
		break;
	case PM_K_LATSUM:
		n = asprintf(&one_line[i], "Sum of the latencies: %s", h);
		break;
	case PM_K_LATHIST:
	case PM_K_QLEN:
		n = asprintf(&one_line[i], "Per bucket: %s", h);
		break;
	default:
		one_line[i] = (char *)h;
		break;
	}
	return n < 0 ? -ENOMEM : 0;
}

static int build_help(size_t i)
{
	const struct pm_metric *m = &pm_metrics[i];
	const struct mx_family *f = m->f;
	char *s = NULL;
	int n;

	if (m->kind == PM_K_GROUP)
		return pm_group_help(m, &one_line[i], &long_help[i]);
	if (m->kind == PM_K_CGROUP)
		return pm_cgroup_help(m, &one_line[i], &long_help[i]);
	if (build_one_line(i))
		return -ENOMEM;

	if (m->kind == PM_K_USER)
		n = asprintf(&s, "Every %s item of the classes defined at run time (UPDATESTATISTICS, measctl define), held by the agent as they appear. Instances CLASS.SUBCLASS.ITEM, with #ENTRY when the subclass has several entries; the names are the definition's.\n%s",
			     m->desc.sem == PM_SEM_COUNTER ? "counter" : "gauge",
			     sem_text(&m->desc));
	else if (m->kind == PM_K_PROC || m->kind == PM_K_PROC0)
		n = asprintf(&s, "%s\n%s%s\nValues only while the agent holds class 15 (pmdameas -P): Documentation/pcp.rst.",
			     one_line[i], sem_text(&m->desc), indom_text(m));
	else
		n = asprintf(&s, "%s\n%s%s\nThe same source as meas-exporter's %s%s (tools/lib/metrics/families.c).",
			     one_line[i], sem_text(&m->desc), indom_text(m),
			     f->name, f->type == MX_COUNTER ? "_total" : "");
	if (n < 0)
		return -ENOMEM;
	long_help[i] = s;
	return 0;
}

/**
 * pm_metrics_build() - every PCP metric, from the table
 *
 * Return: 0 or a negative errno.
 */
int pm_metrics_build(void)
{
	unsigned int c;
	size_t i;
	int err;

	for (c = 0; c < mx_nfamilies; c++) {
		err = add_family(&mx_families[c], c);
		if (err)
			return err;
	}
	err = add_user();
	if (!err)
		err = pm_proc_add();
	if (!err)
		err = pm_group_metrics();
	if (!err)
		err = pm_cgroup_metrics();
	if (err)
		return err;
	long_help = calloc(pm_nmetrics, sizeof(*long_help));
	one_line = calloc(pm_nmetrics, sizeof(*one_line));
	if (!long_help || !one_line)
		return -ENOMEM;
	for (i = 0; i < pm_nmetrics; i++) {
		err = build_help(i);
		if (err)
			return err;
	}
	return 0;
}

static const char *indom_oneline(unsigned int serial)
{
	const struct mx_family *f = pm_fixed_indom_family(serial);

	switch (serial) {
	case PM_INDOM_DISK:
		return "disks, by the kernel's name (as disk.dev)";
	case PM_INDOM_QLEN:
		return "disk::queue length found at insert";
	case PM_INDOM_LAT:
		return "disk::latency bucket bound (seconds)";
	case PM_INDOM_CLASS:
		return "the classes the agent holds";
	case PM_INDOM_PROC:
		return "processes of class 15: PID COMMAND";
	case PM_INDOM_USER_COUNTER:
	case PM_INDOM_USER_GAUGE:
		return "class.subclass.item[#entry] of user-defined classes";
	case PM_INDOM_GROUP:
		return pm_group_indom_help;
	case PM_INDOM_CGROUP:
		return pm_cgroup_indom_help;
	default:
		return f ? f->label : NULL;
	}
}

/* The text callback: one-line and long help from the table. */
int pm_text(int ident, int type, char **buffer, pmdaExt *pmda)
{
	size_t i;

	(void)pmda;
	if (type & PM_TEXT_INDOM) {
		const char *t = indom_oneline(pmInDom_serial((pmInDom)ident));

		if (!t)
			return PM_ERR_TEXT;
		*buffer = (char *)t;
		return 0;
	}
	for (i = 0; i < pm_nmetrics; i++) {
		if (pm_metrics[i].desc.pmid != (pmID)ident)
			continue;
		if (type & PM_TEXT_ONELINE)
			*buffer = one_line[i];
		else
			*buffer = long_help[i];
		return 0;
	}
	return PM_ERR_PMID;
}

/* ---- the files Install uses --------------------------------------------- */

/* Print the PMNS subtree @prefix ("meas"), depth first. */
static void pmns_node(FILE *f, const char *prefix)
{
	size_t i, j, pl = strlen(prefix);
	char child[128];

	fprintf(f, "%s {\n", prefix);
	for (i = 0; i < pm_nmetrics; i++) {
		const char *n = pm_metrics[i].name, *rest, *dot;
		int seen = 0;

		if (strncmp(n, prefix, pl) || n[pl] != '.')
			continue;
		rest = n + pl + 1;
		dot = strchr(rest, '.');
		if (!dot) {
			fprintf(f, "\t%s\t%d:%u:%u\n", rest, MEAS_DOMAIN,
				pmID_cluster(pm_metrics[i].desc.pmid),
				pmID_item(pm_metrics[i].desc.pmid));
			continue;
		}
		/* a non-leaf: once, at its first metric */
		for (j = 0; j < i && !seen; j++)
			seen = !strncmp(pm_metrics[j].name, n,
					(size_t)(dot - n) + 1);
		if (!seen)
			fprintf(f, "\t%.*s\n", (int)(dot - rest), rest);
	}
	fprintf(f, "}\n\n");
	for (i = 0; i < pm_nmetrics; i++) {
		const char *n = pm_metrics[i].name, *dot;
		int seen = 0;

		if (strncmp(n, prefix, pl) || n[pl] != '.')
			continue;
		dot = strchr(n + pl + 1, '.');
		if (!dot)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = !strncmp(pm_metrics[j].name, n,
					(size_t)(dot - n) + 1);
		if (seen)
			continue;
		snprintf(child, sizeof(child), "%.*s", (int)(dot - n), n);
		pmns_node(f, child);
	}
}

void pm_print_pmns(FILE *f)
{
	fprintf(f, "/*\n * meas: generated by pmdameas -N from the metric table, with\n * the domain number (400) written out\n */\n\n");
	pmns_node(f, "meas");
}

void pm_print_domain(FILE *f)
{
	fprintf(f, "/* meas: the PMDA's domain number (pmdameas.h) */\n#define MEAS %d\n",
		MEAS_DOMAIN);
}
