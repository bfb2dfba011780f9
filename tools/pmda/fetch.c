// SPDX-License-Identifier: GPL-2.0
/*
 * The values of pmdameas: at each fetch (or instance request) the held
 * subclasses are read once, whole (mx_sub_read(), as meas-exporter reads
 * them), the dynamic instance domains are brought up to date in libpcp's
 * instance cache, and pmdaFetch() asks for each value.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pmdameas.h"

#ifndef MEAS_VERSION
#define MEAS_VERSION "unknown"
#endif

#define MAX_DISKS	256

static int domain;
static struct mx_sub fixed, disc, xfer, lat, io;
static struct mx_sub user[MEAS_NR_CLASSES][MEAS_CUSTOM_MAX_SUBCLASSES];

/* The disks seen, by device number; a slot is kept for the agent's life. */
static struct {
	uint64_t dev;
	char name[64];
} disks[MAX_DISKS];
static unsigned int ndisks;

static pmInDom indom(enum pm_indom_serial s)
{
	return pmInDom_build((unsigned int)domain, s);
}

void pm_fetch_init(int dom)
{
	domain = dom;
}

/* The slot of @dev, or -1 when the table is full. */
static int disk_slot(uint64_t dev)
{
	unsigned int i;

	for (i = 0; i < ndisks; i++)
		if (disks[i].dev == dev)
			return (int)i;
	if (ndisks == MAX_DISKS)
		return -1;
	disks[ndisks].dev = dev;
	if (meas_dev_name(dev, disks[ndisks].name, sizeof(disks[0].name)))
		snprintf(disks[ndisks].name, sizeof(disks[0].name), "%u:%u",
			 MEAS_DEV_MAJOR(dev), MEAS_DEV_MINOR(dev));
	return (int)ndisks++;
}

/* The entry of @s for the disk in @slot, or 0 when it has none. */
static uint64_t entry_of(const struct mx_sub *s, unsigned int slot)
{
	uint64_t e, n = mx_sub_entries(s);

	for (e = 1; e < n; e++)
		if (mx_sub_item(s, e, 0) == disks[slot].dev)
			return e;
	return 0;
}

static void cache_add(pmInDom id, const char *name, uintptr_t priv)
{
	int sts = pmdaCacheStore(id, PMDA_CACHE_ADD, name, (void *)priv);

	if (sts < 0)
		pmNotifyErr(LOG_ERR, "pmdaCacheStore %s: %s", name,
			    pmErrStr(sts));
}

/* Disks and the histogram buckets of each: named after the disk. */
static void refresh_disks(void)
{
	uint64_t e, n = mx_sub_entries(&disc);
	char name[128];
	int slot, k;

	pmdaCacheOp(indom(PM_INDOM_DISK), PMDA_CACHE_INACTIVE);
	pmdaCacheOp(indom(PM_INDOM_QLEN), PMDA_CACHE_INACTIVE);
	pmdaCacheOp(indom(PM_INDOM_LAT), PMDA_CACHE_INACTIVE);
	for (e = 1; disc.ok && e < n; e++) {
		slot = disk_slot(mx_sub_item(&disc, e, MEAS_C0_DISC_DEV));
		if (slot < 0)
			continue;
		cache_add(indom(PM_INDOM_DISK), disks[slot].name,
			  (uintptr_t)slot);
		for (k = 0; k < MEAS_C0_DISC_QLEN_BUCKETS; k++) {
			snprintf(name, sizeof(name), "%s::%d%s",
				 disks[slot].name, k,
				 k == MEAS_C0_DISC_QLEN_BUCKETS - 1 ? "+" : "");
			cache_add(indom(PM_INDOM_QLEN), name,
				  (uintptr_t)slot << 8 | (uintptr_t)k);
		}
		if (!lat.ok)
			continue;
		for (k = 0; k < MEAS_C0_LAT_BUCKETS; k++) {
			if (k == MEAS_C0_LAT_BUCKETS - 1)
				snprintf(name, sizeof(name), "%s::le=+Inf",
					 disks[slot].name);
			else
				snprintf(name, sizeof(name), "%s::le=%.12g",
					 disks[slot].name,
					 (double)MEAS_C0_LAT_BOUND_NS(k) / 1e9);
			cache_add(indom(PM_INDOM_LAT), name,
				  (uintptr_t)slot << 8 | (uintptr_t)k);
		}
	}
}

static void refresh_classes(void)
{
	unsigned int c;
	char name[16];

	pmdaCacheOp(indom(PM_INDOM_CLASS), PMDA_CACHE_INACTIVE);
	for (c = 0; c < MEAS_NR_CLASSES; c++) {
		if (!(pm_hold.mask & (1U << c)))
			continue;
		snprintf(name, sizeof(name), "%u", c);
		cache_add(indom(PM_INDOM_CLASS), name, c);
	}
}

