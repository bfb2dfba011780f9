// SPDX-License-Identifier: GPL-2.0
/*
 * Checks and shape of user-defined classes, free of kernel dependencies
 * (see custom_check.h).  Documentation/custom.rst describes the rules.
 */
#include <linux/meas.h>
#include "custom_check.h"

/**
 * meas_custom_name_ok() - check a name field
 * @name: the field
 * @size: its size in bytes
 *
 * What follows the NUL is ignored (the kernel keeps zeros there).
 *
 * Return: true if @name is empty or 1..@size-1 printable ASCII characters
 * other than space, NUL-terminated.
 */
bool meas_custom_name_ok(const char *name, u64 size)
{
	u64 i;

	for (i = 0; i < size && name[i]; i++)
		if (name[i] <= ' ' || name[i] > '~')
			return false;
	return i < size;
}

/**
 * meas_custom_check_class() - may @class be defined at run time?
 * @class: class number, any value
 *
 * Return: MEAS_DEFINE_OK, MEAS_DEFINE_BADCLASS or MEAS_DEFINE_RESERVED.
 */
int meas_custom_check_class(s64 class)
{
	if (class < 0 || class >= MEAS_NR_CLASSES)
		return MEAS_DEFINE_BADCLASS;
	if (MEAS_CLASSMASK_RESERVED & (1U << class))
		return MEAS_DEFINE_RESERVED;
	return MEAS_DEFINE_OK;
}

