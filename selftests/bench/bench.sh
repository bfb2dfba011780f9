#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: the context-switch ping-pong with meas not
# loaded against class 0 enabled, alternated, medians and their ratio;
# then the other benchmarks.  MEAS_BENCH_SET chooses among pingpong,
# clock, proc, fio, task, exporter and groups (default: all of them).
#   selftests/bench/bench.sh BUILD_DIR
set -eu
out=${1:?usage: bench.sh BUILD_DIR}
pp="$out/pingpong"
n=${MEAS_BENCH_ROUNDS:-50000}
reps=${MEAS_BENCH_REPS:-7}

set=" ${MEAS_BENCH_SET:-pingpong clock proc fio task exporter groups} "
want() { case "$set" in *" $1 "*) return 0 ;; esac; return 1; }

. "$(dirname "$0")/peers.sh"

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

uname -r
if want pingpong; then

# The first run warms QEMU's translation cache: discard it.
"$pp" -n "$n" >/dev/null
# the peers: bpftrace counting the same events, a runqlat in bpftrace,
# and libbpf-tools' cpudist, runqlat and offcputime
peers="bpftrace bt-runqlat cpudist runqlat offcputime"
: >/tmp/base; : >/tmp/meas
for p in $peers; do : >"/tmp/pp.$p"; done
i=0
while [ $i -lt "$reps" ]; do
	"$pp" -n "$n" >>/tmp/base
	for p in $peers; do
		case "$p" in
		bpftrace) bt_start "$BT_COUNT" 1 ;;
		bt-runqlat) bt_start "$BT_RUNQLAT" 1 ;;
		cpudist) lt_start "$LT_CPUDIST" 1 ;;
		runqlat) lt_start "$LT_RUNQLAT" 1 ;;
		offcputime) lt_start "$LT_OFFCPU" 1 ;;
		esac
		"$pp" -n "$n" >>"/tmp/pp.$p"
		case "$p" in
		bpftrace|bt-*) bt_stop ;;
		*) lt_stop ;;
		esac
	done
	insmod "${MEAS_KO:-module/meas.ko}"
	"$pp" -n "$n" -e >>/tmp/meas
	rmmod meas
	i=$((i + 1))
done
base=$(median </tmp/base)
meas=$(median </tmp/meas)
echo "pingpong round trips/s, module not loaded: $base (runs: $(tr '\n' ' ' </tmp/base))"
echo "pingpong round trips/s, class 0 enabled:   $meas (runs: $(tr '\n' ' ' </tmp/meas))"
awk -v b="$base" -v m="$meas" 'BEGIN { printf "ratio enabled/not loaded: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
# for the table of make bench (selftests/bench/insn_table.sh)
awk -v b="$base" -v m="$meas" 'BEGIN { printf "BENCH-RATIO pingpong 0 %.3f\n", m / b }'
for p in $peers; do
	m=$(median <"/tmp/pp.$p")
	echo "pingpong round trips/s, $p: $m (runs: $(tr '\n' ' ' <"/tmp/pp.$p"))"
	awk -v b="$base" -v m="$m" -v p="$p" 'BEGIN { printf "BENCH-RATIO pingpong %s %.3f\n", p, m / b }'
done
fi

# the shared clock: a CPU-bound loop with the clock ticking every 5 ms
if want clock; then selftests/bench/clock_bench.sh "$out"; fi

# class 15: reading 1000 processes against /proc; ping-pong with class 15
if want proc; then selftests/bench/proc_bench.sh "$out"; fi

# disks and class 14: fio random reads and synchronous reads on null_blk
if want fio; then selftests/bench/fio_bench.sh "$out"; fi

# task measurement: 1 ms samples and SVC statistics against unmeasured
if want task; then selftests/bench/task_bench.sh "$out"; fi

# meas-exporter against node_exporter: CPU time per scrape
if want exporter; then selftests/bench/exporter_bench.sh "$out"; fi

# meas-exporter's process groups against process-exporter, 5,000 processes
if want groups; then selftests/bench/groups_bench.sh "$out"; fi
