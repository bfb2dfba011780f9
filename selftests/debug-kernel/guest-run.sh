#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM booted with the debug kernel (make check-debug),
# as root, from the repository: the selftests of selftests/run_tests.sh,
# then a kmemleak scan.  Leaks whose backtrace mentions meas fail the run.
#   selftests/debug-kernel/guest-run.sh BUILD_DIR
set -u
out=${1:?usage: guest-run.sh BUILD_DIR}
kml=/sys/kernel/debug/kmemleak
status=0

# Leaks from the boot are not ours: report them once, then forget them.
if [ -w $kml ]; then
	echo scan >$kml
	echo clear >$kml
else
	echo "# kmemleak not available: boot with kmemleak=on"
fi

selftests/run_tests.sh "$out" || status=1

echo "TAP version 13"
echo "1..1"
if [ ! -w $kml ]; then
	echo "ok 1 - no kmemleak report mentions meas # SKIP no kmemleak"
	exit $status
fi
# An object is only reported once it is older than 5 s and was found
# unreferenced; two scans catch the ones the first one was unsure of.
sleep 6
echo scan >$kml
echo scan >$kml
report=$(mktemp)
cat $kml >"$report"
echo "# kmemleak: $(grep -c '^unreferenced object' "$report") suspected leaks after the tests"
# One record per "unreferenced object" line; a record is ours if a
# backtrace frame is in meas.ko or meas_example.ko ("[meas]", meas_*), or
# is a bare address: a module unloaded since (the suite ends with meas
# unloaded; null_blk is the only other module it unloads).
ours=$(awk '
	/^unreferenced object/ { flush(); rec = $0; bt = 0; hit = 0; next }
	{ rec = rec "\n" $0 }
	/backtrace:/ { bt = 1; next }
	bt && (/meas/ || /\] 0x[0-9a-f]+$/) { hit = 1 }
	function flush() { if (hit) print rec }
	END { flush() }' "$report")
if [ -n "$ours" ]; then
	printf '%s\n' "$ours" | sed 's/^/# /'
	echo "not ok 1 - no kmemleak report mentions meas"
	status=1
else
	echo "ok 1 - no kmemleak report mentions meas"
fi
rm -f "$report"
exit $status
