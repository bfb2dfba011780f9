#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (from bench.sh): two block workloads on a
# null_blk disk (blk-mq, irqmode=0: completed as submitted), as the
# instruction count runs them (insn_bench.sh):
#   fio    4 KiB random reads, 8 in flight (libaio), the job on CPU 0:
#          meas not loaded, classes 0 and 14 (a measctl holder)
#   read   synchronous 4 KiB O_DIRECT reads, one at a time, on CPU 0
#          (sread): not loaded, class 0, classes 0 and 14
# each beside its peers (peers.sh): libbpf-tools' biolatency and a
# biolatency-style bpftrace program; alternated, the median rate of
# each and its ratio to the module not loaded.
#   selftests/bench/fio_bench.sh BUILD_DIR
# MEAS_BENCH_FIO_REPS (default 5) runs each, MEAS_BENCH_FIO_SECONDS
# (default 4) seconds a fio run, MEAS_BENCH_READS (default 20000)
# requests a read run.
set -eu
out=${1:?usage: fio_bench.sh BUILD_DIR}
reps=${MEAS_BENCH_FIO_REPS:-5}
secs=${MEAS_BENCH_FIO_SECONDS:-4}
reads=${MEAS_BENCH_READS:-20000}
M=tools/measctl/measctl
export MEAS_RUNDIR=/tmp/meas-bench

. "$(dirname "$0")/peers.sh"

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# terse field 8 is the read IOPS
fio_rate() {
	fio --name=randread --filename=/dev/nullb0 --direct=1 --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=8 --numjobs=1 \
		--cpus_allowed=0 --time_based --runtime="$secs" \
		--output-format=terse --terse-version=3 | cut -d';' -f8
}

read_rate() {
	taskset -c 0 "$out/sread" -n "$reads"
}

# WORKLOAD: each variant once a round, alternated; medians and ratios
alternate() {
	w=$1
	"${w}_rate" >/dev/null	# warms QEMU's translation cache
	for v in absent meas0 meas biolatency bt-biolat; do : >"/tmp/$w.$v"; done
	i=0
	while [ $i -lt "$reps" ]; do
		"${w}_rate" >>"/tmp/$w.absent"
		lt_start "$LT_BIOLAT" 1
		"${w}_rate" >>"/tmp/$w.biolatency"
		lt_stop >/dev/null
		bt_start "$BT_BIOLAT" 1
		"${w}_rate" >>"/tmp/$w.bt-biolat"
		bt_stop
		insmod "${MEAS_KO:-module/meas.ko}"
		if [ "$w" = read ]; then
			$M start 0 >/dev/null
			"${w}_rate" >>"/tmp/$w.meas0"
			$M stop >/dev/null
		fi
		$M start 0,14 >/dev/null
		"${w}_rate" >>"/tmp/$w.meas"
		$M stop >/dev/null
		rmmod meas
		i=$((i + 1))
	done
	base=$(median <"/tmp/$w.absent")
	echo "$w 4k reads/s on null_blk, module not loaded: $base (runs: $(tr '\n' ' ' <"/tmp/$w.absent"))"
	for v in meas0 meas biolatency bt-biolat; do
		[ -s "/tmp/$w.$v" ] || continue
		case "$v" in
		meas0) name=0 ;;
		meas) name=0+14 ;;
		*) name=$v ;;
		esac
		m=$(median <"/tmp/$w.$v")
		echo "$w 4k reads/s on null_blk, $name: $m (runs: $(tr '\n' ' ' <"/tmp/$w.$v"))"
		awk -v b="$base" -v m="$m" -v w="$w" -v n="$name" \
			'BEGIN { printf "BENCH-RATIO %s %s %.3f\n", w, n, m / b }'
	done
}

rmmod null_blk 2>/dev/null || true
modprobe null_blk queue_mode=2 nr_devices=1 gb=4 irqmode=0
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
alternate fio
alternate read
rmmod null_blk
