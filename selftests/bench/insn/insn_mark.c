// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mark: execute the instruction-count marker once, in the guest.
 *   insn_mark
 *   insn_mark timer ENTRY RETURN                 (x86-64)
 *   insn_mark timer ENTRY[,ENTRY] HANDLER[,HANDLER]  (arm64)
 *   insn_mark prof
 * Under QEMU with the insncount plugin (insncount.c), the first form
 * makes the plugin append the number of guest instructions executed so
 * far to its file; the benchmark runs it right before and right after
 * what it measures.  The second tells the plugin, once, how to find the
 * local timer interrupt (hexadecimal kernel addresses, from
 * /proc/kallsyms): on x86-64 where it starts and returns; on arm64,
 * where every interrupt enters and the arch timer's handlers, which the
 * plugin looks for inside each interrupt.  The addresses are immediates
 * of the instructions that follow a second marker: code written here at
 * run time, as they are known only once the kernel has booted.  The
 * third, with the plugin's prof= argument, makes it write the profile of
 * what ran since the last such marker (insncount.c).  Without the plugin
 * the markers are no-ops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_ADDRS 8

#if defined(__x86_64__)
/* nopl 0x5341454d(%rax), 0x5041454d(%rax): "MEAS", "MEAP" */
#define MARK_COUNT ".byte 0x0f, 0x1f, 0x80, 0x4d, 0x45, 0x41, 0x53"
#define MARK_PROF ".byte 0x0f, 0x1f, 0x80, 0x4d, 0x45, 0x41, 0x50"

static const unsigned char timer_marker[] = {
	0x0f, 0x1f, 0x80, 'M', 'E', 'A', 'T'	/* nopl 0x5441454d(%rax) */
};

/* marker; movabs $ENTRY, %r11; movabs $RETURN, %r11; ret */
static unsigned char *write_timer(unsigned char *q, const uint64_t *entry,
				  int nentry, const uint64_t *ret, int nret)
{
	if (nentry != 1 || nret != 1)
		return NULL;
	memcpy(q, timer_marker, sizeof(timer_marker));
	q += sizeof(timer_marker);
	*q++ = 0x49;
	*q++ = 0xbb;
	memcpy(q, entry, sizeof(*entry));
	q += sizeof(*entry);
	*q++ = 0x49;
	*q++ = 0xbb;
	memcpy(q, ret, sizeof(*ret));
	q += sizeof(*ret);
	*q++ = 0xc3;
	return q;
}
#elif defined(__aarch64__)
/* orr x13, x13, x13 and orr x15, x15, x15: no-ops no compiler emits */
#define MARK_COUNT "orr x13, x13, x13"
#define MARK_PROF "orr x15, x15, x15"
#define A64_TIMER_MARKER 0xaa0e01ceu	/* orr x14, x14, x14 */
#define A64_RET 0xd65f03c0u
#define A64_ENTRY_REG 9
#define A64_HANDLER_REG 10

static unsigned char *put32(unsigned char *q, uint32_t w)
{
	memcpy(q, &w, sizeof(w));
	return q + sizeof(w);
}

/* movz xRD, #A[15:0]; movk xRD, #A[31:16], lsl 16; ... lsl 48 */
static unsigned char *put_addr(unsigned char *q, unsigned int rd, uint64_t a)
{
	unsigned int hw;

	for (hw = 0; hw < 4; hw++)
		q = put32(q, (hw ? 0xf2800000u : 0xd2800000u) | hw << 21 |
			  (uint32_t)((a >> (16 * hw)) & 0xffff) << 5 | rd);
	return q;
}

/* marker; each entry into x9; each handler into x10; ret */
static unsigned char *write_timer(unsigned char *q, const uint64_t *entry,
				  int nentry, const uint64_t *handler,
				  int nhandler)
{
	unsigned char *start = q;
	int i;

	q = put32(q, A64_TIMER_MARKER);
	for (i = 0; i < nentry; i++)
		q = put_addr(q, A64_ENTRY_REG, entry[i]);
	for (i = 0; i < nhandler; i++)
		q = put_addr(q, A64_HANDLER_REG, handler[i]);
	q = put32(q, A64_RET);
	__builtin___clear_cache((char *)start, (char *)q);
	return q;
}
#else
#error "insn_mark: markers for x86-64 and arm64 only"
#endif

/* a comma-separated list of hexadecimal addresses, none of them 0 */
static int parse_addrs(const char *s, uint64_t *addrs)
{
	int n = 0;
	char *end;

	do {
		if (n == MAX_ADDRS)
			return -1;
		addrs[n] = strtoull(s, &end, 16);
		if (end == s || !addrs[n] || (*end && *end != ','))
			return -1;
		n++;
		s = end + 1;
	} while (*end);
	return n;
}

static int send_timer(const char *first, const char *second)
{
	uint64_t a[MAX_ADDRS], b[MAX_ADDRS];
	int na = parse_addrs(first, a), nb = parse_addrs(second, b);
	unsigned char *p;

	if (na < 1 || nb < 1) {
		fprintf(stderr, "insn_mark: timer: bad address list\n");
		return 2;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("insn_mark: mmap");
		return 1;
	}
	if (!write_timer(p, a, na, b, nb)) {
		fprintf(stderr, "insn_mark: timer: one entry and one return\n");
		return 2;
	}
	((void (*)(void))p)();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "timer"))
		return send_timer(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "prof")) {
		__asm__ volatile(MARK_PROF);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: insn_mark [timer ADDRS ADDRS | prof]\n");
		return 2;
	}
	__asm__ volatile(MARK_COUNT);	/* the marker insncount.c counts at */
	return 0;
}
