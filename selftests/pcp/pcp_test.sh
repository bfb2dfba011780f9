#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pcp_test.sh - pmdameas with Debian's PCP in the test VM (make
# check-pcp): pmcd, Install, pminfo/pmprobe against /proc/diskstats and
# /proc/schedstat, pmlogger, pmrep -a, the stop and kill tests, Remove.
# The checks are pcp_guest.sh's; this runs the VM and relays its TAP.
#   selftests/pcp/pcp_test.sh BUILD_DIR
# Needs meas.ko, the tools and tools/pmda built.
set -u
out=${1:?usage: pcp_test.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
T=$(mktemp -d /tmp/pcp-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

truncate -s 64M "$out/pcp-disk.img"
selftests/vm/run-vm.sh --timeout 900 --disk "$out/pcp-disk.img" \
	--log "$out/pcp_test.log" -- \
	sh -c 'insmod module/meas.ko && selftests/meas-udev.sh && selftests/pcp/pcp_guest.sh' \
	>"$T/vm.out" 2>&1
vrc=$?
tr -d '\r' <"$T/vm.out" | grep -E '^(ok|not ok|#|1\.\.|TAP)' | grep -v '^1\.\.'
n=$(tr -d '\r' <"$T/vm.out" | grep -c -E '^(ok|not ok) ')
n=$((n + 1))
if [ $vrc -eq 0 ]; then
	echo "ok $n - pcp: the VM ran every check"
else
	echo "not ok $n - pcp: the VM ran every check (exit $vrc)"
fi
echo "1..$n"
[ $vrc -eq 0 ]
