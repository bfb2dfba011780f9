// SPDX-License-Identifier: GPL-2.0
/*
 * The program-counter sampler: on every tick, each CPU records what it
 * was running when the timer interrupted it: the task (thread, process,
 * command name), whether it ran in user or kernel mode, the instruction
 * pointer from the interrupted registers, and whether it was the idle
 * task.  The tick runs in hard interrupt context (the timer is a _HARD
 * hrtimer), where get_irq_regs() gives the interrupted registers.
 */
#include <linux/build_bug.h>
#include <linux/ptrace.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/irq_regs.h>
#include "clock.h"
#include "core/taskflags.h"

/**
 * meas_clock_pc_fill() - the PC record of the interrupted context
 * @rec: the record, its header from meas_clockbuf_begin()
 * @regs: the interrupted registers, or NULL
 *
 * Also the first part of the call-stack record (collect_stack.c).
 */
void meas_clock_pc_fill(struct meas_clock_pc *rec, struct pt_regs *regs)
{
	struct task_struct *p = current;

	BUILD_BUG_ON(sizeof(rec->comm) != TASK_COMM_LEN);
	if (regs) {
		rec->ip = instruction_pointer(regs);
		if (user_mode(regs))
			rec->hdr.flags |= MEAS_REC_USER;
	} else {
		rec->ip = 0;
		rec->hdr.flags |= MEAS_REC_NOREGS;
	}
	if (meas_taskflags_idle(p))
		rec->hdr.flags |= MEAS_REC_IDLE;
	rec->pid = task_pid_nr(p);
	rec->tgid = task_tgid_nr(p);
	/* No task_lock here: a racing rename may mix names, never overrun. */
	memcpy(rec->comm, p->comm, sizeof(rec->comm));
	rec->comm[sizeof(rec->comm) - 1] = '\0';
}

static void pc_tick(struct meas_clockbuf *buf, unsigned int cpu, u64 missed)
{
	struct meas_clock_pc *rec;
	u64 idx;

	rec = meas_clockbuf_begin(buf, cpu, missed, &idx);
	meas_clock_pc_fill(rec, get_irq_regs());
	meas_clockbuf_commit(buf, cpu, rec, idx);
}

const struct meas_collector meas_collect_pc = {
	.id		= MEAS_COLLECTOR_PC,
	.name		= "pc",
	.record_size	= sizeof(struct meas_clock_pc),
	.tick		= pc_tick,
};
