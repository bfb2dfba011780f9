// SPDX-License-Identifier: GPL-2.0
/*
 * pmdameas: a daemon PMDA that pmcd starts (Install, pmcd.conf).  It
 * holds class 0 and every user-defined class enabled for its whole life
 * (and class 14 with -I, class 15 with -P), as meas-exporter does, so that its counters
 * never reset under the archives that record them; a module loaded
 * after pmcd started is picked up at the next fetch.  With -G or -g FILE
 * it holds class 15 too and serves process groups (groups.c), with -C
 * the per-cgroup totals (cgroups.c).  What it
 * holds and when it opens /dev/meas is hold.c.
 *
 *   pmdameas [PMDA options] [-I] [-P [-A]] [-G | -g FILE] [-C]   as pmcd runs it
 *   pmdameas -N | -H       the PMNS and domain.h Install uses
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pmdameas.h"

static int meas_fetch(int n, pmID *pmids, pmResult **resp, pmdaExt *pmda)
{
	pm_refresh();
	pm_groups_refresh();
	pm_cgroups_refresh();
	return pmdaFetch(n, pmids, resp, pmda);
}

static int meas_instance(pmInDom indom, int inst, char *name,
			 pmInResult **result, pmdaExt *pmda)
{
	pmInDom procs = pmInDom_build(pmda->e_domain, PM_INDOM_PROC);
	int err;

	pm_refresh();
	pm_groups_refresh();
	pm_cgroups_refresh();
	/* the processes the client may not see are not its instances */
	if (indom == procs)
		pm_proc_hide(procs, 1);
	err = pmdaInstance(indom, inst, name, result, pmda);
	if (indom == procs)
		pm_proc_hide(procs, 0);
	return err;
}

static int meas_fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
	const struct pm_metric *pm = m->m_user;

	if (pm->kind == PM_K_GROUP)
		return pm_group_value(m, inst, atom);
	if (pm->kind == PM_K_CGROUP)
		return pm_cgroup_value(m, inst, atom);
	return pm_fetch_value(m, inst, atom);
}

/* The metric and instance-domain tables pmdaInit() takes. */
static int tables(pmdaMetric **mt, pmdaIndom **it, int *nindoms)
{
	unsigned int k, n, serial, total = PM_INDOM_FIXED0 + pm_nfixed_indoms;
	pmdaMetric *m = calloc(pm_nmetrics, sizeof(*m));
	pmdaIndom *d = calloc(total + 2, sizeof(*d));
	size_t i;

	if (!m || !d)
		return -ENOMEM;
	for (i = 0; i < pm_nmetrics; i++) {
		m[i].m_user = &pm_metrics[i];
		m[i].m_desc = pm_metrics[i].desc;
	}
	for (serial = 0; serial < total; serial++) {
		const struct mx_family *f = pm_fixed_indom_family(serial);

		d[serial].it_indom = pmInDom_build(MEAS_DOMAIN, serial);
		if (!f)
			continue;	/* a cache: filled at each fetch */
		for (n = 0; f->series[n].item != MX_NONE; n++)
			;
		d[serial].it_set = calloc(n, sizeof(pmdaInstid));
		if (!d[serial].it_set)
			return -ENOMEM;
		d[serial].it_numinst = (int)n;
		for (k = 0; k < n; k++) {
			d[serial].it_set[k].i_inst = (int)k;
			d[serial].it_set[k].i_name = (char *)f->series[k].lv;
		}
	}
	/* and the groups' cache (groups.c) */
	d[total].it_indom = pmInDom_build(MEAS_DOMAIN, PM_INDOM_GROUP);
	/* and the cgroups' (cgroups.c) */
	d[total + 1].it_indom = pmInDom_build(MEAS_DOMAIN, PM_INDOM_CGROUP);
	*mt = m;
	*it = d;
	*nindoms = (int)total + 2;
	return 0;
}

static pmLongOptions longopts[] = {
	PMDA_OPTIONS_HEADER("Options"),
	PMOPT_DEBUG,
	PMDAOPT_DOMAIN,
	PMDAOPT_LOGFILE,
	{ "io", 0, 'I', 0, "also hold class 14 (the I/O trace) for meas.io.*" },
	{ "processes", 0, 'P', 0, "also hold class 15 (per process) for meas.proc.*" },
	{ "all-clients", 0, 'A', 0,
	  "with -P: every process to every client, even over the network" },
	{ "process-groups", 0, 'G', 0,
	  "hold class 15 and serve meas.group.* (meas-exporter's default grouping)" },
	{ "group-config", 1, 'g', "FILE",
	  "the same, grouped as FILE says (meas-exporter's format)" },
	{ "cgroups", 0, 'C', 0,
	  "hold class 15 and serve meas.cgroup.* (the per-cgroup totals)" },
	{ "pmns", 0, 'N', 0, "print the PMNS of meas and exit" },
	{ "domain-h", 0, 'H', 0, "print domain.h and exit" },
	PMOPT_HELP,
	PMDA_OPTIONS_END
};

static pmdaOptions opts = {
	.short_options = "D:d:l:IPAGg:CNH?",
	.long_options = longopts,
};

int main(int argc, char **argv)
{
	pmdaInterface dispatch;
	pmdaMetric *mt;
	pmdaIndom *it;
	int c, nindoms;

	pmSetProgname(argv[0]);
	if (pm_metrics_build() || tables(&mt, &it, &nindoms)) {
		fprintf(stderr, "%s: out of memory\n", pmGetProgname());
		return 1;
	}
	pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), MEAS_DOMAIN,
		   "meas.log", NULL);
	while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
		switch (c) {
		case 'I':
			pm_hold_mask |= 1U << MEAS_CLASS_IO;
			break;
		case 'P':	/* -p is PCP's own (a pipe to pmcd) */
			pm_hold_mask |= 1U << MEAS_CLASS_PROC;
			break;
		case 'A':
			pm_proc_all_clients = 1;
			break;
		case 'G':
			pm_groups_configure(NULL);
			break;
		case 'g':
			/* a bad file: its line on stderr, the agent not run */
			if (pm_groups_configure(opts.optarg))
				return 2;
			break;
		case 'C':
			pm_cgroups_configure();
			break;
		case 'N':
			pm_print_pmns(stdout);
			return 0;
		case 'H':
			pm_print_domain(stdout);
			return 0;
		default:
			opts.errors++;
		}
	}
	if (opts.errors || opts.optind != argc) {
		pmdaUsageMessage(&opts);
		return 1;
	}
	pm_hold_mask |= pm_groups_mask() | pm_cgroups_mask();
	pmdaOpenLog(&dispatch);
	/* root, not pmcd's user: STARTSTATISTICS needs CAP_PERFMON */
	dispatch.version.any.fetch = meas_fetch;
	dispatch.version.any.instance = meas_instance;
	dispatch.version.any.text = pm_text;
	/* who each client is, for meas.proc.* (access.c) */
	dispatch.version.seven.attribute = pm_client_attribute;
	pmdaSetCommFlags(&dispatch, PMDA_FLAG_AUTHORIZE);
	pmdaSetEndContextCallBack(&dispatch, pm_client_end);
	pmdaSetFetchCallBack(&dispatch, meas_fetch_cb);
	pm_fetch_init(dispatch.domain);
	pmdaInit(&dispatch, it, nindoms, mt, (int)pm_nmetrics);
	pmdaConnect(&dispatch);
	pm_hold_ensure();
	pmdaMain(&dispatch);
	pm_cgroups_stop();
	pm_groups_stop();
	if (pm_hold.fd >= 0)
		mx_hold_stop(&pm_hold);
	return 0;
}
