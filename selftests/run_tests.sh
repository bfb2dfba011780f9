#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM as root, from the repository: loads meas.ko,
# runs every selftest (TAP on the console), then checks that the module
# cannot go while a file is open and goes cleanly after.
#   selftests/run_tests.sh BUILD_DIR
set -u
out=${1:?usage: run_tests.sh BUILD_DIR}
status=0

insmod "${MEAS_KO:-module/meas.ko}" || { echo "not ok 1 - insmod meas.ko"; exit 1; }
# /dev/meas as udev's rule gives it: group meas (the VM's stand-in), 0660
selftests/meas-udev.sh

# the size, flags and reserved rules of every ioctl struct, one table
"$out/struct_rules_test" || status=1
"$out/meas_test" || status=1

# disks and the I/O trace; they load null_blk and virtio_blk themselves
"$out/io_test" || status=1
"$out/iolat_test" || status=1
selftests/measctl/iostat_test.sh || status=1

if [ -x selftests/measctl/measctl_test.sh ]; then
	selftests/measctl/measctl_test.sh || status=1
fi

# meas-exporter: formats, promtool, diskstats, user classes, garbage
selftests/exporter/exporter_test.sh || status=1
# meas-exporter's process groups: config, cap, monotony, conservation
selftests/exporter/groups_test.sh || status=1

# the shared clock: GETCLOCK, GIVECLOCK, collectors, measctl profile
"$out/clock_test" || status=1
selftests/measctl/profile_test.sh "$out" || status=1

# user-defined classes and UPDATESTATISTICS; update_test loads and unloads
# module/example/meas_example.ko itself, custom_test reloads meas.ko
"$out/update_test" || status=1
selftests/measctl/custom_test.sh || status=1

# class 15: the process table, GETPROCSTATS, netlink, READACTIVE
"$out/proc_test" || status=1
selftests/measctl/proc_cmds_test.sh || status=1

# task measurement: START/STOP-TASK-MEASUREMENT and measctl task
# (task_test's last test unloads meas.ko under a measurement and reloads it)
"$out/task_test" || status=1
selftests/measctl/task_cmds_test.sh "$out" || status=1

# the security model (Documentation/security.rst): a test for each rule,
# its race forced (sec_test's last test reloads meas.ko), then one
# unprivileged user trying everything at once for 30 s
"$out/sec_test" || status=1
"$out/adversary" || status=1

# random ioctls: every errno must be one the uapi header documents
"$out/ioctl_fuzz" -n "${MEAS_FUZZ_CALLS:-300000}" -t "${MEAS_FUZZ_SECONDS:-120}" || status=1
# random generic netlink messages to the family "meas", the same rule
"$out/genl_fuzz" -n "${MEAS_GENL_FUZZ_MSGS:-100000}" -t "${MEAS_FUZZ_SECONDS:-120}" || status=1

# info leaks: replies and records against a 0xa5 pattern
"$out/leak_test" || status=1

# allocation failures one at a time; skipped without fail-nth
"$out/failslab_test" || status=1

# stress: 32 workers, kill -9 storm, rmmod attempts (10 s; the debug lane 60)
selftests/stress/stress.sh "$out" "${MEAS_STRESS_SECONDS:-10}" || status=1

echo "TAP version 13"
echo "1..3"
exec 3</dev/meas
if rmmod meas 2>/dev/null; then
	echo "not ok 1 - rmmod refused while /dev/meas is open"
	status=1
	exec 3<&-
else
	echo "ok 1 - rmmod refused while /dev/meas is open"
	exec 3<&-
	if rmmod meas; then
		echo "ok 2 - rmmod after close"
	else
		echo "not ok 2 - rmmod after close"
		status=1
	fi
fi
# A probe left registered would run freed code on the next switches.
sleep 1
if grep -q '^meas ' /proc/modules; then
	echo "not ok 3 - meas unloaded, system still scheduling"
	status=1
else
	echo "ok 3 - meas unloaded, system still scheduling"
fi

# the shared clock: unloading while it ticks (loads meas.ko itself)
selftests/clock_unload.sh "$out" || status=1
# unloading with netlink listeners, a dump half read, requests racing
"$out/unload_test" || status=1
exit $status
