/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the units of meas.ko.  Each unit's public
 * symbols are named meas_<unit>_<verb>.
 */
#ifndef _MEAS_CORE_H
#define _MEAS_CORE_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/meas.h>
#include "layout.h"

struct meas_class;

/**
 * struct meas_class_ops - what a class provides to the control unit
 * @name: short name, for messages
 * @shape: fill in the shape of the class region
 * @attach: allocate live state and register probes; the region is
 *	formatted.  Return a MEAS_START_* code.
 * @detach: unregister probes, synchronise, free live state
 * @fold: write the live counters into the region before a read
 */
struct meas_class_ops {
	const char *name;
	void (*shape)(struct meas_class_spec *spec);
	int (*attach)(struct meas_class *cls);
	void (*detach)(struct meas_class *cls);
	void (*fold)(struct meas_class *cls);
};

/**
 * struct meas_class - one of the sixteen classes
 * @ops: NULL when the class is not defined
 * @enablers: open files that have the class enabled (MEASINFOTAB counter)
 * @region: the vmalloc'd XDS, NULL while not enabled
 * @words: size of @region in words
 * @priv: the class's live state, owned by @ops
 */
struct meas_class {
	const struct meas_class_ops *ops;
	unsigned int enablers;
	u64 *region;
	u64 words;
	void *priv;
};

/* ctl.c: STARTSTATISTICS, STOPSTATISTICS and the class table */
extern struct mutex meas_sir;
int meas_ctl_start(u32 *file_mask, u64 mask, u32 *global);
int meas_ctl_stop(u32 *file_mask, u64 mask, u32 *global);
void meas_ctl_info(u32 file_mask, struct meas_info *info);
struct meas_class *meas_ctl_class(int class);
void meas_ctl_define(int class, const struct meas_class_ops *ops);

/* xds.c: region allocation and formatting */
int meas_xds_create(struct meas_class *cls, int class);
void meas_xds_destroy(struct meas_class *cls);
u64 *meas_xds_entry(struct meas_class *cls, int class, int subclass,
		    u64 entry);

/* get.c: GETSTATISTICS */
int meas_get_stats(struct meas_get *arg);

/* dev.c: /dev/meas */
int meas_dev_register(void);
void meas_dev_unregister(void);

/* class0.c: the global class, MEASSTATXDS */
extern const struct meas_class_ops meas_class0_ops;

/* sched.c: class 0 subclass 0 from the scheduler tracepoints */
int meas_sched_init(void);
int meas_sched_attach(struct meas_class *cls);
void meas_sched_detach(struct meas_class *cls);
void meas_sched_fold(struct meas_class *cls);

/* tp.c: tracepoints bound by name */
struct tracepoint;

/**
 * struct meas_tp - a tracepoint a unit probes
 * @name: the tracepoint's name
 * @probe: the probe function
 * @required: attaching fails without it; otherwise its items stay 0
 * @tp: bound by meas_tp_bind(), NULL if the kernel lacks it
 */
struct meas_tp {
	const char *name;
	void *probe;
	bool required;
	struct tracepoint *tp;
};

extern unsigned int meas_tp_probes;
void meas_tp_bind(struct meas_tp *tps, unsigned int n);
int meas_tp_register(struct meas_tp *tps, unsigned int n, void *data);
void meas_tp_unregister(struct meas_tp *tps, unsigned int n, void *data);

/* params.c: module parameters and fault injection */
extern unsigned int meas_param_max_region_kib;
extern unsigned int meas_param_max_disks;
bool meas_params_fail(int code);

#endif /* _MEAS_CORE_H */
