/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of user-defined classes: the checks of a definition, the
 * shape it gives the class region, and the checks of UPDATESTATISTICS.
 * No kernel dependency: also built into the host unit tests
 * (selftests/unit/custom_check_test.c).
 */
#ifndef _MEAS_CUSTOM_CHECK_H
#define _MEAS_CUSTOM_CHECK_H

#include "layout.h"

struct meas_define;
struct meas_item_def;

/**
 * struct meas_custom_sub - one subclass of a user-defined class
 * @entries: entries after the header (numbered 1..@entries)
 * @entsize: items per entry
 * @items: @entries * @entsize
 * @first: index of its entry 1, item 0 among the items of the class
 * @kind0: index of its item 0 in the kinds of the class
 */
struct meas_custom_sub {
	u64 entries;
	u64 entsize;
	u64 items;
	u64 first;
	u64 kind0;
};

/**
 * struct meas_custom_shape - a user-defined class, as the update path
 * and the fold see it
 * @nsub: number of subclasses
 * @items: items of all subclasses and entries
 * @nkinds: item definitions: the sum of the entry sizes
 * @sub: the subclasses
 */
struct meas_custom_shape {
	u32 nsub;
	u64 items;
	u64 nkinds;
	struct meas_custom_sub sub[MEAS_MAX_SUBCLASSES];
};

bool meas_custom_name_ok(const char *name, u64 size);
int meas_custom_check_class(s64 class);
int meas_custom_check_define(const struct meas_define *d,
			     struct meas_custom_shape *shape);
int meas_custom_check_items(const struct meas_item_def *items, u64 n);
void meas_custom_spec(const struct meas_custom_shape *shape, u32 class,
		      struct meas_class_spec *spec);

bool meas_custom_update_class_ok(s64 class);
int meas_custom_check_update(const struct meas_custom_shape *shape,
			     s64 subclass, s64 entry, s64 item, bool dbl,
			     u64 *index, u64 *kind);
bool meas_custom_clamp_fupdate(const struct meas_custom_shape *shape,
			       s64 subclass, s64 entry, s64 item,
			       u64 *index, u64 *kind);

#endif /* _MEAS_CUSTOM_CHECK_H */
