#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel of the reliability lanes from Debian's linux-source
# tarball: x86_64 defconfig + kvm_guest.config + debug.config (KASAN,
# lockdep, kmemleak, UBSAN, ...) and, by lane, preempt.config and
# kcsan.config.  The build is cached outside the working tree, keyed by
# the tarball, the fragments and the compiler, so it is made once per
# machine; prints the build directory (usable as KDIR).
#   selftests/debug-kernel/build.sh [--source VERSION] [--kcsan]
#
# Without --source: the newest linux-source of this machine (Debian 12's
# 6.1), built here with debug.config alone (make check-debug).
# --source VERSION: linux-source-VERSION; this machine's if installed
# here (so --source 6.1 is the default's kernel), otherwise Debian 13's
# (trixie and its backports, e.g. 7.3), installed in the trixie build
# root by scripts/root.sh --source and built there with Debian 13's
# compiler, with preempt.config (full preemption) after debug.config.
# --kcsan: kcsan.config last: KCSAN instead of KASAN, kmemleak and
# lockdep (make check-kcsan).
#
# Standard output carries that directory and nothing else (the Makefile
# takes it as the kernel directory): everything the kernel's build and
# configuration tools print goes to standard error.  On failure nothing is
# printed to standard output and the exit status is not 0.
# selftests/debug-kernel/build_test.sh checks this on a fresh cache.
# A kernel built in a root has the root's name in ROOT-NAME beside its
# src/ directory: modules for it are built there too (kmake.sh).
#
# Environment: MEAS_DEBUG_CACHE (the cache, default ~/.cache/meas),
# LINUX_SRC_TAR (the tarball without --source, default the newest
# linux-source in /usr/src), BUILD (where the roots are, default build/).
set -eu
exec 3>&1 1>&2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd -P)
version='' kcsan=0
while [ $# -gt 0 ]; do
	case "$1" in
	--source) version=${2:?usage: build.sh [--source VERSION] [--kcsan]}; shift 2 ;;
	--kcsan) kcsan=1; shift ;;
	*) echo "usage: build.sh [--source VERSION] [--kcsan]" >&2; exit 2 ;;
	esac
done

# The options each lane must have once olddefconfig has resolved them.
opts="KASAN PROVE_LOCKING DEBUG_KMEMLEAK UBSAN DEBUG_LIST 9P_FS FUSE_FS \
CHECKPOINT_RESTORE DETECT_HUNG_TASK FAILSLAB FAULT_INJECTION_DEBUG_FS"
frags=$here/debug.config
rootname=
if [ -n "$version" ] && [ ! -f "/usr/src/linux-source-$version.tar.xz" ]; then
	rootname=trixie
	tarball=$(BUILD=${BUILD:-$top/build} "$top/scripts/root.sh" --source "$rootname" "$version")
	root=${BUILD:-$top/build}/roots/$rootname
	frags="$frags $here/preempt.config"
	opts="$opts PREEMPT DEBUG_PREEMPT DEBUG_ATOMIC_SLEEP"
elif [ -n "$version" ]; then
	tarball=/usr/src/linux-source-$version.tar.xz
else
	tarball=${LINUX_SRC_TAR:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)}
fi
[ -n "$tarball" ] || { echo "linux-source tarball missing: run 'make deps'" >&2; exit 1; }
if [ "$kcsan" = 1 ]; then
	frags="$frags $here/kcsan.config"
	opts="KCSAN KCSAN_STRICT KCSAN_WEAK_MEMORY DEBUG_LIST 9P_FS FUSE_FS \
CHECKPOINT_RESTORE DETECT_HUNG_TASK FAULT_INJECTION_DEBUG_FS DEBUG_ATOMIC_SLEEP"
	[ -z "$rootname" ] || opts="$opts PREEMPT DEBUG_PREEMPT"
fi

# Runs a command in the kernel tree, in the root for a root's kernel.
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
run() {
	if [ -n "$rootname" ]; then
		"$top/scripts/in-root.sh" "$root" --bind "$dir" -- \
			sh -c 'cd "$0" && exec "$@"' "$dir/src" "$@"
	else
		"$@"
	fi
}

# The 6.1 lane's key is the tarball's path, size and time and
# debug.config, as it always was; a root's kernel also has its
# compiler, and its tarball's name rather than path (the same package in
# another checkout's root is the same kernel).
cache=${MEAS_DEBUG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/meas}
name=debug-kernel
[ "$kcsan" = 0 ] || name='kcsan-kernel'
if [ -n "$rootname" ]; then
	key=$( { basename "$tarball"; stat -c '%s %Y' "$tarball"
		"$top/scripts/in-root.sh" "$root" -- gcc --version | head -n 1
		for f in $frags; do cat "$f"; done; } | sha256sum | cut -c1-16)
	name=$name-$version
else
	key=$( { stat -c '%n %s %Y' "$tarball"; for f in $frags; do cat "$f"; done; } |
		sha256sum | cut -c1-16)
fi
dir="$cache/$name-$key"
if [ -f "$dir/.done" ]; then
	echo "$dir/src" >&3
	exit 0
fi
if [ -z "$rootname" ]; then
	for p in flex bison bc libelf-dev libssl-dev; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			{ echo "debug kernel: $p missing: run 'make deps-debug'" >&2; exit 1; }
	done
fi
# A build that stopped after its configuration was checked (.configured)
# goes on where it stopped: make redoes only what is missing, and the
# hour a kernel takes on two cores is not lost to an interrupted run.
# Anything else left behind is started afresh.
start=$(date +%s)
if [ -f "$dir/.configured" ]; then
	echo "debug kernel: resuming the build in $dir" >&2
	cd "$dir/src"
else
	rm -rf "$dir"
	mkdir -p "$dir/src"
	tar -xJf "$tarball" -C "$dir/src" --strip-components=1
	cd "$dir/src"
	run make -s defconfig
	run make -s kvm_guest.config
	# shellcheck disable=SC2086 # one fragment a word
	run scripts/kconfig/merge_config.sh -m .config $frags >/dev/null
	run make -s olddefconfig
	for opt in $opts; do
		grep -q "^CONFIG_$opt=y" .config ||
			{ echo "debug kernel: CONFIG_$opt did not survive olddefconfig" >&2; exit 1; }
	done
	touch "$dir/.configured"
fi
run nice -n 19 make -s -j"$(nproc)" bzImage modules
run make -s modules_install INSTALL_MOD_PATH="$dir/root" >/dev/null
[ -z "$rootname" ] || echo "$rootname" >"$dir/ROOT-NAME"
echo "$(($(date +%s) - start))" >"$dir/build-seconds"
touch "$dir/.done"
echo "$dir/src" >&3
