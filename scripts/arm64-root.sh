#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 test root: a Debian 12 system for arm64, made from Debian's
# archive with mmdebstrap, whose maintainer scripts run under QEMU's
# user-mode emulation (qemu-user-static, registered with binfmt_misc
# here when it is not).  It is two things:
#   - the guest's root in the arm64 lanes (run-vm.sh --root), holding
#     what the VM suite runs besides meas's own programs: bash, busybox,
#     kmod, util-linux, python3, curl, promtool, binutils, ..., and the
#     libraries meas's programs are linked with;
#   - the sysroot meas's programs are cross-built against
#     (scripts/arm64-tools.sh): the same libraries' headers.
#
#   scripts/arm64-root.sh         make the root if it is missing or was
#                                 made from another package list; print
#                                 its path ($BUILD/arm64/root)
#   scripts/arm64-root.sh binfmt  only register the emulator
#
# Made aside and moved in place when whole.  Needs root (mmdebstrap,
# binfmt_misc).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=scripts/mmdebstrap-tries.sh
. "$top/scripts/mmdebstrap-tries.sh"
BUILD=${BUILD:-$top/build}
dir=$BUILD/arm64/root
mirror=http://deb.debian.org/debian

# The guest: what the VM suite and the smoke set run (guest.sh, the
# tests' scripts), the libraries of meas's programs, and their headers;
# the peers of make bench-arm64 (libbpf-tools' CO-RE programs).
pkgs="bash busybox-static coreutils util-linux kmod procps iproute2
findutils grep sed gawk diffutils binutils python3 curl e2fsprogs
libxml2-utils libbpf-tools
libc6-dev libnl-3-dev libnl-genl-3-dev libjson-c-dev libmicrohttpd-dev
libpcp-pmda3-dev libpcp3-dev libfuse3-dev fuse3"
# promtool alone, a static program, from the prometheus package: the
# package would bring its web interface's 300 MB of JavaScript.
promtool='cd /tmp && apt-get download -q prometheus'
# shellcheck disable=SC2016 # $1: mmdebstrap's hook's argument
promtool_x='dpkg-deb --fsys-tarfile "$1"/tmp/prometheus_*.deb | tar -xf - -C "$1" ./usr/bin/promtool && rm "$1"/tmp/prometheus_*.deb'

# qemu-aarch64 for arm64 programs, through binfmt_misc, with the F flag
# (the interpreter is opened now, so it works inside a chroot).
binfmt() {
	local reg=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	[ -f "$conf" ] || { echo "arm64-root: $conf missing: run 'make deps'" >&2; return 1; }
	[ -e "$reg/register" ] || mount -t binfmt_misc binfmt_misc "$reg" ||
		{ echo "arm64-root: cannot mount binfmt_misc" >&2; return 1; }
	[ -e "$reg/qemu-aarch64" ] || grep -v '^#' "$conf" >"$reg/register"
	grep -qx enabled "$reg/qemu-aarch64"
}

[ "$(id -u)" = 0 ] || { echo "arm64-root: needs root (mmdebstrap, binfmt_misc)" >&2; exit 2; }
binfmt
[ "${1:-}" != binfmt ] || exit 0

key=$(echo "bookworm $pkgs $promtool $promtool_x" | sha256sum | cut -c1-16)
mkdir -p "$BUILD/arm64"
exec 9>"$BUILD/arm64/root.lock"
flock 9
if [ "$(cat "$dir/.meas-key" 2>/dev/null)" != "$key" ]; then
	command -v mmdebstrap >/dev/null ||
		{ echo "arm64-root: mmdebstrap missing: run 'make deps'" >&2; exit 1; }
	t=$(date +%s)
	# shellcheck disable=SC2086 # the list is words
	mmdebstrap_tries arm64-root "$dir.new" \
		"$(printf '%s\n' "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
			"deb http://deb.debian.org/debian-security bookworm-security main")" \
		"$BUILD/arm64/root-mmdebstrap.log" bookworm --arch=arm64 --variant=apt \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--dpkgopt='path-exclude=/usr/share/{doc,man,info,locale}/*' \
		--include="$(echo $pkgs | tr ' ' ',')" \
		--customize-hook="chroot \"\$1\" sh -c '$promtool'" \
		--customize-hook="$promtool_x" || exit 1
	# No service starts in it (the VM runs no init of its own); users
	# and groups are the tests' (nobody is there).
	rm -f "$dir.new/etc/resolv.conf"
	# the guest's kernel modules are mounted there (run-vm.sh --modules)
	mkdir -p "$dir.new/lib/modules"
	echo "$key" >"$dir.new/.meas-key"
	rm -rf --one-file-system "$dir"
	mv "$dir.new" "$dir"
	echo "arm64-root: made $dir in $(($(date +%s) - t)) s" >&2
fi
echo "$dir"
