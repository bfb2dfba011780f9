// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups in PCP: meas.cgroup.*, meas-exporter's per-cgroup families
 * (the metrics library's cgtotals.c: the module's per-cgroup totals of
 * class 15, over generic netlink, the paths cut to a depth, a bounded
 * number of them), served over an instance domain of cgroup paths.
 *
 * Off unless asked for (-C): they hold class 15, whose records cost
 * every process switch something.  Unlike the process groups they need
 * no CAP_SYS_ADMIN and no exit records.  A metric per series of the
 * table (meas.cgroup.stops.disc_blocked...), named as the exporter's
 * families without "meas_cgroup_" and "_seconds"; the instances are a
 * pmdaCache saved in $PCP_VAR_DIR/config/pmda, so that a cgroup keeps its
 * instance number when the agent restarts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmdameas.h"

static struct {
	int on;			/* -C */
	int tried;		/* mx_cgroups_start() was called */
	int started;		/* and succeeded */
	int read_ok;		/* the last refresh read the cgroups */
	struct mx_cg_read r;
} pc;

const char pm_cgroup_indom_help[] =
	"cgroups, by path from the cgroup2 mount, cut to 3 levels (pmdameas -C)";

static pmInDom cgroup_indom(void)
{
	return pmInDom_build(MEAS_DOMAIN, PM_INDOM_CGROUP);
}

void pm_cgroups_configure(void)
{
	pc.on = 1;
}

/* The classes the cgroups need held: class 15, when they are on. */
uint32_t pm_cgroups_mask(void)
{
	return pc.on ? 1U << MEAS_CLASS_PROC : 0;
}

/**
 * pm_cgroup_metrics() - add meas.cgroup.* to the agent's metrics
 *
 * Always, with or without -C: the PMNS is the same on every machine.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_cgroup_metrics(void)
{
	const struct mx_cg_series *s;
	struct pm_metric *m;
	unsigned int k;

	for (k = 0; k < mx_cg_nseries; k++) {
		s = &mx_cg_series[k];
		m = pm_metric_add(NULL, PM_K_CGROUP, PM_CLUSTER_CGROUP, k);
		if (!m)
			return -ENOMEM;
		mx_pcp_cgroup_name(m->name, sizeof(m->name), s);
		m->desc.sem = s->type == MX_COUNTER ? PM_SEM_COUNTER :
						      PM_SEM_INSTANT;
		if (s->ns)
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 1, 0, 0,
							      PM_TIME_NSEC, 0);
		else if (!strcmp(s->unit, "bytes"))
			m->desc.units = (pmUnits)PMDA_PMUNITS(1, 0, 0,
							      PM_SPACE_BYTE, 0, 0);
		pm_metric_indom(m, PM_INDOM_CGROUP);
	}
	return 0;
}

static const char sem_counter[] =
	"A counter: counts since class 15 was enabled. Tools show its rate.";
static const char sem_instant[] = "An instantaneous value, read at each fetch.";

/* The help of a meas.cgroup metric: the exporter's, and more. */
int pm_cgroup_help(const struct pm_metric *m, char **one_line,
		   char **long_help)
{
	const struct mx_cg_series *s = &mx_cg_series[pmID_item(m->desc.pmid)];

	*one_line = (char *)s->help;
	if (asprintf(long_help, "%s%s%s%s\n%s\nOne instance per cgroup: its path from the cgroup2 mount, cut to 3 levels (deeper cgroups add to their ancestor), at most 256 of them in the order first seen, the others in \"(other)\"; a cgroup with nothing counted and no thread has no value. Served with pmdameas -C (Documentation/pcp.rst).\nThe same source as meas-exporter's %s%s (tools/lib/metrics/cgtotals.c): the module's per-cgroup totals, exited and migrated threads included.",
		     s->help, s->lname ? " This series: " : "",
		     s->lname ? s->lval : "", s->lname ? "." : "",
		     s->type == MX_COUNTER ? sem_counter : sem_instant,
		     s->family, s->type == MX_COUNTER ? "_total" : "") < 0)
		return -ENOMEM;
	return 0;
}

/* An instance name: spaces as "_" (PCP matches up to the first). */
static void cgroup_inst_name(char *out, size_t len, const char *path)
{
	char *p;

	snprintf(out, len, "%s", path);
	for (p = out; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/* Read the cgroups at each fetch and instance request, once held. */
void pm_cgroups_refresh(void)
{
	char name[MX_CG_PATH_LEN];
	unsigned int i;
	int err;

	pc.read_ok = 0;
	if (!pc.on)
		return;
	pmdaCacheOp(cgroup_indom(), PMDA_CACHE_INACTIVE);
	if (pm_hold.fd < 0 || !(pm_hold.mask & pm_cgroups_mask()))
		return;
	if (!pc.tried) {
		pc.tried = 1;
		pmdaCacheOp(cgroup_indom(), PMDA_CACHE_LOAD);
		err = mx_cgroups_start(MX_CG_DEPTH_DEFAULT, MX_CG_MAX_DEFAULT);
		if (err) {
			pmNotifyErr(LOG_ERR, "cgroups not served: %s",
				    strerror(-err));
			return;
		}
		pc.started = 1;
	}
	if (!pc.started || mx_cgroups_read(&pc.r))
		return;
	for (i = 0; i < pc.r.ng; i++) {
		cgroup_inst_name(name, sizeof(name), pc.r.g[i].path);
		err = pmdaCacheStore(cgroup_indom(), PMDA_CACHE_ADD, name,
				     (void *)(uintptr_t)i);
		if (err < 0)
			pmNotifyErr(LOG_ERR, "pmdaCacheStore %s: %s", name,
				    pmErrStr(err));
	}
	pmdaCacheOp(cgroup_indom(), PMDA_CACHE_SAVE);
	pc.read_ok = 1;
}

/* The fetch callback of meas.cgroup.*: 1 and the value, 0, or an error. */
int pm_cgroup_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
	unsigned int k = pmID_item(m->m_desc.pmid);
	void *priv = NULL;
	uintptr_t i;

	if (k >= mx_cg_nseries)
		return PM_ERR_PMID;
	if (pmdaCacheLookup(m->m_desc.indom, (int)inst, NULL, &priv) !=
	    PMDA_CACHE_ACTIVE)
		return PM_ERR_INST;
	i = (uintptr_t)priv;
	if (!pc.read_ok || i >= pc.r.ng)
		return 0;
	atom->ull = mx_cg_value(&pc.r.g[i], &mx_cg_series[k]);
	return 1;
}

void pm_cgroups_stop(void)
{
	if (pc.started)
		mx_cgroups_stop();
	free(pc.r.g);
}
