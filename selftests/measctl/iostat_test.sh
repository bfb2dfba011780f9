#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# iostat_test.sh - end-to-end test of measctl iostat and iotrace against
# a loaded meas.ko, on a null_blk disk this script loads and unloads.
# Run as root from the top of the repository, e.g. in the test VM:
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/measctl/iostat_test.sh'
#
# Prints TAP; exits 1 if any test fails.  MEASCTL overrides the binary.
# shellcheck disable=SC2016

M=${MEASCTL:-tools/measctl/measctl}
P=/sys/module/meas/parameters
T=$(mktemp -d /tmp/iostat-test.XXXXXX) || exit 1
n=0
nfail=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		nfail=$((nfail + 1))
		[ -s "$T/out" ] && sed 's/^/# out: /' "$T/out" | head -20
		[ -s "$T/err" ] && sed 's/^/# err: /' "$T/err" | head -20
	fi
}

# check DESC EXPR: the shell expression, evaluated after the command.
check() {
	eval "$2"
	ok $? "$1"
}

has() { grep -q -- "$1" "$T/out"; }

# JSON lines of $T/out: each a valid document; EXPR on the list "d".
json() {
	python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$T/out" "$1"
}

# Reads of nullb0 in the background until stop_reads; returns once the
# first have completed (a debug kernel, or TCG on a loaded host, takes a
# while to start dd: up to 60 s).  One dd reads without a pause until it
# is killed (40 GB at most; null_blk's disk has 250): a loop of short dds
# left gaps, the start of each, that a half-second interval of the debug
# kernel could fall into whole.
reads() {
	r0=$(awk '{print $1}' /sys/block/nullb0/stat)
	dd if=/dev/nullb0 of=/dev/null bs=4k count=10000000 iflag=direct \
		2>/dev/null &
	rpid=$!
	i=0
	while [ "$(awk '{print $1}' /sys/block/nullb0/stat)" = "$r0" ] &&
	      [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
stop_reads() { kill "$rpid"; wait "$rpid" 2>/dev/null; }

echo "TAP version 13"
echo "1..16"

rmmod null_blk 2>/dev/null
modprobe null_blk queue_mode=2 nr_devices=1 || { echo "Bail out! null_blk"; exit 1; }
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

# ---- iostat ----
reads
$M iostat -i 0.5 -n 2 >"$T/out" 2>"$T/err"; rc=$?
stop_reads
check "iostat: two intervals, nullb0 reading" \
	'[ $rc = 0 ] && [ "$(grep -c "^--- " "$T/out")" = 2 ] && grep -q "^nullb0 *[1-9]" "$T/out"'
check "iostat: the header names the columns and the histogram" \
	'has "r_await" && has "aqu-sz" && has "qlen 0/1/2/3/4/5/6+"'

# The buckets count requests as they enter, the reads as they complete,
# and a GET reads the CPUs' rows one after another while dd runs
# (Documentation/io.rst, "Reading while requests run"): at each end of
# the interval, one request of the one dd on each CPU may be seen
# entered and not completed.  So the buckets sum to the reads less at
# most one a CPU (seen two short in the 7.3 debug kernel, 2 vCPUs).
ncpu=$(nproc)
reads
$M --json iostat -i 0.5 -n 1 >"$T/out" 2>"$T/err"; rc=$?
stop_reads
check "iostat --json: one document, nullb0 with 7 buckets summing to its requests" \
	'[ $rc = 0 ] && json "len(d) == 1 and d[0][\"command\"] == \"iostat\" and any(x[\"device\"] == \"nullb0\" and len(x[\"qlen\"]) == 7 and sum(x[\"qlen\"]) >= x[\"reads\"] - $ncpu and x[\"reads\"] > 0 for x in d[0][\"disks\"])"'

$M iostat -z -i 0.3 -n 1 >"$T/out" 2>"$T/err"; rc=$?
check "iostat -z: idle disks are left out" \
	'[ $rc = 0 ] && ! grep -q "^nullb0" "$T/out"'

$M iostat -i 0 >"$T/out" 2>"$T/err"; rc=$?
check "iostat -i 0 is a usage error" '[ $rc = 2 ]'
$M iostat -n 0 >"$T/out" 2>"$T/err"; rc=$?
check "iostat -n 0 is a usage error" '[ $rc = 2 ]'
$M iostat extra >"$T/out" 2>"$T/err"; rc=$?
check "iostat with an argument is a usage error" '[ $rc = 2 ]'

# ---- iotrace ----
# the INFO global mask of enabled classes (0x0 if measctl info fails)
mask() {
	$M info 2>/dev/null | awk '/^enabled-classes/ { m = $NF; gsub(/[()]/, "", m); print m; f = 1 }
		END { if (!f) print "0x0" }'
}
( sleep 0.5; dd if=/dev/nullb0 of=/dev/null bs=4k count=200 iflag=direct 2>/dev/null ) &
$M iotrace -n 5 >"$T/out" 2>"$T/err"; rc=$?
wait
check "iotrace -n 5: five reads of nullb0 by dd" \
	'[ $rc = 0 ] && [ "$(grep -c " dd  *[0-9]* *nullb0 *R" "$T/out")" = 5 ]'

( sleep 0.5; dd if=/dev/nullb0 of=/dev/null bs=4k count=50 iflag=direct 2>/dev/null ) &
$M --json iotrace -n 3 >"$T/out" 2>"$T/err"; rc=$?
wait
check "iotrace --json -n 3: three records and a summary" \
	'[ $rc = 0 ] && json "len(d) == 4 and all(x[\"op\"] == \"read\" and x[\"bytes\"] == 4096 and x[\"latency_ms\"] >= 0 for x in d[:3]) and d[3][\"ok\"] and d[3][\"records\"] == 3"'

$M iotrace -d 0.4 >"$T/out" 2>"$T/err"; rc=$?
check "iotrace -d: ends after the duration, nothing to print" \
	'[ $rc = 0 ] && [ "$(wc -l <"$T/out")" = 1 ] && has "LAT(ms)"'

# More records than the ring holds while iotrace is stopped: all
# accounted for.  iotrace (--all: from the ring's oldest record) holds
# class 14 once the INFO mask shows it; then it is stopped while dd
# writes 1500 records into a ring of 256, and SIGINT after SIGCONT ends
# it with a last read.  No timing: a debug kernel's dd may take a minute.
echo 256 >$P/io_records
$M --json iotrace --all -i 0.1 >"$T/out" 2>"$T/err" &
tp=$!
i=0
while [ $(($(mask) & 0x4000)) = 0 ] && [ $i -lt 600 ] && kill -0 $tp 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kill -STOP $tp
dd if=/dev/nullb0 of=/dev/null bs=4k count=1500 iflag=direct 2>/dev/null
kill -CONT $tp
kill -INT $tp
wait $tp; rc=$?
echo 4096 >$P/io_records
check "iotrace: lost records reported, returned + lost = written" \
	'[ $rc = 0 ] && json "(lambda s, lost, recs: s[\"lost\"] > 0 and s[\"lost\"] == lost and s[\"records\"] == recs and recs + lost == s[\"written\"] and s[\"written\"] >= 1500)(d[-1], sum(x.get(\"lost\", 0) for x in d[:-1]), sum(1 for x in d[:-1] if \"op\" in x))"'

$M iotrace -n 0 >"$T/out" 2>"$T/err"; rc=$?
check "iotrace -n 0 is a usage error" '[ $rc = 2 ]'
$M iotrace -i 0 >"$T/out" 2>"$T/err"; rc=$?
check "iotrace -i 0 is a usage error" '[ $rc = 2 ]'
$M iotrace --bogus >"$T/out" 2>"$T/err"; rc=$?
check "iotrace --bogus is a usage error" '[ $rc = 2 ]'

setpriv --reuid=65534 --regid=65534 --groups="${MEAS_VM_GID:-4040}" --inh-caps=-all \
	$M iotrace -d 0.2 >"$T/out" 2>"$T/err"; rc=$?
check "iotrace unprivileged: exit 1, says why" \
	'[ $rc = 1 ] && grep -q "no permission" "$T/err"'
setpriv --reuid=65534 --regid=65534 --groups="${MEAS_VM_GID:-4040}" --inh-caps=-all \
	$M --json iostat -n 1 >"$T/out" 2>"$T/err"; rc=$?
check "iostat unprivileged: exit 1 with a JSON error" \
	'[ $rc = 1 ] && json "d[0][\"ok\"] is False and d[0][\"errno_name\"] == \"EPERM\""'

rmmod null_blk
rm -rf "$T"
echo "# $nfail of $n failed"
[ $nfail = 0 ]
