#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A short mixed workload for the demo: programs started, pipe traffic,
# timed sleeps, a busy second and a file written and synced.
set -eu
i=0
while [ $i -lt 50 ]; do
	/bin/true
	i=$((i + 1))
done
yes meas | head -c 20000000 >/dev/null
i=0
while [ $i -lt 20 ]; do
	sleep 0.01
	i=$((i + 1))
done
end=$(($(date +%s) + 1))
while [ "$(date +%s)" -lt "$end" ]; do :; done
tmp=$(mktemp)
dd if=/dev/zero of="$tmp" bs=1M count=16 conv=fsync 2>/dev/null
rm -f "$tmp"
