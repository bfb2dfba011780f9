#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: the CPU time one scrape costs meas-exporter
# against Debian's prometheus-node-exporter with the collectors of the
# same families (cpu, diskstats, schedstat), in the same VM run, batches
# of scrapes alternated, the first batch of each discarded; medians per
# scrape and their ratio.  A process's CPU time is the sum over its
# threads of /proc/PID/task/TID/schedstat's first field (nanoseconds on
# a CPU, from the scheduler's clock: /proc/PID/stat's ticks are lost
# under TCG, Documentation/exporter.rst).
#   selftests/bench/exporter_bench.sh BUILD_DIR
set -eu
X=${MEAS_EXPORTER:-tools/exporter/meas-exporter}
NE=${MEAS_NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
batches=${MEAS_BENCH_EXPORTER_BATCHES:-5}
per=${MEAS_BENCH_EXPORTER_SCRAPES:-10}

if [ ! -x "$NE" ]; then
	echo "exporter bench: $NE not installed (make deps), skipped"
	exit 0
fi
# shellcheck source=scrape_lib.sh
. selftests/bench/scrape_lib.sh

modprobe virtio_blk 2>/dev/null || true
insmod "${MEAS_KO:-module/meas.ko}"
"$X" --port 9872 --no-user-classes 2>/dev/null &
xp=$!
"$NE" --web.listen-address=127.0.0.1:9100 --collector.disable-defaults \
	--collector.cpu --collector.diskstats --collector.schedstat \
	--log.level=error 2>/dev/null &
np=$!
wait_url http://127.0.0.1:9872/metrics
wait_url http://127.0.0.1:9100/metrics

: >/tmp/xb; : >/tmp/nb
batch $xp http://127.0.0.1:9872/metrics >/dev/null	# warm-up
batch $np http://127.0.0.1:9100/metrics >/dev/null
i=0
while [ $i -lt "$batches" ]; do
	batch $xp http://127.0.0.1:9872/metrics >>/tmp/xb
	batch $np http://127.0.0.1:9100/metrics >>/tmp/nb
	i=$((i + 1))
done
xs=$(curl -sf -m 10 http://127.0.0.1:9872/metrics | wc -c)
ns=$(curl -sf -m 10 http://127.0.0.1:9100/metrics | wc -c)
kill $xp $np
wait $xp $np 2>/dev/null || true
rmmod meas
x=$(median </tmp/xb)
n=$(median </tmp/nb)
echo "exporter scrape CPU, meas-exporter: $((x / 1000)) us per scrape, $xs bytes (batches: $(tr '\n' ' ' </tmp/xb)ns)"
echo "exporter scrape CPU, node_exporter cpu+diskstats+schedstat: $((n / 1000)) us per scrape, $ns bytes (batches: $(tr '\n' ' ' </tmp/nb)ns)"
awk -v x="$x" -v n="$n" 'BEGIN { printf "ratio meas-exporter/node_exporter: %.3f (target at most 0.200: %s)\n", x / n, x / n <= 0.2 ? "met" : "NOT met" }'
