#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# exporter_test.sh - meas-exporter against a loaded meas.ko, in the test
# VM: both text formats (promtool check metrics on the classic one), the
# options, GET only, the per-disk latency counts against /proc/diskstats
# through the exporter, user-defined items by their names, garbage and
# half-open requests (garbage.py, bounded), and a clean stop.
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/exporter/exporter_test.sh'
#
# Prints TAP; exits 1 if any test fails.  MEAS_EXPORTER overrides the binary.

# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval-ed strings; tap.sh sets status
X=${MEAS_EXPORTER:-tools/exporter/meas-exporter}
M=${MEASCTL:-tools/measctl/measctl}
PORT=9872
URL=http://127.0.0.1:$PORT/metrics
OM='application/openmetrics-text; version=1.0.0; charset=utf-8'
T=$(mktemp -d /tmp/exporter-test.XXXXXX) || exit 1
xpid=""
TAP_PREFIX=exporter
# shellcheck source=../measctl/tap.sh
. selftests/measctl/tap.sh

# check DESC EXPR: the shell expression, evaluated after the command.
check() {
	eval "$2"
	r=$?
	ok $r "$1"
	[ $r = 0 ] || sed 's/^/# err: /' "$T/err" 2>/dev/null | head -20
}

# value FILE SAMPLE: the value of the sample line that starts with SAMPLE.
value() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $NF; f = 1 } END { if (!f) print "none" }' "$1"
}

# diskstats field F (4: reads completed, 8: writes) of nullb0
dstat() {
	awk -v f="$1" '$3 == "nullb0" { print $f }' /proc/diskstats
}

scrape() {
	curl -sf -m 20 -H "Accept: ${2:-application/openmetrics-text}" \
		-D "$1.hdr" -o "$1" "${3:-$URL}"
}

