#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# emulator-fault.sh - whether a guest died of QEMU rather than of itself:
# its kernel printed an x86 register dump whose EFLAGS no x86 CPU can
# hold.
#
#   selftests/vm/emulator-fault.sh CONSOLE_LOG
#
# Bit 1 of EFLAGS is always 1; bits 3, 5 and 15 and bits 22 and up are
# always 0: neither the CPU nor POPF nor IRET can change them.  TCG keeps
# the arithmetic flags apart (CC_SRC, CC_OP) and builds EFLAGS from them;
# when that state is inconsistent the guest sees a register's bits as
# its flags.  Seen once, in 6.12 under QEMU 7.2 (30 November 2026): a
# double fault in SLUB's allocation fast path right after CMPXCHG16B,
# EFLAGS 0x1652b242, which is the low half of RAX with ZF and IF set.
# A fault of the guest kernel or of meas, however it corrupts memory,
# cannot produce such a value, so this says nothing about one.
#
# Prints the first such line of the kernel's log (a "[ seconds]" line)
# and exits 0; exits 1 if there is none, 2 if the log cannot be read.
[ $# = 1 ] || { echo "usage: $0 CONSOLE_LOG" >&2; exit 2; }
[ -r "$1" ] || { echo "$0: cannot read $1" >&2; exit 2; }
# EFLAGS must have bit 1 set and none of these: bits 3, 5, 15, 22 to 63.
reserved=$(((0xffffffff << 32) | 0xffc08028))
tr -d '\r' <"$1" | grep -E '^\[ *[0-9]+\.[0-9]+\] .*EFLAGS: [0-9a-fA-F]{1,16}([^0-9a-fA-F]|$)' |
	while IFS= read -r line; do
		v=${line##*EFLAGS: }
		v=${v%%[!0-9a-fA-F]*}
		if [ $((0x$v & reserved)) != 0 ] || [ $((0x$v & 2)) = 0 ]; then
			printf '%s\n' "$line"
			exit 3
		fi
	done
[ $? = 3 ]
