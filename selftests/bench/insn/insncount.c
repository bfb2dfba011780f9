// SPDX-License-Identifier: GPL-2.0
/*
 * insncount: a QEMU TCG plugin that counts the instructions the guest
 * executes, for the instruction-count benchmark (make bench).
 *   qemu-system-x86_64 -plugin insncount.so,out=FILE[,prof=PROFILE] ...
 *   qemu-system-aarch64 -plugin insncount.so,out=FILE[,prof=PROFILE] ...
 * One build serves both: the target QEMU names at install chooses the
 * marker instructions and how the timer interrupt is followed.
 *
 * The guest brackets what it measures with the marker instruction of
 * insn_mark.c; each time a vCPU executes it, one line
 *   VCPU TOTAL TIMER REST0 REST1 ... TIMER0 TIMER1 ...
 * is appended to FILE and flushed: the instructions executed so far by
 * all vCPUs, of those the ones executed in the local timer interrupt
 * (entry, handlers, the softirqs run on its exit, up to the common
 * interrupt return), which the guest names once with a second marker
 * (insn_mark timer ...: on x86-64 the timer's own entry and the return;
 * on arm64, which has one entry for every interrupt, the interrupt
 * entries and the arch timer's handlers: an interrupt is counted from
 * its entry to its exception return, and charged to the timer if the
 * handler ran in it).  What the timer interrupt runs depends
 * on how much host time a run took, which a loaded host varies by tens of
 * percent; the benchmark takes it apart so that the rest is exact), and
 * then for each vCPU, from 0 up to the highest seen, those it executed
 * outside the timer interrupt, then those it executed in it, then the
 * timer interrupts it entered.  At exit a line "exit TOTAL TIMER"
 * follows.  When the guest names the timer interrupt, a line "timer
 * entry ADDRS return ADDR" (x86-64) or "timer entry ADDRS handler ADDRS"
 * (arm64) says what the plugin took from it.
 *
 * With prof=PROFILE, the profile marker (insn_mark prof) appends to
 * PROFILE, for each translated block run since the last profile marker,
 *   VADDR INSNS RUNS0 TIMER0 RUNS1 TIMER1
 * (its address, its instructions, how often vCPU 0 ran it outside and
 * inside the timer interrupt, then the other vCPUs) and starts afresh:
 * the profile of what ran in between, which insn_prof.sh maps to the
 * guest's functions.  A block translated again appears once for each
 * translation.
 *
 * The counters are not atomic: the benchmark runs TCG with one thread for
 * all vCPUs (run-vm.sh's default), so no two blocks run at once.  A block
 * left early (a fault in its middle) still counts whole; that happens at
 * the same places in every run and cancels between the runs at N and 2N
 * events.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu/qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/*
 * x86-64: nopl 0x5341454d(%rax), a 7-byte no-op whose displacement is
 * "MEAS"; with "MEAT" instead it is followed by movabs $ENTRY, %r11 and
 * movabs $RETURN, %r11, the timer interrupt's addresses; "MEAP" is the
 * profile marker.
 */
static const unsigned char x86_marker[] = {
	0x0f, 0x1f, 0x80, 'M', 'E', 'A', 'S'
};
#define X86_TIMER 'T'
#define X86_PROF 'P'

/*
 * arm64: orr xN, xN, xN, a no-op no compiler emits (a move is orr xN,
 * xzr, xM): x13 counts, x14 is followed by the interrupt entries as
 * movz/movk into x9 and the timer handlers into x10, x15 profiles.
 */
#define A64_ORR_SELF(n) (0xaa000000u | (n) << 16 | (n) << 5 | (n))
#define A64_COUNT A64_ORR_SELF(13)
#define A64_TIMER A64_ORR_SELF(14)
#define A64_PROF A64_ORR_SELF(15)
#define A64_ERET 0xd69f03e0u
#define A64_MOV_MASK 0xff800000u
#define A64_MOVZ 0xd2800000u	/* 64-bit movz */
#define A64_MOVK 0xf2800000u	/* 64-bit movk */
#define A64_ENTRY_REG 9
#define A64_HANDLER_REG 10

