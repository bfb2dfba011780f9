# SPDX-License-Identifier: GPL-2.0
# What the scrape benchmarks share (exporter_bench.sh, groups_bench.sh),
# sourced after setting per (scrapes a batch):
#   median          the median of the numbers on stdin
#   cpu_ns PID      ns on a CPU of PID's threads (/proc/PID/task/*/schedstat,
#                   the scheduler's clock: /proc/PID/stat's ticks are lost
#                   under TCG)
#   wait_url URL    until URL answers, 100 tries at most
#   batch PID URL   ns of PID's CPU per scrape over $per scrapes of URL
# A scrape may take up to $scrape_timeout seconds (default 120):
# process-exporter takes 40 to 70 s for 5,000 processes under TCG.

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END {printf "%.0f", s}'; }

wait_url() {
	i=0
	while ! curl -sf -m "${scrape_timeout:-120}" -o /dev/null "$1" &&
		[ $i -lt 100 ]; do
		sleep 0.2
		i=$((i + 1))
	done
}

batch() {
	c0=$(cpu_ns "$1")
	j=0
	while [ $j -lt "$per" ]; do
		curl -sf -m "${scrape_timeout:-120}" -o /dev/null "$2"
		j=$((j + 1))
	done
	c1=$(cpu_ns "$1")
	echo $(((c1 - c0) / per))
}
