// SPDX-License-Identifier: GPL-2.0
/*
 * The call-stack sampler: the program-counter record of collect_pc.c,
 * followed by the kernel call stack of the interrupted context and the
 * user call stack of the interrupted task, as perf's callchains take
 * them (arch/x86/events/core.c, arch/arm64/kernel/perf_callchain.c),
 * with what a module may call.
 *
 * Kernel: the kernel's own unwinder (ORC or frame pointers, whichever the
 * kernel was built with) started from the interrupted registers, where
 * the kernel exports it (the unwind_* calls; stack_trace_save_regs() is
 * not exported).  Elsewhere (arm64, whose kernels always keep frame
 * records) the frame records themselves, from the interrupted frame
 * pointer, each read with get_kernel_nofault() and bounded: a record
 * must lie in the stack the walk began in or in the task's own, and
 * climb within a stack, so a broken chain ends the stack, never a loop
 * or a fault.
 *
 * User: the frame-pointer chain from the registers the task last had in
 * user mode (the interrupted ones, or those saved on kernel entry when a
 * system call or fault was interrupted), each frame read with
 * copy_from_user_nofault(), which never sleeps nor faults a page in: a
 * frame not resident ends the stack.  A chain that does not climb the
 * stack ends it too, so a program built without frame pointers gives
 * short stacks, never a loop.  32-bit tasks get their instruction
 * pointer only.
 *
 * A frame record is the same pair on x86-64 (rbp) and AArch64 (x29, x30):
 * the caller's record, then the return address.  Return addresses signed
 * by pointer authentication have their PAC bits stripped (compat.h).
 */
#include <linux/build_bug.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/thread_info.h>
#include <linux/uaccess.h>
#include <asm/irq_regs.h>
#include "core/compat.h"
#include "clock.h"

/* One frame record: the caller's record, then the return address. */
struct stack_frame_rec {
	u64 next;
	u64 ret;
};

#ifdef MEAS_HAVE_UNWIND_EXPORTED
static u32 stack_kernel(struct pt_regs *regs, u64 *frame, u32 max,
			u32 *flags)
{
	struct unwind_state state;
	unsigned long addr;
	u32 n = 0;

	if (user_mode(regs))
		return 0;
	frame[n++] = instruction_pointer(regs);
	/* Starting from registers, the unwinder steps past their frame. */
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (n == max) {
			*flags |= MEAS_REC_KTRUNC;
			break;
		}
		frame[n++] = addr;
	}
	return n;
}
#else
/*
 * Whether a frame record at @fp lies whole in the stack of THREAD_SIZE
 * bytes at @lo.  Task and interrupt stacks are THREAD_SIZE-aligned.
 */
static bool stack_kernel_within(unsigned long fp, unsigned long lo)
{
	return fp >= lo && fp - lo <= THREAD_SIZE - sizeof(struct stack_frame_rec);
}

static u32 stack_kernel(struct pt_regs *regs, u64 *frame, u32 max,
			u32 *flags)
{
	unsigned long fp = frame_pointer(regs);
	unsigned long task = (unsigned long)task_stack_page(current);
	unsigned long lo = fp & ~(THREAD_SIZE - 1UL);
	struct stack_frame_rec f;
	u32 n = 0;

	if (user_mode(regs))
		return 0;
	frame[n++] = instruction_pointer(regs);
	while (fp && IS_ALIGNED(fp, sizeof(u64)) && stack_kernel_within(fp, lo)) {
		if (get_kernel_nofault(f, (struct stack_frame_rec *)fp) || !f.ret)
			break;
		if (n == max) {
			*flags |= MEAS_REC_KTRUNC;
			break;
		}
		frame[n++] = meas_strip_kernel_pac(f.ret);
		/*
		 * An interrupt stack's last record leads to the task's stack,
		 * once; within a stack, the caller's record lies above.
		 */
		if (!stack_kernel_within(f.next, lo)) {
			if (lo == task)
				break;
			lo = task;
		} else if (f.next <= fp) {
			break;
		}
		fp = f.next;
	}
	return n;
}
#endif

/* The user registers of the interrupted task, NULL for a kernel thread. */
static struct pt_regs *stack_user_regs(struct pt_regs *regs)
{
	if (user_mode(regs))
		return regs;
	if (!current->mm || current->flags & PF_KTHREAD)
		return NULL;
	return task_pt_regs(current);
}

static u32 stack_user(struct pt_regs *regs, u64 *frame, u32 max, u32 *flags)
{
	struct pt_regs *uregs = stack_user_regs(regs);
	struct stack_frame_rec f;
	u64 fp;
	u32 n = 0;

	if (!uregs || !max)
		return 0;
	frame[n++] = instruction_pointer(uregs);
	if (!meas_user_64bit_mode(uregs))
		return n;
	for (fp = frame_pointer(uregs); fp && !(fp & 7); fp = f.next) {
		if (copy_from_user_nofault(&f, (const void __user *)fp,
					   sizeof(f)))
			break;
		if (!f.ret)
			break;
		if (n == max) {
			*flags |= MEAS_REC_UTRUNC;
			break;
		}
		frame[n++] = meas_strip_user_pac(f.ret);
		/* The caller's frame lies above: anything else is no chain. */
		if (f.next <= fp)
			break;
	}
	return n;
}

static void stack_tick(struct meas_clockbuf *buf, unsigned int cpu, u64 missed)
{
	struct pt_regs *regs = get_irq_regs();
	struct meas_clock_stack *rec;
	u64 idx;

	BUILD_BUG_ON(MEAS_CLOCK_KSTACK_MAX >= MEAS_CLOCK_STACK_FRAMES);
	rec = meas_clockbuf_begin(buf, cpu, missed, &idx);
	meas_clock_pc_fill(&rec->pc, regs);
	rec->nr_kernel = 0;
	rec->nr_user = 0;
	if (regs) {
		rec->nr_kernel = stack_kernel(regs, rec->frame,
					      MEAS_CLOCK_KSTACK_MAX,
					      &rec->pc.hdr.flags);
		rec->nr_user = stack_user(regs, rec->frame + rec->nr_kernel,
					  MEAS_CLOCK_STACK_FRAMES -
					  rec->nr_kernel, &rec->pc.hdr.flags);
	}
	/* The slot held an older record: leave none of its frames. */
	memset(rec->frame + rec->nr_kernel + rec->nr_user, 0,
	       (MEAS_CLOCK_STACK_FRAMES - rec->nr_kernel - rec->nr_user) *
	       sizeof(rec->frame[0]));
	meas_clockbuf_commit(buf, cpu, rec, idx);
}

const struct meas_collector meas_collect_stack = {
	.id		= MEAS_COLLECTOR_STACK,
	.name		= "stack",
	.record_size	= sizeof(struct meas_clock_stack),
	.tick		= stack_tick,
};
