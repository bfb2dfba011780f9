// SPDX-License-Identifier: GPL-2.0
/*
 * measctl replay.c: the snapshots of the live views (watch's class 0
 * items, iostat's disks) rebuilt from a frame of a PCP archive, so that
 * a replay prints through the very code that prints live.  Which PCP
 * metric holds which item comes from the exporter's metric table and its
 * PCP names (tools/lib/metrics/families.c, pcpname.c), the table pmdameas
 * exports from: a series is an item, or an item less another one
 * (@minus), which is added back here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "replay/archive.h"
#include "replay/replay.h"
#include "metrics.h"
#include "sched/sched.h"
#include "proc/proc.h"
#include "disk/disk.h"

/* The series of the families of @srcs (a bit per enum mx_src). */
static size_t replay_count(unsigned int srcs)
{
	const struct mx_series *se;
	size_t i, n = 0;

	for (i = 0; i < mx_nfamilies; i++)
		if (srcs & 1U << mx_families[i].src)
			for (se = mx_families[i].series; se->item != MX_NONE;
			     se++)
				n++;
	return n;
}

int replay_push(struct cmd_ctx *ctx, struct replay *r, const char *name,
		const struct mx_family *f, int item)
{
	r->names[r->n] = strdup(name);
	if (!r->names[r->n])
		return fail(ctx, ENOMEM, "no memory");
	if (r->fam)
		r->fam[r->n] = f;
	if (r->item)
		r->item[r->n] = item;
	r->n++;
	return EXIT_OK;
}

/*
 * The PCP metrics of those families: one per family of class 0
 * subclass 0 (its series are instances), one per series of a per-disk
 * family.
 */
static int replay_names(struct cmd_ctx *ctx, struct replay *r,
			unsigned int srcs)
{
	size_t i, max = replay_count(srcs);
	const struct mx_series *se;
	const struct mx_family *f;
	char name[128];
	int rc;

	r->fam = calloc(max, sizeof(*r->fam));
	r->names = calloc(max, sizeof(*r->names));
	if (!r->fam || !r->names)
		return fail(ctx, ENOMEM, "no memory for the metric table");
	for (i = 0; i < mx_nfamilies; i++) {
		f = &mx_families[i];
		if (!(srcs & 1U << f->src))
			continue;
		for (se = f->series; se->item != MX_NONE; se++) {
			mx_pcp_series_name(name, sizeof(name), f, se);
			if (r->n && r->fam[r->n - 1] == f &&
			    !strcmp(name, r->names[r->n - 1]))
				continue;
			rc = replay_push(ctx, r, name, f, 0);
			if (rc)
				return rc;
		}
	}
	return EXIT_OK;
}

int replay_start(struct cmd_ctx *ctx, const struct arch_opts *o,
		 struct replay *r, int rc)
{
	if (rc == EXIT_OK)
		rc = arch_open(ctx, o, (const char *const *)r->names, r->n,
			       &r->a);
	if (rc != EXIT_OK)
		replay_close(r);
	return rc;
}

int replay_open(struct cmd_ctx *ctx, const struct arch_opts *o,
		unsigned int srcs, struct replay *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rc = replay_names(ctx, r, srcs);
	return replay_start(ctx, o, r, rc);
}

void replay_close(struct replay *r)
{
	size_t i;

	arch_close(r->a);
	for (i = 0; i < r->n; i++)
		free(r->names[i]);
	free(r->names);
	free(r->fam);
	for (i = 0; i < r->ndisks; i++)
		free(r->disks[i]);
	free(r->disks);
	free(r->item);
	free(r->insts);
	memset(r, 0, sizeof(*r));
}

/* The metric of the table that names series @se of @f. */
static size_t replay_metric(const struct replay *r, const struct mx_family *f,
			    const struct mx_series *se)
{
	char name[128];
	size_t m;

	mx_pcp_series_name(name, sizeof(name), f, se);
	for (m = 0; m < r->n; m++)
		if (r->fam[m] == f && !strcmp(r->names[m], name))
			return m;
	return r->n;
}

int replay_done(struct cmd_ctx *ctx, const struct replay_end *e)
{
	if (e->rc)
		return e->rc;
	if (e->got < 0)
		return -e->got;
	if (!e->n)
		return fail(ctx, ENODATA,
			    "%s: fewer than two samples of %s in the time window%s",
			    e->path, e->what, e->hint ? e->hint : "");
	return EXIT_OK;
}

void replay_stamp(const struct replay *r, uint64_t *t_ns,
		  struct rate_when *when)
{
	*t_ns = arch_time_ns(r->a);
	when->mono = *t_ns;
}

/* ---- watch: class 0 subclass 0 ------------------------------------------ */