enum marker { NOT_MARKER, MARK_COUNT, MARK_TIMER, MARK_PROF };

#define MAX_VCPUS 64
#define MAX_ADDRS 8

struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs[4];	/* vCPU 0 or not, in the timer interrupt or not */
	int eret;		/* ends in an exception return (arm64) */
	struct block *next;	/* every block translated, for the profile */
};

/* an arm64 interrupt being followed on one vCPU, until its return */
struct irq {
	unsigned int depth;	/* nested entries (softirqs run with IRQs on) */
	unsigned int timer;	/* how often the arch timer's handler ran in it */
	uint64_t insns;
	struct block **blocks;	/* what it ran, for the profile */
	size_t nblocks, cap;
};

static int aarch64;
static uint64_t executed, in_timer_irq;
static uint64_t timer_entry, timer_return;	/* x86-64 */
static uint64_t irq_entry[MAX_ADDRS], timer_handler[MAX_ADDRS];	/* arm64 */
static unsigned int n_irq_entry, n_timer_handler;
static unsigned char in_timer[MAX_VCPUS];
static struct irq irq_of[MAX_VCPUS];
static uint64_t rest[MAX_VCPUS], timer_of[MAX_VCPUS], irqs_of[MAX_VCPUS];
static unsigned int vcpus_seen;
static FILE *out, *prof;
static struct block *blocks;

static void on_marker(unsigned int vcpu, void *udata)
{
	unsigned int i;

	fprintf(out, "%u %" PRIu64 " %" PRIu64, vcpu, executed, in_timer_irq);
	for (i = 0; i < vcpus_seen; i++)
		fprintf(out, " %" PRIu64, rest[i]);
	for (i = 0; i < vcpus_seen; i++)
		fprintf(out, " %" PRIu64, timer_of[i]);
	for (i = 0; i < vcpus_seen; i++)
		fprintf(out, " %" PRIu64, irqs_of[i]);
	fputc('\n', out);
	fflush(out);
}

/* The blocks run since the last profile marker; then from zero again. */
static void on_prof_marker(unsigned int vcpu, void *udata)
{
	struct block *b;

	fprintf(prof, "P\n");
	for (b = blocks; b; b = b->next) {
		if (!(b->runs[0] | b->runs[1] | b->runs[2] | b->runs[3]))
			continue;
		fprintf(prof, "%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 "\n", b->vaddr, b->insns,
			b->runs[0], b->runs[1], b->runs[2], b->runs[3]);
		memset(b->runs, 0, sizeof(b->runs));
	}
	fflush(prof);
}

static void *alloc_or_die(void *p)
{
	if (!p) {
		fprintf(stderr, "insncount: out of memory\n");
		abort();
	}
	return p;
}

/* Charge N instructions of vCPU V, in the timer interrupt or not. */
static void charge(unsigned int v, uint64_t n, int timer)
{
	if (timer) {
		in_timer_irq += n;
		timer_of[v] += n;
	} else {
		rest[v] += n;
	}
}

/* x86-64: the timer has its own entry, and returns by error_return. */
static void follow_x86(unsigned int v, struct block *b)
{
	unsigned char *timer = &in_timer[v];

	if (b->vaddr == timer_entry) {
		*timer = 1;
		irqs_of[v]++;
	}
	b->runs[2 * (v != 0) + *timer]++;
	charge(v, b->insns, *timer);
	if (b->vaddr == timer_return)
		*timer = 0;
}

static int among(uint64_t vaddr, const uint64_t *addrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (addrs[i] == vaddr)
			return 1;
	return 0;
}

