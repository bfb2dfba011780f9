#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The instruction counter's own test (make check-insn), on the host in a
# second: QEMU runs a firmware of five instructions of ours with the
# insncount plugin, a loop of 1000 turns and a write to isa-debug-exit
# that ends QEMU, and the plugin must count exactly 1004 instructions:
# the 1003 executed and the jump after the write, which is in the write's
# translated block (a block counts whole, see insncount.c).
#   selftests/bench/insn/insn_check.sh PLUGIN.so WORKDIR
set -eu
plugin=${1:?usage: insn_check.sh PLUGIN.so WORKDIR}
dir=${2:?usage: insn_check.sh PLUGIN.so WORKDIR}
mkdir -p "$dir"
rom=$dir/insn-check.rom
counts=$dir/insn-check.counts

# 64 KiB of firmware at 0xf0000, the reset vector at its offset 0xfff0:
#   mov $1000, %cx; 1: loop 1b; mov $0, %al; out %al, $0xf4; 2: jmp 2b
head -c 65520 /dev/zero >"$rom"
printf '\271\350\003\342\376\260\000\346\364\353\376' >>"$rom"
head -c 5 /dev/zero >>"$rom"

rc=0
timeout 60 qemu-system-x86_64 -machine q35 -accel tcg -nodefaults \
	-display none -bios "$rom" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-plugin "$plugin,out=$counts" || rc=$?
# isa-debug-exit: the status is (value << 1) | 1
if [ "$rc" != 1 ]; then
	echo "not ok 1 insncount: QEMU ended with $rc, not through isa-debug-exit"
	exit 1
fi
got=$(awk '$1 == "exit" { print $2 }' "$counts")
if [ "$got" != 1004 ]; then
	echo "not ok 1 insncount: counted ${got:-nothing}, not 1004"
	exit 1
fi
echo "ok 1 insncount: counted the 1004 instructions"
