#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The smoke set of the kernel matrix, for the kernels that do not run the
# whole suite (the cloud flavours, the second PREEMPT_RT kernel): load
# meas.ko, START, GET and STOP every class (0, 14, 15 and a user-defined
# one), measure a task, sample the clock, unload.  TAP.  Runs inside the
# test VM as root from the repository; busybox is enough (the cloud
# flavours have no 9p, so their guest root is a copy: run-vm.sh --copy).
#   selftests/smoke.sh
set -u
ko=${MEAS_KO:-module/meas.ko}
measctl=tools/measctl/measctl
export MEAS_RUNDIR=/run/meas-smoke
TAP_PREFIX=smoke
# shellcheck source=selftests/measctl/tap.sh
. selftests/measctl/tap.sh

# Nothing enabled: measctl info says "enabled-classes ... (0x0000)".
none_enabled() {
	$measctl info | grep -q '^enabled-classes .*(0x0000)$'
}

# START, the header and first entry of subclass $2, STOP of class $1,
# and nothing enabled after.
class_cycle() {
	$measctl start "$1" >/dev/null &&
		$measctl header "$1" "$2" >/dev/null &&
		$measctl get "$1" "$2" 0 1 >/dev/null &&
		$measctl stop "$1" >/dev/null &&
		none_enabled
}

echo "TAP version 13"
echo "1..9"
insmod "$ko" && selftests/meas-udev.sh
ok $? "insmod $ko"
for c in 0 14 15; do
	class_cycle $c 0
	ok $? "class $c: START, GET subclass 0, STOP"
done
$measctl define 7 smoke:2:3 >/dev/null && class_cycle 7 0 &&
	$measctl undefine 7 >/dev/null
ok $? "user-defined class 7: DEFINE, START, GET, STOP, UNDEFINE"
$measctl task run -i 1 --file /tmp/smoke.task -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' >/dev/null
ok $? "task measurement of a shell loop"
$measctl task report /tmp/smoke.task >/dev/null
ok $? "task report of that measurement"
$measctl profile -d 1 >/dev/null
ok $? "shared clock: one second of profile"
none_enabled && rmmod meas
ok $? "nothing left enabled, rmmod meas"
exit $status
