#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package meas needs to build, run and test:
# non-interactive, and a no-op when everything is there already.
#   scripts/deps.sh [debug] [matrix]
# "debug" adds what building the debug kernel needs (make check-debug).
# "matrix" adds the kernels of the test matrix (make deps-matrix, make
# check): Debian 12's 6.1 and 6.12, generic, cloud and PREEMPT_RT, each
# image with its headers (the metapackages follow Debian's updates).
set -eu

PKGS="build-essential pkg-config kmod cpio xz-utils bc python3 util-linux
linux-headers-amd64 linux-image-amd64 linux-source-6.1
qemu-system-x86 busybox-static fio
libnl-3-dev libnl-genl-3-dev sparse"
# meas-exporter: its HTTP server library; promtool and a real Prometheus,
# and curl, for its tests (make check-prometheus); node_exporter for its
# benchmark (make bench)
PKGS="$PKGS libmicrohttpd-dev prometheus curl prometheus-node-exporter"
# pmdameas, the PCP agent: its library (libpcp-pmda3-dev), and Debian's
# PCP itself, whose pmcd, pmlogger and pmrep the test runs in the VM
# (make check-pcp), with sasl2-bin's saslpasswd2 for its SASL client
# (libsasl2-modules, which pcp pulls in, has the plain mechanism)
PKGS="$PKGS libpcp-pmda3-dev libpcp3-dev pcp sasl2-bin libsasl2-modules"
# meas-exporter's process groups: process-exporter for their benchmark
# (make bench, selftests/bench/groups_bench.sh)
PKGS="$PKGS prometheus-process-exporter"
# make man, make deb, make pkgtest: man pages (rst2man, man), the Debian
# packages and their lintian check, DKMS, completion and udev in the test
PKGS="$PKGS dkms debhelper dh-dkms dpkg-dev fakeroot lintian python3-docutils man-db groff-base bash-completion udev adduser"
# pictures (Documentation/pictures.rst): the heat map reads saved JSON
# (json-c); the browser test renders them (chromium) and checks the SVG
# (xmllint)
PKGS="$PKGS libjson-c-dev chromium libxml2-utils"
# the build roots of Debian 13's and sid's kernels (scripts/root.sh),
# made from Debian's archive
PKGS="$PKGS mmdebstrap"
# the arm64 lanes (scripts/arm64-*.sh): the cross compiler of Debian 12's
# arm64 kernels, QEMU for arm64 (qemu-system-aarch64), QEMU's user-mode
# emulation and arch-test, with which mmdebstrap makes the arm64 test
# root, arm's uapi headers (measctl's names of arm64's 32-bit calls) and
# rsync (the arm64 copy of the tree)
PKGS="$PKGS gcc-aarch64-linux-gnu qemu-system-arm qemu-user-static arch-test
linux-libc-dev-armhf-cross rsync"
# make bench: the peers meas is shown beside (selftests/bench/peers.sh),
# libbpf-tools' compiled CO-RE programs (runqlat, cpudist, biolatency,
# offcputime), bpftrace programs counting the same events and perf
# record sampling at the sampler's rate, run in the test VM from the
# host root
PKGS="$PKGS libbpf-tools bpftrace linux-perf"
# make check-insn: QEMU's dynamic user-mode emulator, which loads TCG
# plugins (qemu-user-static cannot), runs an arm64 program under the
# instruction counter; its assembler comes with gcc-aarch64-linux-gnu
PKGS="$PKGS qemu-user"
# make check-cgroups: a real container in the test VM, with Debian's
# podman and crun (selftests/cgroup_real.sh), and the ext4 it writes to
PKGS="$PKGS podman crun e2fsprogs"
# the security tests: a FUSE file system that stops answering, for the
# task file's end (selftests/stallfs.c: libfuse3; fuse3 for its mount
# helper)
PKGS="$PKGS libfuse3-dev fuse3"
for arg in "$@"; do
	case "$arg" in
	debug) PKGS="$PKGS flex bison libelf-dev libssl-dev" ;;
	# the kernel matrix (scripts/kver.sh --matrix): images and headers
	matrix) PKGS="$PKGS linux-image-cloud-amd64 linux-headers-cloud-amd64
linux-image-rt-amd64 linux-headers-rt-amd64
linux-image-6.12-amd64 linux-headers-6.12-amd64
linux-image-6.12-cloud-amd64 linux-headers-6.12-cloud-amd64
linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64" ;;
	*) echo "deps: unknown argument: $arg" >&2; exit 2 ;;
	esac
done

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "deps: missing packages:$missing; run as root" >&2
		exit 1
	fi
else
	SUDO=
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# In a container without systemd, pcp's postinst would fail at
# "systemctl start pmcd": offline, systemctl only records what is enabled.
[ -d /run/systemd/system ] || export SYSTEMD_OFFLINE=1
$SUDO apt-get update -qq -o DPkg::Lock::Timeout=900 -o Acquire::Retries=10
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 -o Acquire::Retries=10 $missing >/dev/null
# Debian's prometheus packages start their services on install, listening
# on every address; the tests and the benchmark run their own, on
# 127.0.0.1 or inside the test VM.
for svc in prometheus prometheus-node-exporter prometheus-process-exporter; do
	case " $missing " in
	*" $svc "*)
		if [ -d /run/systemd/system ]; then
			$SUDO systemctl disable --now "$svc.service" >/dev/null 2>&1 || true
		fi ;;
	esac
done
