#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/vm/emulator-fault.sh, which tells a guest killed by QEMU from
# one that died of itself: only an EFLAGS no x86 CPU can hold counts.
# TAP; part of make unit.
#   selftests/unit/emulator_fault_test.sh OUTDIR
set -u
out=${1:?usage: emulator_fault_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
mkdir -p "$out"
ef=$top/selftests/vm/emulator-fault.sh
t=$out/emulator-fault-test.log

# check NAME WANT LINE...: the log of LINEs, then the script's status
check() {
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" >"$t"
	"$ef" "$t" >"$t.out" 2>&1
	ok "emulator-fault: $name" [ $? = "$want" ]
}

# the double fault of 30 November 2026 (6.12, QEMU 7.2), CRLF as the
# serial console writes it
check "reserved bits 22-31 set: QEMU's fault" 0 \
	$'[ 1195.425431] Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI\r' \
	$'[ 1195.432261] RSP: 0018:ffffc9000055fa40 EFLAGS: 1652b242\r'
ok "emulator-fault: prints the line" grep -q -x -F '[ 1195.432261] RSP: 0018:ffffc9000055fa40 EFLAGS: 1652b242' "$t.out"
check "an ordinary oops of the kernel: not QEMU's" 1 \
	'[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008' \
	'[   12.000300] RSP: 0018:ffffc90000147d58 EFLAGS: 00010246' \
	'[   12.000400] RSP: 002b:00007ffe4577afd8 EFLAGS: 00000287 ORIG_RAX: 0000000000000101'
check "VIP and ID (bits 20, 21) are a CPU's" 1 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 00310246'
check "bit 15 set" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 00018246'
check "bit 5 set" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 00000266'
check "bit 3 set" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 0000024e'
check "bit 1 clear" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 00000244'
check "bit 22 set" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 00400246'
check "a 64-bit value" 0 '[    1.0] RSP: 0018:ffffc90000147d58 EFLAGS: 0000000100000246'
check "test output naming EFLAGS is no kernel line" 1 'EFLAGS: 1652b242'
check "an empty log" 1
"$ef" "$out/missing.log" >/dev/null 2>&1
ok "emulator-fault: a log that cannot be read is status 2" [ $? = 2 ]
echo "1..$n"
exit $((fails > 0))