cleanup() {
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

echo "TAP version 13"

# ---- one scrape on stdout --------------------------------------------------
"$X" --once >"$T/om" 2>"$T/err"
check "--once: OpenMetrics, ends with # EOF" \
	'[ $? = 0 ] && [ "$(tail -n 1 "$T/om")" = "# EOF" ]'
check "meas_build_info carries the version of the file VERSION" \
	'grep -qx "meas_build_info{version=\"$(cat VERSION)\"} 1" "$T/om"'
check "every family has HELP, seconds and bytes families a UNIT" \
	'[ "$(grep -c "^# TYPE" "$T/om")" = "$(grep -c "^# HELP" "$T/om")" ] &&
	 [ "$(grep "^# TYPE" "$T/om" | grep -c "_seconds \|_bytes ")" = "$(grep -c "^# UNIT" "$T/om")" ]'
"$X" --once --format prometheus >"$T/prom" 2>"$T/err"
check "--once --format prometheus" '[ $? = 0 ] && grep -q "^# TYPE meas_launches_total counter" "$T/prom"'
promtool check metrics <"$T/prom" >"$T/err" 2>&1
check "promtool check metrics: nothing to report" '[ $? = 0 ] && [ ! -s "$T/err" ]'

# ---- bad options: a clear error, nothing started ---------------------------
for bad in "--port 0" "--port 70000" "--classes 5" "--classes 15" \
	   "--max-connections 0" "--timeout 0" "--format json" \
	   "--min-interval 61" "extra"; do
	# shellcheck disable=SC2086
	"$X" --once $bad >/dev/null 2>"$T/err"
	check "refused: $bad" '[ $? = 2 ] && grep -q usage "$T/err"'
done
"$X" --listen 999.0.0.1 --port $PORT >/dev/null 2>"$T/err"
check "refused: a listen address that is not numeric" \
	'[ $? = 1 ] && grep -q "not a numeric address" "$T/err"'

# ---- the server --------------------------------------------------------------
modprobe null_blk queue_mode=2 nr_devices=1 gb=1 || true
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
"$X" --port $PORT --timeout 2 --max-connections 4 2>"$T/xerr" &
xpid=$!
i=0
while ! scrape "$T/a" && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
check "GET /metrics answers" '[ -s "$T/a" ]'
check "Accept openmetrics: application/openmetrics-text" \
	'grep -qi "^Content-Type: $OM" "$T/a.hdr"'
scrape "$T/p" "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
check "Accept text/plain: the classic format" \
	'grep -qi "^Content-Type: text/plain; version=0.0.4" "$T/p.hdr" &&
	 ! grep -q "^# EOF" "$T/p"'
promtool check metrics <"$T/p" >"$T/err" 2>&1
check "promtool check metrics on the served classic text" '[ $? = 0 ] && [ ! -s "$T/err" ]'
check "POST is refused with 405" \
	'[ "$(curl -s -m 5 -o /dev/null -w "%{http_code}" -d x=1 "$URL")" = 405 ]'
check "another path is 404" \
	'[ "$(curl -s -m 5 -o /dev/null -w "%{http_code}" http://127.0.0.1:$PORT/)" = 404 ]'
check "listens on 127.0.0.1 only by default" \
	'! grep -q ":$(printf %04X $PORT) " /proc/net/tcp6 2>/dev/null &&
	 grep -q "0100007F:$(printf %04X $PORT) 00000000:0000 0A" /proc/net/tcp'

# ---- latency counts through the exporter equal /proc/diskstats -----------
scrape "$T/a"
r0=$(dstat 4)
w0=$(dstat 8)
dd if=/dev/nullb0 of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
dd if=/dev/zero of=/dev/nullb0 bs=4k count=32 oflag=direct 2>/dev/null
r1=$(dstat 4)
w1=$(dstat 8)
scrape "$T/b"
for op in read write; do
	s="meas_disk_requests_completed_total{device=\"nullb0\",op=\"$op\"}"
	c="meas_disk_io_latency_seconds_count{device=\"nullb0\",op=\"$op\"}"
	u="meas_disk_requests_untimed_total{device=\"nullb0\",op=\"$op\"}"
	d=$(( $(value "$T/b" "$s") - $(value "$T/a" "$s") ))
	h=$(( $(value "$T/b" "$c") - $(value "$T/a" "$c") + $(value "$T/b" "$u") - $(value "$T/a" "$u") ))
	if [ $op = read ]; then want=$((r1 - r0)); else want=$((w1 - w0)); fi
	check "nullb0 $op: completed $d = /proc/diskstats $want = histogram $h" \
		'[ "$d" = "$want" ] && [ "$h" = "$want" ] && [ "$want" -ge 32 ]'
done
check "counters never go backwards between scrapes" \
	'[ "$(value "$T/b" meas_launches_total)" -ge "$(value "$T/a" meas_launches_total)" ]'

# ---- user-defined classes by their names ---------------------------------
"$M" undefine 9 >/dev/null 2>&1
"$M" define --name lab 9 'disk:2:reads,writes,qlen/gauge' >/dev/null 2>"$T/err"
scrape "$T/u0"			# the exporter enables class 9 here
"$M" update 9 0 1 reads 5 >/dev/null 2>"$T/err"
"$M" update 9 0 2 qlen 3 >/dev/null 2>>"$T/err"
scrape "$T/u1"
check "a user-defined counter by its name" \
	'[ "$(value "$T/u1" "meas_user_lab_reads_total{entry=\"1\"}")" = 5 ] &&
	 grep -q "^# TYPE meas_user_lab_reads counter" "$T/u1"'
check "a user-defined gauge by its name" \
	'[ "$(value "$T/u1" "meas_user_lab_qlen{entry=\"2\"}")" = 3 ] &&
	 grep -q "^# TYPE meas_user_lab_qlen gauge" "$T/u1"'
scrape "$T/u2" text/plain
promtool check metrics <"$T/u2" >"$T/err" 2>&1
check "promtool check metrics with a user-defined class" '[ $? = 0 ] && [ ! -s "$T/err" ]'

# ---- garbage and half-open requests, then a proper scrape -----------------
TAP_FIRST=$((n + 1)) TAP_PREFIX=$TAP_PREFIX \
	python3 selftests/exporter/garbage.py 127.0.0.1 $PORT 4 2 >"$T/g"
grc=$?
cat "$T/g"
n=$((n + $(grep -c "^ok\|^not ok" "$T/g")))
ok $grc "garbage.py: every check passed"

# ---- --min-interval: within it, the last scrape's text again --------------
# Two scrapes never read the same (the scrape's own duration is in the
# text), so two equal answers are one scrape served twice.
scrape "$T/f1" && scrape "$T/f2"
check "without --min-interval each request is a new scrape" \
	'! cmp -s "$T/f1" "$T/f2"'
P2=$((PORT + 1))
"$X" --port $P2 --min-interval 30 2>"$T/x2err" &
x2=$!
i=0
U2=http://127.0.0.1:$P2/metrics
while ! scrape "$T/c1" "" "$U2" && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
scrape "$T/c2" "" "$U2"
scrape "$T/c3" text/plain "$U2"
scrape "$T/c4" text/plain "$U2"
check "--min-interval 30: the same text twice, per format" \
	'[ -s "$T/c1" ] && cmp -s "$T/c1" "$T/c2" && [ -s "$T/c3" ] &&
	 cmp -s "$T/c3" "$T/c4" && ! cmp -s "$T/c1" "$T/c3"'
kill -TERM "$x2" 2>/dev/null
wait "$x2" 2>/dev/null

# ---- a clean stop ---------------------------------------------------------
check "the exporter is still running" 'kill -0 "$xpid"'
kill -TERM "$xpid"
wait "$xpid"
check "SIGTERM: exits 0" '[ $? = 0 ]'
xpid=""
"$M" undefine 9 >"$T/err" 2>&1
check "its classes are released: class 9 can be undefined" '[ $? = 0 ]'
rmmod null_blk 2>/dev/null

echo "1..$n"
exit $status
