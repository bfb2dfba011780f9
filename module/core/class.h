/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The class framework: what a class provides (struct meas_class_ops) and
 * what the control unit keeps of it (struct meas_class).  ctl.c owns the
 * table of sixteen classes; each area defines the ops of its classes.
 */
#ifndef _MEAS_CORE_CLASS_H
#define _MEAS_CORE_CLASS_H

#include <linux/types.h>
#include "logic/layout.h"

struct meas_class;

/**
 * struct meas_class_ops - what a class provides to the control unit
 * @name: short name, for messages
 * @shape: fill in the shape of the class region
 * @attach: allocate live state and register probes; the region is
 *	formatted.  Return a MEAS_START_* code.
 * @detach: unregister probes, synchronise, free live state
 * @fold: write the live counters into the region before a read
 * @snap: optional (class 15): copy @n region words from @word to @out,
 *	live values composed for the calling task, instead of fold and copy
 */
struct meas_class_ops {
	const char *name;
	void (*shape)(struct meas_class_spec *spec);
	int (*attach)(struct meas_class *cls);
	void (*detach)(struct meas_class *cls);
	void (*fold)(struct meas_class *cls);
	void (*snap)(struct meas_class *cls, u64 word, u64 n, u64 *out);
};

/**
 * struct meas_class - one of the sixteen classes
 * @ops: NULL when the class is not defined
 * @enablers: open files that have the class enabled (MEASINFOTAB counter)
 * @region: the vmalloc'd XDS, NULL while not enabled
 * @words: size of @region in words
 * @priv: the class's live state, owned by @ops
 * @gen: bumped each time a region is made: the steps of one GET read
 *	one region
 */
struct meas_class {
	const struct meas_class_ops *ops;
	unsigned int enablers;
	u64 *region;
	u64 words;
	void *priv;
	u64 gen;
};

#endif /* _MEAS_CORE_CLASS_H */
