// SPDX-License-Identifier: GPL-2.0
/*
 * Process groups in PCP: meas.group.*, the groups meas-exporter sums
 * (the metrics library's groups.c, grpconf.c, cgmap.c, in
 * tools/lib/metrics), served over an instance domain of group names.
 *
 * Off unless asked for (-G, or -g FILE with the exporter's configuration
 * format): they hold class 15, whose records cost every process switch
 * something, and joining the exits group needs CAP_SYS_ADMIN.  The
 * groups start at the first fetch after class 15 is held, and are read
 * once per fetch (one netlink dump).
 *
 * The metrics are the exporter's group families, in the same order, with
 * the same one-line help (mx_grp_families[]), named by pcpname.c.  The
 * group names are a pmdaCache instance domain saved in
 * $PCP_VAR_DIR/config/pmda, so that a group keeps its instance number
 * when the agent restarts, as PCP's own agents keep theirs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmdameas.h"

static struct {
	int on;			/* -G or -g */
	int tried;		/* mx_groups_start() was called */
	int started;		/* and succeeded */
	int read_ok;		/* the last refresh read the groups */
	struct mx_grpconf conf;
	struct mx_grp_read r;
} pg;

const char pm_group_indom_help[] =
	"process groups, by name (pmdameas -G or -g FILE)";

static pmInDom group_indom(void)
{
	return pmInDom_build(MEAS_DOMAIN, PM_INDOM_GROUP);
}

/**
 * pm_groups_configure() - serve process groups
 * @file: the group configuration (Documentation/exporter.rst), or NULL
 *        for the exporter's default grouping
 *
 * Return: 0, or a negative errno when the file is refused (the reason,
 * with its line, on stderr); nothing of a refused file is used.
 */
int pm_groups_configure(const char *file)
{
	if (!pg.on)
		mx_grpconf_default(&pg.conf);
	if (file) {
		int err = mx_grpconf_load(&pg.conf, file);

		if (err)
			return err;
	}
	pg.on = 1;
	return 0;
}

/* The classes the groups need held: class 15, when they are on. */
uint32_t pm_groups_mask(void)
{
	return pg.on ? 1U << MEAS_CLASS_PROC : 0;
}

/**
 * pm_group_metrics() - add meas.group.* to the agent's metrics
 *
 * Always, with or without -G: the PMNS is the same on every machine, and
 * the metrics have no value where the groups are off.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_group_metrics(void)
{
	const struct mx_grp_family *f;
	struct pm_metric *m;
	unsigned int k;

	for (k = 0; k < MX_GF_NR; k++) {
		f = &mx_grp_families[k];
		m = pm_metric_add(NULL, PM_K_GROUP, PM_CLUSTER_GROUP, k);
		if (!m)
			return -ENOMEM;
		mx_pcp_group_name(m->name, sizeof(m->name), f);
		m->desc.sem = f->type == MX_COUNTER ? PM_SEM_COUNTER :
						      PM_SEM_INSTANT;
		if (f->ns)
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 1, 0, 0,
							      PM_TIME_NSEC, 0);
		else if (!strcmp(f->unit, "bytes"))
			m->desc.units = (pmUnits)PMDA_PMUNITS(1, 0, 0,
							      PM_SPACE_BYTE, 0, 0);
		if (k < MX_GF_PER_GROUP)
			pm_metric_indom(m, PM_INDOM_GROUP);
	}
	return 0;
}

/* The parts of the long help: semantics, instances. */
enum { SEM_INSTANT, SEM_GROUP, SEM_TOTAL, INST_GROUP };
static const char *const help_part[] = {
	"An instantaneous value, read at each fetch (a scrape, for the exporter).",
	"A counter: it only grows while the agent runs. It counts what the group's processes did since class 15 was enabled (by this agent at its start, unless another holder such as meas-exporter had it already), each process once, an exited one through its exit record. Tools show its rate.",
	"A counter: it only grows while the agent runs. Tools show its rate.",
	"\nOne instance per group, named as meas-exporter's group label: the name of the configuration's first group rule the command or program name matches, else the cgroup v2 path cut to cgroup-depth components (\"/\" for the root), else \"other\". Groups are never removed while the agent runs; their instance numbers are kept across restarts.",
};

