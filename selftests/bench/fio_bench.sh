#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (from bench.sh): fio 4 KiB random reads on a
# null_blk disk (blk-mq), meas not loaded against classes 0 and 14
# enabled (a measctl holder), and its peer, a biolatency-style bpftrace
# program (peers.sh), alternated; prints the median IOPS of each and
# their ratios.
#   selftests/bench/fio_bench.sh BUILD_DIR
# MEAS_BENCH_FIO_REPS (default 5) runs each, MEAS_BENCH_FIO_SECONDS
# (default 4) seconds a run.
set -eu
out=${1:?usage: fio_bench.sh BUILD_DIR}
reps=${MEAS_BENCH_FIO_REPS:-5}
secs=${MEAS_BENCH_FIO_SECONDS:-4}
M=tools/measctl/measctl
export MEAS_RUNDIR=/tmp/meas-bench

. "$(dirname "$0")/peers.sh"

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# One submitter pinned to CPU 0, 32 requests in flight; terse field 8 is
# the read IOPS.
fio_iops() {
	fio --name=randread --filename=/dev/nullb0 --direct=1 --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=32 --numjobs=1 \
		--cpus_allowed=0 --time_based --runtime="$secs" \
		--output-format=terse --terse-version=3 | cut -d';' -f8
}

rmmod null_blk 2>/dev/null || true
modprobe null_blk queue_mode=2 nr_devices=1 gb=4
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

# The first run warms QEMU's translation cache: discard it.
fio_iops >/dev/null
: >/tmp/fio.base; : >/tmp/fio.meas; : >/tmp/fio.bt
i=0
while [ $i -lt "$reps" ]; do
	fio_iops >>/tmp/fio.base
	bt_start "$BT_BIOLAT" 1
	fio_iops >>/tmp/fio.bt
	bt_stop
	insmod module/meas.ko
	$M start 0,14 >/dev/null
	fio_iops >>/tmp/fio.meas
	$M stop >/dev/null
	rmmod meas
	i=$((i + 1))
done
rmmod null_blk
base=$(median </tmp/fio.base)
meas=$(median </tmp/fio.meas)
bt=$(median </tmp/fio.bt)
echo "fio 4k randread IOPS on null_blk, module not loaded:     $base (runs: $(tr '\n' ' ' </tmp/fio.base))"
echo "fio 4k randread IOPS on null_blk, classes 0, 14 enabled: $meas (runs: $(tr '\n' ' ' </tmp/fio.meas))"
echo "fio 4k randread IOPS on null_blk, bpftrace biolatency:   $bt (runs: $(tr '\n' ' ' </tmp/fio.bt))"
awk -v b="$base" -v m="$meas" 'BEGIN { printf "ratio enabled/not loaded: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$bt" 'BEGIN { printf "ratio bpftrace biolatency/not loaded: %.3f\n", m / b }'
awk -v b="$base" -v m="$meas" 'BEGIN { printf "BENCH-RATIO fio 0+14 %.3f\n", m / b }'
awk -v b="$base" -v m="$bt" 'BEGIN { printf "BENCH-RATIO fio biolatency %.3f\n", m / b }'