/* Item values of the series of @f in the frame, @minus ones when @second. */
static bool replay_c0_family(struct replay *r, const struct mx_family *f,
			     bool second, uint64_t *v)
{
	const struct mx_series *se;
	uint64_t x;
	size_t m;

	for (se = f->series; se->item != MX_NONE; se++) {
		bool derived = se->minus != MX_NONE;

		if (derived != second)
			continue;
		m = replay_metric(r, f, se);
		if (!arch_find(r->a, m, f->label ? se->lv : NULL, &x))
			return false;
		v[se->item] = x + (second ? v[se->minus] : 0);
	}
	return true;
}

bool replay_c0(struct replay *r, struct c0_snap *s)
{
	const struct mx_family *f;
	size_t i;
	int pass;

	memset(s, 0, sizeof(*s));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < mx_nfamilies; i++) {
			f = &mx_families[i];
			if (f->src == MX_SRC_FIXED &&
			    !replay_c0_family(r, f, pass, s->v))
				return false;
		}
	replay_stamp(r, &s->t_ns, &s->when);
	return true;
}

/* ---- iostat: class 0 subclasses 1 and 4 --------------------------------- */

/* The slot of disk @name: in the order the replay first saw them. */
static int replay_disk(struct replay *r, const char *name)
{
	char **p;
	size_t i;

	for (i = 0; i < r->ndisks; i++)
		if (!strcmp(r->disks[i], name))
			return (int)i;
	p = reallocarray(r->disks, r->ndisks + 1, sizeof(*p));
	if (!p)
		return -1;
	r->disks = p;
	r->disks[r->ndisks] = strdup(name);
	if (!r->disks[r->ndisks])
		return -1;
	return (int)r->ndisks++;
}

