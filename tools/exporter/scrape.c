// SPDX-License-Identifier: GPL-2.0
/*
 * One scrape: one FGETSTATISTICS per subclass it needs (from item -3, so
 * that the header and every item come in the same call), then the metric
 * table (families.c) rendered over what was read.  Nothing here walks
 * /proc: a disk's name is looked up in sysfs once, the first time its
 * device number is seen, and kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exporter.h"

#ifndef MEAS_VERSION
#define MEAS_VERSION "unknown"
#endif

/* What one scrape reads: class 0 subclasses 0, 1, 4, 5; class 14's header. */
static struct mx_sub fixed, disc, xfer, lat, io, user;

/* ---- disk names ------------------------------------------------------- */

#define NAME_CACHE	256

static struct {
	uint64_t dev;
	char name[64];
} names[NAME_CACHE];
static unsigned int nnames;

/* The kernel's name of a disk, as node_exporter's device label has it. */
static const char *disk_name(uint64_t dev)
{
	unsigned int i;

	for (i = 0; i < nnames; i++)
		if (names[i].dev == dev)
			return names[i].name;
	i = nnames < NAME_CACHE ? nnames++ : dev % NAME_CACHE;
	names[i].dev = dev;
	if (meas_dev_name(dev, names[i].name, sizeof(names[i].name)))
		snprintf(names[i].name, sizeof(names[i].name), "%u:%u",
			 MEAS_DEV_MAJOR(dev), MEAS_DEV_MINOR(dev));
	return names[i].name;
}

static const char *entry_device(const struct mx_sub *s, uint64_t e)
{
	return e ? disk_name(mx_sub_item(s, e, 0)) : "other";
}

/* ---- rendering the table ----------------------------------------------- */

static double seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void sample(struct om_buf *b, const struct mx_family *f,
		   const char *labels, uint64_t v)
{
	const char *sfx = f->type == MX_COUNTER ? "_total" : "";

	if (f->ns)
		om_sample_ns(b, f->name, sfx, labels, v);
	else
		om_sample_u64(b, f->name, sfx, labels, v);
}

/* Labels of a series: device, then the family's own label. */
static void labels_of(char *buf, size_t len, const char *device,
		      const char *label, const char *lv)
{
	int n = 0;

	buf[0] = '\0';
	if (device)
		n = snprintf(buf, len, "device=\"%s\"", device);
	if (label && lv && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s%s=\"%s\"",
			 device ? "," : "", label, lv);
}

static void render_series(struct om_buf *b, const struct mx_family *f,
			  const struct mx_sub *s, uint64_t e, const char *device)
{
	const struct mx_series *se;
	char l[160];

	for (se = f->series; se->item != MX_NONE; se++) {
		labels_of(l, sizeof(l), device, f->label, se->lv);
		sample(b, f, l, mx_series_value(s, e, se));
	}
}

static void render_per_disk(struct om_buf *b, const struct mx_family *f,
			    const struct mx_sub *s)
{
	uint64_t e, n = mx_sub_entries(s);

	for (e = 0; e < n; e++)
		render_series(b, f, s, e, entry_device(s, e));
}

/* Subclass 5's plain items: per disk and operation group. */
static void render_lat(struct om_buf *b, const struct mx_family *f)
{
	uint64_t e, n = mx_sub_entries(&lat);
	unsigned int op;
	char l[160];

	for (e = 0; e < n; e++)
		for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++) {
			labels_of(l, sizeof(l), entry_device(&lat, e), f->label,
				  mx_lat_ops[op]);
			sample(b, f, l, mx_sub_item(&lat, e, MEAS_C0_LAT_OP(op) +
						 f->series->item));
		}
}

static void bucket(struct om_buf *b, const char *name, const char *labels,
		   const char *le, uint64_t v)
{
	char l[200];

	snprintf(l, sizeof(l), "%s%sle=\"%s\"", labels, labels[0] ? "," : "",
		 le);
	om_sample_u64(b, name, "_bucket", l, v);
}

/*
 * The queue-length histogram: bucket n (0..5) counts requests that found
 * n in flight, the last 6 or more.  No _sum: the lengths of the last
 * bucket are not kept.
 */
static void render_qlen(struct om_buf *b, const struct mx_family *f)
{
	uint64_t e, n = mx_sub_entries(&disc), cum;
	char l[160], le[8];
	int k;

	for (e = 0; e < n; e++) {
		labels_of(l, sizeof(l), entry_device(&disc, e), NULL, NULL);
		cum = 0;
		for (k = 0; k < MEAS_C0_DISC_QLEN_BUCKETS; k++) {
			cum += mx_sub_item(&disc, e, MEAS_C0_DISC_QLEN0 + k);
			if (k == MEAS_C0_DISC_QLEN_BUCKETS - 1)
				snprintf(le, sizeof(le), "+Inf");
			else
				snprintf(le, sizeof(le), "%d.0", k);
			bucket(b, f->name, l, le, cum);
		}
		om_sample_u64(b, f->name, "_count", l, cum);
	}
}