/**
 * pm_group_help() - the help texts of a meas.group metric
 * @m: the metric
 * @one_line: set to the exporter's help of its family
 * @long_help: set to that, its semantics and instances (allocated)
 *
 * Return: 0 or -ENOMEM.
 */
int pm_group_help(const struct pm_metric *m, char **one_line,
		  char **long_help)
{
	unsigned int k = pmID_item(m->desc.pmid);
	const struct mx_grp_family *f = &mx_grp_families[k];
	const char *sem = help_part[f->type != MX_COUNTER ? SEM_INSTANT :
				    k < MX_GF_PER_GROUP ? SEM_GROUP : SEM_TOTAL];
	const char *inst = k < MX_GF_PER_GROUP ? help_part[INST_GROUP] : "";

	*one_line = (char *)f->help;
	if (asprintf(long_help, "%s\n%s%s\nProcess groups are served with pmdameas -G or -g FILE (Documentation/pcp.rst); without, no value.\nThe same source as meas-exporter's %s%s (tools/lib/metrics/groups.c).",
		     f->help, sem, inst, f->name,
		     f->type == MX_COUNTER ? "_total" : "") < 0)
		return -ENOMEM;
	return 0;
}

/*
 * An instance name: the group's, with spaces (a cgroup may have them)
 * as "_", since PCP matches instance names up to their first space.
 */
static void group_inst_name(char *out, size_t len, const char *name)
{
	char *p;

	snprintf(out, len, "%s", name);
	for (p = out; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/**
 * pm_groups_refresh() - read the groups, update their instance domain
 *
 * Called at each fetch and instance request, after pm_refresh() has
 * made sure the classes are held.
 */
void pm_groups_refresh(void)
{
	char name[4 * MX_GRP_NAME_LEN + 1];
	unsigned int i;
	int err;

	pg.read_ok = 0;
	if (!pg.on)
		return;
	pmdaCacheOp(group_indom(), PMDA_CACHE_INACTIVE);
	if (pm_hold.fd < 0 || !(pm_hold.mask & pm_groups_mask()))
		return;
	if (!pg.tried) {
		/* one try: a failure (no CAP_SYS_ADMIN) will not go away */
		pg.tried = 1;
		/* the numbers of the agent's earlier runs, all inactive */
		pmdaCacheOp(group_indom(), PMDA_CACHE_LOAD);
		err = mx_groups_start(&pg.conf);
		if (err) {
			pmNotifyErr(LOG_ERR, "process groups not served: %s",
				    strerror(-err));
			return;
		}
		pg.started = 1;
		pmNotifyErr(LOG_INFO, "process groups: cgroup-depth %u, max-groups %u, %u name rules",
			    pg.conf.depth, pg.conf.max_groups, pg.conf.nrules);
	}
	if (!pg.started || mx_groups_read(&pg.r))
		return;
	for (i = 0; i < pg.r.ng; i++) {
		group_inst_name(name, sizeof(name), pg.r.g[i].name);
		err = pmdaCacheStore(group_indom(), PMDA_CACHE_ADD, name,
				     (void *)(uintptr_t)i);
		if (err < 0)
			pmNotifyErr(LOG_ERR, "pmdaCacheStore %s: %s", name,
				    pmErrStr(err));
	}
	/* only when a group was added: the file changes rarely */
	pmdaCacheOp(group_indom(), PMDA_CACHE_SAVE);
	pg.read_ok = 1;
}

/* The fetch callback of meas.group.*: 1 and the value, 0, or an error. */
int pm_group_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
	unsigned int k = pmID_item(m->m_desc.pmid);
	void *priv = NULL;
	uintptr_t i;

	if (k >= MX_GF_NR)
		return PM_ERR_PMID;
	if (k >= MX_GF_PER_GROUP) {
		if (!pg.read_ok)
			return 0;
		atom->ull = pg.r.total[k - MX_GF_PER_GROUP];
		return 1;
	}
	if (pmdaCacheLookup(m->m_desc.indom, (int)inst, NULL, &priv) !=
	    PMDA_CACHE_ACTIVE)
		return PM_ERR_INST;
	i = (uintptr_t)priv;
	if (!pg.read_ok || i >= pg.r.ng)
		return 0;
	atom->ull = pg.r.g[i].v[k];
	return 1;
}

void pm_groups_stop(void)
{
	if (pg.started)
		mx_groups_stop();
	free(pg.r.g);
}
