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
# iostat -c PATH is tested with known direct I/O from two cgroups of a
# slice this script makes (with the io controller on) and removes.
# Prints TAP; exits 1 if any test fails.  MEASCTL overrides the binary.
# shellcheck disable=SC2016,SC2034 # the checks are eval'd

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
echo "1..23"

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
# and a GET reads the CPUs' rows one after another while the disk runs
# (Documentation/io.rst, "Reading while requests run"): with requests
# running at an end of the interval, the two sums differ by what entered
# or completed while the rows were read, which has no bound when a vCPU
# stalls mid-read (32 seen in the 6.1 debug kernel).  So the disk is
# quiet at both ends: one dd of 200 direct reads well inside an 8 s
# interval (2 s of it for measctl to take its first snapshot, 6 for
# dd's 200 reads), and the buckets must sum to exactly its 200 requests.
( sleep 2; dd if=/dev/nullb0 of=/dev/null bs=4k count=200 iflag=direct 2>/dev/null ) &
$M --json iostat -i 8 -n 1 >"$T/out" 2>"$T/err"; rc=$?
wait
check "iostat --json: one document, nullb0 with 7 buckets summing to its 200 requests" \
	'[ $rc = 0 ] && json "len(d) == 1 and d[0][\"command\"] == \"iostat\" and any(x[\"device\"] == \"nullb0\" and len(x[\"qlen\"]) == 7 and sum(x[\"qlen\"]) == 200 and x[\"reads\"] == 200 for x in d[0][\"disks\"])"'

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

