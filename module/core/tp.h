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

/*
 * MEAS_TP_PROTO() - @probe has the prototype this kernel declares for
 * tracepoint @name
 *
 * Probes are registered by name, through a void *, so a prototype that
 * changed under them would corrupt their arguments silently.  This
 * checks it where the probe is defined: the compiler checks the call of
 * the kernel's register_trace_<name>() inside sizeof, which is never
 * made, against the probe's type (-Werror=incompatible-pointer-types;
 * every make check build also fails on a warning).  That file includes
 * the tracepoint's trace/events header.
 */
#define MEAS_TP_PROTO(name, probe)					\
	struct meas_tp_proto_##name##_##probe {				\
		char ok[sizeof(register_trace_##name(probe, NULL))];	\
	}

/*
 * MEAS_TP() - an entry of a unit's table of tracepoints: @probe on @name,
 * which the unit cannot work without if @req.  It does not build without
 * the MEAS_TP_PROTO() of the same pair.
 */
#define MEAS_TP(name, probe, req)					\
	{ #name, probe, (req) && sizeof(struct meas_tp_proto_##name##_##probe) }

struct hrtimer;
struct task_struct;

extern unsigned int meas_tp_probes;
void meas_tp_init(void);
struct task_struct *meas_tp_sleeper_task(struct hrtimer *timer);
int meas_tp_bind(struct meas_tp *tps, unsigned int n);
int meas_tp_register(struct meas_tp *tps, unsigned int n, void *data);
void meas_tp_unregister(struct meas_tp *tps, unsigned int n, void *data);

#endif /* _MEAS_CORE_TP_H */
