#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM as root, from the repository, with meas.ko not
# loaded: unloading while the shared clock ticks.  The module cannot go
# while the owner or its buffer descriptor is open; once the owner is
# killed (kill -9) the timers are cancelled and the module unloads, and
# the machine goes on.  TAP on stdout.
#   selftests/clock_unload.sh BUILD_DIR
set -u
out=${1:?usage: clock_unload.sh BUILD_DIR}
status=0
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		status=1
	fi
}

# Start a holder ticking every 5 ms on both CPUs; wait until it ticks.
hold() {
	"$out/clock_hold" -i 5 "$@" >/tmp/clock_hold.out 2>&1 &
	holder=$!
	i=0
	while ! grep -q ticking /tmp/clock_hold.out 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}

echo "TAP version 13"
echo "1..8"
# An earlier test may have left meas loaded and held: nothing to test then.
if grep -q '^meas ' /proc/modules && ! rmmod meas 2>/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do
		echo "ok $i # SKIP meas.ko is still held by an earlier test"
	done
	exit 0
fi
insmod "${MEAS_KO:-module/meas.ko}" && selftests/meas-udev.sh
ok $? "insmod"

hold -c pc
ok $? "holder ticks (PC sampler)"
rmmod meas 2>/dev/null
ok $((! $?)) "rmmod refused while the clock ticks"
kill -9 "$holder"
wait "$holder" 2>/dev/null
rmmod meas
ok $? "rmmod after the owner was killed"

insmod "${MEAS_KO:-module/meas.ko}"
hold -c snap
ok $? "holder ticks (snapshot collector)"
kill -9 "$holder"
wait "$holder" 2>/dev/null
rmmod meas
ok $? "rmmod after the snapshot owner was killed"

# The machine goes on: no timer fires into freed code.
sleep 1
grep -q '^meas ' /proc/modules
ok $((! $?)) "meas unloaded, machine still running"
insmod "${MEAS_KO:-module/meas.ko}" && rmmod meas
ok $? "load and unload again"
exit $status
