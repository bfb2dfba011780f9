#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Put the qemu-plugin.h of the installed QEMU into DIR/include/qemu/, for
# building the instruction-count plugin (insncount.c).  The header comes
# from Debian's qemu source package of exactly the installed version
# (apt-get source --download-only), of which only that one file is kept;
# a no-op when DIR already has it for that version.  Adds a deb-src entry
# for the archives apt already uses, in a file of its own, when apt has
# none for qemu.  Runs as root (make deps does).
#   selftests/bench/insn/qemu-plugin-h.sh DIR
set -eu
dir=${1:?usage: qemu-plugin-h.sh DIR}
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86)
[ -n "$ver" ] || { echo "qemu-plugin-h: qemu-system-x86 is not installed" >&2; exit 1; }
hdr=$dir/include/qemu/qemu-plugin.h
if [ -f "$hdr" ] && [ "$(cat "$dir/version" 2>/dev/null)" = "$ver" ]; then
	exit 0
fi

list=/etc/apt/sources.list.d/meas-deb-src.sources
if ! apt-cache showsrc qemu 2>/dev/null | grep -qx "Version: $ver"; then
	if [ ! -f "$list" ]; then
		# the same archives, suites and keys as the binary packages
		for f in /etc/apt/sources.list.d/*.sources; do
			[ "$f" = "$list" ] && continue
			grep -q '^URIs:.*debian' "$f" || continue
			sed 's/^Types: deb$/Types: deb-src/' "$f"
			echo
		done >"$list"
	fi
	apt-get update -qq -o DPkg::Lock::Timeout=900
fi

src=$dir/src
rm -rf "$src"
mkdir -p "$src" "$dir/include/qemu"
(cd "$src" && apt-get source --download-only -qq "qemu=$ver" 2>/dev/null)
orig=$(ls "$src"/qemu_*.orig.tar.*)
debian=$(ls "$src"/qemu_*.debian.tar.*)
# Debian's patches must leave the header alone, or it is not the one
# the binary was built with.
if tar -xOf "$debian" --wildcards 'debian/patches/*' | grep -q 'qemu-plugin\.h'; then
	echo "qemu-plugin-h: Debian patches qemu-plugin.h; apply them here" >&2
	exit 1
fi
tar -xOf "$orig" --wildcards '*/include/qemu/qemu-plugin.h' >"$hdr.tmp"
mv "$hdr.tmp" "$hdr"
echo "$ver" >"$dir/version"
rm -rf "$src"
