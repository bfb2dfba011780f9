// SPDX-License-Identifier: GPL-2.0
/*
 * The XDS of a class: a vmalloc'd, self-describing region of 64-bit
 * words, acquired and formatted by the first enabler (FORMATSEG) and
 * released by the last disabler.
 */
#include <linux/vmalloc.h>
#include <linux/gfp.h>
#include <linux/meas.h>
#include "class.h"
#include "xds.h"
#include "params.h"
#include "inject.h"

/**
 * meas_xds_create() - allocate and format the region of a class
 * @cls: the class; @cls->ops->shape gives its shape
 * @class: its number
 *
 * Return: MEAS_START_OK, MEAS_START_TOOBIG or MEAS_START_NOVMEM.
 */
int meas_xds_create(struct meas_class *cls, int class)
{
	struct meas_class_spec spec = { .class = class };
	u64 words, limit;

	cls->ops->shape(&spec);
	words = meas_layout_words(&spec);
	limit = (u64)meas_param_max_region_kib * 1024 / sizeof(u64);
	if (!words || words > limit)
		return MEAS_START_TOOBIG;
	if (meas_inject_start(MEAS_START_NOVMEM))
		return MEAS_START_NOVMEM;
	/* A failure here is an answer to the caller, not a kernel problem. */
	cls->region = __vmalloc(words * sizeof(u64),
				GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!cls->region)
		return MEAS_START_NOVMEM;
	cls->words = words;
	cls->gen++;
	meas_layout_format(cls->region, words, &spec);
	return MEAS_START_OK;
}

/**
 * meas_xds_destroy() - release the region of a class
 * @cls: the class, detached from its probes
 */
void meas_xds_destroy(struct meas_class *cls)
{
	vfree(cls->region);
	cls->region = NULL;
	cls->words = 0;
}

/**
 * meas_xds_entry() - address of an entry in a class region
 * @cls: the class, enabled
 * @class: its number
 * @subclass: subclass number
 * @entry: entry number
 *
 * Return: the first word of the entry, or NULL if it does not exist.
 */
u64 *meas_xds_entry(struct meas_class *cls, int class, int subclass,
		    u64 entry)
{
	struct meas_sub_view view;

	if (meas_layout_find(cls->region, cls->words, class, subclass, &view) ||
	    entry >= view.entries)
		return NULL;
	return cls->region + meas_layout_entry(&view, entry);
}
