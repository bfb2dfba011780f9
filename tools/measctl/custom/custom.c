// SPDX-License-Identifier: GPL-2.0
/*
 * The names of user-defined classes in measctl's outputs: the item names
 * get prints, and the items watch shows for the user-defined classes it
 * enables (counters as deltas and rates, gauges as values).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "custom/custom.h"

/* ---- get ------------------------------------------------------------------ */

/*
 * Name of item @item of @class, @subclass, or NULL.  The definition is
 * read once per class (get reads one class) on a file of its own.
 */
const char *custom_item_name(int class, int subclass, int64_t item)
{
	static struct meas_class_names names;
	static int loaded = -1;
	static char buf[MEAS_NAME_MAX + 24];
	int fd;

	if (class < 0 || class >= MEAS_NR_CLASSES ||
	    MEAS_CLASSMASK_RESERVED & (1U << class))
		return NULL;
	if (loaded != class) {
		meas_class_names_free(&names);
		loaded = -1;
		fd = meas_open();
		if (fd < 0)
			return NULL;
		if (!meas_class_names_load(fd, class, &names))
			loaded = class;
		close(fd);
		if (loaded < 0)
			return NULL;
	}
	return meas_class_item_name(&names, subclass, item, buf, sizeof(buf));
}

/* ---- watch ---------------------------------------------------------------- */

struct cw_class {
	int class;
	struct meas_class_names names;
	uint64_t *items;	/* items of each subclass */
	uint64_t total;
	uint64_t *a, *b;	/* previous and current values */
};

struct custom_watch {
	int n;
	struct cw_class c[MEAS_NR_CLASSES];
};

static void cw_class_free(struct cw_class *c)
{
	meas_class_names_free(&c->names);
	free(c->items);
	free(c->a);
	free(c->b);
}

static int cw_class_init(int fd, int class, struct cw_class *c)
{
	const struct meas_define *d = &c->names.d;
	uint32_t s;

	memset(c, 0, sizeof(*c));
	c->class = class;
	if (meas_class_names_load(fd, class, &c->names))
		return -1;
	c->items = calloc(d->nsub ? d->nsub : 1, sizeof(*c->items));
	if (!c->items)
		return -1;
	for (s = 0; s < d->nsub; s++) {
		c->items[s] = (uint64_t)d->sub[s].entries * d->sub[s].items;
		c->total += c->items[s];
	}
	c->a = calloc(c->total ? c->total : 1, sizeof(*c->a));
	c->b = calloc(c->total ? c->total : 1, sizeof(*c->b));
	return c->a && c->b ? 0 : -1;
}

/*
 * The user-defined classes of @mask that have a definition, or NULL if
 * there is none.
 */
struct custom_watch *custom_watch_new(int fd, uint32_t mask)
{
	struct custom_watch *w = calloc(1, sizeof(*w));
	int class;

	if (!w)
		return NULL;
	for (class = 0; class < MEAS_NR_CLASSES; class++) {
		if (!(mask & MEAS_CLASSMASK_CUSTOM & (1U << class)))
			continue;
		if (cw_class_init(fd, class, &w->c[w->n]))
			cw_class_free(&w->c[w->n]);
		else
			w->n++;
	}
	if (!w->n) {
		free(w);
		return NULL;
	}
	return w;
}

void custom_watch_free(struct custom_watch *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++)
		cw_class_free(&w->c[i]);
	free(w);
}

/* Read every item; the previous values become the old ones. */
void custom_watch_snap(int fd, struct custom_watch *w)
{
	struct cw_class *c;
	uint64_t *t, off;
	uint32_t s;
	int i, rc;

	for (i = 0; w && i < w->n; i++) {
		c = &w->c[i];
		t = c->a;
		c->a = c->b;
		c->b = t;
		for (s = 0, off = 0; s < c->names.d.nsub; s++) {
			if (c->items[s] &&
			    meas_get(fd, c->class, s, 0, c->items[s], c->b + off,
				     c->items[s] * sizeof(*c->b), &rc))
				memset(c->b + off, 0,
				       c->items[s] * sizeof(*c->b));
			off += c->items[s];
		}
	}
}

struct cw_item {
	char name[MEAS_NAME_MAX + 64];
	bool gauge;
	uint64_t value, delta;
	double per_sec;
};

/* Item @k of subclass @s, its name (or its numbers) and values. */
static bool cw_item(const struct cw_class *c, uint32_t s, uint64_t k,
		    uint64_t at, double secs, struct cw_item *it)
{
	char buf[MEAS_NAME_MAX + 24];
	const char *name;

	it->value = c->b[at];
	it->delta = c->b[at] - c->a[at];
	/* Quiet items (0 and unchanged) are left out. */
	if (!it->value && !it->delta)
		return false;
	it->gauge = meas_class_item_kind(&c->names, s, k) == MEAS_ITEM_GAUGE;
	it->per_sec = secs > 0 ? (double)it->delta / secs : 0;
	name = meas_class_item_name(&c->names, s, k, buf, sizeof(buf));
	snprintf(it->name, sizeof(it->name), "%s%s%s",
		 c->names.d.sub[s].name[0] ? c->names.d.sub[s].name : "",
		 c->names.d.sub[s].name[0] ? "." : "", name ? name : "-");
	return true;
}

void custom_watch_text(FILE *f, const struct custom_watch *w, double secs)
{
	const struct cw_class *c;
	struct cw_item it;
	uint64_t k, at;
	uint32_t s;
	int i;

	for (i = 0; w && i < w->n; i++) {
		c = &w->c[i];
		fprintf(f, "class %d %s\n", c->class,
			c->names.d.name[0] ? c->names.d.name : "-");
		fprintf(f, "%3s %6s  %-30s %18s %14s\n", "sub", "item", "name",
			"delta or value", "/s");
		for (s = 0, at = 0; s < c->names.d.nsub; s++)
			for (k = 0; k < c->items[s]; k++, at++) {
				if (!cw_item(c, s, k, at, secs, &it))
					continue;
				if (it.gauge)
					fprintf(f, "%3u %6" PRIu64 "  %-30s %18" PRIu64
						" %14s\n", s, k, it.name,
						it.value, "(gauge)");
				else
					fprintf(f, "%3u %6" PRIu64 "  %-30s %18" PRIu64
						" %14.1f\n", s, k, it.name,
						it.delta, it.per_sec);
			}
	}
}

void custom_watch_json(struct json *j, const char *key,
		       const struct custom_watch *w, double secs)
{
	const struct cw_class *c;
	struct cw_item it;
	uint64_t k, at;
	uint32_t s;
	int i;

	if (!w)
		return;
	json_arr_begin(j, key);
	for (i = 0; i < w->n; i++) {
		c = &w->c[i];
		json_obj_begin(j, NULL);
		json_i64(j, "class", c->class);
		json_str(j, "name", c->names.d.name);
		json_arr_begin(j, "items");
		for (s = 0, at = 0; s < c->names.d.nsub; s++)
			for (k = 0; k < c->items[s]; k++, at++) {
				if (!cw_item(c, s, k, at, secs, &it))
					continue;
				json_obj_begin(j, NULL);
				json_u64(j, "subclass", s);
				json_u64(j, "item", k);
				json_str(j, "name", it.name);
				json_str(j, "kind", it.gauge ? "gauge" : "counter");
				json_u64(j, "value", it.value);
				if (!it.gauge) {
					json_u64(j, "delta", it.delta);
					json_double(j, "per_sec", it.per_sec);
				}
				json_obj_end(j);
			}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}
