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
/* ctl.c, for user-defined classes (custom.c); called with meas_sir held */
const struct meas_class_ops *meas_ctl_ops(int class);
int meas_ctl_redefine(int class, const struct meas_class_ops *ops,
		      void *priv);

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
long meas_dev_copy_in(void *k, size_t ksize, size_t ver0, void __user *u);
long meas_dev_read(void *k, size_t ksize, size_t ver0, void __user *u,
		   const u32 *flags, u32 known, const void *reserved,
		   size_t rlen);
long meas_dev_copy_out(void __user *u, const void *k, size_t ksize,
		       u32 usize, long ret);

/* task.c: task measurement (task.h, uapi/linux/meas_task.h) */
long meas_task_ioctl(struct file *file, unsigned int cmd, void __user *u);
void meas_task_release(struct file *file);
int meas_task_init(void);
void meas_task_exit(void);

/* custom.c, custom_ioctl.c: user-defined classes (custom.h, meas_api.h) */
long meas_custom_ioctl(unsigned int cmd, void __user *u);
void meas_custom_exit(void);

/* class0.c: the global class, MEASSTATXDS */
extern const struct meas_class_ops meas_class0_ops;

/* sched.c: class 0 subclass 0 from the scheduler tracepoints */
int meas_sched_init(void);
int meas_sched_attach(struct meas_class *cls);
void meas_sched_detach(struct meas_class *cls);
void meas_sched_fold(struct meas_class *cls);
void meas_sched_sum(u64 *out);

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

/* params.c: module parameters (fault injection: inject.h) */
extern unsigned int meas_param_max_region_kib;
extern unsigned int meas_param_max_disks;
extern unsigned int meas_param_max_tasks;
extern unsigned int meas_param_task_ring_kib;

/* ctl.c, clock.c: the shared clock (GETCLOCK, GIVECLOCK; clock.h) */
int meas_ctl_start_internal(u32 mask);
void meas_ctl_stop_internal(u32 mask);
struct file;
long meas_clock_ioctl(struct file *file, unsigned int cmd, void __user *u);
void meas_clock_release(struct file *file);
int meas_clock_init(void);
void meas_clock_exit(void);

/* class 15, the process table (proc.h): its class, ioctls, netlink */
extern const struct meas_class_ops meas_class15_ops;
int meas_proc_init(void);
long meas_procstats_ioctl(void __user *u);
long meas_filter_ioctl(void __user *u);
int meas_genl_register(void);
void meas_genl_unregister(void);

/* blk.c, disks.c, iotrace.c: disks (class 0 subclasses 1 to 4), class 14 */
void meas_blk_init(void);
int meas_blk_c0_attach(struct meas_class *cls);
void meas_blk_c0_detach(struct meas_class *cls);
void meas_blk_c0_fold(struct meas_class *cls);
u32 meas_disks_capacity(void);
u32 meas_tapes_capacity(void);
extern const struct meas_class_ops meas_class14_ops;
long meas_iotrace_ioctl(void **state, void __user *u);
void meas_iotrace_release(void *state);
extern unsigned int meas_param_max_tapes;
extern unsigned int meas_param_io_records;
extern unsigned int meas_param_io_track;

#endif /* _MEAS_CORE_H */
