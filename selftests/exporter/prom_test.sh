#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prom_test.sh - a real Prometheus (Debian's prometheus, on the host, on
# 127.0.0.1 only, with a configuration and a data directory of its own)
# scrapes meas-exporter in the test VM through QEMU's user-mode network
# (run-vm.sh --hostfwd).  The guest (prom_guest.sh) runs a steady
# workload between two snapshots of /proc/diskstats and /proc/stat; then
# Prometheus's HTTP API is asked for what it stored and for rate()s over
# the same window:
#   - the writes of vda over the run (max - min of the samples) equal the
#     snapshots' difference exactly (vda is quiet outside the window);
#   - rate() of the completed writes over the window agrees with
#     /proc/diskstats's within 15%;
#   - rate() of the busy CPU agrees within 15% with the run time the
#     scheduler accounts in /proc/schedstat, and the CPU modes' rates add
#     up to the VM's CPUs within 10%.  /proc/stat's ticks are printed
#     beside them but not compared: under TCG a vCPU that spins loses
#     most of its timer ticks, and /proc/stat, which counts busy time in
#     ticks, reads about half of it (Documentation/exporter.rst);
#   - the per-cgroup families: the spinner's cgroup, labelled with its
#     unit, its CPU over the window against the kernel's cpu.stat
#     usage_usec within 10%, and no more cgroup series than the cap.
#
#   selftests/exporter/prom_test.sh BUILD_DIR
# Prints TAP; exits 1 if any check fails.  Needs meas.ko and the tools built.
# shellcheck disable=SC2016,SC2034,SC2046,SC2154 # eval-ed checks; tap.sh; set -- splits on purpose
set -u
out=${1:?usage: prom_test.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
T=$(mktemp -d /tmp/prom-test.XXXXXX) || exit 1
ppid_=""
TAP_PREFIX=prometheus
# shellcheck source=../measctl/tap.sh
. selftests/measctl/tap.sh

cleanup() {
	[ -n "$ppid_" ] && kill "$ppid_" 2>/dev/null && wait "$ppid_" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# Two free ports on 127.0.0.1 (the exporter's forward, Prometheus).
set -- $(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
xport=$1
pport=$2

cat >"$T/prometheus.yml" <<CONF
global:
  scrape_interval: 2s
  scrape_timeout: 2s
scrape_configs:
  - job_name: meas
    static_configs:
      - targets: ['127.0.0.1:$xport']
CONF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn \
	>"$T/prom.log" 2>&1 &
ppid_=$!

echo "TAP version 13"
truncate -s 64M "$out/prom-disk.img"
selftests/vm/run-vm.sh --timeout 900 --disk "$out/prom-disk.img" \
	--hostfwd "$xport:9872" --log "$out/prom_test.log" -- \
	sh -c 'insmod module/meas.ko && selftests/meas-udev.sh && selftests/exporter/prom_guest.sh' \
	>"$T/vm.out" 2>&1
vrc=$?
grep "^PROM-" "$T/vm.out" | sed 's/^/# /'
ok $vrc "the VM ran the exporter and the workload"

# API query at time $2: the value of the first result (or "none").
q() {
	curl -sf -m 20 "http://127.0.0.1:$pport/api/v1/query" \
		--data-urlencode "query=$1" --data-urlencode "time=$2" |
	python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "none")'
}

# within A B PCT: |A - B| <= PCT% of B
within() {
	python3 -c "import sys; a, b, p = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= p / 100 * abs(b) else 1)" "$1" "$2" "$3" 2>/dev/null
}

set -- $(awk '$1 == "PROM-SNAP" && $2 == 0 { print $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$T/vm.out")
t0=${1:-0} w0=${3:-0} b0=${4:-0} i0=${5:-0} io0=${6:-0} s0=${7:-0} u0=${9:-0}
set -- $(awk '$1 == "PROM-SNAP" && $2 == 1 { print $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$T/vm.out")
t1=${1:-0} w1=${3:-0} b1=${4:-0} i1=${5:-0} io1=${6:-0} s1=${7:-0} cpus=${8:-0} u1=${9:-0}
now=$(date +%s)
win=$(python3 -c "print(int(float('$t1') - float('$t0')))")
dw=$((w1 - w0))
check() {
	eval "$2"
	ok $? "$1"
}
check "Prometheus scraped the exporter (up == 1)" \
	'[ "$(q "max_over_time(up{job=\"meas\"}[15m])" "$now")" = 1 ]'
check "scrapes over the whole run: more than half the window's seconds" \
	'[ "$(q "sum_over_time(up{job=\"meas\"}[15m])" "$now")" -gt $((win / 2)) ]'

W='meas_disk_requests_completed_total{device="vda",op="write"}'
got=$(q "max_over_time(${W}[15m]) - min_over_time(${W}[15m])" "$now")
check "vda writes over the run: Prometheus $got = /proc/diskstats $dw" \
	'[ "$dw" -gt 0 ] && [ "$got" = "$dw" ]'
H='meas_disk_io_latency_seconds_count{device="vda",op="write"}'
got=$(q "max_over_time(${H}[15m]) - min_over_time(${H}[15m])" "$now")
check "vda write latency histogram count over the run: $got = $dw" \
	'[ "$got" = "$dw" ]'

prate=$(q "rate(${W}[${win}s])" "$t1")
grate=$(python3 -c "print($dw / ($t1 - $t0))")
check "rate() of vda writes: Prometheus $prate, /proc/diskstats $grate per s (15%)" \
	'within "$prate" "$grate" 15'
prate=$(q "rate(meas_cpu_seconds_total{mode=\"busy\"}[${win}s])" "$t1")
grate=$(python3 -c "print(($s1 - $s0) / 1e9 / ($t1 - $t0))")
check "rate() of busy CPU: Prometheus $prate, /proc/schedstat $grate CPUs (15%)" \
	'within "$prate" "$grate" 15'
echo "# /proc/stat over the window: busy $(python3 -c "print(($b1 - $b0) / 100 / ($t1 - $t0))"), idle + iowait $(python3 -c "print(($i1 - $i0 + $io1 - $io0) / 100 / ($t1 - $t0))") CPUs (ticks, not compared)"
prate=$(q "sum(rate(meas_cpu_seconds_total[${win}s]))" "$t1")
check "rate() of all CPU modes: Prometheus $prate, the VM's CPUs $cpus (10%)" \
	'within "$prate" "$cpus" 10'
C='meas_cgroup_cpu_seconds_total{cgroup="/meas-prom.slice/spin.service",unit="spin.service"}'
got=$(q "max_over_time(${C}[15m]) - min_over_time(${C}[15m])" "$now")
want=$(python3 -c "print(($u1 - $u0) / 1e6)")
check "the spinner's cgroup by unit: CPU over the run $got s, cpu.stat $want s (10%)" \
	'[ "$got" != none ] && within "$got" "$want" 10'
# The subquery's step is the scrape interval: with the default step (the
# evaluation interval, a minute, aligned to whole minutes) a run that
# does not cross a minute's boundary has no step at all, and the query
# returns nothing.
ncg=$(q "max_over_time(count(meas_cgroup_cpu_seconds_total)[15m:2s])" "$now")
check "cgroup series bounded: $ncg, at most --cgroup-max (256) per family, none empty" \
	'[ "$ncg" != none ] && [ "$ncg" -ge 1 ] && [ "$ncg" -le 256 ] && [ "$(q "count(meas_cgroup_threads == 0 and on(cgroup) meas_cgroup_cpu_seconds_total == 0)" "$t1")" = none ]'
check "the exporter's scrape duration is exported" \
	'[ "$(q "meas_scrape_duration_seconds" "$t1")" != none ]'

echo "1..$n"
exit $status
