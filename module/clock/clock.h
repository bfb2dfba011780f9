/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared clock inside meas.ko: clock.c (ownership, timers, CPU
 * hotplug), clockbuf.c (the rings and their descriptor), collect_pc.c
 * and collect_stack.c (its own collectors).  The table of collectors it
 * serves comes from above (collectors.c, with the snapshot of class 0).
 */
#ifndef _MEAS_CLOCK_H
#define _MEAS_CLOCK_H

#include <linux/types.h>
#include <linux/mm.h>
#include <linux/meas.h>

struct meas_clockbuf;
struct file;

/**
 * struct meas_collector - a data collection procedure of the module
 * @id: MEAS_COLLECTOR_*
 * @name: short name, for messages
 * @record_size: bytes of its record
 * @prepare: make its event source ready, in process context, before the
 *	clock is taken; 0 or a MEAS_GETCLOCK_* code.  May be NULL.
 * @unprepare: undo @prepare once no tick runs any more.  May be NULL.
 * @tick: called on each tick in hard interrupt context, on @cpu: no
 *	allocation, no sleeping lock, no user memory
 */
struct meas_collector {
	u32 id;
	const char *name;
	u32 record_size;
	int (*prepare)(void);
	void (*unprepare)(void);
	void (*tick)(struct meas_clockbuf *buf, unsigned int cpu, u64 missed);
};

/* Collector ids are 1 to MEAS_COLLECTOR_STACK (linux/meas_clock.h). */
#define MEAS_CLOCK_COLLECTORS	(MEAS_COLLECTOR_STACK + 1)

extern const struct meas_collector meas_collect_pc;
extern const struct meas_collector meas_collect_stack;

struct pt_regs;

/* collect_pc.c */
void meas_clock_pc_fill(struct meas_clock_pc *rec, struct pt_regs *regs);

/* clock.c: the ioctls and the owner's file (dev.c), init and exit */
long meas_clock_ioctl(struct file *file, unsigned int cmd, void __user *u);
void meas_clock_release(struct file *file);
int meas_clock_init(const struct meas_collector *const *colls);
void meas_clock_exit(void);
unsigned int meas_clock_leader(void);

/* clockbuf.c */
int meas_clockbuf_create(const struct meas_collector *coll, u32 records,
			 u32 wakeup, struct meas_clockbuf **out, int *err);
struct file *meas_clockbuf_file(struct meas_clockbuf *buf);
void meas_clockbuf_put(struct meas_clockbuf *buf);
void meas_clockbuf_set_state(struct meas_clockbuf *buf, u32 state,
			     u32 intrate);
void meas_clockbuf_quiesce(struct meas_clockbuf *buf);
void meas_clockbuf_tick(struct meas_clockbuf *buf, unsigned int cpu,
			u64 missed);
void *meas_clockbuf_begin(struct meas_clockbuf *buf, unsigned int cpu,
			  u64 missed, u64 *idx);
void meas_clockbuf_commit(struct meas_clockbuf *buf, unsigned int cpu,
			  void *rec, u64 idx);
void meas_clockbuf_totals(struct meas_clockbuf *buf, u64 *ticks,
			  u64 *missed, u64 *written);
u32 meas_clockbuf_records(struct meas_clockbuf *buf);

#endif /* _MEAS_CLOCK_H */
