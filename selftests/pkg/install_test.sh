#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install_test.sh - make install and make uninstall into a DESTDIR, with
# the default PREFIX (/usr/local) and with PREFIX=/usr: every file in its
# place, then none left. TAP on stdout; run by make pkgtest.

set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=${BUILD:-$repo/build}
d=$BUILD/install-test
version=$(cat "$repo/VERSION")
n=0
status=0
ok() {
	local what=$1
	shift
	n=$((n + 1))
	if "$@" >>"$d.log" 2>&1; then
		echo "ok $n - install: $what"
	else
		echo "not ok $n - install: $what"
		status=1
	fi
}
all_there() { # all_there ROOT FILE...: each FILE under ROOT
	local f
	for f in "${@:2}"; do
		[ -f "$1$f" ] || { echo "missing: $f"; return 1; }
	done
}
nothing_left() {
	local left
	left=$(find "$1" -type f)
	[ -z "$left" ] || { echo "left: $left"; return 1; }
}

: >"$d.log"
# the supported kernel series, as dkms.conf states them
kmin=$(sed -n 's/^MEAS_KERNEL_MIN="\(.*\)"$/\1/p' "$repo/dkms.conf")
kmax=$(sed -n 's/^MEAS_KERNEL_MAX="\(.*\)"$/\1/p' "$repo/dkms.conf")
uapi=$(cd "$repo/uapi/linux" && ls ./*.h | sed 's|^\./||')
for prefix in /usr/local /usr; do
	rm -rf "$d"
	mk=(make -C "$repo" --no-print-directory DESTDIR="$d" PREFIX="$prefix")
	if [ "$prefix" = /usr ]; then
		sys=(/lib/udev/rules.d/60-meas.rules /usr/lib/modules-load.d/meas.conf
			/usr/lib/modprobe.d/meas-kernel.conf)
		mk+=(UDEV_RULESDIR=/lib/udev/rules.d)
	else
		sys=(/etc/udev/rules.d/60-meas.rules /etc/modules-load.d/meas.conf
			/etc/modprobe.d/meas-kernel.conf)
	fi
	ok "make install PREFIX=$prefix DESTDIR=..." "${mk[@]}" install
	ok "PREFIX=$prefix: tool, man pages, completion, library, pkg-config" all_there "$d" \
		"$prefix/sbin/measctl" "$prefix/share/man/man8/measctl.8" \
		"$prefix/share/man/man4/meas.4" \
		"$prefix/share/bash-completion/completions/measctl" \
		"$prefix/lib/libmeas.a" "$prefix/lib/pkgconfig/libmeas.pc" \
		"$prefix/include/meas/libmeas.h"
	# shellcheck disable=SC2086 # one header per word
	ok "PREFIX=$prefix: every uapi header" all_there "$d$prefix/include/meas/linux/" $uapi
	ok "PREFIX=$prefix: DKMS sources in /usr/src/meas-$version" all_there "$d" \
		"/usr/src/meas-$version/dkms.conf" "/usr/src/meas-$version/Kbuild" \
		"/usr/src/meas-$version/VERSION" "/usr/src/meas-$version/module/Kbuild" \
		"/usr/src/meas-$version/module/main.c"
	ok "PREFIX=$prefix: udev rule, modules-load.d, modprobe.d" all_there "$d" \
		"${sys[@]}" /etc/modprobe.d/meas.conf
	ok "PREFIX=$prefix: meas-kernel and its kernel hook" all_there "$d" \
		"$prefix/lib/meas/meas-kernel" /etc/kernel/postinst.d/meas
	ok "PREFIX=$prefix: modprobe.d and the hook call meas-kernel where it is" sh -c \
		"grep -q '^install meas $prefix/lib/meas/meas-kernel modprobe' '$d${sys[2]}' &&
		grep -q '^exec $prefix/lib/meas/meas-kernel check' '$d/etc/kernel/postinst.d/meas'"
	ok "PREFIX=$prefix: meas-kernel has dkms.conf's range, $kmin to $kmax" \
		test "$(grep -E '^m(in|ax)=' "$d$prefix/lib/meas/meas-kernel" | paste -sd' ')" = \
		"min=$kmin max=$kmax"
	ok "PREFIX=$prefix: libmeas.pc names the prefix and the version" sh -c \
		"grep -qx 'prefix=$prefix' '$d$prefix/lib/pkgconfig/libmeas.pc' &&
		grep -qx 'Version: $version' '$d$prefix/lib/pkgconfig/libmeas.pc'"
	ok "make uninstall PREFIX=$prefix DESTDIR=..." "${mk[@]}" uninstall
	ok "PREFIX=$prefix: make uninstall leaves no file" nothing_left "$d"
done
rm -rf "$d"
exit $status
