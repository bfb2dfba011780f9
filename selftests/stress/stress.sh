#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM as root, from the repository, with meas.ko
# loaded: the stress of /dev/meas (selftests/stress/stress.c) for SECONDS
# (default $MEAS_STRESS_SECONDS, else 10) on a null_blk disk it loads and
# unloads.  make check runs it for 10 s, the debug lane for 60 s.  TAP.
#   selftests/stress/stress.sh BUILD_DIR [SECONDS]
set -u
out=${1:?usage: stress.sh BUILD_DIR [SECONDS]}
secs=${2:-${MEAS_STRESS_SECONDS:-10}}

# the I/O workload's disk: blk-mq, 64 MiB is all it touches
if [ -e /sys/module/null_blk ]; then
	rmmod null_blk 2>/dev/null
fi
if ! modprobe null_blk queue_mode=2 nr_devices=1 gb=1 2>/dev/null; then
	echo "# null_blk not available: stress without the I/O workload"
fi
i=0
while [ -e /sys/module/null_blk ] && [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done

MEAS_STRESS_SECONDS=$secs "$out/stress"
status=$?
rmmod null_blk 2>/dev/null
exit $status
