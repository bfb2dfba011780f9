// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints bound by name.  Out-of-tree modules cannot take the address
 * of the kernel's tracepoint structs, so they are looked up once with
 * for_each_kernel_tracepoint() and registered only while a class needs
 * them.
 */
#include <linux/tracepoint.h>
#include <linux/hrtimer.h>
#include <linux/string.h>
#include <linux/printk.h>
#include <linux/meas.h>
#include "compat.h"
#include "tp.h"
#include "inject.h"

/* Probes registered now, for MEAS_IOC_INFO; changed under meas_sir. */
unsigned int meas_tp_probes;

/* hrtimer_wakeup(), the callback of every hrtimer sleeper (not exported) */
static enum hrtimer_restart (*tp_sleeper_fn)(struct hrtimer *);

/* Find the sleeper callback, once, at module load. */
void meas_tp_init(void)
{
	tp_sleeper_fn = meas_hrtimer_sleeper_fn();
}

/**
 * meas_tp_sleeper_task() - the task an expiring hrtimer ends a sleep of
 * @timer: the timer of hrtimer_expire_entry
 *
 * For the timed-out stops of class 0 and class 15: a sleeper's timer
 * that fires while its task still waits ends that task's sleep.
 *
 * Return: the task, or NULL if @timer is no sleeper's or its task is
 * already awake.
 */
struct task_struct *meas_tp_sleeper_task(struct hrtimer *timer)
{
	struct hrtimer_sleeper *sl;

	if (READ_ONCE(timer->function) != tp_sleeper_fn)
		return NULL;
	sl = container_of(timer, struct hrtimer_sleeper, timer);
	return READ_ONCE(sl->task);
}

struct tp_lookup {
	struct meas_tp *tps;
	unsigned int n;
};

static void tp_match(struct tracepoint *tp, void *priv)
{
	struct tp_lookup *l = priv;
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(tp->name, l->tps[i].name))
			l->tps[i].tp = tp;
}

/**
 * meas_tp_bind() - look up tracepoints by name
 * @tps: table to fill in
 * @n: entries of @tps
 *
 * A missing optional tracepoint is reported once and its items read 0.
 *
 * Return: 0, or -ENOENT if a required tracepoint is missing.
 */
int meas_tp_bind(struct meas_tp *tps, unsigned int n)
{
	struct tp_lookup l = { .tps = tps, .n = n };
	unsigned int i;
	int err = 0;

	for_each_kernel_tracepoint(tp_match, &l);
	for (i = 0; i < n; i++) {
		if (tps[i].tp)
			continue;
		pr_info("tracepoint %s not found%s\n", tps[i].name,
			tps[i].required ? "" : ": its items read 0");
		if (tps[i].required)
			err = -ENOENT;
	}
	return err;
}

/**
 * meas_tp_register() - register every bound probe of a table
 * @tps: the table
 * @n: entries of @tps
 * @data: probe data
 *
 * On failure, what was registered is unregistered again.
 *
 * Return: 0, -ENOENT when a required tracepoint is missing, or the error
 * of tracepoint_probe_register().
 */
int meas_tp_register(struct meas_tp *tps, unsigned int n, void *data)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < n; i++)
		if (tps[i].required && !tps[i].tp)
			return -ENOENT;
	for (i = 0; i < n && !err; i++) {
		if (!tps[i].tp)
			continue;
		err = meas_inject_start(MEAS_START_NOLOCK) ? -EIO :
			tracepoint_probe_register(tps[i].tp, tps[i].probe, data);
		if (!err)
			meas_tp_probes++;
	}
	if (err) {
		meas_tp_unregister(tps, i - 1, data);
		return err;
	}
	return 0;
}

/**
 * meas_tp_unregister() - unregister the first @n probes of a table
 * @tps: the table
 * @n: entries to unregister
 * @data: probe data given at registration
 *
 * The caller must call tracepoint_synchronize_unregister() before it
 * frees anything the probes touch.
 */
void meas_tp_unregister(struct meas_tp *tps, unsigned int n, void *data)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (tps[i].tp && !tracepoint_probe_unregister(tps[i].tp,
							      tps[i].probe, data))
			meas_tp_probes--;
}
