#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - run by selftests/pkg/pkgtest.sh in the test VM, whose root is
# the throw-away system where the packages were installed (run-vm.sh
# --root): the module as DKMS installed it, loaded with modprobe, /dev/meas
# as udev sets it up, measctl from PATH; with the argument "pcp", also
# meas-pcp's agent in Debian's pmcd (pcp-guest.sh). Prints TAP lines.

set -u
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$(dirname "$0")/tap.sh"

k=$(uname -r)
ok "modprobe meas" modprobe meas
# meas.ko, or meas.ko.xz where the kernel's modules are compressed (6.12)
dkms_ko() {
	local f
	f=$(modinfo -F filename meas) && echo "$f" &&
		[[ $f == "/lib/modules/$k/updates/dkms/meas.ko"* ]]
}
ok "the module loaded is DKMS's, /lib/modules/$k/updates/dkms/meas.ko*" dkms_ko
ok "modprobe.d: proc_slots=1024 from /etc/modprobe.d/meas.conf" \
	test "$(cat /sys/module/meas/parameters/proc_slots)" = 1024

# udev, as at boot: the daemon applies 60-meas.rules to the device. The
# test runs in the chroot run-vm.sh's /init makes, where udevadm would
# ignore requests: it is the system's root all the same.
udev_mode() {
	export SYSTEMD_IGNORE_CHROOT=1
	/lib/systemd/systemd-udevd --daemon --resolve-names=late || return 1
	udevadm trigger --action=add --subsystem-match=misc --sysname-match=meas &&
		udevadm settle --timeout=60
	local rc=$?
	udevadm control --exit
	[ "$rc" = 0 ] || return 1
	stat -c '%a %U %G' /dev/meas
	test "$(stat -c '%a %U %G' /dev/meas)" = "660 root meas"
}
ok "udev: /dev/meas is 0660 root:meas" udev_mode

ok "measctl from PATH is /usr/sbin/measctl" test "$(command -v measctl)" = /usr/sbin/measctl
ok "measctl info" measctl info
ok "measctl run -- true (START, GET, STOP of class 0)" measctl run -- true
ok "measctl --json get 0 0 -3 3 while class 0 is held" \
	sh -c 'measctl start 0 && measctl --json get 0 0 -3 3 | grep -q "\"items\""; rc=$?; measctl stop; exit $rc'
ok "a member of group meas may use /dev/meas" \
	setpriv --reuid meas-user --regid meas-user --init-groups measctl info
ok "a user outside group meas may not open /dev/meas" \
	sh -c '! setpriv --reuid meas-other --regid meas-other --init-groups measctl info'
if [ "${1:-}" = pcp ]; then
	# shellcheck source-path=SCRIPTDIR source=pcp-guest.sh
	. "$(dirname "$0")/pcp-guest.sh"
fi
ok "modprobe -r meas" modprobe -r meas

# Where meas is missing, modprobe and measctl say why (Documentation/
# install.rst, "Kernels outside the range"): installed but not loaded;
# then, with DKMS's directory hidden, no module for this kernel.
ok "measctl with meas unloaded says to load it" \
	sh -c 'measctl info 2>&1 | tee /dev/stderr | grep -q "meas is not loaded: modprobe meas"'
hidden() {
	mount -t tmpfs meas-hide "/lib/modules/$k/updates" || return 1
	local rc=0
	modprobe meas 2>/tmp/modprobe.err && rc=1
	cat /tmp/modprobe.err
	grep -q "no meas module for the running kernel $k" /tmp/modprobe.err || rc=1
	umount "/lib/modules/$k/updates"
	return $rc
}
ok "modprobe meas where the kernel has no meas module fails and says why" hidden
exit $((fails > 0))
