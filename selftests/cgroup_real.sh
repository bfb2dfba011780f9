#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cgroup_real.sh BUILD_DIR - the cgroups of meas with real parts
# (make check-cgroups; Documentation/cgroup.rst, "Tested with real
# parts").  Runs in the test VM booted with the host's systemd as PID 1
# (run-vm.sh --systemd), as root, from the repository, with the scratch
# disk as /dev/vda. It
#   - loads the test build's meas.ko (MEAS_KO);
#   - puts an ext4 file system on the disk's first 32 MiB (the raw part
#     from 48 MiB on is the direct I/O's);
#   - makes a podman image from busybox-static, with podman's storage on
#     a tmpfs (the root is read-only): nothing is pulled;
#   - runs cgroup_real_test, which makes systemd services with
#     systemd-run and a podman container (crun, systemd's cgroup manager)
#     and compares meas with cpu.stat and io.stat.
# Prints TAP lines; a skip is a failure here, as this lane exists to run
# them.
set -u
out=${1:?usage: cgroup_real.sh BUILD_DIR}
# shellcheck source-path=SCRIPTDIR source=pkg/tap.sh
. "$(dirname "$0")/pkg/tap.sh"

disk=/dev/vda
mnt=/run/meas-cgr-disk
store=/tmp/meas-cgr-podman
image=localhost/meas-busybox
# Everything podman writes goes to a tmpfs, the root being read-only.
popts="--root $store/root --runroot $store/run --storage-driver vfs --network-config-dir $store/net"
# shellcheck disable=SC2206 # one option per word
pod=(podman $popts)

ok "systemd is PID 1" test "$(cat /proc/1/comm)" = systemd
ok "insmod meas.ko" insmod "${MEAS_KO:-module/meas.ko}"
wait_dev_node() {
	udevadm settle --timeout=30
	test -b "$disk"
}
ok "the scratch disk is there ($disk)" wait_dev_node

fs() {
	modprobe ext4 2>/dev/null
	mkfs.ext4 -q -F "$disk" 32M && mkdir -p "$mnt" && mount "$disk" "$mnt"
}
ok "ext4 on the disk's first 32 MiB, mounted" fs

# The image: busybox-static and its applets as links, imported as a
# file system tarball (podman import), as a user without a registry does.
mkimage() {
	local r=$store/rootfs
	mkdir -p "$r/bin" "$r/data" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" &&
		cp /bin/busybox "$r/bin/busybox" &&
		for a in sh dd sleep true cat touch test; do ln -sf busybox "$r/bin/$a"; done &&
		tar -C "$r" -cf "$store/rootfs.tar" . &&
		"${pod[@]}" import -q "$store/rootfs.tar" "$image" >/dev/null
}
ok "a podman image from busybox-static ($image)" mkimage

# cgroup_real_test calls podman as users do; its storage options come
# from this wrapper, first in PATH.
mkdir -p "$store/bin"
printf '#!/bin/sh\nexec /usr/bin/podman %s "$@"\n' "$popts" >"$store/bin/podman"
chmod +x "$store/bin/podman"

PATH=$store/bin:$PATH MEAS_CGR_DISK=$disk MEAS_CGR_MNT=$mnt \
	MEAS_CGR_IMAGE=$image "$out/cgroup_real_test" 2>&1 |
	sed 's/^ok \([0-9]*\) \(real\.[^ ]*\) # SKIP/not ok \1 \2 skipped:/'
rc=${PIPESTATUS[0]}
ok "cgroup_real_test passed" test "$rc" = 0

# measctl names them: in its tree, a service by its unit and a container
# by its ID, each with its waits by reason (issue 36's "which service,
# which container?"), from what a user runs
measctl=tools/measctl/measctl
export PATH=$store/bin:$PATH
named() {
	local cid
	$measctl start 15 >/dev/null || return 1
	systemd-run --quiet --unit=meas-cgr-named /bin/sh -c \
		"dd if=$disk of=/dev/null bs=4k count=100 skip=12288 iflag=direct status=none; touch $store/named; exec sleep 600" ||
		return 1
	mkdir -p "$store/ct"
	cid=$(podman run -d --network none -v "$store/ct:/out" "$image" /bin/sh -c \
		'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; touch /out/done; exec sleep 600') ||
		return 1
	# both done within two minutes (TCG), checked ten times a second
	for _ in $(seq 1200); do
		[ -e "$store/named" ] && [ -e "$store/ct/done" ] && break
		sleep 0.1
	done
	[ -e "$store/named" ] && [ -e "$store/ct/done" ] || return 1
	$measctl --json cgroup -d 0 >"$store/tree.json" || return 1
	$measctl cgroup -d 0 -s path | sed 's/^/# /'
	python3 "$(dirname "$0")/cgroup_named.py" "$store/tree.json" "$cid"
}
ok "measctl cgroup names the service and the container, with their waits" named
podman rm -f -t 0 --all >/dev/null 2>&1
systemctl stop meas-cgr-named.service
$measctl stop 15 >/dev/null

umount "$mnt"
ok "meas unloads" rmmod meas
exit $((fails > 0))