/* an arm64 interrupt has returned: charge what it ran, timer or not */
static void irq_settle(unsigned int v, struct irq *irq)
{
	size_t i;

	charge(v, irq->insns, irq->timer > 0);
	irqs_of[v] += irq->timer;
	for (i = 0; i < irq->nblocks; i++)
		irq->blocks[i]->runs[2 * (v != 0) + (irq->timer > 0)]++;
	irq->nblocks = 0;
	irq->insns = 0;
	irq->timer = 0;
}

static void irq_add(struct irq *irq, struct block *b)
{
	irq->insns += b->insns;
	if (!prof)
		return;
	if (irq->nblocks == irq->cap) {
		irq->cap = irq->cap ? 2 * irq->cap : 1024;
		irq->blocks = alloc_or_die(realloc(irq->blocks,
					   irq->cap * sizeof(*irq->blocks)));
	}
	irq->blocks[irq->nblocks++] = b;
}

/*
 * arm64: every interrupt enters at el1h_64_irq or el0t_64_irq; one is
 * followed from there to its exception return (eret), nested ones (in
 * the softirqs of its exit) with it, and charged to the timer if the
 * arch timer's handler ran in it: the local timer interrupt, as x86-64
 * counts it, and not the IPIs and device interrupts.  The timer
 * interrupts a vCPU entered are the handler's runs (a nested one is
 * counted too, as /proc/interrupts counts it).
 */
static void follow_a64(unsigned int v, struct block *b)
{
	struct irq *irq = &irq_of[v];

	if (n_irq_entry && among(b->vaddr, irq_entry, n_irq_entry))
		irq->depth++;
	if (!irq->depth) {
		b->runs[2 * (v != 0)]++;
		rest[v] += b->insns;
		return;
	}
	if (among(b->vaddr, timer_handler, n_timer_handler))
		irq->timer++;
	irq_add(irq, b);
	if (b->eret && !--irq->depth)
		irq_settle(v, irq);
}

/* Runs before each block: count it, and follow the timer interrupt. */
static void on_block(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	unsigned int v = vcpu % MAX_VCPUS;

	executed += b->insns;
	if (v >= vcpus_seen)
		vcpus_seen = v + 1;
	if (aarch64)
		follow_a64(v, b);
	else
		follow_x86(v, b);
}

static uint32_t a64_word(const struct qemu_plugin_insn *insn)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 4)
		return 0;
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static enum marker marker_x86(const struct qemu_plugin_insn *insn)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != sizeof(x86_marker) ||
	    memcmp(p, x86_marker, sizeof(x86_marker) - 1))
		return NOT_MARKER;
	switch (p[sizeof(x86_marker) - 1]) {
	case 'S': return MARK_COUNT;
	case X86_TIMER: return MARK_TIMER;
	case X86_PROF: return MARK_PROF;
	}
	return NOT_MARKER;
}

static enum marker marker_a64(const struct qemu_plugin_insn *insn)
{
	switch (a64_word(insn)) {
	case A64_COUNT: return MARK_COUNT;
	case A64_TIMER: return MARK_TIMER;
	case A64_PROF: return MARK_PROF;
	}
	return NOT_MARKER;
}

/* the immediate of movabs $IMM, %r11 */
static int movabs_r11(const struct qemu_plugin_insn *insn, uint64_t *imm)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 10 || p[0] != 0x49 || p[1] != 0xbb)
		return 0;
	memcpy(imm, p + 2, sizeof(*imm));
	return 1;
}

static void learn_timer_x86(struct qemu_plugin_tb *tb, size_t i, size_t n)
{
	uint64_t entry, ret;

	if (i + 2 < n &&
	    movabs_r11(qemu_plugin_tb_get_insn(tb, i + 1), &entry) &&
	    movabs_r11(qemu_plugin_tb_get_insn(tb, i + 2), &ret)) {
		timer_entry = entry;
		timer_return = ret;
		fprintf(out, "timer entry %" PRIx64 " return %" PRIx64 "\n",
			entry, ret);
	}
}

