#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - runs inside the meas test VM started by selftests/vm/run-vm.sh
# (chrooted into the read-only host root, as a child of the initramfs /init).
# Not meant to be run on the host.
#
# Runs the command from /run/meas/cmd in the repository directory, then
# reports "MEAS-VM-EXIT <status>" on /dev/ttyS1 (preceded by the kernel log;
# on arm64 the virtio port /init found)
# and powers the VM off.  If the command or this script is killed, or the
# kernel crashes, no status line is written, so the host reports a failure.
#
# Every exec costs noticeable time under TCG with the root on 9p, so this
# script sticks to bash builtins and the static busybox where it can.

set -u

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TMPDIR=/tmp LANG=C.UTF-8 TERM=dumb USER=root LOGNAME=root SHELL=/bin/bash
export MEAS_VM=1
unset LC_ALL

meta=/run/meas
if [ ! -r "$meta/cmd" ] || [ ! -r "$meta/repo" ]; then
	echo "guest.sh: not inside a meas test VM (no $meta/cmd)" >&2
	exit 2
fi
read -r repo <"$meta/repo"
lvl=""
[ -s "$meta/loglevel" ] && read -r lvl <"$meta/loglevel"

echo meas-vm >/proc/sys/kernel/hostname

# Wait until everything written to the console has left the UART: setting
# the (unchanged) terminal attributes is done with TCSADRAIN.
drain_console() {
	local mode
	mode=$(busybox stty -F /dev/console -g 2>/dev/null) &&
		busybox stty -F /dev/console "$mode" 2>/dev/null
}

power_off() {
	# isa-debug-exit (added by run-vm.sh): QEMU exits at once, silently.
	printf '\0' | busybox dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	busybox poweroff -f 2>/dev/null
	echo o >/proc/sysrq-trigger
	sleep 60
}

# shellcheck source=/dev/null
. "$meta/env"
# shellcheck source=/dev/null
. "$meta/cmd"

if ! cd "$repo"; then
	echo "guest.sh: cannot cd to $repo" >&2
	drain_console
	power_off
fi

# --hostfwd: the virtio-net card on QEMU's user-mode network, whose
# gateway forwards the host's 127.0.0.1 ports to 10.0.2.15.
if [ -e "$meta/net" ]; then
	modprobe virtio_net 2>/dev/null
	ip link set lo up
	ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 ||
		echo "guest.sh: no network" >&2
fi

# Console loglevel while the command runs (boot is quieter).
[ -z "$lvl" ] || echo "$lvl" >/proc/sys/kernel/printk

"$@" </dev/null
rc=$?

# The status port: the second serial port, or what /init found (arm64)
res=/dev/ttyS1
[ -s "$meta/result" ] && read -r res <"$meta/result"
drain_console
{
	dmesg 2>/dev/null
	echo "MEAS-VM-EXIT $rc"
} >"$res"
sync
power_off
