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

# run CMD [ARGS...]: one program of the suite; a failure fails the suite,
# and its time goes to the log (where a lane's minutes go)
run() {
	t0=$(date +%s)
	"$@" || status=1
	echo "# time: ${1##*/} $(($(date +%s) - t0)) s"
}

insmod "${MEAS_KO:-module/meas.ko}" || { echo "not ok 1 - insmod meas.ko"; exit 1; }
# /dev/meas as udev's rule gives it: group meas (the VM's stand-in), 0660
selftests/meas-udev.sh

# the size, flags and reserved rules of every ioctl struct, one table
run "$out/struct_rules_test"
run "$out/meas_test"

# disks and the I/O trace; they load null_blk and virtio_blk themselves
run "$out/io_test"
run "$out/iolat_test"
run selftests/measctl/iostat_test.sh

if [ -x selftests/measctl/measctl_test.sh ]; then
	run selftests/measctl/measctl_test.sh
fi

# meas-exporter: formats, promtool, diskstats, user classes, garbage
run selftests/exporter/exporter_test.sh
# meas-exporter's process groups: config, cap, monotony, conservation
run selftests/exporter/groups_test.sh

# the shared clock: GETCLOCK, GIVECLOCK, collectors, measctl profile
run "$out/clock_test"
run selftests/measctl/profile_test.sh "$out"

# user-defined classes and UPDATESTATISTICS; update_test loads and unloads
# module/example/meas_example.ko itself, custom_test reloads meas.ko
run "$out/update_test"
run selftests/measctl/custom_test.sh

# class 15: the process table, GETPROCSTATS, netlink, READACTIVE
run "$out/proc_test"
run selftests/measctl/proc_cmds_test.sh
# cgroups: item 64, the per-cgroup totals, class 14's cgroup
run "$out/cgroup_test"
run selftests/measctl/cgroup_cmds_test.sh

# task measurement: START/STOP-TASK-MEASUREMENT and measctl task
# (task_test's last test: rmmod refused under a measurement, then after
# its STOP, and meas.ko loaded again)
run "$out/task_test"
run selftests/measctl/task_cmds_test.sh "$out"

# the security model (Documentation/security.rst): a test for each rule,
# its race forced (sec_test's last test reloads meas.ko), then one
# unprivileged user trying everything at once for 30 s
"$out/sec_test" || status=1
# the second review (issue 37): a test for each finding
"$out/sec2_test" || status=1
"$out/adversary" || status=1

# random ioctls: every errno must be one the uapi header documents
run "$out/ioctl_fuzz" -n "${MEAS_FUZZ_CALLS:-300000}" -t "${MEAS_FUZZ_SECONDS:-120}"
# random generic netlink messages to the family "meas", the same rule
run "$out/genl_fuzz" -n "${MEAS_GENL_FUZZ_MSGS:-100000}" -t "${MEAS_FUZZ_SECONDS:-120}"

# info leaks: replies and records against a 0xa5 pattern
run "$out/leak_test"

# allocation failures one at a time; skipped without fail-nth
run "$out/failslab_test"

# stress: 32 workers, kill -9 storm, rmmod attempts (10 s; the debug lane 60)
run selftests/stress/stress.sh "$out" "${MEAS_STRESS_SECONDS:-10}"

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
run selftests/clock_unload.sh "$out"
# unloading with netlink listeners, a dump half read, requests racing
run "$out/unload_test"
exit $status
