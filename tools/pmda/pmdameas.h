/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmdameas: the meas counters as a Performance Co-Pilot agent (PMDA),
 * under the names meas.*.  Documentation/pcp.rst.
 *
 *   metrics.c  the PCP metrics, built from meas-exporter's metric table
 *              (tools/lib/metrics/families.c): names, PMIDs, types, units,
 *              semantics, help; and the PMNS and domain files Install uses
 *   fetch.c    one read of the held classes per fetch, the instance
 *              domains (disks, histogram buckets, user-defined items)
 *              and the values
 *   proc.c     class 15 with -P: meas.proc.* per process
 *   access.c   which client may see which process (-P, -A)
 *   groups.c   process groups (meas.group.*), meas-exporter's groups
 *              (tools/lib/metrics/groups.c) over an instance domain of names
 *   hold.c     the classes held for its life, /dev/meas opened again
 *   main.c     options, the daemon
 */
#ifndef PMDAMEAS_H
#define PMDAMEAS_H

#include <stdbool.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "metrics.h"

/*
 * The domain number: from the range PCP's own table of domains
 * (stdpmid.pcp) leaves unassigned, 256..510 (Documentation/pcp.rst).
 */
#define MEAS_DOMAIN	400

/* What a PCP metric reads. */
enum pm_kind {
	PM_K_FIXED,	/* class 0 subclass 0: one series */
	PM_K_FIXED_IND,	/* class 0 subclass 0: series as instances */
	PM_K_DISK,	/* per disk: one series of a disk family */
	PM_K_LAT,	/* per disk: a subclass 5 item of one operation group */
	PM_K_QLEN,	/* per disk and bucket: the queue-length histogram */
	PM_K_LATHIST,	/* per disk and bucket: one group's latency histogram */
	PM_K_LATSUM,	/* per disk: one group's latency sum */
	PM_K_IO,	/* class 14 header */
	PM_K_VERSION,	/* the version of meas */
	PM_K_START,	/* when each class was enabled, per class */
	PM_K_USER,	/* user-defined items, per class, subclass, item, entry */
	PM_K_PROC,	/* class 15: an item of each process */
	PM_K_PROC0,	/* class 15: an item of the table's entry 0 */
	PM_K_GROUP,	/* process groups (groups.c) */
	PM_K_CGROUP,	/* cgroups (cgroups.c) */
};

/* Clusters of the metrics not in the table: above any family index. */
#define PM_CLUSTER_USER	1000
#define PM_CLUSTER_PROC	1001	/* and 1002 for meas.proc.table.* */
#define PM_CLUSTER_GROUP	1100	/* meas.group.* (groups.c) */
#define PM_CLUSTER_CGROUP	1101	/* meas.cgroup.* (cgroups.c) */

/* The instance domains (serial numbers). */
enum pm_indom_serial {
	PM_INDOM_DISK,		/* disks, named as PCP's disk.dev names them */
	PM_INDOM_QLEN,		/* disk::bucket of the queue-length histogram */
	PM_INDOM_LAT,		/* disk::le=bound of the latency histograms */
	PM_INDOM_CLASS,		/* classes held */
	PM_INDOM_USER_COUNTER,	/* user-defined counters */
	PM_INDOM_USER_GAUGE,	/* user-defined gauges */
	PM_INDOM_PROC,		/* processes of class 15 */
	PM_INDOM_FIXED0,	/* the first of the labels of subclass 0 */
};

/*
 * Process groups, by name (groups.c): a serial far from the labels of
 * subclass 0, which follow PM_INDOM_FIXED0, so that neither moves.
 */
#define PM_INDOM_GROUP	64
/* Cgroups, by path (cgroups.c). */
#define PM_INDOM_CGROUP	65

/**
 * struct pm_metric - one PCP metric
 * @name: its PMNS name
 * @kind: what it reads
 * @f: its family in the table, NULL for none
 * @se: its series (PM_K_FIXED, PM_K_DISK), or NULL
 * @op: its operation group (PM_K_LAT*), or item (PM_K_PROC*)
 * @indom_serial: its instance domain, or -1
 * @desc: type, semantics, units, PMID, instance domain
 */
struct pm_metric {
	char name[128];
	enum pm_kind kind;
	const struct mx_family *f;
	const struct mx_series *se;
	unsigned int op;
	int indom_serial;
	pmDesc desc;
};

/* ---- metrics.c ---------------------------------------------------- */

int pm_metrics_build(void);
struct pm_metric *pm_metric_add(const struct mx_family *f, enum pm_kind kind,
				unsigned int cluster, unsigned int item);
void pm_metric_indom(struct pm_metric *m, int serial);
extern struct pm_metric *pm_metrics;
extern size_t pm_nmetrics;
/* Instance domains of subclass 0's labels: how many. */
extern unsigned int pm_nfixed_indoms;
/* The family whose label instance domain @serial is (PM_INDOM_FIXED0...). */
const struct mx_family *pm_fixed_indom_family(unsigned int serial);
int pm_text(int ident, int type, char **buffer, pmdaExt *pmda);
void pm_print_pmns(FILE *f);
void pm_print_domain(FILE *f);

/* ---- fetch.c ---------------------------------------------------------- */

void pm_fetch_init(int domain);
int pm_refresh(void);
int pm_fetch_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom);

/* ---- proc.c: class 15 (-P) ------------------------------------------- */

int pm_proc_add(void);
/* Read every entry when class 15 is @held on @fd; the processes of @indom. */
void pm_proc_refresh(pmInDom indom, int held, int fd);
int pm_proc_value(const struct pm_metric *pm, void *priv, pmAtomValue *atom);
/*
 * Hide (@hide) from the instances of @indom the processes the client may
 * not see, or show them again after the request.
 */
void pm_proc_hide(pmInDom indom, int hide);

/* ---- access.c: who may see meas.proc.* ---------------------------------- */

extern int pm_proc_all_clients;		/* -A */
int pm_client_attribute(int ctx, int attr, const char *value, int len,
			pmdaExt *pmda);
void pm_client_end(int ctx);
bool pm_client_sees_all(void);
bool pm_client_sees(const uint64_t *e);

/* ---- groups.c --------------------------------------------------------- */

int pm_groups_configure(const char *file);
uint32_t pm_groups_mask(void);
int pm_group_metrics(void);
int pm_group_help(const struct pm_metric *m, char **one_line,
		  char **long_help);
extern const char pm_group_indom_help[];
void pm_groups_refresh(void);
int pm_group_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom);
void pm_groups_stop(void);

/* ---- cgroups.c -------------------------------------------------------- */

void pm_cgroups_configure(void);
uint32_t pm_cgroups_mask(void);
int pm_cgroup_metrics(void);
int pm_cgroup_help(const struct pm_metric *m, char **one_line,
		   char **long_help);
extern const char pm_cgroup_indom_help[];
void pm_cgroups_refresh(void);
int pm_cgroup_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom);
void pm_cgroups_stop(void);

/* ---- hold.c ----------------------------------------------------------- */

extern struct mx_hold pm_hold;
/* The classes to hold: class 0, and what main.c's options add. */
extern uint32_t pm_hold_mask;
int pm_hold_ensure(void);

#endif /* PMDAMEAS_H */