static void print_addrs(const uint64_t *addrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(out, "%c%" PRIx64, i ? ',' : ' ', addrs[i]);
}

/* the last of up to MAX_ADDRS addresses in ADDRS, or NULL if full */
static uint64_t *next_addr(uint64_t *addrs, unsigned int *count)
{
	if (*count == MAX_ADDRS)
		return NULL;
	addrs[*count] = 0;
	return &addrs[(*count)++];
}

/*
 * After the arm64 timer marker: each address a movz and up to three
 * movk into x9 (an interrupt entry) or x10 (a timer handler).
 */
static void learn_timer_a64(struct qemu_plugin_tb *tb, size_t i, size_t n)
{
	uint64_t *addr = NULL;
	unsigned int rd_of_addr = 0;

	n_irq_entry = n_timer_handler = 0;
	for (i++; i < n; i++) {
		uint32_t w = a64_word(qemu_plugin_tb_get_insn(tb, i));
		unsigned int rd = w & 31, shift = ((w >> 21) & 3) * 16;
		uint64_t imm = (uint64_t)((w >> 5) & 0xffff) << shift;

		if ((w & A64_MOV_MASK) == A64_MOVZ && rd == A64_ENTRY_REG)
			addr = next_addr(irq_entry, &n_irq_entry);
		else if ((w & A64_MOV_MASK) == A64_MOVZ && rd == A64_HANDLER_REG)
			addr = next_addr(timer_handler, &n_timer_handler);
		else if ((w & A64_MOV_MASK) != A64_MOVK || rd != rd_of_addr)
			break;
		if (!addr)
			break;
		rd_of_addr = rd;
		*addr = (*addr & ~((uint64_t)0xffff << shift)) | imm;
	}
	fprintf(out, "timer entry");
	print_addrs(irq_entry, n_irq_entry);
	fprintf(out, " handler");
	print_addrs(timer_handler, n_timer_handler);
	fputc('\n', out);
}

static struct block *new_block(struct qemu_plugin_tb *tb)
{
	struct block *b = alloc_or_die(calloc(1, sizeof(*b)));
	size_t n = qemu_plugin_tb_n_insns(tb);

	/* Blocks are translated again when evicted: a few MiB a run. */
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = n;
	b->eret = aarch64 && n &&
		  a64_word(qemu_plugin_tb_get_insn(tb, n - 1)) == A64_ERET;
	b->next = blocks;
	blocks = b;
	return b;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = new_block(tb);

	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block,
					     QEMU_PLUGIN_CB_NO_REGS, b);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		switch (aarch64 ? marker_a64(insn) : marker_x86(insn)) {
		case MARK_COUNT:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
			break;
		case MARK_TIMER:
			if (aarch64)
				learn_timer_a64(tb, i, n);
			else
				learn_timer_x86(tb, i, n);
			break;
		case MARK_PROF:
			if (prof)
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					on_prof_marker, QEMU_PLUGIN_CB_NO_REGS, NULL);
			break;
		case NOT_MARKER:
			break;
		}
	}
}
static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	fprintf(out, "exit %" PRIu64 " %" PRIu64 "\n", executed, in_timer_irq);
	fclose(out);
	if (prof)
		fclose(prof);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *prof_path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "prof=", 5)) {
			prof_path = argv[i] + 5;
		} else {
			fprintf(stderr, "insncount: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!strcmp(info->target_name, "aarch64")) {
		aarch64 = 1;
	} else if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insncount: no markers for target %s\n",
			info->target_name);
		return -1;
	}
	if (!path) {
		fprintf(stderr, "insncount: usage: -plugin insncount.so,out=FILE[,prof=PROFILE]\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	if (prof_path) {
		prof = fopen(prof_path, "w");
		if (!prof) {
			perror(prof_path);
			fclose(out);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
