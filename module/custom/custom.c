// SPDX-License-Identifier: GPL-2.0
/*
 * User-defined classes: the table of their definitions, the class
 * operations that give them a region and live storage while enabled, and
 * the in-kernel calls that define and remove them.
 *
 * Definitions change only under meas_sir and only while the class is not
 * enabled.  The storage of an enabled class is published with RCU for
 * the update path (update.c), which takes no lock; it is unpublished by
 * the last disabler and freed after a grace period, and so is a
 * definition that is removed or replaced.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/sched.h>
#include "meas_api.h"
#include "core/class.h"
#include "core/ctl.h"
#include "core/inject.h"
#include "custom.h"

struct custom_live __rcu *meas_custom_live[MEAS_NR_CLASSES];
u32 meas_custom_defined;

/* The definitions, under meas_sir; also each class's priv. */
static struct custom_def *custom_defs[MEAS_NR_CLASSES];

static const struct meas_class_ops custom_ops;

static void custom_def_free(struct custom_def *def)
{
	kvfree(def->items);
	kfree(def->kind);
	kfree(def);
}

static void custom_def_free_rcu(struct rcu_head *head)
{
	custom_def_free(container_of(head, struct custom_def, rcu));
}

/* A definition from a checked request; @items may be NULL. */
static struct custom_def *custom_def_new(const struct meas_define *d,
					 const struct meas_item_def *items,
					 const struct meas_custom_shape *shape)
{
	struct custom_def *def = kzalloc(sizeof(*def), GFP_KERNEL);
	u64 i;

	if (!def)
		return NULL;
	def->kind = kzalloc(shape->nkinds, GFP_KERNEL);
	def->items = kvcalloc(shape->nkinds, sizeof(*items), GFP_KERNEL);
	if (!def->kind || !def->items) {
		custom_def_free(def);
		return NULL;
	}
	def->class = d->class;
	def->shape = *shape;
	/* Names are checked NUL-terminated; kept with zeros after the NUL. */
	for (i = 0; items && i < shape->nkinds; i++) {
		def->items[i].kind = items[i].kind;
		def->kind[i] = items[i].kind;
		strscpy_pad(def->items[i].name, items[i].name, MEAS_NAME_MAX);
	}
	strscpy_pad(def->name, d->name, MEAS_NAME_MAX);
	for (i = 0; i < shape->nsub; i++)
		strscpy_pad(def->subname[i], d->sub[i].name, MEAS_NAME_MAX);
	return def;
}

/*
 * Install @def (NULL: remove) as class @class, under meas_sir.  The old
 * definition goes after a grace period: an update that found the class
 * enabled may still read it.
 */
static int custom_set(int class, struct custom_def *def, u32 flags)
{
	const struct meas_class_ops *ops = meas_ctl_ops(class);
	struct custom_def *old = custom_defs[class];

	if (ops && ops != &custom_ops)
		return MEAS_DEFINE_RESERVED;
	if (!ops && !def)
		return MEAS_DEFINE_NOCLASS;
	if (ops && def && !(flags & MEAS_DEFINE_REPLACE))
		return MEAS_DEFINE_EXISTS;
	if (meas_ctl_redefine(class, def ? &custom_ops : NULL, def))
		return MEAS_DEFINE_BUSY;
	custom_defs[class] = def;
	WRITE_ONCE(meas_custom_defined, def ? meas_custom_defined | BIT(class) :
			meas_custom_defined & ~BIT(class));
	if (old)
		call_rcu(&old->rcu, custom_def_free_rcu);
	return MEAS_DEFINE_OK;
}

static int custom_lock(bool killable)
{
	if (!killable) {
		mutex_lock(&meas_sir);
		return 0;
	}
	return mutex_lock_killable(&meas_sir) ? -EINTR : 0;
}

/**
 * meas_custom_install() - DEFINE
 * @d: the request, size, flags, pad and reserved checked
 * @items: @d->nitems item definitions in kernel memory, or NULL
 * @killable: the wait for meas_sir ends on a fatal signal
 *
 * Return: a MEAS_DEFINE_* code, or -EINTR.
 */
