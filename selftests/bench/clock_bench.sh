#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM as root, from the repository, with meas.ko not
# loaded: the cost of the shared clock.  A CPU-bound loop pinned to CPU 1
# runs for MEAS_CLOCK_BENCH_SECONDS (default 2) with meas loaded and the
# clock free, and with the clock ticking every 5 ms on both CPUs (the PC
# sampler, then the snapshot collector), alternated; medians and ratios.
#   selftests/bench/clock_bench.sh BUILD_DIR
set -eu
out=${1:?usage: clock_bench.sh BUILD_DIR}
secs=${MEAS_CLOCK_BENCH_SECONDS:-2}
reps=${MEAS_BENCH_REPS:-7}

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Run the loop while a holder keeps the clock ticking with collector $1.
with_clock() {
	taskset -c 0 "$out/clock_hold" -i 5 -c "$1" >/tmp/clock_bench.hold &
	holder=$!
	while ! grep -q ticking /tmp/clock_bench.hold 2>/dev/null; do
		sleep 0.05
	done
	"$out/spin" -c 1 -t "$secs"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
}

insmod module/meas.ko
# The first run warms QEMU's translation cache: discard it.
"$out/spin" -c 1 -t 1 >/dev/null
with_clock pc >/dev/null
: >/tmp/cb.base; : >/tmp/cb.pc; : >/tmp/cb.snap
i=0
while [ $i -lt "$reps" ]; do
	"$out/spin" -c 1 -t "$secs" >>/tmp/cb.base
	with_clock pc >>/tmp/cb.pc
	with_clock snap >>/tmp/cb.snap
	i=$((i + 1))
done
rmmod meas
base=$(median </tmp/cb.base)
pc=$(median </tmp/cb.pc)
snap=$(median </tmp/cb.snap)
echo "CPU-bound loop, iterations/s on CPU 1, clock free:            $base (runs: $(tr '\n' ' ' </tmp/cb.base))"
echo "CPU-bound loop, iterations/s, PC sampler at 5 ms, 2 CPUs:     $pc (runs: $(tr '\n' ' ' </tmp/cb.pc))"
echo "CPU-bound loop, iterations/s, snapshots at 5 ms, 2 CPUs:      $snap (runs: $(tr '\n' ' ' </tmp/cb.snap))"
awk -v b="$base" -v m="$pc" 'BEGIN { printf "ratio PC sampler/clock free: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$snap" 'BEGIN { printf "ratio snapshots/clock free:  %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
