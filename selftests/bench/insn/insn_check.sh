#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The instruction counter's own test (make check-insn), on the host in a
# second or two, for both of the plugin's targets:
# 1. x86-64: QEMU runs a firmware of five instructions of ours with the
#    insncount plugin, a loop of 1000 turns and a write to isa-debug-exit
#    that ends QEMU, and the plugin must count exactly 1004 instructions:
#    the 1003 executed and the jump after the write, which is in the
#    write's translated block (a block counts whole, see insncount.c).
# 2. arm64: QEMU's user-mode emulator (qemu-aarch64, which loads plugins
#    as the system emulator does) runs a program of ours: a loop of 1000
#    turns, the timer marker with two addresses, the count marker and
#    exit.  The plugin must read the addresses back and count 2012
#    instructions at the marker and at exit: 3 + 999 * 2 of the loop's
#    blocks, the last block's 11 (a block counts whole).
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

# 2: arm64, assembled and linked with the cross binutils
for tool in qemu-aarch64 aarch64-linux-gnu-as aarch64-linux-gnu-ld; do
	command -v $tool >/dev/null ||
		{ echo "not ok 2 insncount aarch64: $tool missing: run 'make deps'"; exit 1; }
done
prog=$dir/insn-check-a64
counts=$dir/insn-check-a64.counts
cat >"$prog.S" <<'EOF'
	.global _start
_start:
	mov	x0, #1000
1:	subs	x0, x0, #1
	b.ne	1b
	orr	x14, x14, x14		// the timer marker
	movz	x9, #0x1234		// an interrupt entry
	movk	x9, #0x5678, lsl 16
	movk	x9, #0x9abc, lsl 32
	movk	x9, #0xdef0, lsl 48
	movz	x10, #0x4321		// a timer handler
	movk	x10, #0xffff, lsl 48
	orr	x13, x13, x13		// the count marker
	mov	x8, #93			// exit(0)
	mov	x0, #0
	svc	#0
EOF
aarch64-linux-gnu-as -o "$prog.o" "$prog.S"
aarch64-linux-gnu-ld -o "$prog" "$prog.o"
rc=0
timeout 60 qemu-aarch64 -plugin "$plugin,out=$counts" "$prog" || rc=$?
if [ "$rc" != 0 ]; then
	echo "not ok 2 insncount aarch64: the program ended with $rc"
	exit 1
fi
timer=$(grep '^timer ' "$counts" || true)
if [ "$timer" != "timer entry def09abc56781234 handler ffff000000004321" ]; then
	echo "not ok 2 insncount aarch64: read the timer marker as '$timer'"
	exit 1
fi
got=$(awk '/^[0-9]/ { m = $2 } $1 == "exit" { print m, $2 }' "$counts")
if [ "$got" != "2012 2012" ]; then
	echo "not ok 2 insncount aarch64: counted '${got:-nothing}', not 2012 at the marker and at exit"
	exit 1
fi
echo "ok 2 insncount aarch64: read the timer marker, counted the 2012 instructions"
