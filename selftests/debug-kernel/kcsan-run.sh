#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM booted with the KCSAN kernel (make check-kcsan),
# as root, from the repository: the tests of meas's lock-free hot paths
# (the switch and wakeup probes of classes 0 and 15, the block probes of
# classes 0 and 14, the clock's collectors, task measurement's probes),
# the stress test, and the time-items storms: meas_test's and
# proc_test's time_items_never_go_back read as fast as they go for
# MEAS_KCSAN_STORM_SECONDS each (default 20, ten times make check's two;
# MEAS_STORM_SECONDS in the tests) while two processes switch thousands
# of times a second.  (One long storm a test, not the test run again:
# this kernel's kselftest harness, 6.1's, runs a program's every test.)
# It prints which tests ran; the host counts KCSAN's reports in the
# kernel log (kcsan-reports.sh).
#   selftests/debug-kernel/kcsan-run.sh BUILD_DIR
set -u
out=${1:?usage: kcsan-run.sh BUILD_DIR}
storm=${MEAS_KCSAN_STORM_SECONDS:-20}
# The ping-pongs the switch counts are checked over: 5000 round trips,
# not 20000 (a switch costs ten times as much here; the checks are the
# same, and 10000 switches leave their 1% a hundred)
export MEAS_PINGPONG_TRIPS="${MEAS_PINGPONG_TRIPS:-5000}"
status=0
ran=

step() {
	name=$1
	shift
	echo "# kcsan lane: $name"
	"$@" || status=1
	ran="$ran $name"
}

# KCSAN's delays while it watches an access, 400 and 100 us instead of
# 80 and 20 (the kernel's defaults, which the boot keeps: it is slow
# enough), so that the other vCPU runs meanwhile (selftests/Makefile)
kp=/sys/module/kcsan/parameters
if ! echo "${MEAS_KCSAN_UDELAY_TASK:-400}" >$kp/udelay_task ||
	! echo "${MEAS_KCSAN_UDELAY_INTERRUPT:-100}" >$kp/udelay_interrupt; then
	echo "not ok 1 - KCSAN's delays set in $kp"
	exit 1
fi
echo "# kcsan lane: udelay_task $(cat $kp/udelay_task) us, udelay_interrupt $(cat $kp/udelay_interrupt) us"
insmod "${MEAS_KO:-module/meas.ko}" || { echo "not ok 1 - insmod meas.ko"; exit 1; }
# /dev/meas as udev's rule gives it, for the unprivileged tests
selftests/meas-udev.sh
step meas_test env MEAS_STORM_SECONDS="$storm" "$out/meas_test"
step io_test "$out/io_test"
step iolat_test "$out/iolat_test"
step clock_test "$out/clock_test"
step proc_test env MEAS_STORM_SECONDS="$storm" "$out/proc_test"
# its last test: rmmod refused under a measurement, then after its STOP,
# and meas.ko loaded again
step task_test "$out/task_test"
step stress selftests/stress/stress.sh "$out" "${MEAS_STRESS_SECONDS:-60}"
ran="$ran time_items_never_go_back(meas_test,proc_test:${storm}s)"
rmmod meas || status=1
echo "# kcsan lane: ran$ran"
exit $status
