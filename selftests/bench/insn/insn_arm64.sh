#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-arm64: the instruction count of make bench on arm64, in
# Debian 12's 6.1 arm64 kernel under qemu-system-aarch64 with the same
# insncount plugin (it follows the target QEMU names), one TCG thread:
# the ping-pong (module absent, classes 0, 15, 0+15) and the lean reads
# (absent, classes 0, 0+14), beside Debian 12's arm64 libbpf-tools
# (cpudist, runqlat, offcputime, biolatency), as one table
# (insn_table.sh).  Documentation/performance.rst, "The instruction
# count on arm64".
#   selftests/bench/insn/insn_arm64.sh PLUGIN.so
# What it uses is what the arm64 lanes use (Documentation/build-and-test.rst,
# "The arm64 lanes"): the kernel scripts/arm64-apt.sh unpacked, meas
# cross-built for it (scripts/build-kernel.sh --arch arm64), the test root
# (scripts/arm64-root.sh, which has libbpf-tools) and the arm64 copy of
# the tree with the benchmark's programs (scripts/arm64-tools.sh).
# The counts, the console and the table go to
# build/selftests/bench-arm64-VERSION/.  MEAS_INSN_ONLY (default
# "pingpong read") and the other MEAS_INSN_* of insn_bench.sh apply
# (MEAS_INSN_PROF=1: the profile in insn_bench.prof, for insn_prof.sh);
# MEAS_ROOT_OFFLINE=1 takes the kernel already unpacked.
set -euo pipefail

plugin=${1:?usage: insn_arm64.sh PLUGIN.so}
plugin=$(cd "$(dirname "$plugin")" && pwd -P)/$(basename "$plugin")
top=$(cd "$(dirname "$0")/../../.." && pwd -P)
BUILD=${BUILD:-$top/build}
cd "$top"

kver=$(scripts/arm64-apt.sh kernel bookworm arm64)
kdir=$BUILD/arm64/kernels/$kver
out=$BUILD/selftests/bench-arm64-$kver
mkdir -p "$out"
scripts/build-kernel.sh --arch arm64 "$kver" "$out"
tree=$(scripts/arm64-tools.sh bench-insn-bins)
root=$(scripts/arm64-root.sh)
# the guest mounts the copy of the tree at its own path in the root
mkdir -p "$root$tree" "$tree/build/bench-arm64"
cp "$out/module/meas.ko" "$tree/build/bench-arm64/meas.ko"

# fio is not in the test root; the system calls are x86-64's rows
prof=''
[ "${MEAS_INSN_PROF:-0}" != 1 ] || prof=,prof=$out/insn_bench.prof
export MEAS_INSN_ONLY=${MEAS_INSN_ONLY-pingpong read}
cd "$tree"
KVER=$kver MEAS_KO=build/bench-arm64/meas.ko \
	selftests/vm/run-vm.sh --arch arm64 --root "$root" \
	--kernel "$kdir/boot/vmlinuz-$kver" --modules "$kdir/lib/modules/$kver" \
	--timeout 5400 --log "$out/insn_bench.log" \
	--append "isolcpus=0 rcu_nocbs=0 irqaffinity=1" \
	--qemu-arg -plugin --qemu-arg "$plugin,out=$out/insn_bench.counts$prof" \
	-- selftests/bench/insn_bench.sh build/selftests events >/dev/null

# The plugin must have learnt the interrupt entries and the timer's
# handler, and charged timer interrupts to CPU 0 in each run: without
# them the counts would hold what the clock runs.
grep -q '^timer entry [0-9a-f,]*,[0-9a-f]* handler [0-9a-f]' "$out/insn_bench.counts" || {
	echo "bench-arm64: the plugin did not learn the timer interrupt" >&2
	exit 1
}
"$top/selftests/bench/insn_table.sh" "$out/insn_bench.counts" "$out/insn_bench.log" |
	tee "$out/bench-table.txt"
