#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the pictures' inputs, made in the test VM as root from the
# top of the repository with meas.ko not loaded; check.py looks at them
# on the host (make check-pictures):
#
#   selftests/vm/run-vm.sh --disk build/pictures.img -- \
#	selftests/pictures/guest.sh build/selftests
#
# It makes, with measctl: the flame graph of clock_spin's known call chain
# (profile --svg), the latency heat map of fio's random reads on a
# null_blk disk whose requests complete after 250 us (iotrace --heatmap,
# and again from the records saved with --json), fio's own latency report
# (JSON), the HTML report of a profiled command reading that disk
# (run --html --profile), and the flame graph of a task measurement of
# clock_spin (task report --svg).  Everything goes
# into one tar archive written over the VM's virtio disk, /dev/vda, which
# is the host's build/pictures.img.  Prints TAP; exits 1 if a step fails.
out=${1:?usage: guest.sh BUILD_DIR}
M=${MEASCTL:-tools/measctl/measctl}
T=$(mktemp -d /tmp/pictures.XXXXXX) || exit 1
TAP_PREFIX=pictures-vm
. selftests/measctl/tap.sh

echo "TAP version 13"
echo "1..8"

insmod module/meas.ko && selftests/meas-udev.sh
ok $? "insmod meas.ko"

$M profile --folded --svg "$T/flame.svg" -- "$out/clock_spin" 1500 nested \
	>"$T/flame.folded"
ok $? "profile --svg of clock_spin's call chain"

# null_blk: timer completions after 250 us, so the latency has a place
rmmod null_blk 2>/dev/null
modprobe null_blk queue_mode=2 nr_devices=1 gb=1 irqmode=2 \
	completion_nsec=250000
ok $? "null_blk with 250 us completions"
# -a: from the first record of the ring, which this trace enables afresh
$M --json iotrace -a -i 0.05 --heatmap "$T/heat.svg" >"$T/iotrace.json" \
	2>"$T/iotrace.err" &
trace=$!
# fio starts once the trace runs (class 14 enabled), however slow the VM
i=0
while [ $i -lt 300 ]; do
	m=$($M info 2>/dev/null | sed -n 's/^enabled-classes .*(\(0x[0-9a-f]*\))$/\1/p')
	[ -n "$m" ] && [ $((m & 0x4000)) -ne 0 ] && break
	sleep 0.1
	i=$((i + 1))
done
fio --name=randread --filename=/dev/nullb0 --direct=1 --rw=randread \
	--bs=4k --ioengine=psync --iodepth=1 --runtime=3 --time_based \
	--output-format=json >"$T/fio.json" 2>"$T/fio.err"
fio_rc=$?
sleep 0.5
kill -INT "$trace"
wait "$trace"
trace_rc=$?
ok $((fio_rc || trace_rc)) "iotrace --heatmap while fio reads (fio $fio_rc, iotrace $trace_rc)"
$M iotrace --heatmap "$T/heat-from.svg" --from "$T/iotrace.json" \
	2>"$T/from.err"
ok $? "iotrace --heatmap --from the saved records"

$M run --html "$T/run.html" --profile -- sh -c \
	"dd if=/dev/nullb0 of=/dev/null bs=64k count=1000 iflag=direct 2>/dev/null; $out/clock_spin 500 nested" \
	>"$T/run.txt" 2>&1
ok $? "run --html --profile of a command"
rmmod null_blk

$M task run -i 1 --file "$T/task.meas" -- "$out/clock_spin" 400 \
	>/dev/null 2>&1 &&
	$M task report --svg "$T/task.svg" "$T/task.meas" >/dev/null
ok $? "task run, task report --svg"

rmmod meas
modprobe virtio_blk 2>/dev/null
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
tar -cf /dev/vda -C "$T" . && sync
ok $? "the pictures' inputs written to /dev/vda"
rm -rf "$T"
exit $status
