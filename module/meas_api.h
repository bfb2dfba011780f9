/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meas_api.h - the in-kernel API of meas.ko for other modules: define a
 * class of your own and keep its counters with UPDATESTATISTICS.
 *
 * Include it with -I<meas>/module -I<meas>/uapi and build your module in
 * the same Kbuild run as meas.ko (or give KBUILD_EXTRA_SYMBOLS its
 * Module.symvers).  module/example/meas_example.c is the model;
 * Documentation/custom.rst describes every call.
 *
 * Result codes, limits and item kinds come from <linux/meas.h>:
 * MEAS_DEFINE_* for the class table, MEAS_UPDATE_* for updates.
 */
#ifndef _MEAS_API_H
#define _MEAS_API_H

#include <linux/types.h>
#include <linux/meas.h>

/**
 * struct meas_item_desc - one item of each entry of a subclass
 * @name: NULL or a name (1..31 printable characters, no space)
 * @kind: MEAS_ITEM_COUNTER (adds from many CPUs) or MEAS_ITEM_GAUGE
 *	(values that are mostly replaced)
 */
struct meas_item_desc {
	const char *name;
	u32 kind;
};

/**
 * struct meas_subclass_desc - one subclass
 * @name: NULL or a name
 * @entries: entries, numbered 1..@entries by UPDATESTATISTICS
 * @items: items per entry, 1..MEAS_CUSTOM_MAX_ITEMS
 * @item: NULL (unnamed counters) or @items descriptions
 */
struct meas_subclass_desc {
	const char *name;
	u32 entries;
	u32 items;
	const struct meas_item_desc *item;
};

/**
 * struct meas_class_desc - a class
 * @name: NULL or a name
 * @nsub: subclasses, 1..MEAS_CUSTOM_MAX_SUBCLASSES
 * @sub: their descriptions
 */
struct meas_class_desc {
	const char *name;
	u32 nsub;
	const struct meas_subclass_desc *sub;
};

/*
 * Define class @class (1..13) as @desc; with MEAS_DEFINE_REPLACE an
 * existing definition that is not enabled is replaced.  Everything is
 * copied: @desc may go away after the call.  Process context (sleeps).
 * Returns a MEAS_DEFINE_* code, 0 on success.
 */
int meas_custom_define(int class, const struct meas_class_desc *desc,
		       unsigned int flags);

/*
 * Remove a user-defined class.  Refused with MEAS_DEFINE_BUSY while it
 * is enabled: the definition then stays, its counters readable, until a
 * tool removes it (it holds no pointer into the caller's module).
 * Process context.  Returns a MEAS_DEFINE_* code.
 */
int meas_custom_remove(int class);

/* Whether @class is enabled now; any context. */
bool meas_custom_enabled(int class);

/*
 * UPDATESTATISTICS: add @valuechange to the item (@entry 1..entries,
 * @startingitem 0..items-1) or, with @newvalueflag, replace it.  With
 * @doubleitemflag the item and the next one form a double item: the
 * value goes to the first word, the second is not touched.  Any context,
 * hard interrupts included; NMI too, except a replace of a counter item.
 * Returns a MEAS_UPDATE_* code: 0 ok, 1 class not enabled, 2 bad item,
 * 3 bad entry, 4 bad subclass, 5 bad class.
 */
int meas_update_statistics(int class, int subclass, s64 entry,
			   s64 startingitem, bool newvalueflag,
			   s64 valuechange, bool doubleitemflag);

/*
 * FUPDATESTATISTICS: the same without the descriptive checks; returns 0.
 * Out-of-range arguments land on another item of the subclass or write
 * nothing; never anything outside the class.
 */
int meas_fupdate_statistics(int class, int subclass, s64 entry,
			    s64 startingitem, bool newvalueflag,
			    s64 valuechange, bool doubleitemflag);

#endif /* _MEAS_API_H */
