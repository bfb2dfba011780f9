// SPDX-License-Identifier: GPL-2.0
/*
 * What "pminfo -dT meas" shows of pmdameas, without pmcd: every metric's
 * name, PMID, descriptor and help text, then the one-line help of each
 * instance domain, from the agent's own tables and text callback
 * (tools/pmda/metrics.c), for the golden test (golden.sh).
 */
#include <stdio.h>
#include <stdlib.h>

#include "pmdameas.h"

static void text(int ident, int type)
{
	char *buf = NULL;

	if (pm_text(ident, type, &buf, NULL) || !buf)
		printf("(no text)\n");
	else
		printf("%s\n", buf);
}

static void metric(const struct pm_metric *m)
{
	const pmDesc *d = &m->desc;
	char id[32], in[32], un[64];

	printf("\n%s\n", m->name);
	printf("    PMID: %s\n", pmIDStr_r(d->pmid, id, sizeof(id)));
	printf("    Data Type: %s  InDom: %s\n", pmTypeStr(d->type),
	       pmInDomStr_r(d->indom, in, sizeof(in)));
	printf("    Semantics: %s  Units: %s\n", pmSemStr(d->sem),
	       pmUnitsStr_r(&d->units, un, sizeof(un)));
	printf("One-line Help: ");
	text((int)d->pmid, PM_TEXT_PMID | PM_TEXT_ONELINE);
	printf("Help:\n");
	text((int)d->pmid, PM_TEXT_PMID | PM_TEXT_HELP);
}

int main(void)
{
	unsigned int serial;
	char in[32];
	size_t i;

	if (pm_metrics_build()) {
		fprintf(stderr, "pmda_dump: out of memory\n");
		return 1;
	}
	for (i = 0; i < pm_nmetrics; i++)
		metric(&pm_metrics[i]);
	printf("\n");
	for (serial = 0; serial <= PM_INDOM_GROUP; serial++) {
		pmInDom indom = pmInDom_build(MEAS_DOMAIN, serial);
		char *buf = NULL;

		if (pm_text((int)indom, PM_TEXT_INDOM | PM_TEXT_ONELINE, &buf,
			    NULL) || !buf)
			continue;
		printf("InDom %s: %s\n", pmInDomStr_r(indom, in, sizeof(in)),
		       buf);
	}
	return 0;
}
