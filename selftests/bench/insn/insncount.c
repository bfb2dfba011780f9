// SPDX-License-Identifier: GPL-2.0
/*
 * insncount: a QEMU TCG plugin that counts the instructions the guest
 * executes, for the instruction-count benchmark (make bench).
 *   qemu-system-x86_64 -plugin insncount.so,out=FILE[,prof=PROFILE] ...
 *
 * The guest brackets what it measures with the marker instruction of
 * insn_mark.c; each time a vCPU executes it, one line
 *   VCPU TOTAL TIMER REST0 REST1 ... TIMER0 TIMER1 ...
 * is appended to FILE and flushed: the instructions executed so far by
 * all vCPUs, of those the ones executed in the local timer interrupt
 * (entry, handlers, the softirqs run on its exit, up to the common
 * interrupt return), which the guest names once with a second marker
 * (insn_mark timer ENTRY RETURN).  What the timer interrupt runs depends
 * on how much host time a run took, which a loaded host varies by tens of
 * percent; the benchmark takes it apart so that the rest is exact), and
 * then for each vCPU, from 0 up to the highest seen, those it executed
 * outside the timer interrupt, then those it executed in it, then the
 * timer interrupts it entered.  At exit a line "exit TOTAL TIMER"
 * follows.
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
 * nopl 0x5341454d(%rax): a 7-byte no-op whose displacement is "MEAS";
 * with "MEAT" instead it is followed by movabs $ENTRY, %r11 and
 * movabs $RETURN, %r11, the timer interrupt's addresses.
 */
static const unsigned char marker[] = {
	0x0f, 0x1f, 0x80, 'M', 'E', 'A', 'S'
};
#define MARKER_TIMER 'T'
#define MARKER_PROF 'P'
#define MAX_VCPUS 64

struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs[4];	/* vCPU 0 or not, in the timer interrupt or not */
	struct block *next;	/* every block translated, for the profile */
};

static uint64_t executed, in_timer_irq;
static uint64_t timer_entry, timer_return;
static unsigned char in_timer[MAX_VCPUS];
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

/* Runs before each block: count it, and follow the timer interrupt. */
static void on_block(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	unsigned int v = vcpu % MAX_VCPUS;
	unsigned char *timer = &in_timer[v];

	if (b->vaddr == timer_entry) {
		*timer = 1;
		irqs_of[v]++;
	}
	b->runs[2 * (v != 0) + *timer]++;
	executed += b->insns;
	if (*timer) {
		in_timer_irq += b->insns;
		timer_of[v] += b->insns;
	} else
		rest[v] += b->insns;
	if (v >= vcpus_seen)
		vcpus_seen = v + 1;
	if (b->vaddr == timer_return)
		*timer = 0;
}

static int is_marker(const struct qemu_plugin_insn *insn, unsigned char kind)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);

	return qemu_plugin_insn_size(insn) == sizeof(marker) &&
	       !memcmp(p, marker, sizeof(marker) - 1) &&
	       p[sizeof(marker) - 1] == kind;
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

static void learn_timer(struct qemu_plugin_tb *tb, size_t i, size_t n)
{
	uint64_t entry, ret;

	if (i + 2 < n &&
	    movabs_r11(qemu_plugin_tb_get_insn(tb, i + 1), &entry) &&
	    movabs_r11(qemu_plugin_tb_get_insn(tb, i + 2), &ret)) {
		timer_entry = entry;
		timer_return = ret;
	}
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = calloc(1, sizeof(*b));

	/* Blocks are translated again when evicted: a few MiB a run. */
	if (!b) {
		fprintf(stderr, "insncount: out of memory\n");
		abort();
	}
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = n;
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block,
					     QEMU_PLUGIN_CB_NO_REGS, b);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (is_marker(insn, marker[sizeof(marker) - 1]))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
		else if (is_marker(insn, MARKER_TIMER))
			learn_timer(tb, i, n);
		else if (prof && is_marker(insn, MARKER_PROF))
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				on_prof_marker, QEMU_PLUGIN_CB_NO_REGS, NULL);
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
