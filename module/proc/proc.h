/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.c: class 15's probes and its life.  The scheduler hook
 * (sched/sched.c) calls class 15's part of each switch and wakeup here,
 * directly: the one include across areas (Documentation/internals.rst,
 * "The one rule").  The definition of class 15 (classes.c) composes its
 * life with the hook's.
 */
#ifndef _MEAS_PROC_PROC_H
#define _MEAS_PROC_PROC_H

#include <linux/types.h>
#include "logic/stop.h"

struct task_struct;
struct proc_tab;
struct meas_class;
struct meas_class_spec;

/* The hook's calls, in the scheduler; @now is local_clock(). */
void meas_proc_switch(struct proc_tab *tab, enum meas_stop stop,
		      struct task_struct *prev, struct task_struct *next,
		      unsigned int prev_state, u64 now);
void meas_proc_wakeup(struct proc_tab *tab, struct task_struct *p);

/* The class's life, under meas_sir: MEAS_START_* codes. */
void meas_proc_shape(struct meas_class_spec *spec);
int meas_proc_prepare(struct meas_class *cls, struct proc_tab **tab);
int meas_proc_start(struct proc_tab *tab);
void meas_proc_stop(struct proc_tab *tab);
void meas_proc_end(struct proc_tab *tab);

/* Binding the tracepoints at module init. */
int meas_proc_init(void);

#endif /* _MEAS_PROC_PROC_H */