int meas_custom_install(const struct meas_define *d,
			const struct meas_item_def *items, bool killable)
{
	struct meas_custom_shape shape;
	struct custom_def *def;
	int rc;

	rc = meas_custom_check_define(d, &shape);
	if (!rc && items)
		rc = meas_custom_check_items(items, d->nitems);
	if (rc)
		return rc;
	def = custom_def_new(d, items, &shape);
	if (!def)
		return MEAS_DEFINE_NOMEM;
	rc = custom_lock(killable);
	if (!rc) {
		rc = custom_set(d->class, def, d->flags);
		mutex_unlock(&meas_sir);
	}
	if (rc)
		custom_def_free(def);
	return rc;
}

/**
 * meas_custom_uninstall() - UNDEFINE
 * @class: class number, any value
 * @killable: the wait for meas_sir ends on a fatal signal
 *
 * Return: a MEAS_DEFINE_* code, or -EINTR.
 */
int meas_custom_uninstall(int class, bool killable)
{
	int rc = meas_custom_check_class(class);

	if (rc)
		return rc;
	rc = custom_lock(killable);
	if (rc)
		return rc;
	rc = custom_set(class, NULL, 0);
	mutex_unlock(&meas_sir);
	return rc;
}

/**
 * meas_custom_describe() - DESCRIBE
 * @d: in: the class; out: its definition, nitems the number of items
 * @items: out: a kvmalloc'd copy of the item definitions, for the caller
 *	to copy out after meas_sir is released and to kvfree
 *
 * Return: a MEAS_DEFINE_* code, -EINTR or -ENOMEM.
 */
int meas_custom_describe(struct meas_define *d, struct meas_item_def **items)
{
	const struct custom_def *def;
	int rc, class = d->class;
	u32 i;

	*items = NULL;
	if (class < 0 || class >= MEAS_NR_CLASSES)
		return MEAS_DEFINE_BADCLASS;
	if (mutex_lock_killable(&meas_sir))
		return -EINTR;
	def = custom_defs[class];
	rc = def ? MEAS_DEFINE_OK : MEAS_DEFINE_NOCLASS;
	if (def) {
		*items = kvmalloc_array(def->shape.nkinds, sizeof(**items),
					GFP_KERNEL);
		rc = *items ? MEAS_DEFINE_OK : -ENOMEM;
		if (*items)
			memcpy(*items, def->items,
			       def->shape.nkinds * sizeof(**items));
	}
	if (!rc) {
		memcpy(d->name, def->name, sizeof(d->name));
		d->nsub = def->shape.nsub;
		for (i = 0; i < def->shape.nsub; i++) {
			memcpy(d->sub[i].name, def->subname[i], MEAS_NAME_MAX);
			d->sub[i].entries = def->shape.sub[i].entries;
			d->sub[i].items = def->shape.sub[i].entsize;
		}
		d->nitems = def->shape.nkinds;
	}
	mutex_unlock(&meas_sir);
	return rc;
}

/* ---- class operations ---------------------------------------------------- */

static void custom_shape(struct meas_class_spec *spec)
{
	const struct custom_def *def = custom_defs[spec->class];

	lockdep_assert_held(&meas_sir);
	meas_custom_spec(&def->shape, spec->class, spec);
}

static void custom_live_free(struct custom_live *live)
{
	int cpu;

	if (live->cpu)
		for_each_possible_cpu(cpu)
			kvfree(live->cpu[cpu]);
	kfree(live->cpu);
	kvfree(live->shared);
	kfree(live);
}

static void custom_live_free_rcu(struct rcu_head *head)
{
	custom_live_free(container_of(head, struct custom_live, rcu));
}

/*
 * Each CPU's words on its own node, in whole cache lines so that no two
 * CPUs' arrays share one.
 */
static struct custom_live *custom_live_new(const struct custom_def *def)
{
	size_t bytes = round_up(def->shape.items * sizeof(u64), L1_CACHE_BYTES);
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	struct custom_live *live = kzalloc(sizeof(*live), gfp);
	int cpu;

