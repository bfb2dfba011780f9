// SPDX-License-Identifier: GPL-2.0
/*
 * Class 15 in pmdameas (-P): meas.proc.* per process and
 * meas.proc.table.* for the table itself, so that pmlogger can record
 * what measctl top shows, and measctl top --archive replay it.
 *
 * One GETPROCSTATS of every entry per fetch.  A process is an instance
 * named as PCP's proc agent names them, "PID COMMAND" with the PID in six
 * digits; its instance number comes from libpcp's instance cache, so that
 * it stays the same for the life of the agent (this cache is not saved:
 * PIDs do not outlive a reboot, and a restart starts afresh; only the
 * groups' cache is, groups.c).  An exited process keeps its entry, and its
 * instance, until class 15 gives the entry to a new process; an
 * instance no entry has had for PROC_CULL_S seconds leaves the cache.
 * A client sees the processes access.c lets it see, no others.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmdameas.h"

/* An instance not seen for this long leaves the cache. */
#define PROC_CULL_S	60

static uint64_t *items;
static size_t nent;

static const uint64_t *entry(size_t slot)
{
	return items + slot * MEAS_PROC_ITEMS;
}

int pm_proc_add(void)
{
	struct pm_metric *m;
	char name[128];
	unsigned int i;
	size_t k;

	for (i = 0; i < MEAS_PROC_ITEMS; i++) {
		if (mx_pcp_proc_name(name, sizeof(name), i))
			continue;	/* an unnamed item */
		m = pm_metric_add(NULL, PM_K_PROC, PM_CLUSTER_PROC, i);
		if (!m)
			return -ENOMEM;
		snprintf(m->name, sizeof(m->name), "%s", name);
		m->op = i;
		pm_metric_indom(m, PM_INDOM_PROC);
		if (i == MEAS_P_PROGRAM || i == MEAS_P_COMMAND) {
			m->desc.type = PM_TYPE_STRING;
			m->desc.sem = PM_SEM_DISCRETE;
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 0, 0, 0, 0, 0);
			continue;
		}
		m->desc.sem = meas_proc_item_is_counter(i) ? PM_SEM_COUNTER :
			      PM_SEM_INSTANT;
		if (strstr(meas_proc_item_name(i), "-ns"))
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_NSEC, 0);
		else if (strstr(meas_proc_item_name(i), "-bytes"))
			m->desc.units = (pmUnits)PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0);
		else if (!meas_proc_item_is_counter(i))
			m->desc.units = (pmUnits)PMDA_PMUNITS(0, 0, 0, 0, 0, 0);
	}
	for (k = 0; k < mx_pcp_np0; k++) {
		m = pm_metric_add(NULL, PM_K_PROC0, PM_CLUSTER_PROC + 1,
				  (unsigned int)k);
		if (!m)
			return -ENOMEM;
		snprintf(m->name, sizeof(m->name), "meas.proc.table.%s",
			 mx_pcp_p0[k].name);
		m->op = (unsigned int)k;
		m->desc.sem = mx_pcp_p0[k].counter ? PM_SEM_COUNTER :
			      PM_SEM_INSTANT;
	}
	return 0;
}

/* The instance name of the process in @slot: "PID COMMAND". */
static void inst_name(size_t slot, char *buf, size_t len)
{
	char comm[MEAS_PROC_COMM_LEN + 1];
	const uint64_t *e = entry(slot);

	memcpy(comm, &e[MEAS_P_COMMAND], MEAS_PROC_COMM_LEN);
	comm[MEAS_PROC_COMM_LEN] = '\0';
	snprintf(buf, len, "%06llu %s", (unsigned long long)e[MEAS_P_PID],
		 comm);
}

void pm_proc_refresh(pmInDom indom, int held, int fd)
{
	char name[64];
	size_t slot;
	int result;

	pmdaCacheOp(indom, PMDA_CACHE_INACTIVE);
	free(items);
	items = NULL;
	nent = 0;
	if (!held || meas_proc_all(fd, &items, &nent, &result)) {
		free(items);
		items = NULL;
		nent = 0;
		return;
	}
	for (slot = 1; slot < nent; slot++) {
		if (entry(slot)[MEAS_P_STATE] == MEAS_PSTATE_EMPTY)
			continue;
		inst_name(slot, name, sizeof(name));
		/* a name seen again (a reused PID) now means this entry */
		pmdaCacheStore(indom, PMDA_CACHE_ADD, name,
			       (void *)(uintptr_t)slot);
	}
	pmdaCachePurge(indom, PROC_CULL_S);
}

void pm_proc_hide(pmInDom indom, int hide)
{
	char name[64];
	size_t slot;

	if (!items || pm_client_sees_all())
		return;
	for (slot = 1; slot < nent; slot++) {
		if (entry(slot)[MEAS_P_STATE] == MEAS_PSTATE_EMPTY ||
		    pm_client_sees(entry(slot)))
			continue;
		inst_name(slot, name, sizeof(name));
		pmdaCacheStore(indom, hide ? PMDA_CACHE_HIDE : PMDA_CACHE_ADD,
			       name, (void *)(uintptr_t)slot);
	}
}

int pm_proc_value(const struct pm_metric *pm, void *priv, pmAtomValue *atom)
{
	size_t slot = (uintptr_t)priv;
	const uint64_t *e;

	if (!items)
		return 0;
	if (pm->kind == PM_K_PROC0) {
		atom->ull = items[mx_pcp_p0[pm->op].item];
		return 1;
	}
	if (slot < 1 || slot >= nent)
		return 0;
	e = entry(slot);
	if (!pm_client_sees(e))
		return 0;	/* no value: not this client's to see */
	if (pm->op == MEAS_P_PROGRAM || pm->op == MEAS_P_COMMAND) {
		static char s[MEAS_PROC_NAME_LEN + 1];
		size_t n = pm->op == MEAS_P_PROGRAM ? MEAS_PROC_NAME_LEN :
			   MEAS_PROC_COMM_LEN;

		memcpy(s, &e[pm->op], n);
		s[n] = '\0';
		atom->cp = s;
		return 1;
	}
	atom->ull = e[pm->op];
	return 1;
}