static bool zero_bytes(const void *p, u64 n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* Shape of the subclasses, or a code; @shape is filled in as it goes. */
static int check_subs(const struct meas_define *d,
		      struct meas_custom_shape *shape)
{
	u64 items = 0, nkinds = 0, n;
	u32 i;

	for (i = 0; i < d->nsub; i++) {
		const struct meas_subclass_def *s = &d->sub[i];
		struct meas_custom_sub *cs = &shape->sub[i];

		if (!s->entries || !s->items ||
		    s->items > MEAS_CUSTOM_MAX_ITEMS)
			return MEAS_DEFINE_BADSHAPE;
		/* u32 * u32 fits in u64; the running sum stays below 2^33. */
		n = (u64)s->entries * s->items;
		if (n > MEAS_CUSTOM_MAX_CLASS_ITEMS - items)
			return MEAS_DEFINE_TOOBIG;
		cs->entries = s->entries;
		cs->entsize = s->items;
		cs->items = n;
		cs->first = items;
		cs->kind0 = nkinds;
		items += n;
		nkinds += s->items;
	}
	shape->items = items;
	shape->nkinds = nkinds;
	return MEAS_DEFINE_OK;
}

static int check_names(const struct meas_define *d)
{
	u32 i;

	if (!meas_custom_name_ok(d->name, MEAS_NAME_MAX))
		return MEAS_DEFINE_BADNAME;
	for (i = 0; i < d->nsub; i++)
		if (!meas_custom_name_ok(d->sub[i].name, MEAS_NAME_MAX))
			return MEAS_DEFINE_BADNAME;
	return MEAS_DEFINE_OK;
}

/**
 * meas_custom_check_define() - check a definition, compute its shape
 * @d: the definition; size, flags, pad and reserved already checked
 * @shape: out: the shape, valid when the result is MEAS_DEFINE_OK
 *
 * The order: class, subclass count and unused subclasses, the shape of
 * each subclass (and the total size), the item count, the names.  The
 * item definitions themselves are checked by meas_custom_check_items().
 *
 * Return: a MEAS_DEFINE_* code.
 */
int meas_custom_check_define(const struct meas_define *d,
			     struct meas_custom_shape *shape)
{
	int rc;

	rc = meas_custom_check_class(d->class);
	if (rc)
		return rc;
	if (d->nsub < 1 || d->nsub > MEAS_MAX_SUBCLASSES ||
	    !zero_bytes(&d->sub[d->nsub],
			(MEAS_MAX_SUBCLASSES - d->nsub) * sizeof(d->sub[0])))
		return MEAS_DEFINE_BADSHAPE;
	shape->nsub = d->nsub;
	rc = check_subs(d, shape);
	if (rc)
		return rc;
	if (d->items ? d->nitems != shape->nkinds : d->nitems != 0)
		return MEAS_DEFINE_BADSHAPE;
	return check_names(d);
}

/**
 * meas_custom_check_items() - check item definitions
 * @items: @n definitions
 * @n: their number
 *
 * Return: MEAS_DEFINE_OK, MEAS_DEFINE_BADSHAPE (unknown kind, reserved
 * not zero) or MEAS_DEFINE_BADNAME.
 */
int meas_custom_check_items(const struct meas_item_def *items, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		if ((items[i].kind != MEAS_ITEM_COUNTER &&
		     items[i].kind != MEAS_ITEM_GAUGE) || items[i].reserved)
			return MEAS_DEFINE_BADSHAPE;
	for (i = 0; i < n; i++)
		if (!meas_custom_name_ok(items[i].name, MEAS_NAME_MAX))
			return MEAS_DEFINE_BADNAME;
	return MEAS_DEFINE_OK;
}

/**
 * meas_custom_spec() - the region shape of a user-defined class
 * @shape: the class
 * @class: its number
 * @spec: out: entry 0 of each subclass is its 3-word header, entries
 *	1..entries hold the items
 */
void meas_custom_spec(const struct meas_custom_shape *shape, u32 class,
		      struct meas_class_spec *spec)
{
	u32 i;

	spec->class = class;
	spec->nsub = shape->nsub;
	spec->devslots = 0;
	for (i = 0; i < shape->nsub; i++) {
		spec->sub[i].entries = shape->sub[i].entries + 1;
		spec->sub[i].entsize = shape->sub[i].entsize;
		spec->sub[i].ent0size = MEAS_HEADER_WORDS;
	}
}

/**
 * meas_custom_update_class_ok() - may UPDATESTATISTICS name @class?
 * @class: class number, any value
 *
 * Return: true for 1..13; whether the class is defined is up to the
 * caller.
 */
bool meas_custom_update_class_ok(s64 class)
{
	return meas_custom_check_class(class) == MEAS_DEFINE_OK;
}

/**
 * meas_custom_check_update() - UPDATESTATISTICS checks after the class
 * @shape: the class, enabled
 * @subclass: subclass number
 * @entry: entry number, 1..entries
 * @item: startingitem, 0..items-1
 * @dbl: doubleitemflag: @item + 1 must be in the entry too
 * @index: out: the item among the items of the class
 * @kind: out: its definition among the kinds of the class
 *
 * MPE IV's order: subclass, entry, item.
 *
 * Return: MEAS_UPDATE_OK, MEAS_UPDATE_BADSUBCLASS, MEAS_UPDATE_BADENTRY
 * or MEAS_UPDATE_BADITEM.
 */
int meas_custom_check_update(const struct meas_custom_shape *shape,
			     s64 subclass, s64 entry, s64 item, bool dbl,
			     u64 *index, u64 *kind)
{
	const struct meas_custom_sub *s;

	if (subclass < 0 || subclass >= shape->nsub)
		return MEAS_UPDATE_BADSUBCLASS;
	s = &shape->sub[subclass];
	if (entry < 1 || (u64)entry > s->entries)
		return MEAS_UPDATE_BADENTRY;
	if (item < 0 || (u64)item >= s->entsize ||
	    (dbl && (u64)item + 1 >= s->entsize))
		return MEAS_UPDATE_BADITEM;
	*index = s->first + ((u64)entry - 1) * s->entsize + (u64)item;
	*kind = s->kind0 + (u64)item;
	return MEAS_UPDATE_OK;
}

/**
 * meas_custom_clamp_fupdate() - the item FUPDATESTATISTICS writes
 * @shape: the class, enabled
 * @subclass: subclass number, unchecked
 * @entry: entry number, unchecked
 * @item: startingitem, unchecked
 * @index: out: the item among the items of the class
 * @kind: out: its definition among the kinds of the class
 *
 * No descriptive checks: the item is (entry - 1) * items + startingitem
 * from the first item of the subclass, in 64-bit wrapping arithmetic, so
 * an entry or item out of range lands on another item of the subclass.
 * What lands outside the subclass, or names no subclass, writes nothing.
 *
 * Return: true when there is an item to write.
 */
bool meas_custom_clamp_fupdate(const struct meas_custom_shape *shape,
			       s64 subclass, s64 entry, s64 item,
			       u64 *index, u64 *kind)
{
	const struct meas_custom_sub *s;
	u64 off;

	if ((u64)subclass >= shape->nsub)
		return false;
	s = &shape->sub[subclass];
	off = ((u64)entry - 1) * s->entsize + (u64)item;
	if (off >= s->items)
		return false;
	*index = s->first + off;
	*kind = s->kind0 + off % s->entsize;
	return true;
}
