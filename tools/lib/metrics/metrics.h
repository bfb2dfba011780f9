/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics library of meas's agents: what meas-exporter, pmdameas and
 * measctl's replay share, built as an internal static library
 * (libmeasmetrics.a, not installed: Documentation/internals.rst, "The
 * tools").
 *
 *   families.c  the metric table: every family, its source item, unit;
 *               and the process groups' families
 *   pcpname.c   the table's names in PCP (pmdameas, measctl --archive)
 *   sub.c       a subclass read whole
 *   hold.c      the classes held enabled for an agent's life
 *   groups.c    process groups: class 15 records and exit records (their
 *               families are in families.c)
 *   grpconf.c   the group configuration file
 *   cgmap.c     cgroup v2 IDs to paths
 *   cgname.c    what a cgroup path names: unit, container, pod
 *   cgtotals.c  the per-cgroup groups, from the module's totals (their
 *               families are in families.c)
 *   access.c    which user may see which process: ptrace's rules
 *               (module/logic/access.c) on a class 15 entry
 */
#ifndef MEAS_METRICS_H
#define MEAS_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/meas.h>

#include "libmeas.h"

/* ---- the metric table (families.c) ---------------------------------- */

enum mx_type { MX_COUNTER, MX_GAUGE, MX_HISTOGRAM };

/* Where a family's values come from. */
enum mx_src {
	MX_SRC_FIXED,	/* class 0 subclass 0 items */
	MX_SRC_DISC,	/* per disk: class 0 subclass 1 items */
	MX_SRC_XFER,	/* per disk: class 0 subclass 4 items */
	MX_SRC_LAT,	/* per disk and group: class 0 subclass 5 items */
	MX_SRC_QLEN,	/* per disk: subclass 1 items 14..20, a histogram */
	MX_SRC_LATHIST,	/* per disk and group: subclass 5 buckets */
	MX_SRC_IO,	/* class 14 header items */
	MX_SRC_BUILD,	/* the exporter's version */
	MX_SRC_START,	/* when it enabled each class */
	MX_SRC_SCRAPE,	/* how long this scrape took */
};

#define MX_NONE		(-1)
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/**
 * struct mx_series - one series of a family
 * @lv: value of the family's label, or NULL when it has none
 * @item: the source item (for MX_SRC_LAT*, an item of a group's block)
 * @minus: an item whose value is subtracted, or MX_NONE
 */
struct mx_series {
	const char *lv;
	int item;
	int minus;
};

/**
 * struct mx_family - one metric family
 * @name: the family name, with its unit suffix and without "_total"
 * @type: counter, gauge or histogram
 * @unit: "seconds", "bytes", or "" (a count)
 * @help: one line
 * @src: where the values come from
 * @label: name of the family's own label, or NULL
 * @ns: the items are nanoseconds, exported as seconds
 * @series: the series, ended by one with item MX_NONE
 */
struct mx_family {
	const char *name;
	enum mx_type type;
	const char *unit;
	const char *help;
	enum mx_src src;
	const char *label;
	int ns;
	const struct mx_series *series;
};

extern const struct mx_family mx_families[];
extern const size_t mx_nfamilies;
/* The operation groups of subclass 5, as the "op" label says them. */
extern const char *const mx_lat_ops[MEAS_C0_LAT_NR_OPS];

/* ---- PCP names of the table (pcpname.c) ------------------------------ */

/* A family's name without prefix, group or "_seconds". */
void mx_pcp_leaf(char *out, size_t len, const struct mx_family *f);
/*
 * The PCP metric of series @se of @f (class 0 subclass 0, per disk, queue
 * length); -1 for the families named otherwise.
 */
int mx_pcp_series_name(char *out, size_t len, const struct mx_family *f,
		       const struct mx_series *se);
struct mx_grp_family;
/* The PCP metric of a process-group family (mx_grp_families[]). */
void mx_pcp_group_name(char *out, size_t len, const struct mx_grp_family *f);
/* The PCP metric of class 15 item @item; -1 for an unnamed item. */
int mx_pcp_proc_name(char *out, size_t len, unsigned int item);
struct mx_cg_series;
/* The PCP metric of a per-cgroup series (mx_cg_series[]). */
void mx_pcp_cgroup_name(char *out, size_t len, const struct mx_cg_series *s);

/* The items of class 15's entry 0 that PCP gets, as meas.proc.table.NAME. */
struct mx_pcp_p0 {
	int item;
	const char *name;
	int counter;
	const char *help;
};