/* A name part: the definition's, or NUMBER when it has none. */
static const char *part(char *buf, size_t len, const char *name,
			const char *fallback, unsigned int n)
{
	if (name[0])
		snprintf(buf, len, "%.*s", MEAS_NAME_MAX, name);
	else
		snprintf(buf, len, "%s%u", fallback, n);
	return buf;
}

/* private: class, subclass, item, entry */
static uintptr_t user_key(unsigned int c, unsigned int s, unsigned int i,
			  unsigned int e)
{
	return (uintptr_t)c << 56 | (uintptr_t)s << 48 | (uintptr_t)i << 24 | e;
}

static void refresh_user_sub(unsigned int c, unsigned int s,
			     const struct meas_item_def *defs)
{
	const struct meas_class_names *n = &pm_hold.names[c];
	const struct meas_subclass_def *sd = &n->d.sub[s];
	char cn[MEAS_NAME_MAX + 8], sn[MEAS_NAME_MAX + 8], in[MEAS_NAME_MAX + 8];
	char name[3 * (MEAS_NAME_MAX + 8) + 16];
	struct mx_sub *u = &user[c][s];
	unsigned int i, e;

	if (mx_sub_read(pm_hold.fd, (int)c, (int)s,
			MEAS_HEADER_WORDS + (size_t)sd->entries * sd->items, u) ||
	    u->nitems < (uint64_t)sd->entries * sd->items ||
	    u->entsize != sd->items) {
		u->ok = 0;
		return;
	}
	part(cn, sizeof(cn), n->d.name, "class", c);
	part(sn, sizeof(sn), sd->name, "sub", s);
	for (i = 0; i < sd->items; i++) {
		pmInDom id = indom(defs[i].kind == MEAS_ITEM_GAUGE ?
				   PM_INDOM_USER_GAUGE : PM_INDOM_USER_COUNTER);

		part(in, sizeof(in), defs[i].name, "item", i);
		for (e = 0; e < sd->entries; e++) {
			if (sd->entries > 1)
				snprintf(name, sizeof(name), "%s.%s.%s#%u", cn,
					 sn, in, e + 1);
			else
				snprintf(name, sizeof(name), "%s.%s.%s", cn,
					 sn, in);
			cache_add(id, name, user_key(c, s, i, e));
		}
	}
}

static void refresh_user(void)
{
	const struct meas_item_def *defs;
	unsigned int c, s;

	pmdaCacheOp(indom(PM_INDOM_USER_COUNTER), PMDA_CACHE_INACTIVE);
	pmdaCacheOp(indom(PM_INDOM_USER_GAUGE), PMDA_CACHE_INACTIVE);
	for (c = 1; c < MEAS_NR_CLASSES; c++) {
		if (!(pm_hold.mask & MEAS_CLASSMASK_CUSTOM & (1U << c)))
			continue;
		defs = pm_hold.names[c].items;
		for (s = 0; s < pm_hold.names[c].d.nsub; s++) {
			refresh_user_sub(c, s, defs);
			defs += pm_hold.names[c].d.sub[s].items;
		}
	}
}

/**
 * pm_refresh() - read what the agent holds, update the instance domains
 *
 * Return: 0, or a negative errno when meas cannot be read (the module
 * is not loaded): every metric then has no value.
 */
int pm_refresh(void)
{
	struct meas_info info;
	size_t words;
	int err;

	fixed.ok = 0;
	disc.ok = 0;
	xfer.ok = 0;
	lat.ok = 0;
	io.ok = 0;
	err = pm_hold_ensure();
	if (!err)
		err = meas_info(pm_hold.fd, &info);
	if (err) {
		refresh_disks();
		refresh_classes();
		refresh_user();
		pm_proc_refresh(indom(PM_INDOM_PROC), 0, -1);
		return err;
	}
	mx_hold_user_classes(&pm_hold, &info);
	if (pm_hold.mask & 1U) {
		words = info.region_bytes[MEAS_CLASS_GLOBAL] / sizeof(uint64_t);
		mx_sub_read(pm_hold.fd, 0, MEAS_C0_SUB_FIXED, words, &fixed);
		mx_sub_read(pm_hold.fd, 0, MEAS_C0_SUB_DISC, words, &disc);
		mx_sub_read(pm_hold.fd, 0, MEAS_C0_SUB_XFER, words, &xfer);
		mx_sub_read(pm_hold.fd, 0, MEAS_C0_SUB_LAT, words, &lat);
	}
	if (pm_hold.mask & (1U << MEAS_CLASS_IO))
		mx_sub_read(pm_hold.fd, MEAS_CLASS_IO, MEAS_IO_SUB_RING,
			    MEAS_HEADER_WORDS + MEAS_IO_H_PART0, &io);
	refresh_disks();
	refresh_classes();
	refresh_user();
	pm_proc_refresh(indom(PM_INDOM_PROC),
			!!(pm_hold.mask & (1U << MEAS_CLASS_PROC)), pm_hold.fd);
	return 0;
}

