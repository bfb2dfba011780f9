/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.c: class 0's subclass 0, from the scheduler tracepoints, and the
 * hook the scheduler events of classes 0 and 15 share.  The definition of
 * class 0 (classes.c) composes it with the disks.
 */
#ifndef _MEAS_SCHED_SCHED_H
#define _MEAS_SCHED_SCHED_H

#include <linux/types.h>
#include "core/class.h"

int meas_sched_init(void);
int meas_sched_attach(struct meas_class *cls);
void meas_sched_detach(struct meas_class *cls);
void meas_sched_fold(struct meas_class *cls);
void meas_sched_sum(u64 *out);

/*
 * The hook: one probe on sched_switch and one on sched_wakeup for classes
 * 0 and 15, which call the part of each class that is enabled: class 0's
 * here, class 15's in proc/proc.c.  Class 15's attach and detach it are
 * composed with class 15's by the definition of the class (classes.c).
 */
struct proc_tab;

int meas_hook_attach_c0(void);
void meas_hook_detach_c0(void);
int meas_hook_attach_proc(struct proc_tab *tab);
void meas_hook_detach_proc(void);

#endif /* _MEAS_SCHED_SCHED_H */