# ---- iostat -c PATH: class 14's records of one cgroup subtree ----
CG=/sys/fs/cgroup
S=$CG/meas-iostat.slice
# run_in CGROUP CMD...: CMD in CGROUP, in the background
run_in() {
	cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@" &
}
# held N: until N files hold class 14 (60 s at most), and their first
# reads are done
held() {
	i=0
	while [ "$($M info 2>/dev/null | awk '$1 == 14 { print $3 }')" != "$1" ] &&
	      [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
}
# JSON intervals of $T/out summed for nullb0: "reads writes rbytes wbytes lost"
sums() {
	python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
k = ("reads", "writes", "read_bytes", "write_bytes")
s = [sum(x[f] for i in d for x in i["disks"] if x["device"] == "nullb0") for f in k]
print(*s, sum(i["lost"] for i in d))' "$T/$1"
}
# lost_run [--json]: iostat -c of the slice into $T/out, stopped while
# a.service reads 1500 blocks, then one more second; its status in rc
lost_run() {
	$M "$@" iostat -c /meas-iostat.slice -i 0.2 >"$T/out" 2>"$T/err" &
	pl=$!
	held 1
	kill -STOP $pl
	run_in "$S/a.service" dd if=/dev/nullb0 of=/dev/null bs=4k count=1500 iflag=direct status=none
	wait $!
	kill -CONT $pl
	sleep 1.5
	kill -INT $pl
	wait $pl
	rc=$?
}

[ -e $CG/cgroup.procs ] || mount -t cgroup2 none $CG 2>/dev/null
if mkdir -p "$S/a.service" "$S/b.service" 2>/dev/null &&
   echo +io >$CG/cgroup.subtree_control 2>/dev/null &&
   echo +io >"$S/cgroup.subtree_control" 2>/dev/null; then
	# a.service: 7 reads of 4 KiB and 3 writes of 8 KiB; b.service: 5
	# reads; the root: 9.  Three iostats watch at once, each on its own
	# file: a.service (JSON and text) and the slice.  SIGINT ends them
	# two seconds after the I/O, so every record is in a printed interval.
	$M --json iostat -c /meas-iostat.slice/a.service -i 0.25 >"$T/a" 2>"$T/a.err" &
	pa=$!
	$M --json iostat -c $S/ -i 0.25 >"$T/s" 2>"$T/s.err" &
	ps=$!
	$M iostat -c /meas-iostat.slice/a.service -i 0.25 >"$T/t" 2>"$T/t.err" &
	pt=$!
	held 3
	run_in "$S/a.service" dd if=/dev/nullb0 of=/dev/null bs=4k count=7 skip=10 iflag=direct status=none
	wait $!
	run_in "$S/a.service" dd if=/dev/zero of=/dev/nullb0 bs=8k count=3 seek=10 oflag=direct status=none
	wait $!
	run_in "$S/b.service" dd if=/dev/nullb0 of=/dev/null bs=4k count=5 iflag=direct status=none
	wait $!
	dd if=/dev/nullb0 of=/dev/null bs=4k count=9 iflag=direct status=none
	sleep 2
	kill -INT $pa $ps $pt
	wait $pa; ra=$?
	wait $ps; rs=$?
	wait $pt; rt=$?
	cp "$T/a" "$T/out"
	cp "$T/a.err" "$T/err"
	got=$(sums a)
	check "iostat -c PATH: exactly the service's 7 reads, 3 writes and bytes ($got)" \
		'[ $ra = 0 ] && [ "$got" = "7 3 28672 24576 0" ]'
	check "iostat -c --json: the cgroup, lost, times; no ctl/s, busy/s or histogram" \
		'json "all(i[\"command\"] == \"iostat\" and i[\"cgroup\"] == \"/meas-iostat.slice/a.service\" and i[\"lost\"] == 0 and i[\"elapsed_s\"] > 0 and all(\"ctl_s\" not in x and \"busy_s\" not in x and \"qlen\" not in x and \"in_flight\" not in x and x[\"dev\"] for x in i[\"disks\"]) for i in d) and any(x[\"reads\"] and x[\"r_await_ms\"] > 0 and x[\"aqu_sz\"] > 0 for i in d for x in i[\"disks\"]) and any(x[\"writes\"] and x[\"w_await_ms\"] > 0 for i in d for x in i[\"disks\"])"'
	cp "$T/s" "$T/out"
	cp "$T/s.err" "$T/err"
	got=$(sums s)
	check "iostat -c SLICE: the subtree, both services, not the root's ($got)" \
		'[ $rs = 0 ] && [ "$got" = "12 3 49152 24576 0" ]'
	cp "$T/t" "$T/out"
	cp "$T/t.err" "$T/err"
	check "iostat -c: the table names the cgroup, has no ctl/s, a row for nullb0" \
		'[ $rt = 0 ] && grep -q "^--- .*  cgroup /meas-iostat.slice/a.service ---$" "$T/out" && grep -q "^device .* aqu-sz$" "$T/out" && ! has "ctl/s" && ! has "qlen" && grep -q "^nullb0 " "$T/out"'

	# Lost records: iostat -c stopped while a.service writes 1500
	# records into a ring of 256; the interval after reports them.
	echo 256 >$P/io_records
	lost_run --json
	got=$(sums out)
	# shellcheck disable=SC2086 # the five numbers
	set -- $got
	lreads=${1:-0} llost=${5:-0}
	check "iostat -c: lost records reported, the reads a lower bound ($got)" \
		'[ $rc = 0 ] && [ $llost -gt 0 ] && [ $lreads -lt 1500 ] && [ $((lreads + llost)) -ge 1500 ]'
	lost_run
	echo 4096 >$P/io_records
	check "iostat -c: a line says how many records were lost" \
		'[ $rc = 0 ] && grep -q "^# [0-9]* records lost: .* lower bounds$" "$T/out"'
	echo -io >"$S/cgroup.subtree_control" 2>/dev/null
	rmdir "$S/a.service" "$S/b.service" "$S"
else
	for i in 1 2 3 4 5 6; do ok 0 "# SKIP no cgroup2 io controller"; done
fi

$M iostat -c meas-iostat.slice >"$T/out" 2>"$T/err"; r1=$?
$M iostat -c /x --archive /nonexistent >"$T/out" 2>"$T/err"; r2=$?
$M iostat -c >"$T/out" 2>"$T/err"; rc=$?
check "iostat -c usage errors: a relative path, with --archive, no path" \
	'[ $r1 = 2 ] && [ $r2 = 2 ] && [ $rc = 2 ]'

rmmod null_blk
rm -rf "$T"
echo "# $nfail of $n failed"
[ $nfail = 0 ]
