// SPDX-License-Identifier: GPL-2.0
/*
 * The metric families meas-exporter serves, as its table defines them
 * (names, types, units, help, labels and their values), printed for the
 * golden test (golden.sh): the exporter itself lists them only in a
 * scrape, which needs /dev/meas.  The process groups' families follow.
 */
#include <stdio.h>
#include <string.h>

#include "metrics.h"

static const char *const type_name[] = {
	[MX_COUNTER] = "counter",
	[MX_GAUGE] = "gauge",
	[MX_HISTOGRAM] = "histogram",
};

static void family(const char *name, enum mx_type type, const char *unit,
		   const char *help, int ns)
{
	printf("# TYPE %s %s\n", name, type_name[type]);
	if (unit[0])
		printf("# UNIT %s %s%s\n", name, unit, ns ? " (from ns)" : "");
	printf("# HELP %s %s\n", name, help);
}

static void labels(const struct mx_family *f)
{
	const struct mx_series *se;

	if (!f->label)
		return;
	printf("# LABEL %s %s:", f->name, f->label);
	for (se = f->series; se->item != MX_NONE; se++)
		printf(" %s", se->lv ? se->lv : "-");
	putchar('\n');
}

int main(void)
{
	size_t i;

	for (i = 0; i < mx_nfamilies; i++) {
		const struct mx_family *f = &mx_families[i];

		family(f->name, f->type, f->unit, f->help, f->ns);
		labels(f);
	}
	for (i = 0; i < MX_GF_NR; i++) {
		const struct mx_grp_family *g = &mx_grp_families[i];

		family(g->name, g->type, g->unit, g->help, g->ns);
	}
	/* the per-cgroup families: each once, with its series' label */
	for (i = 0; i < mx_cg_nseries; i++) {
		const struct mx_cg_series *c = &mx_cg_series[i];

		if (i && !strcmp(c->family, mx_cg_series[i - 1].family)) {
			printf(" %s", c->lval);
			continue;
		}
		if (i && mx_cg_series[i - 1].lname)
			putchar('\n');
		family(c->family, c->type, c->unit, c->help, c->ns);
		if (c->lname)
			printf("# LABEL %s %s: %s", c->family, c->lname, c->lval);
	}
	printf("# operation groups of subclass 5:");
	for (i = 0; i < MEAS_C0_LAT_NR_OPS; i++)
		printf(" %s", mx_lat_ops[i]);
	putchar('\n');
	return 0;
}
