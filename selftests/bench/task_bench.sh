#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: the slowdown of a task measured at
# PCOUNTER-INTERVAL 1 ms with SVC statistics on, against unmeasured, for a
# computing workload with a system call every ~30 us and for a
# system-call-bound one; alternated, medians and their ratio.
#   selftests/bench/task_bench.sh BUILD_DIR
set -eu
out=${1:?usage: task_bench.sh BUILD_DIR}
tb="$out/task_bench"
reps=${MEAS_BENCH_REPS:-7}

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# the module as the caller left it: loaded here, unloaded here
loaded=
lsmod | grep -q '^meas ' || { insmod "${MEAS_KO:-module/meas.ko}"; loaded=1; }
for mode in "" "-s"; do
	n=30000
	[ -n "$mode" ] && n=1000000
	# The first run warms QEMU's translation cache: discard it.
	taskset -c 0 "$tb" $mode -n "$n" >/dev/null
	: >/tmp/tb.base; : >/tmp/tb.meas
	i=0
	while [ $i -lt "$reps" ]; do
		taskset -c 0 "$tb" $mode -n "$n" >>/tmp/tb.base
		taskset -c 0 "$tb" $mode -m -n "$n" >>/tmp/tb.meas
		i=$((i + 1))
	done
	name="compute + system call every chunk"
	[ -n "$mode" ] && name="system calls only (getppid)"
	base=$(median </tmp/tb.base)
	meas=$(median </tmp/tb.meas)
	echo "task measurement, $name: chunks/s unmeasured $base (runs: $(tr '\n' ' ' </tmp/tb.base))"
	echo "task measurement, $name: chunks/s measured   $meas (runs: $(tr '\n' ' ' </tmp/tb.meas))"
	awk -v b="$base" -v m="$meas" -v w="$name" 'BEGIN { printf "task measurement, %s: ratio measured/unmeasured %.3f (slowdown %.1f%%)\n", w, m / b, (1 - m / b) * 100 }'
	[ -z "$mode" ] || awk -v b="$base" -v m="$meas" 'BEGIN { printf "BENCH-RATIO syscall svc %.3f\n", m / b }'
done
[ -z "$loaded" ] || rmmod meas
