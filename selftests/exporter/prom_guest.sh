#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prom_guest.sh - the guest's half of prom_test.sh, in the test VM with
# meas.ko loaded and the virtio-blk disk attached: meas-exporter on the
# guest's network, a quiet period (Prometheus takes its first samples), a
# snapshot of /proc/diskstats (vda) and /proc/stat, a steady workload
# (one CPU spinning, O_DIRECT writes to vda), the second snapshot, and a
# quiet period again.  The spinner runs in a cgroup of its own,
# /meas-prom.slice/spin.service, and the exporter serves the per-cgroup
# families (--cgroups).  A snapshot is one console line:
#   PROM-SNAP <n> <CLOCK_REALTIME s> <vda: reads writes>
#             <cpu: busy idle iowait ticks> <schedstat run ns> <CPUs>
#             <spin.service's cpu.stat usage_usec>
#   selftests/exporter/prom_guest.sh [QUIET_S [WORK_S]]

X=${MEAS_EXPORTER:-tools/exporter/meas-exporter}
CG=/sys/fs/cgroup/meas-prom.slice/spin.service
QUIET=${1:-10}
WORK=${2:-20}

snap() {
	set -- "$1" "$(date +%s.%N)" \
		"$(awk '$3 == "vda" { print $4, $8 }' /proc/diskstats)" \
		"$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5, $6 }' /proc/stat)" \
		"$(awk '$1 ~ /^cpu/ { s += $8 } END { printf "%.0f", s }' /proc/schedstat)" \
		"$(nproc)" \
		"$(awk '$1 == "usage_usec" { print $2 }' $CG/cpu.stat)"
	echo "PROM-SNAP $*"
}

modprobe virtio_blk
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/vda ] || { echo "PROM-ERROR no /dev/vda"; exit 1; }
[ -e /sys/fs/cgroup/cgroup.procs ] || mount -t cgroup2 none /sys/fs/cgroup
mkdir -p $CG || { echo "PROM-ERROR no cgroup2"; exit 1; }
"$X" --listen 0.0.0.0 --port 9872 --no-user-classes --cgroups &
xpid=$!
sleep "$QUIET"
snap 0
sh -c 'echo $$ >"$0/cgroup.procs" && exec timeout "$1" sh -c "while :; do :; done"' \
	"$CG" "$WORK" &
spin=$!
timeout "$WORK" sh -c 'while :; do
	dd if=/dev/zero of=/dev/vda bs=4k count=64 oflag=direct 2>/dev/null
done' &
io=$!
wait $spin
wait $io
snap 1
sleep "$QUIET"
kill "$xpid"
wait "$xpid"
echo "PROM-DONE $?"
rmdir $CG /sys/fs/cgroup/meas-prom.slice
