// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mark: execute the instruction-count marker once, in the guest.
 *   insn_mark
 *   insn_mark timer ENTRY RETURN
 *   insn_mark prof
 * Under QEMU with the insncount plugin (insncount.c), the first form
 * makes the plugin append the number of guest instructions executed so
 * far to its file; the benchmark runs it right before and right after
 * what it measures.  The second tells the plugin where the local timer
 * interrupt starts and returns (hexadecimal kernel addresses, from
 * /proc/kallsyms), as immediates of the instructions that follow a
 * second marker: code written here at run time, as the addresses are
 * known only once the kernel has booted.  The third, with the plugin's
 * prof= argument, makes it write the profile of what ran since the last
 * such marker (insncount.c).  Without the plugin the markers are no-ops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const unsigned char timer_marker[] = {
	0x0f, 0x1f, 0x80, 'M', 'E', 'A', 'T'	/* nopl 0x5441454d(%rax) */
};

/* marker; movabs $ENTRY, %r11; movabs $RETURN, %r11; ret */
static int send_timer(uint64_t entry, uint64_t ret)
{
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *q = p;

	if (p == MAP_FAILED) {
		perror("insn_mark: mmap");
		return 1;
	}
	memcpy(q, timer_marker, sizeof(timer_marker));
	q += sizeof(timer_marker);
	*q++ = 0x49;
	*q++ = 0xbb;
	memcpy(q, &entry, sizeof(entry));
	q += sizeof(entry);
	*q++ = 0x49;
	*q++ = 0xbb;
	memcpy(q, &ret, sizeof(ret));
	q += sizeof(ret);
	*q = 0xc3;
	((void (*)(void))p)();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "timer"))
		return send_timer(strtoull(argv[2], NULL, 16),
				  strtoull(argv[3], NULL, 16));
	if (argc == 2 && !strcmp(argv[1], "prof")) {
		/* nopl 0x5041454d(%rax): the profile marker */
		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x4d, 0x45, 0x41, 0x50");
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: insn_mark [timer ENTRY RETURN | prof]\n");
		return 2;
	}
	/* nopl 0x5341454d(%rax): the marker insncount.c counts at */
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x4d, 0x45, 0x41, 0x53");
	return 0;
}
