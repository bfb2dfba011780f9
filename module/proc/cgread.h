/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgread.c: the per-cgroup totals as a reader sees them (the generic
 * netlink family, genl.c): an entry composed with its live threads, and
 * only if the reader may see every process that counted in it.  The
 * caller holds meas_sir.
 */
#ifndef _MEAS_PROC_CGREAD_H
#define _MEAS_PROC_CGREAD_H

#include <linux/types.h>
#include <linux/meas.h>

struct proc_tab;
struct proc_viewer;

u32 meas_cgread_used(struct proc_tab *tab);
void meas_cgread_header(struct proc_tab *tab, struct meas_cgroup_hdr *h,
			u32 hidden);
int meas_cgread_record(struct proc_tab *tab, const struct proc_viewer *v,
		       u32 n, struct meas_cgroup_rec *rec, char *path);
int meas_cgread_get(struct proc_tab *tab, const struct proc_viewer *v,
		    u64 id, struct meas_cgroup_rec *rec, char *path);
bool meas_cgread_empty(const struct meas_cgroup_rec *rec);

#endif /* _MEAS_PROC_CGREAD_H */
