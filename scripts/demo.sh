#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The main job: load meas, enable class 0 for a short demo workload and
# print the class 0 report.  Where the running kernel can load meas.ko
# (root, modules enabled, built for this kernel) it runs here; otherwise
# inside the test VM.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

can_load_here() {
	[ "$(id -u)" -eq 0 ] || return 1
	[ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 0 ] || return 1
	vermagic=$(modinfo -F vermagic module/meas.ko 2>/dev/null) || return 1
	[ "${vermagic%% *}" = "$(uname -r)" ]
}

if [ "${1:-}" = --guest ] || can_load_here; then
	loaded=
	if ! grep -q '^meas ' /proc/modules; then
		insmod module/meas.ko
		loaded=1
	fi
	echo "meas: class 0 report for the demo workload (scripts/demo-workload.sh)"
	status=0
	tools/measctl/measctl run -c 0 -- scripts/demo-workload.sh || status=$?
	[ -z "$loaded" ] || rmmod meas
	exit $status
fi
echo "meas: this kernel cannot load meas.ko; running the demo in the test VM"
exec selftests/vm/run-vm.sh --timeout 300 -- scripts/demo.sh --guest
