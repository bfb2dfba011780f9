#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel of the reliability lane from Debian's
# linux-source tarball: x86_64 defconfig + kvm_guest.config + debug.config
# (KASAN, lockdep, kmemleak, UBSAN, ...).  The build is cached outside the
# working tree, keyed by the tarball and the fragment, so it is made once
# per machine; prints the build directory (usable as KDIR).
#   selftests/debug-kernel/build.sh
#
# Standard output carries that directory and nothing else (the Makefile
# takes it as the kernel directory): everything the kernel's build and
# configuration tools print goes to standard error.  On failure nothing is
# printed to standard output and the exit status is not 0.
# selftests/debug-kernel/build_test.sh checks this on a fresh cache.
#
# Environment: MEAS_DEBUG_CACHE (the cache, default ~/.cache/meas),
# LINUX_SRC_TAR (the tarball, default the newest linux-source in /usr/src).
set -eu
exec 3>&1 1>&2
here=$(cd "$(dirname "$0")" && pwd)
tarball=${LINUX_SRC_TAR:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)}
[ -n "$tarball" ] || { echo "linux-source tarball missing: run 'make deps'" >&2; exit 1; }
key=$( { stat -c '%n %s %Y' "$tarball"; cat "$here/debug.config"; } | sha256sum | cut -c1-16)
cache=${MEAS_DEBUG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/meas}
dir="$cache/debug-kernel-$key"
if [ -f "$dir/.done" ]; then
	echo "$dir/src" >&3
	exit 0
fi
for p in flex bison bc libelf-dev libssl-dev; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		{ echo "debug kernel: $p missing: run 'make deps-debug'" >&2; exit 1; }
done
rm -rf "$dir"
mkdir -p "$dir/src"
start=$(date +%s)
tar -xJf "$tarball" -C "$dir/src" --strip-components=1
cd "$dir/src"
make -s defconfig
make -s kvm_guest.config
scripts/kconfig/merge_config.sh -m .config "$here/debug.config" >/dev/null
make -s olddefconfig
for opt in KASAN PROVE_LOCKING DEBUG_KMEMLEAK UBSAN DEBUG_LIST 9P_FS \
	   CHECKPOINT_RESTORE DETECT_HUNG_TASK FAILSLAB FAULT_INJECTION_DEBUG_FS; do
	grep -q "^CONFIG_$opt=y" .config ||
		{ echo "debug kernel: CONFIG_$opt did not survive olddefconfig" >&2; exit 1; }
done
make -s -j"$(nproc)" bzImage modules
make -s modules_install INSTALL_MOD_PATH="$dir/root" >/dev/null
echo "$(($(date +%s) - start))" >"$dir/build-seconds"
touch "$dir/.done"
echo "$dir/src" >&3
