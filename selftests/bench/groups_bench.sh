#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: with 5,000 processes alive, the CPU time one
# scrape of process groups costs meas-exporter (--process-groups, groups
# by cgroup; its class 0 families come along in the same scrape) against
# Debian's prometheus-process-exporter (every process grouped by its
# command name), in the same VM run, batches of scrapes alternated, the
# first batch of each discarded; medians per scrape and their ratio.  CPU
# time as in exporter_bench.sh: /proc/PID/task/*/schedstat.
#   selftests/bench/groups_bench.sh BUILD_DIR
set -eu
X=${MEAS_EXPORTER:-tools/exporter/meas-exporter}
PE=${MEAS_PROCESS_EXPORTER:-/usr/bin/prometheus-process-exporter}
batches=${MEAS_BENCH_GROUPS_BATCHES:-3}
per=${MEAS_BENCH_GROUPS_SCRAPES:-2}
# one scrape of process-exporter takes 40 to 70 s here (TCG, 5,000
# processes): a batch of 2, three batches, about 8 minutes in all
scrape_timeout=600
nproc=${MEAS_BENCH_GROUPS_PROCS:-5000}


if [ ! -x "$PE" ]; then
	echo "groups bench: $PE not installed (make deps), skipped"
	exit 0
fi
# shellcheck source=scrape_lib.sh
. selftests/bench/scrape_lib.sh

mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
insmod "${MEAS_KO:-module/meas.ko}"
# The processes: forked children of one perl, each asleep (a few pages).
perl -e 'for (1 .. $ARGV[0]) { my $p = fork; die "fork: $!" unless defined $p;
	 if (!$p) { sleep 100000; exit 0 } } sleep 100000' "$nproc" &
pp=$!
i=0
while [ "$(ls -d /proc/[0-9]* | wc -l)" -lt "$nproc" ] && [ $i -lt 600 ]; do
	sleep 0.5
	i=$((i + 1))
done
echo "groups bench: $(ls -d /proc/[0-9]* | wc -l) processes alive"
printf 'process_names:\n  - name: "{{.Comm}}"\n    cmdline:\n    - ".+"\n' >/tmp/pe.yml
"$X" --port 9872 --no-user-classes --process-groups 2>/dev/null &
xp=$!
"$PE" -web.listen-address 127.0.0.1:9256 -config.path /tmp/pe.yml \
	>/dev/null 2>&1 &
ep=$!
wait_url http://127.0.0.1:9872/metrics
wait_url http://127.0.0.1:9256/metrics

: >/tmp/gx; : >/tmp/gp
batch $xp http://127.0.0.1:9872/metrics >/dev/null	# warm-up
batch $ep http://127.0.0.1:9256/metrics >/dev/null
i=0
while [ $i -lt "$batches" ]; do
	batch $xp http://127.0.0.1:9872/metrics >>/tmp/gx
	batch $ep http://127.0.0.1:9256/metrics >>/tmp/gp
	i=$((i + 1))
done
alive=$(ls -d /proc/[0-9]* | wc -l)
xs=$(curl -sf -m 60 http://127.0.0.1:9872/metrics | wc -c)
es=$(curl -sf -m $scrape_timeout http://127.0.0.1:9256/metrics | wc -c)
kill $xp $ep
wait $xp $ep 2>/dev/null || true
pkill -P $pp 2>/dev/null || true
kill $pp 2>/dev/null || true
wait $pp 2>/dev/null || true
rmmod meas
x=$(median </tmp/gx)
e=$(median </tmp/gp)
echo "groups scrape CPU ($alive processes), meas-exporter --process-groups: $((x / 1000)) us per scrape, $xs bytes (batches: $(tr '\n' ' ' </tmp/gx)ns)"
echo "groups scrape CPU ($alive processes), process-exporter by name: $((e / 1000)) us per scrape, $es bytes (batches: $(tr '\n' ' ' </tmp/gp)ns)"
awk -v x="$x" -v e="$e" 'BEGIN { printf "ratio meas-exporter/process-exporter: %.3f (target at most 0.100: %s)\n", x / e, x / e <= 0.1 ? "met" : "NOT met" }'
