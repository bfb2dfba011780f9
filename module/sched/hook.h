/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hook (sched.c): one probe on sched_switch and one on sched_wakeup
 * for classes 0 and 15, which call the part of each class that is enabled.
 */
#ifndef _MEAS_SCHED_HOOK_H
#define _MEAS_SCHED_HOOK_H

#include <linux/types.h>
#include "logic/stop.h"

struct task_struct;
struct proc_tab;

int meas_hook_init(void);
int meas_hook_attach_c0(void);
void meas_hook_detach_c0(void);
int meas_hook_attach_proc(struct proc_tab *tab);
void meas_hook_detach_proc(void);

/* Class 15's parts (proc/proc.c); @now is local_clock(). */
void meas_proc_switch(struct proc_tab *tab, enum meas_stop stop,
		      struct task_struct *prev, struct task_struct *next,
		      unsigned int prev_state, u64 now);
void meas_proc_wakeup(struct proc_tab *tab, struct task_struct *p);

#endif /* _MEAS_SCHED_HOOK_H */
