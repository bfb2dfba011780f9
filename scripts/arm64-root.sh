#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arm64 roots, Debian 12 systems for arm64 made from Debian's archive
# with mmdebstrap:
#   - the test root ($BUILD/arm64/root): the guest's root in the arm64
#     lanes (run-vm.sh --root), holding what the VM suite runs besides
#     meas's own programs (bash, busybox, kmod, util-linux, python3,
#     curl, promtool, binutils, ...), the libraries meas's programs are
#     linked with, and the peers of make bench-arm64 (libbpf-tools); and
#     the sysroot meas's programs are cross-built against
#     (scripts/arm64-tools.sh).  Its packages are unpacked, not
#     installed (mmdebstrap's extract variant, this machine's dpkg-deb):
#     none of their maintainer scripts runs, which under qemu-aarch64
#     made it the longest step of a fresh make check (1214 s at a load
#     of 5, 29 November 2026).  What those scripts would have made that
#     the tests use is made here: the alternatives' links (awk, which,
#     ...), the users and groups of base-passwd, the dynamic linker's
#     cache.  It has no package database: nothing is installed in it.
#   - the system root ($BUILD/arm64/system): the same packages installed
#     with apt, every maintainer script run under QEMU's user-mode
#     emulation, for what needs a Debian system with its dpkg: the
#     native package build (make deb-arm64) and the arm64 install test
#     (make pkgtest-arm64), neither part of make check.
# Both run arm64 programs through binfmt_misc (qemu-user-static,
# registered here when it is not).
#
#   scripts/arm64-root.sh         make the test root if it is missing or
#                                 was made from another package list or
#                                 recipe; print its path
#   scripts/arm64-root.sh system  the same for the system root
#   scripts/arm64-root.sh binfmt  only register the emulator
#   scripts/arm64-root.sh alternatives DIR
#                                 only make the alternatives' links of
#                                 the packages in DIR's apt cache, in
#                                 DIR (selftests/unit/alternatives_test.sh)
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

# The links update-alternatives would make for the packages in the
# root's apt cache, $1: each postinst's "update-alternatives --install
# LINK NAME PATH PRIORITY [--slave LINK NAME PATH]..." (lines joined),
# the highest priority of each NAME whose PATH is in the root, made as
# dpkg makes them (LINK -> /etc/alternatives/NAME -> PATH); commands
# with a variable in them are left (none of the root's packages has
# one today).
alternatives() {
	local r=$1 deb
	for deb in "$r"/var/cache/apt/archives/*.deb; do
		{ dpkg-deb -I "$deb" postinst 2>/dev/null || :; } | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
		awk '/update-alternatives/ && / --install / && !/\$/ {
			gsub(/["\047]/, "")
			for (i = 1; i <= NF; i++) if ($i == "--install") break
			m = $(i + 2); prio = $(i + 4)
			print m, prio, $(i + 1), m, $(i + 3)
			for (; i <= NF; i++) if ($i == "--slave") print m, prio, $(i + 1), $(i + 2), $(i + 3)
		}'
	done | sort -k1,1 -k2,2nr -s | {
		local -A made=()
		while read -r _ _ link name path; do
			if [ -n "${made[$link]:-}" ] || [ ! -e "$r$path" ]; then
				continue
			fi
			made[$link]=1
			[ -e "$r$link" ] || [ -L "$r$link" ] && continue
			mkdir -p "$r/etc/alternatives" "$(dirname "$r$link")"
			ln -sfn "$path" "$r/etc/alternatives/$name"
			ln -s "/etc/alternatives/$name" "$r$link"
		done
	}
}

# What the test root's packages' maintainer scripts would have made, in
# the unpacked root $1: the alternatives, base-passwd's users and
# groups, the linker's cache (ldconfig, under qemu-aarch64), promtool;
# then the apt cache and lists go, and the documentation (removed
# afterwards: mmdebstrap's unpacking honours a dpkg path-exclude by
# piping every package through a python3 filter of its own, minutes
# more at a load of 5).
finish_test_root() {
	local r=$1 deb f
	rm -rf "$r"/usr/share/doc/* "$r"/usr/share/man/* "$r"/usr/share/info/* \
		"$r"/usr/share/locale/*
	alternatives "$r"
	for f in passwd group; do
		[ -e "$r/etc/$f" ] || cp "$r/usr/share/base-passwd/$f.master" "$r/etc/$f"
	done
	chroot "$r" /sbin/ldconfig
	deb=$(BUILD=$BUILD "$top/scripts/arm64-apt.sh" fetch bookworm prometheus)
	dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$r" ./usr/bin/promtool
	rm -f "$deb" "$r"/var/cache/apt/archives/*.deb
	rm -rf "$r"/var/lib/apt/lists/*
}

# the links alone, in a directory of the caller's (its unit test)
if [ "${1:-}" = alternatives ]; then
	alternatives "${2:?usage: arm64-root.sh alternatives DIR}"
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo "arm64-root: needs root (mmdebstrap, binfmt_misc)" >&2; exit 2; }
binfmt
kind=${1:-test}
case "$kind" in
binfmt) exit 0 ;;
test) dir=$BUILD/arm64/root ;;
system) dir=$BUILD/arm64/system ;;
*) echo "usage: arm64-root.sh [system | binfmt | alternatives DIR]" >&2; exit 2 ;;
esac
sources="deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main"
opts=(bookworm --arch=arm64 --aptopt='Acquire::Check-Valid-Until "false"')
# A root is made again when its key changes: the system root's is its
# package list and promtool's recipe, the test root's its list and the
# functions that finish it.
# shellcheck disable=SC2086 # the list is words
if [ "$kind" = system ]; then
	key=$(echo "bookworm $pkgs $promtool $promtool_x" | sha256sum | cut -c1-16)
	opts+=(--variant=apt --include="$(echo $pkgs | tr ' ' ',')"
		--dpkgopt='path-exclude=/usr/share/{doc,man,info,locale}/*'
		--customize-hook="chroot \"\$1\" sh -c '$promtool'"
		--customize-hook="$promtool_x")
else
	key=$( { echo "bookworm extract $pkgs"; declare -f alternatives finish_test_root; } |
		sha256sum | cut -c1-16)
	# the Essential set, as every Debian system has, and the list
	opts+=(--variant=extract --include="?essential" --include="$(echo $pkgs | tr ' ' ',')"
		--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
		--skip=cleanup/apt/cache --skip=cleanup/apt/lists)
fi
mkdir -p "$BUILD/arm64"
exec 9>"$dir.lock"
flock 9
if [ "$(cat "$dir/.meas-key" 2>/dev/null)" != "$key" ]; then
	command -v mmdebstrap >/dev/null ||
		{ echo "arm64-root: mmdebstrap missing: run 'make deps'" >&2; exit 1; }
	t=$(date +%s)
	mmdebstrap_tries "arm64-root $kind" "$dir.new" "$sources" \
		"$dir-mmdebstrap.log" "${opts[@]}" || exit 1
	[ "$kind" = system ] || finish_test_root "$dir.new"
	# No service starts in it (the VM runs no init of its own).
	rm -f "$dir.new/etc/resolv.conf"
	# the guest's kernel modules are mounted there (run-vm.sh --modules)
	mkdir -p "$dir.new/lib/modules"
	echo "$key" >"$dir.new/.meas-key"
	rm -rf --one-file-system "$dir"
	mv "$dir.new" "$dir"
	echo "arm64-root: made $dir in $(($(date +%s) - t)) s" >&2
fi
echo "$dir"