/* Entries for every disk seen: those absent from the frame keep @prev's. */
static int replay_io_grow(const struct replay *r, struct io_snap *s,
			  const struct io_snap *prev)
{
	size_t want = r->ndisks + 1;
	struct disk_snap *d;

	if (s->n >= want)
		return 0;
	d = reallocarray(s->d, want, sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->d = d;
	for (; s->n < want; s->n++) {
		if (prev && s->n < prev->n)
			s->d[s->n] = prev->d[s->n];
		else
			memset(&s->d[s->n], 0, sizeof(*d));
	}
	return 0;
}

/* The values of metric @m into item @item of each disk (@xfer or disc). */
static int replay_io_metric(struct replay *r, size_t m, int item, bool xfer,
			    struct io_snap *s, const struct io_snap *prev)
{
	size_t k, n = arch_count(r->a, m);
	struct disk_snap *d;
	const char *name;
	uint64_t v;
	int slot;

	for (k = 0; k < n; k++) {
		v = arch_value(r->a, m, k, NULL, &name);
		if (!name)
			continue;
		slot = replay_disk(r, name);
		if (slot < 0 || replay_io_grow(r, s, prev))
			return -ENOMEM;
		d = &s->d[slot + 1];
		snprintf(d->name, sizeof(d->name), "%s", name);
		if (xfer)
			d->xfer[item] = v;
		else
			d->disc[item] = v;
	}
	return 0;
}

/* "vda::3" or "vda::6+": the disk and the bucket of the queue length. */
static int replay_qlen_inst(const char *inst, char *disk, size_t len)
{
	const char *sep = strstr(inst, "::");
	int b;

	if (!sep || (size_t)(sep - inst) >= len)
		return -1;
	b = atoi(sep + 2);
	if (b < 0 || b >= MEAS_C0_DISC_QLEN_BUCKETS)
		return -1;
	memcpy(disk, inst, (size_t)(sep - inst));
	disk[sep - inst] = '\0';
	return b;
}

static int replay_qlen(struct replay *r, size_t m, struct io_snap *s)
{
	size_t k, n = arch_count(r->a, m);
	const char *inst;
	char disk[64];
	uint64_t v;
	int b;
	size_t e;

	for (k = 0; k < n; k++) {
		v = arch_value(r->a, m, k, NULL, &inst);
		b = inst ? replay_qlen_inst(inst, disk, sizeof(disk)) : -1;
		if (b < 0)
			continue;
		for (e = 1; e < s->n; e++)
			if (!strcmp(s->d[e].name, disk))
				s->d[e].disc[MEAS_C0_DISC_QLEN0 + b] = v;
	}
	return 0;
}

int replay_io(struct replay *r, const struct io_snap *prev, struct io_snap *s)
{
	const struct mx_family *f;
	const struct mx_series *se;
	size_t m, qlen = r->n;
	int err = 0;

	memset(s, 0, sizeof(*s));
	for (m = 0; m < r->n && !err; m++) {
		f = r->fam[m];
		if (f->src == MX_SRC_QLEN) {
			qlen = m;
			continue;
		}
		for (se = f->series; se->item != MX_NONE; se++)
			if (replay_metric(r, f, se) == m)
				err = replay_io_metric(r, m, se->item,
						       f->src == MX_SRC_XFER,
						       s, prev);
	}
	if (!err && qlen < r->n)
		err = replay_qlen(r, qlen, s);
	if (err) {
		io_snap_free(s);
		return err;
	}
	replay_stamp(r, &s->t_ns, &s->when);
	return 0;
}

/* ---- top: class 15 -------------------------------------------------------- */

int replay_open_proc(struct cmd_ctx *ctx, const struct arch_opts *o,
		     struct replay *r)
{
	size_t max = MEAS_PROC_ITEMS + mx_pcp_np0, k;
	char name[128];
	unsigned int i;
	int rc = EXIT_OK;

	memset(r, 0, sizeof(*r));
	r->names = calloc(max, sizeof(*r->names));
	r->item = calloc(max, sizeof(*r->item));
	if (!r->names || !r->item)
		rc = fail(ctx, ENOMEM, "no memory");
	for (i = 0; rc == EXIT_OK && i < MEAS_PROC_ITEMS; i++)
		if (!mx_pcp_proc_name(name, sizeof(name), i))
			rc = replay_push(ctx, r, name, NULL, (int)i);
	for (k = 0; rc == EXIT_OK && k < mx_pcp_np0; k++) {
		snprintf(name, sizeof(name), "meas.proc.table.%s",
			 mx_pcp_p0[k].name);
		/* entry 0's items: -1 - item */
		rc = replay_push(ctx, r, name, NULL, -1 - mx_pcp_p0[k].item);
	}
	return replay_start(ctx, o, r, rc);
}

/* The slot of process instance @inst: from 1, in the order first seen. */
static size_t replay_slot(struct replay *r, int inst)
{
	int *p;
	size_t i;

	for (i = 0; i < r->ninsts; i++)
		if (r->insts[i] == inst)
			return i + 1;
	p = reallocarray(r->insts, r->ninsts + 1, sizeof(*p));
	if (!p)
		return 0;
	r->insts = p;
	r->insts[r->ninsts++] = inst;
	return r->ninsts;
}

/* The values of metric @m into the entries; the slots it needs first. */
static int replay_proc_metric(struct replay *r, size_t m, uint64_t *items,
			      size_t nent)
{
	size_t k, n = arch_count(r->a, m), slot;
	int item = r->item[m], inst;
	uint64_t v;

	if (item < 0) {
		if (arch_find(r->a, m, NULL, &v))
			items[-1 - item] = v;
		return 0;
	}
	for (k = 0; k < n; k++) {
		v = arch_value(r->a, m, k, &inst, NULL);
		slot = replay_slot(r, inst);
		if (!slot)
			return -ENOMEM;
		if (slot >= nent)
			continue;	/* seen first in a later metric: next frame */
		if (item == MEAS_P_PROGRAM || item == MEAS_P_COMMAND) {
			const char *str = arch_string(r->a, m, k);
			size_t len = item == MEAS_P_PROGRAM ?
				     MEAS_PROC_NAME_LEN : MEAS_PROC_COMM_LEN;

			if (str)
				strncpy((char *)&items[slot * MEAS_PROC_ITEMS + item],
					str, len);
			continue;
		}
		items[slot * MEAS_PROC_ITEMS + item] = v;
	}
	return 0;
}

/* Slots for every process of the frame, by meas.proc.state's instances. */
static int replay_proc_slots(struct replay *r, size_t state)
{
	size_t k, n = arch_count(r->a, state);
	int inst;

	for (k = 0; k < n; k++) {
		arch_value(r->a, state, k, &inst, NULL);
		if (!replay_slot(r, inst))
			return -ENOMEM;
	}
	return 0;
}

int replay_proc(struct replay *r, struct proc_snap *s)
{
	size_t m, state = r->n;
	int err;

	memset(s, 0, sizeof(*s));
	for (m = 0; m < r->n; m++)
		if (r->item[m] == MEAS_P_STATE)
			state = m;
	if (state == r->n || !arch_count(r->a, state))
		return -ENODATA;
	err = replay_proc_slots(r, state);
	if (err)
		return err;
	s->nent = r->ninsts + 1;
	s->items = calloc(s->nent, MEAS_PROC_ITEMS * sizeof(*s->items));
	if (!s->items)
		return -ENOMEM;
	for (m = 0; m < r->n && !err; m++)
		err = replay_proc_metric(r, m, s->items, s->nent);
	if (err) {
		proc_snap_free(s);
		return err;
	}
	replay_stamp(r, &s->t_ns, &s->when);
	return 0;
}