	if (!live)
		return NULL;
	live->def = def;
	raw_spin_lock_init(&live->lock);
	seqcount_raw_spinlock_init(&live->seq, &live->lock);
	live->shared = kvcalloc(def->shape.items, sizeof(*live->shared), gfp);
	live->cpu = kcalloc(nr_cpu_ids, sizeof(*live->cpu), gfp);
	if (!live->shared || !live->cpu)
		goto free_live;
	for_each_possible_cpu(cpu) {
		live->cpu[cpu] = kvzalloc_node(bytes, gfp, cpu_to_node(cpu));
		if (!live->cpu[cpu])
			goto free_live;
	}
	return live;

free_live:
	custom_live_free(live);
	return NULL;
}

/* The first enabler: storage for the items, published for updates. */
static int custom_attach(struct meas_class *cls)
{
	const struct custom_def *def = cls->priv;
	struct custom_live *live;

	if (meas_inject_start(MEAS_START_NODST))
		return MEAS_START_NODST;
	live = custom_live_new(def);
	if (!live)
		return MEAS_START_NODST;
	rcu_assign_pointer(meas_custom_live[def->class], live);
	return MEAS_START_OK;
}

/*
 * The last disabler: updates that still hold the storage finish within a
 * grace period (they run with preemption off), then it is freed.
 */
static void custom_detach(struct meas_class *cls)
{
	const struct custom_def *def = cls->priv;
	struct custom_live *live;

	live = rcu_dereference_protected(meas_custom_live[def->class],
					 lockdep_is_held(&meas_sir));
	RCU_INIT_POINTER(meas_custom_live[def->class], NULL);
	call_rcu(&live->rcu, custom_live_free_rcu);
}

/*
 * The value of an item, @index among the items of the class: the read
 * side of what the update path (update.c) writes.  A counter is read
 * again if a replace ran meanwhile, so a replace is seen whole or not at
 * all; adds on other CPUs are seen or not, each.
 */
static u64 custom_value(const struct custom_live *live, u64 index, u8 kind)
{
	unsigned int seq;
	u64 v;
	int cpu;

	if (kind == MEAS_ITEM_GAUGE)
		return atomic64_read(&live->shared[index]);
	do {
		seq = read_seqcount_begin(&live->seq);
		v = atomic64_read(&live->shared[index]);
		for_each_possible_cpu(cpu)
			v += local64_read(&live->cpu[cpu][index]);
	} while (read_seqcount_retry(&live->seq, seq));
	return v;
}

/* Before a read: every item's value into entries 1.. of its subclass. */
static void custom_fold(struct meas_class *cls)
{
	const struct custom_def *def = cls->priv;
	const struct custom_live *live;
	struct meas_sub_view view;
	u64 e, k, i, *out;
	u32 s;

	live = rcu_dereference_protected(meas_custom_live[def->class],
					 lockdep_is_held(&meas_sir));
	for (s = 0; s < def->shape.nsub; s++) {
		const struct meas_custom_sub *sub = &def->shape.sub[s];

		if (WARN_ON_ONCE(meas_layout_find(cls->region, cls->words,
						  def->class, s, &view) ||
				 view.items < sub->items))
			continue;
		out = cls->region + view.base + view.ent0size;
		for (e = 0, i = 0; e < sub->entries; e++) {
			for (k = 0; k < sub->entsize; k++, i++)
				out[i] = custom_value(live, sub->first + i,
						      def->kind[sub->kind0 + k]);
			cond_resched();
		}
	}
}

static const struct meas_class_ops custom_ops = {
	.name	= "user-defined",
	.shape	= custom_shape,
	.attach	= custom_attach,
	.detach	= custom_detach,
	.fold	= custom_fold,
};

/**
 * meas_custom_exit() - forget every user-defined class at module exit
 *
 * No file is open and no client module is loaded, so none is enabled;
 * the last RCU callbacks run before the module's text goes.
 */