extern const struct mx_pcp_p0 mx_pcp_p0[];
extern const size_t mx_pcp_np0;

/* ---- a subclass read whole (sub.c) ----------------------------------- */

/* A subclass as read: its header and items. */
struct mx_sub {
	int ok;
	uint64_t entries, entsize, ent0size;
	const uint64_t *items;
	uint64_t nitems;
	uint64_t *buf;
	size_t cap;
};

int mx_sub_read(int fd, int class, int subclass, size_t words,
		struct mx_sub *s);
uint64_t mx_sub_item(const struct mx_sub *s, uint64_t e, int item);
uint64_t mx_sub_entries(const struct mx_sub *s);
uint64_t mx_series_value(const struct mx_sub *s, uint64_t e,
			 const struct mx_series *se);

/* ---- the classes held (hold.c) -------------------------------------- */

/**
 * struct mx_hold - what the exporter holds enabled, and since when
 * @fd: /dev/meas
 * @mask: classes this file enabled
 * @since: CLOCK_REALTIME seconds at which the exporter enabled each class
 * @user: hold user-defined classes too, as they appear
 * @names: names of the user-defined classes held
 */
struct mx_hold {
	int fd;
	uint32_t mask;
	double since[MEAS_NR_CLASSES];
	int user;
	struct meas_class_names names[MEAS_NR_CLASSES];
};

int mx_hold_start(struct mx_hold *h, uint32_t mask, int user);
void mx_hold_user_classes(struct mx_hold *h, const struct meas_info *info);
void mx_hold_stop(struct mx_hold *h);

/* ---- options (the number parser in grpconf.c) ------------------------- */

/* A decimal number in lo..hi, the whole of @s; 0 or -1. */
int mx_parse_uint(const char *s, unsigned int lo, unsigned int hi,
		  unsigned int *out);

/* ---- process groups (groups.c, grpconf.c, cgmap.c) ---------------------- */

#define MX_GRP_NAME_LEN		64
#define MX_GRP_PAT_LEN		64
#define MX_GRP_MAX_PATS		16
#define MX_GRP_MAX_RULES	64
#define MX_GRP_DEPTH_DEFAULT	2
#define MX_GRP_DEPTH_MAX	16
#define MX_GRP_MAX_DEFAULT	64
#define MX_GRP_MAX_LIMIT	4096

/* One "group NAME PATTERN..." line. */
struct mx_grprule {
	char name[MX_GRP_NAME_LEN];
	char pat[MX_GRP_MAX_PATS][MX_GRP_PAT_LEN];
	unsigned int npat;
};

/**
 * struct mx_grpconf - how processes are grouped
 * @depth: components of the cgroup path a group keeps; 0: no cgroup groups
 * @max_groups: groups besides "other"
 * @rules: the name rules, first match wins
 * @nrules: their number
 */
struct mx_grpconf {
	unsigned int depth;
	unsigned int max_groups;
	struct mx_grprule rules[MX_GRP_MAX_RULES];
	unsigned int nrules;
};

void mx_grpconf_default(struct mx_grpconf *c);
int mx_grpconf_load(struct mx_grpconf *c, const char *file);
int mx_grpconf_match(const struct mx_grpconf *c, const char *comm,
		     const char *program);

const char *mx_cgmap_path(uint64_t id);
unsigned long mx_cgmap_walks(void);

/*
 * What the groups count: the first MX_GF_PER_GROUP per group, the others
 * once for all groups.
 */
enum mx_grp_field {
	MX_GF_CPU, MX_GF_STOPS, MX_GF_BYTES, MX_GF_EXITS, MX_GF_PROCESSES,
	MX_GF_CAPPED, MX_GF_LOST, MX_GF_WALKS, MX_GF_NR
};

#define MX_GF_PER_GROUP	MX_GF_CAPPED

/**
 * struct mx_grp_family - one family of the process groups
 * @name: the family name, as struct mx_family's
 * @type: counter or gauge
 * @unit: "seconds", "bytes", or "" (a count)
 * @help: one line: the exporter's HELP, the PCP agent's one-line help
 * @ns: the values are nanoseconds, exported as seconds
 */
struct mx_grp_family {
	const char *name;
	enum mx_type type;
	const char *unit;
	const char *help;
	int ns;
};