/* The latency histogram of one disk and group: cumulative buckets. */
static void render_lathist_one(struct om_buf *b, const struct mx_family *f,
			       uint64_t e, unsigned int op)
{
	int base = MEAS_C0_LAT_OP(op);
	uint64_t cum = 0;
	char l[160], le[32];
	int k;

	labels_of(l, sizeof(l), entry_device(&lat, e), f->label,
		  mx_lat_ops[op]);
	for (k = 0; k < MEAS_C0_LAT_BUCKETS; k++) {
		cum += mx_sub_item(&lat, e, base + MEAS_C0_LAT_BUCKET0 + k);
		if (k == MEAS_C0_LAT_BUCKETS - 1)
			snprintf(le, sizeof(le), "+Inf");
		else
			snprintf(le, sizeof(le), "%.12g",
				 seconds(MEAS_C0_LAT_BOUND_NS(k)));
		bucket(b, f->name, l, le, cum);
	}
	om_sample_u64(b, f->name, "_count", l, cum);
	om_sample_ns(b, f->name, "_sum", l,
		     mx_sub_item(&lat, e, base + MEAS_C0_LAT_SUM_NS));
}

static void render_lathist(struct om_buf *b, const struct mx_family *f)
{
	uint64_t e, n = mx_sub_entries(&lat);
	unsigned int op;

	for (e = 0; e < n; e++)
		for (op = 0; op < MEAS_C0_LAT_NR_OPS; op++)
			render_lathist_one(b, f, e, op);
}

static void render_start(struct om_buf *b, const struct mx_family *f,
			 const struct mx_hold *h)
{
	unsigned int c;
	char l[32];

	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (h->mask & (1U << c)) {
			snprintf(l, sizeof(l), "class=\"%u\"", c);
			om_sample_f(b, f->name, "", l, h->since[c]);
		}
}

/* The subclass a family reads, or NULL when it is not there this time. */
static const struct mx_sub *family_sub(const struct mx_family *f)
{
	switch (f->src) {
	case MX_SRC_FIXED:
		return &fixed;
	case MX_SRC_DISC:
	case MX_SRC_QLEN:
		return &disc;
	case MX_SRC_XFER:
		return &xfer;
	case MX_SRC_LAT:
	case MX_SRC_LATHIST:
		return &lat;
	case MX_SRC_IO:
		return &io;
	default:
		return NULL;
	}
}

static void render_family(struct om_buf *b, const struct mx_family *f,
			  const struct mx_hold *h, double t0)
{
	const struct mx_sub *s = family_sub(f);

	if (s && !s->ok)
		return;
	om_family(b, f->name, f->type, f->unit, f->help);
	switch (f->src) {
	case MX_SRC_FIXED:
		/* subclass 0 has one entry after its header: entry 1 */
		render_series(b, f, s, 0, NULL);
		break;
	case MX_SRC_DISC:
	case MX_SRC_XFER:
		render_per_disk(b, f, s);
		break;
	case MX_SRC_LAT:
		render_lat(b, f);
		break;
	case MX_SRC_QLEN:
		render_qlen(b, f);
		break;
	case MX_SRC_LATHIST:
		render_lathist(b, f);
		break;
	case MX_SRC_IO:
		render_series(b, f, s, 0, NULL);
		break;
	case MX_SRC_BUILD:
		om_sample_u64(b, f->name, "", "version=\"" MEAS_VERSION "\"", 1);
		break;
	case MX_SRC_START:
		render_start(b, f, h);
		break;
	case MX_SRC_SCRAPE: {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		om_sample_f(b, f->name, "", "",
			    (double)ts.tv_sec + ts.tv_nsec / 1e9 - t0);
		break;
	}
	}
}

/* ---- user-defined classes --------------------------------------------- */