void meas_custom_exit(void)
{
	int c;

	mutex_lock(&meas_sir);
	for (c = 0; c < MEAS_NR_CLASSES; c++)
		if (custom_defs[c])
			custom_set(c, NULL, 0);
	mutex_unlock(&meas_sir);
	rcu_barrier();
}

/* ---- the in-kernel API (meas_api.h) -------------------------------------- */

/* Copy a name of the kernel API into a name field. */
static bool custom_name_copy(char *dst, const char *src)
{
	if (!src)
		return true;
	if (strnlen(src, MEAS_NAME_MAX) >= MEAS_NAME_MAX)
		return false;
	strscpy_pad(dst, src, MEAS_NAME_MAX);
	return true;
}

/* The items of @desc as item definitions, or NULL when none is given. */
static int custom_desc_items(const struct meas_class_desc *desc,
			     struct meas_define *d,
			     struct meas_item_def **out)
{
	struct meas_item_def *items;
	u64 n = 0, at = 0;
	u32 s, k;
	bool any = false;

	for (s = 0; s < desc->nsub; s++) {
		if (desc->sub[s].items > MEAS_CUSTOM_MAX_ITEMS)
			return MEAS_DEFINE_BADSHAPE;
		n += desc->sub[s].items;
		any |= !!desc->sub[s].item;
	}
	*out = NULL;
	if (!any)
		return MEAS_DEFINE_OK;
	items = kvcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return MEAS_DEFINE_NOMEM;
	for (s = 0; s < desc->nsub; s++) {
		const struct meas_item_desc *it = desc->sub[s].item;

		for (k = 0; k < desc->sub[s].items; k++, at++) {
			if (!it)
				continue;
			items[at].kind = it[k].kind;
			if (!custom_name_copy(items[at].name, it[k].name)) {
				kvfree(items);
				return MEAS_DEFINE_BADNAME;
			}
		}
	}
	/* Only tested for non-zero: the items are passed beside. */
	d->items = (uintptr_t)items;
	d->nitems = n;
	*out = items;
	return MEAS_DEFINE_OK;
}

/* The request a kernel caller's description amounts to. */
static int custom_desc_define(int class, const struct meas_class_desc *desc,
			      unsigned int flags, struct meas_define *d,
			      struct meas_item_def **items)
{
	u32 s;

	*items = NULL;
	d->class = class;
	d->flags = flags;
	if (!desc || !desc->sub || desc->nsub < 1 ||
	    desc->nsub > MEAS_CUSTOM_MAX_SUBCLASSES ||
	    flags & ~MEAS_DEFINE_REPLACE)
		return MEAS_DEFINE_BADSHAPE;
	d->nsub = desc->nsub;
	if (!custom_name_copy(d->name, desc->name))
		return MEAS_DEFINE_BADNAME;
	for (s = 0; s < desc->nsub; s++) {
		d->sub[s].entries = desc->sub[s].entries;
		d->sub[s].items = desc->sub[s].items;
		if (!custom_name_copy(d->sub[s].name, desc->sub[s].name))
			return MEAS_DEFINE_BADNAME;
	}
	return custom_desc_items(desc, d, items);
}

int meas_custom_define(int class, const struct meas_class_desc *desc,
		       unsigned int flags)
{
	struct meas_item_def *items;
	struct meas_define *d;
	int rc;

	might_sleep();
	rc = meas_custom_check_class(class);
	if (rc)
		return rc;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return MEAS_DEFINE_NOMEM;
	rc = custom_desc_define(class, desc, flags, d, &items);
	if (!rc)
		rc = meas_custom_install(d, items, false);
	kvfree(items);
	kfree(d);
	return rc;
}
EXPORT_SYMBOL_GPL(meas_custom_define);

int meas_custom_remove(int class)
{
	might_sleep();
	return meas_custom_uninstall(class, false);
}
EXPORT_SYMBOL_GPL(meas_custom_remove);

bool meas_custom_enabled(int class)
{
	return class >= 0 && class < MEAS_NR_CLASSES &&
	       rcu_access_pointer(meas_custom_live[class]);
}
EXPORT_SYMBOL_GPL(meas_custom_enabled);