/*
 * Indexed by enum mx_grp_field (families.c): the exporter and the PCP
 * agent walk it.
 */
extern const struct mx_grp_family mx_grp_families[MX_GF_NR];

/* One group as a read left it; @name lives as long as the groups. */
struct mx_grp_stat {
	const char *name;
	uint64_t v[MX_GF_PER_GROUP];
};

/* The groups as one dump left them; @g grows as needed and is kept. */
struct mx_grp_read {
	struct mx_grp_stat *g;
	unsigned int ng;
	unsigned int cap;
	uint64_t total[MX_GF_NR - MX_GF_PER_GROUP];
};

int mx_groups_start(const struct mx_grpconf *c);
int mx_groups_read(struct mx_grp_read *r);
void mx_groups_stop(void);

/* ---- what a cgroup path names (cgname.c) ------------------------------ */

#define MX_CGN_UNIT_LEN	256	/* systemd's longest unit name, and NUL */
#define MX_CGN_ID_LEN	65	/* a container ID: 64 hex digits, and NUL */

/**
 * struct mx_cgname - what a cgroup path names
 * @unit: the deepest systemd unit of the path ("nginx.service"), or ""
 * @container_id: the container's full ID, or ""
 * @pod_uid: the pod's UID (Kubernetes), or its ID (podman's 64 hex
 *	digits), or ""
 * @runtime: "podman", "docker", "containerd", "cri-o", or NULL
 * @qos: the pod's QoS class: "guaranteed", "burstable", "besteffort",
 *	or NULL
 * @conmon: the cgroup is the container's monitor (conmon), not the
 *	container
 */
struct mx_cgname {
	char unit[MX_CGN_UNIT_LEN];
	char container_id[MX_CGN_ID_LEN];
	char pod_uid[MX_CGN_ID_LEN];
	const char *runtime;
	const char *qos;
	bool conmon;
};

void mx_cgname_classify(const char *path, struct mx_cgname *out);
const char *mx_cgname_label(const struct mx_cgname *n, const char *path,
			    char *buf, size_t len);

/* ---- per-cgroup families (cgtotals.c) --------------------------------- */

#define MX_CG_THREADS		(-2)	/* a series of live threads */
#define MX_CG_PATH_LEN		512
#define MX_CG_DEPTH_DEFAULT	3
#define MX_CG_MAX_DEFAULT	256

/**
 * struct mx_cg_series - one series of a per-cgroup family
 * @family: the family's name, with its unit and without "_total"
 * @type: counter or gauge
 * @unit: "seconds", "bytes", or ""
 * @help: one line
 * @lname: the series' own label (reason, op), or NULL
 * @lval: its value
 * @item: the class 15 item, or MX_CG_THREADS
 * @minus: an item subtracted, or MX_NONE
 * @ns: nanoseconds, exported as seconds
 *
 * The series of a family are consecutive.
 */
struct mx_cg_series {
	const char *family;
	enum mx_type type;
	const char *unit;
	const char *help;
	const char *lname;
	const char *lval;
	int item;
	int minus;
	int ns;
};

extern const struct mx_cg_series mx_cg_series[];
extern const size_t mx_cg_nseries;

/* One group: a cgroup path cut to the depth, its names and sums. */
struct mx_cg_group {
	char path[MX_CG_PATH_LEN];
	struct mx_cgname names;
	uint64_t threads;
	uint64_t v[MEAS_PROC_ITEMS];
};

/* The groups of one read; @g grows as needed and is kept. */
struct mx_cg_read {
	struct mx_cg_group *g;
	unsigned int ng;
	unsigned int cap;
	uint64_t capped;		/* cgroups put in "(other)" */
	uint64_t hidden;		/* cgroups the exporter may not see */
	uint64_t overflow_threads;	/* the module's table was full */
};

int mx_cgroups_start(unsigned int depth, unsigned int max_groups);
int mx_cgroups_read(struct mx_cg_read *r);
void mx_cgroups_stop(void);
uint64_t mx_cg_value(const struct mx_cg_group *g,
		     const struct mx_cg_series *s);

/* ---- who may see a process (access.c) --------------------------------- */

/*
 * Whether the user @uid, group @gid, may see the process of class 15
 * entry @e: ptrace's rules on its IDs and dumpable flag, with no
 * capability (root is not special here: callers decide that).
 */
bool mx_access_sees(uint32_t uid, uint32_t gid, const uint64_t *e);

#endif /* MEAS_METRICS_H */