/* A name part as a metric name allows: [a-zA-Z0-9_], others become _. */
static void name_part(char *out, size_t len, const char *in, size_t max,
		      const char *fallback, unsigned int n)
{
	size_t i;

	if (!in[0]) {
		snprintf(out, len, "%s%u", fallback, n);
		return;
	}
	for (i = 0; i + 1 < len && i < max && in[i]; i++) {
		char c = in[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') ? c : '_';
	}
	out[i] = '\0';
}

/*
 * One family per item of a subclass: meas_user_CLASS[_SUBCLASS]_ITEM, a
 * counter or a gauge as the definition says, one series per entry (an
 * entry label when the subclass has several).
 */
static void render_user_sub(struct om_buf *b, const struct meas_class_names *n,
			    unsigned int c, unsigned int s,
			    const struct meas_item_def *defs)
{
	const struct meas_subclass_def *sd = &n->d.sub[s];
	char cls[40], sub[40], item[40], name[140], l[32];
	struct mx_family f = { .unit = "", .help = "" };
	unsigned int i, e;

	name_part(cls, sizeof(cls), n->d.name, MEAS_NAME_MAX, "class", c);
	sub[0] = '\0';
	if (n->d.nsub > 1)
		name_part(sub, sizeof(sub), sd->name, MEAS_NAME_MAX, "sub", s);
	for (i = 0; i < sd->items; i++) {
		name_part(item, sizeof(item), defs[i].name, MEAS_NAME_MAX,
			  "item", i);
		snprintf(name, sizeof(name), "meas_user_%s%s%s_%s", cls,
			 sub[0] ? "_" : "", sub, item);
		f.name = name;
		f.type = defs[i].kind == MEAS_ITEM_GAUGE ? MX_GAUGE :
							   MX_COUNTER;
		f.help = "A user-defined item (UPDATESTATISTICS).";
		om_family(b, name, f.type, "", f.help);
		for (e = 0; e < sd->entries; e++) {
			l[0] = '\0';
			if (sd->entries > 1)
				snprintf(l, sizeof(l), "entry=\"%u\"", e + 1);
			sample(b, &f, l, user.items[(uint64_t)e * sd->items + i]);
		}
	}
}

static void render_user(struct om_buf *b, struct mx_hold *h)
{
	const struct meas_item_def *defs;
	const struct meas_class_names *n;
	unsigned int c, s;

	for (c = 1; c < MEAS_NR_CLASSES; c++) {
		if (!(h->mask & MEAS_CLASSMASK_CUSTOM & (1U << c)))
			continue;
		n = &h->names[c];
		defs = n->items;
		for (s = 0; s < n->d.nsub; s++) {
			const struct meas_subclass_def *sd = &n->d.sub[s];

			if (!mx_sub_read(h->fd, (int)c, (int)s,
					 MEAS_HEADER_WORDS +
					 (size_t)sd->entries * sd->items, &user) &&
			    user.nitems >= (uint64_t)sd->entries * sd->items &&
			    user.entsize == sd->items)
				render_user_sub(b, n, c, s, defs);
			defs += sd->items;
		}
	}
}

/* ---- process groups -------------------------------------------------- */

/* A label value, escaped as both text formats want it. */
static void grp_label(char *out, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 3 < len; s++) {
		if (*s == '\\' || *s == '"') {
			out[o++] = '\\';
			out[o++] = *s;
		} else if (*s == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

/* One family: a sample per group, or its one total. */
static void grp_family(struct om_buf *b, const struct mx_grp_read *r,
		       enum mx_grp_field k)
{
	const struct mx_grp_family *f = &mx_grp_families[k];
	const char *suffix = f->type == MX_COUNTER ? "_total" : "";
	char l[9 * MX_GRP_NAME_LEN], v[8 * MX_GRP_NAME_LEN];
	unsigned int i;

	om_family(b, f->name, f->type, f->unit, f->help);
	if (k >= MX_GF_PER_GROUP) {
		om_sample_u64(b, f->name, suffix, "",
			      r->total[k - MX_GF_PER_GROUP]);
		return;
	}
	for (i = 0; i < r->ng; i++) {
		grp_label(v, sizeof(v), r->g[i].name);
		snprintf(l, sizeof(l), "group=\"%s\"", v);
		if (f->ns)
			om_sample_ns(b, f->name, suffix, l, r->g[i].v[k]);
		else
			om_sample_u64(b, f->name, suffix, l, r->g[i].v[k]);
	}
}

/* The process groups (groups.c): nothing when they are off. */
static void render_groups(struct om_buf *b)
{
	struct mx_grp_read r = { 0 };
	unsigned int k;

	if (!mx_groups_read(&r))
		for (k = 0; k < MX_GF_NR; k++)
			grp_family(b, &r, (enum mx_grp_field)k);
	free(r.g);
}

/* ---- per-cgroup families (cgtotals.c) --------------------------------- */

/* A group's labels: cgroup, and unit, container_id, pod_uid if named. */
static void cg_labels(char *out, size_t len, const struct mx_cg_group *g)
{
	char v[2 * MX_CG_PATH_LEN];
	size_t o;

	grp_label(v, sizeof(v), g->path);
	o = (size_t)snprintf(out, len, "cgroup=\"%s\"", v);
	if (g->names.unit[0] && o < len) {
		grp_label(v, sizeof(v), g->names.unit);
		o += (size_t)snprintf(out + o, len - o, ",unit=\"%s\"", v);
	}
	if (g->names.container_id[0] && o < len)
		o += (size_t)snprintf(out + o, len - o, ",container_id=\"%s\"",
				      g->names.container_id);
	if (g->names.pod_uid[0] && o < len)
		snprintf(out + o, len - o, ",pod_uid=\"%s\"", g->names.pod_uid);
}

static void cg_series(struct om_buf *b, const struct mx_cg_read *r,
		      const struct mx_cg_series *se, char (*labels)[1536])
{
	const char *suffix = se->type == MX_COUNTER ? "_total" : "";
	char l[1600];
	unsigned int i;

	for (i = 0; i < r->ng; i++) {
		if (se->lname)
			snprintf(l, sizeof(l), "%s,%s=\"%s\"", labels[i],
				 se->lname, se->lval);
		else
			snprintf(l, sizeof(l), "%s", labels[i]);
		if (se->ns)
			om_sample_ns(b, se->family, suffix, l,
				     mx_cg_value(&r->g[i], se));
		else
			om_sample_u64(b, se->family, suffix, l,
				      mx_cg_value(&r->g[i], se));
	}
}

/* The per-cgroup families: nothing when they are off or unreadable. */
static void render_cgroups(struct om_buf *b)
{
	static struct mx_cg_read r;
	char (*labels)[1536];
	unsigned int i;
	size_t k;

	if (mx_cgroups_read(&r))
		return;
	labels = calloc(r.ng ? r.ng : 1, sizeof(*labels));
	if (!labels)
		return;
	for (i = 0; i < r.ng; i++)
		cg_labels(labels[i], sizeof(labels[i]), &r.g[i]);
	for (k = 0; k < mx_cg_nseries; k++) {
		const struct mx_cg_series *se = &mx_cg_series[k];

		if (!k || strcmp(se->family, mx_cg_series[k - 1].family))
			om_family(b, se->family, se->type, se->unit, se->help);
		cg_series(b, &r, se, labels);
	}
	free(labels);
	om_family(b, "meas_cgroups_hidden", MX_GAUGE, "",
		  "Cgroups the exporter may not see (processes of other users ran there).");
	om_sample_u64(b, "meas_cgroups_hidden", "", "", r.hidden);
	om_family(b, "meas_cgroups_other", MX_GAUGE, "",
		  "Cgroups summed in cgroup=\"(other)\" at this scrape: the group cap was reached.");
	om_sample_u64(b, "meas_cgroups_other", "", "", r.capped);
	om_family(b, "meas_cgroup_overflow_threads", MX_COUNTER, "",
		  "Threads that found the module's cgroup table full and count in cgroup=\"(overflow)\".");
	om_sample_u64(b, "meas_cgroup_overflow_threads", "_total", "",
		      r.overflow_threads);
}

/* ---- the scrape --------------------------------------------------------- */

/**
 * mx_scrape() - read the held classes and render every family
 * @h: what the exporter holds
 * @out: where the text goes (its format set)
 *
 * A family whose subclass could not be read this time is left out, and
 * so is a class that is not held.
 *
 * Return: 0, or a negative errno when nothing can be read.
 */
int mx_scrape(struct mx_hold *h, struct om_buf *out)
{
	struct meas_info info;
	struct timespec ts;
	size_t words;
	double t0;
	size_t i;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	err = meas_info(h->fd, &info);
	if (err)
		return err;
	mx_hold_user_classes(h, &info);
	fixed.ok = 0;
	disc.ok = 0;
	xfer.ok = 0;
	lat.ok = 0;
	io.ok = 0;
	if (h->mask & 1U) {
		words = info.region_bytes[MEAS_CLASS_GLOBAL] / sizeof(uint64_t);
		mx_sub_read(h->fd, 0, MEAS_C0_SUB_FIXED, words, &fixed);
		mx_sub_read(h->fd, 0, MEAS_C0_SUB_DISC, words, &disc);
		mx_sub_read(h->fd, 0, MEAS_C0_SUB_XFER, words, &xfer);
		mx_sub_read(h->fd, 0, MEAS_C0_SUB_LAT, words, &lat);
	}
	if (h->mask & (1U << MEAS_CLASS_IO))
		mx_sub_read(h->fd, MEAS_CLASS_IO, MEAS_IO_SUB_RING,
			    MEAS_HEADER_WORDS + MEAS_IO_H_PART0, &io);
	render_user(out, h);
	render_groups(out);
	render_cgroups(out);
	for (i = 0; i < mx_nfamilies; i++)	/* the scrape's duration last */
		render_family(out, &mx_families[i], h, t0);
	om_end(out);
	return 0;
}
