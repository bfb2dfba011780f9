/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procread.c: class 15's records for readers (GETSTATISTICS' snap,
 * GETPROCSTATS, READACTIVE, netlink, exit records): live values, each
 * reader's namespaces and access; for the per-cgroup records too
 * (cgread.c).  The caller holds meas_sir, but for
 * meas_procread_settle(), which takes it.
 */
#ifndef _MEAS_PROC_PROCREAD_H
#define _MEAS_PROC_PROCREAD_H

#include <linux/types.h>
#include <linux/meas.h>
#include "core/access.h"

struct proc_tab;
struct meas_class;
struct file;

/**
 * struct proc_viewer - who reads, decided once per call
 * @all: may see every process (CAP_PERFMON or CAP_SYS_ADMIN)
 * @init_ns: numbers as the initial namespaces see them
 * @nlook: lookers in @look
 * @look: whose view it is: the caller, and the opener of the socket a
 *	request came on if that is someone else; an entry must be visible
 *	to every one
 */
struct proc_viewer {
	bool all;
	bool init_ns;
	unsigned int nlook;
	struct meas_looker look[2];
};

struct proc_thr;
struct task_struct;

void meas_procread_viewer(struct proc_viewer *v, bool init_ns);
bool meas_procread_may_task(const struct proc_viewer *v,
			    struct task_struct *task);
bool meas_procread_may_ids(const struct proc_viewer *v,
			   const struct meas_access_ids *ids, bool dumpable);
void meas_procread_thr(struct proc_thr *t, u64 *e, u64 now);
void meas_procread_viewer_opener(struct proc_viewer *v, struct file *file);
void meas_procread_header(struct proc_tab *tab, u64 *h, bool region_order);
bool meas_procread_entry_cg(struct proc_tab *tab, const struct proc_viewer *v,
			    u32 slot, u64 *e, u32 *gen, u64 *cgid);
bool meas_procread_entry(struct proc_tab *tab, const struct proc_viewer *v,
			 u32 slot, u64 *item, u32 *gen);
void meas_procread_settle(const struct proc_viewer *v, s32 nr);
u32 meas_procread_find(struct proc_tab *tab, const struct proc_viewer *v,
		       s32 pid);
u32 meas_procread_hwm(struct proc_tab *tab);
void meas_procread_snap(struct meas_class *cls, u64 word, u64 n, u64 *out);
bool meas_procread_final(struct proc_tab *tab, u32 slot, u32 gen, u64 *cgid,
			 struct meas_proc_rec *rec);

#endif /* _MEAS_PROC_PROCREAD_H */