/* A value of a per-disk metric; 0 (no value) when the disk has no entry. */
static int disk_value(const struct pm_metric *pm, void *priv,
		      pmAtomValue *atom)
{
	uintptr_t p = (uintptr_t)priv;
	unsigned int slot = (unsigned int)(pm->kind == PM_K_QLEN ||
					   pm->kind == PM_K_LATHIST ? p >> 8 : p);
	unsigned int k = (unsigned int)(p & 0xff);
	const struct mx_sub *s = pm->kind == PM_K_DISK ?
		(pm->f->src == MX_SRC_XFER ? &xfer : &disc) :
		pm->kind == PM_K_QLEN ? &disc : &lat;
	uint64_t e;
	int base = MEAS_C0_LAT_OP(pm->op);

	if (!s->ok || slot >= ndisks)
		return 0;
	e = entry_of(s, slot);
	if (!e)
		return 0;
	switch (pm->kind) {
	case PM_K_DISK:
		atom->ull = mx_series_value(s, e, pm->se);
		break;
	case PM_K_LAT:
		atom->ull = mx_sub_item(s, e, base + pm->f->series->item);
		break;
	case PM_K_LATSUM:
		atom->ull = mx_sub_item(s, e, base + MEAS_C0_LAT_SUM_NS);
		break;
	case PM_K_LATHIST:
		atom->ull = mx_sub_item(s, e, base + MEAS_C0_LAT_BUCKET0 + (int)k);
		break;
	default:	/* PM_K_QLEN */
		atom->ull = mx_sub_item(s, e, MEAS_C0_DISC_QLEN0 + (int)k);
		break;
	}
	return 1;
}

static int user_value(const struct pm_metric *pm, void *priv,
		      pmAtomValue *atom)
{
	uintptr_t p = (uintptr_t)priv;
	unsigned int c = (unsigned int)(p >> 56) & 0xff;
	unsigned int s = (unsigned int)(p >> 48) & 0xff;
	unsigned int i = (unsigned int)(p >> 24) & 0xffffff;
	unsigned int e = (unsigned int)p & 0xffffff;
	const struct mx_sub *u;

	(void)pm;
	if (c >= MEAS_NR_CLASSES || s >= MEAS_CUSTOM_MAX_SUBCLASSES)
		return 0;
	u = &user[c][s];
	if (!u->ok)
		return 0;
	atom->ull = mx_sub_item(u, e, (int)i);
	return 1;
}

/* The fetch callback: 1 and the value, 0 for no value, or an error. */
int pm_fetch_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
	const struct pm_metric *pm = m->m_user;
	void *priv = NULL;

	if (m->m_desc.indom != PM_INDOM_NULL && pm->kind != PM_K_FIXED_IND &&
	    pmdaCacheLookup(m->m_desc.indom, inst, NULL, &priv) !=
	    PMDA_CACHE_ACTIVE)
		return PM_ERR_INST;
	switch (pm->kind) {
	case PM_K_FIXED:
		if (!fixed.ok)
			return 0;
		atom->ull = mx_series_value(&fixed, 0, pm->se);
		return 1;
	case PM_K_FIXED_IND: {
		const struct mx_series *se = pm->f->series;
		unsigned int n;

		for (n = 0; se[n].item != MX_NONE; n++)
			;
		if (inst >= n)
			return PM_ERR_INST;
		if (!fixed.ok)
			return 0;
		atom->ull = mx_series_value(&fixed, 0, &se[inst]);
		return 1;
	}
	case PM_K_IO:
		if (!io.ok)
			return 0;
		atom->ull = mx_series_value(&io, 0, pm->f->series);
		return 1;
	case PM_K_VERSION:
		atom->cp = (char *)MEAS_VERSION;
		return 1;
	case PM_K_START:
		atom->d = pm_hold.since[(uintptr_t)priv % MEAS_NR_CLASSES];
		return 1;
	case PM_K_USER:
		return user_value(pm, priv, atom);
	case PM_K_PROC:
	case PM_K_PROC0:
		return pm_proc_value(pm, priv, atom);
	default:
		return disk_value(pm, priv, atom);
	}
}
