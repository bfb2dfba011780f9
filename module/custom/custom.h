/* SPDX-License-Identifier: GPL-2.0 */
/*
 * custom.c, user-defined classes inside meas.ko: the definition of a
 * class and its live storage while enabled, which the update path
 * (update.c) finds without locks.  Documentation/custom.rst explains the
 * design.
 */
#ifndef _MEAS_CUSTOM_H
#define _MEAS_CUSTOM_H

#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <asm/local64.h>
#include <linux/meas.h>
#include "core/class.h"
#include "logic/custom_check.h"

/**
 * struct custom_def - a user-defined class, as defined
 * @rcu: freed after a grace period: the update path may still read @shape
 *	and @kind through a live state it found just before a STOP
 * @class: class number
 * @shape: subclasses, entries, items
 * @kind: MEAS_ITEM_* of each item of an entry, @shape.nkinds of them
 * @items: names and kinds as defined, @shape.nkinds of them
 * @name: class name
 * @subname: subclass names
 *
 * Created by DEFINE, freed by UNDEFINE or a redefinition, both under
 * meas_sir and only while the class is not enabled; never changed.
 */
struct custom_def {
	struct rcu_head rcu;
	int class;
	struct meas_custom_shape shape;
	u8 *kind;
	struct meas_item_def *items;
	char name[MEAS_NAME_MAX];
	char subname[MEAS_MAX_SUBCLASSES][MEAS_NAME_MAX];
};

/**
 * struct custom_live - the storage of an enabled user-defined class
 * @rcu: freed after a grace period (see custom_detach())
 * @def: the definition, outlives this state
 * @cpu: per possible CPU, one word per item: the adds to counter items
 *	made on that CPU
 * @shared: one word per item: a gauge's value, a counter's base
 * @lock: serialises the replaces of counter items
 * @seq: lets a reader see a counter replace whole or not at all
 *
 * A counter's value is @shared plus its word on every CPU; a gauge's
 * value is @shared.  Allocated by the first enabler, published in
 * meas_custom_live[] for the update path, freed after the last one.
 */
struct custom_live {
	struct rcu_head rcu;
	const struct custom_def *def;
	local64_t **cpu;
	atomic64_t *shared;
	raw_spinlock_t lock;
	seqcount_raw_spinlock_t seq;
};

/* The enabled user-defined classes, for the update path; NULL otherwise. */
extern struct custom_live __rcu *meas_custom_live[MEAS_NR_CLASSES];
/* The defined user-defined classes; written under meas_sir. */
extern u32 meas_custom_defined;

/* custom.c */
int meas_custom_install(const struct meas_define *d,
			const struct meas_item_def *items, bool killable);
int meas_custom_uninstall(int class, bool killable);
int meas_custom_describe(struct meas_define *d, struct meas_item_def **items);

/* undefine every class at module exit */
void meas_custom_exit(void);

#endif /* _MEAS_CUSTOM_H */
