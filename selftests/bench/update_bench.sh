#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: UPDATESTATISTICS through MEAS_IOC_UPDATE, by
# kind of update, repeated; prints the median of each case.
#   selftests/bench/update_bench.sh BUILD_DIR
set -eu
out=${1:?usage: update_bench.sh BUILD_DIR}
n=${MEAS_BENCH_UPDATES:-200000}
reps=${MEAS_BENCH_REPS:-5}

insmod "${MEAS_KO:-module/meas.ko}"
# The first run warms QEMU's translation cache: discard it.
"$out/update_bench" -n "$n" >/dev/null
: >/tmp/upd
i=0
while [ $i -lt "$reps" ]; do
	"$out/update_bench" -n "$n" >>/tmp/upd
	i=$((i + 1))
done
rmmod meas
echo "UPDATESTATISTICS calls/s through the ioctl, median of $reps runs of $n calls per thread:"
awk '{ name = substr($0, 1, 22); thr = $(NF - 1); key = name "|" thr;
       v[key] = v[key] " " $NF; if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
     END { for (i = 1; i <= k; i++) {
             m = split(substr(v[order[i]], 2), a, " ");
             for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++)
               if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
             split(order[i], p, "|");
             printf "%s threads %2d  %12.0f\n", p[1], p[2], a[int((m + 1) / 2)] } }' /tmp/upd
