/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of meas: XDS layout arithmetic and argument checks.  No
 * kernel dependency, so that the same file builds into the module and
 * into the host unit tests (selftests/unit).
 */
#ifndef _MEAS_LAYOUT_H
#define _MEAS_LAYOUT_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
/* The host unit tests bring u64, s64, u32 and bool themselves. */

#define MEAS_MAX_SUBCLASSES	16

/**
 * struct meas_sub_spec - shape of one subclass
 * @entries: number of entries, entry 0 included (at least 1)
 * @entsize: items per entry 1..entries-1
 * @ent0size: words of entry 0 (at least the 3 header words)
 */
struct meas_sub_spec {
	u64 entries;
	u64 entsize;
	u64 ent0size;
};

/**
 * struct meas_class_spec - shape of one class region
 * @class: class number, 0..15
 * @nsub: number of subclasses, 1..MEAS_MAX_SUBCLASSES
 * @devslots: slots of the device table (0: none)
 * @sub: the subclasses
 */
struct meas_class_spec {
	u32 class;
	u32 nsub;
	u64 devslots;
	struct meas_sub_spec sub[MEAS_MAX_SUBCLASSES];
};

/**
 * struct meas_sub_view - where a subclass lies in a formatted region
 * @base: word offset of entry 0
 * @entries: entries including entry 0
 * @entsize: items per entry
 * @ent0size: words of entry 0
 * @items: addressable items after the 3 header words
 */
struct meas_sub_view {
	u64 base;
	u64 entries;
	u64 entsize;
	u64 ent0size;
	u64 items;
};

u64 meas_layout_words(const struct meas_class_spec *spec);
void meas_layout_format(u64 *region, u64 words,
			const struct meas_class_spec *spec);
int meas_layout_find(const u64 *region, u64 words, int class, int subclass,
		     struct meas_sub_view *view);
u64 meas_layout_entry(const struct meas_sub_view *view, u64 entry);
u64 meas_layout_step(const struct meas_sub_view *view, u64 word, u64 left,
		     u64 max);

int meas_check_get(const struct meas_sub_view *view, s64 start, s64 count,
		   u64 buflen);
bool meas_clamp_fget(const struct meas_sub_view *view, s64 start, s64 count,
		     u64 buflen, u64 *word, u64 *n);
int meas_check_start_mask(u64 mask, u32 defined);
int meas_check_stop_mask(u64 mask);

#endif /* _MEAS_LAYOUT_H */
