/* SPDX-License-Identifier: GPL-2.0 */
/* tp.c: tracepoints bound by name */
#ifndef _MEAS_CORE_TP_H
#define _MEAS_CORE_TP_H

#include <linux/types.h>

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

struct hrtimer;
struct task_struct;

extern unsigned int meas_tp_probes;
void meas_tp_init(void);
struct task_struct *meas_tp_sleeper_task(struct hrtimer *timer);
int meas_tp_bind(struct meas_tp *tps, unsigned int n);
int meas_tp_register(struct meas_tp *tps, unsigned int n, void *data);
void meas_tp_unregister(struct meas_tp *tps, unsigned int n, void *data);

#endif /* _MEAS_CORE_TP_H */
