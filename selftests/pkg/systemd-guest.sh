#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# systemd-guest.sh - run by selftests/pkg/pkgtest.sh in the test VM booted
# with the root's systemd as PID 1 (run-vm.sh --root --systemd): what the
# packages do at boot (modules-load.d loads meas, udev gives /dev/meas to
# group meas) and meas-exporter.service as systemd runs it, with its
# hardening: a dynamic non-root user, CAP_PERFMON only, serving on
# 127.0.0.1. Prints TAP lines.

set -u
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$(dirname "$0")/tap.sh"

unit=meas-exporter.service
url=http://127.0.0.1:9872/metrics

ok "systemd is PID 1" test "$(cat /proc/1/comm)" = systemd
ok "meas was loaded at boot (modules-load.d)" test -d /sys/module/meas
# basic.target does not wait for udev to have handled the coldplug's
# events (systemd-udev-settle is not in it): what the rule did is looked
# at once udev's queue is empty, as a unit that needs the device would.
udevadm settle --timeout=60
ok "udev at boot: /dev/meas is 0660 root:meas" \
	test "$(stat -c '%a %U %G' /dev/meas 2>/dev/null)" = "660 root meas"
ok "the package enabled $unit" test "$(systemctl is-enabled $unit)" = enabled

# The unit is wanted by multi-user.target; this boot stops at basic.target.
started() {
	systemctl start "$unit" || return 1
	for _ in $(seq 1 60); do
		curl -sf -m 5 -o /dev/null "$url" && return 0
		sleep 1
	done
	systemctl status --no-pager "$unit"
	return 1
}
ok "systemctl start $unit, and it serves $url" started
pid=$(systemctl show -P MainPID $unit)
status() { # status FIELD: the field of the service's /proc/PID/status
	awk -v f="$1:" '$1 == f { print $2 }' "/proc/$pid/status"
}
# CAP_PERFMON is capability 38.
perfmon=0000004000000000
ok "it runs as a dynamic user, not root (uid $(status Uid))" \
	sh -c "[ '$(status Uid)' -ge 61184 ] && [ '$(status Uid)' -le 65519 ]"
ok "its effective capabilities are CAP_PERFMON alone" test "$(status CapEff)" = $perfmon
ok "its bounding set is CAP_PERFMON alone" test "$(status CapBnd)" = $perfmon
ok "no new privileges" test "$(status NoNewPrivs)" = 1
meas_gid=$(getent group meas | cut -d: -f3)
ok "it is in group meas (gid $meas_gid), the owner of /dev/meas" \
	grep -qE "^Groups:.*[[:space:]]$meas_gid([[:space:]]|\$)" "/proc/$pid/status"
scrape() {
	curl -sf -m 10 "$url" >/tmp/scrape.txt &&
		grep -q '^meas_build_info{' /tmp/scrape.txt &&
		grep -q '^meas_cpu_seconds_total{' /tmp/scrape.txt
}
ok "a scrape has meas_build_info and meas_cpu_seconds_total" scrape
ok "it listens on 127.0.0.1 only" \
	sh -c "ss -Hltn 'sport = :9872' | awk '{ print \$4 }' | grep -qx '127.0.0.1:9872'"
exposure=$(systemd-analyze security --no-pager $unit 2>/dev/null |
	sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
echo "# systemd-analyze security: exposure ${exposure:-?} (0 safest, 10 least)"
ok "systemd-analyze security rates it OK or better (exposure < 4.0)" \
	awk -v e="${exposure:-10}" 'BEGIN { exit !(e < 4.0) }'
ok "systemctl stop $unit" systemctl stop $unit
ok "after the stop no class is held: modprobe -r meas" modprobe -r meas
exit $((fails > 0))
