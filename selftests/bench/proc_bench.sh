#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: class 15's benchmarks.
#  1. Reading 1000 live processes: the netlink dump, GETPROCSTATS allpins
#     and per PID, against /proc/<pid>/stat and status (procbench).
#  2. The context-switch ping-pong with class 15 enabled (held by measctl
#     start 15), and with classes 0 and 15, against the module not
#     loaded, alternated; medians and their ratios.  The first run warms
#     QEMU's translation cache.
#   selftests/bench/proc_bench.sh BUILD_DIR
set -eu
out=${1:?usage: proc_bench.sh BUILD_DIR}
pp="$out/pingpong"
n=${MEAS_BENCH_ROUNDS:-50000}
reps=${MEAS_BENCH_REPS:-7}
M=tools/measctl/measctl
export MEAS_RUNDIR=/tmp/meas-run-bench

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

insmod "${MEAS_KO:-module/meas.ko}"
"$out/procbench" -p "${MEAS_BENCH_PROCS:-1000}" -r "${MEAS_BENCH_PROC_REPS:-15}"
rmmod meas

"$pp" -n "$n" >/dev/null
: >/tmp/pbase; : >/tmp/p15; : >/tmp/p015
i=0
while [ $i -lt "$reps" ]; do
	"$pp" -n "$n" >>/tmp/pbase
	insmod "${MEAS_KO:-module/meas.ko}"
	"$M" start 15 >/dev/null
	"$pp" -n "$n" >>/tmp/p15
	"$M" stop >/dev/null
	"$M" start 0,15 >/dev/null
	"$pp" -n "$n" >>/tmp/p015
	"$M" stop >/dev/null
	rmmod meas
	i=$((i + 1))
done
base=$(median </tmp/pbase)
p15=$(median </tmp/p15)
p015=$(median </tmp/p015)
echo "pingpong round trips/s, module not loaded: $base (runs: $(tr '\n' ' ' </tmp/pbase))"
echo "pingpong round trips/s, class 15 enabled:  $p15 (runs: $(tr '\n' ' ' </tmp/p15))"
awk -v b="$base" -v m="$p15" 'BEGIN { printf "ratio class 15 enabled/not loaded: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$p15" 'BEGIN { printf "BENCH-RATIO pingpong 15 %.3f\n", m / b }'
echo "pingpong round trips/s, classes 0, 15:     $p015 (runs: $(tr '\n' ' ' </tmp/p015))"
awk -v b="$base" -v m="$p015" 'BEGIN { printf "ratio classes 0, 15 enabled/not loaded: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$p015" 'BEGIN { printf "BENCH-RATIO pingpong 0+15 %.3f\n", m / b }'
