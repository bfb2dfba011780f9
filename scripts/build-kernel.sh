#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build meas.ko and the example client for one installed kernel, in a
# copy of the sources of its own, with W=1 and sparse (C=2), and fail on
# any warning of either.  Used by make check-matrix and build-matrix.
#   scripts/build-kernel.sh [--root ROOT] [--arch arm64] KVER OUTDIR [KBUILD ARGS...]
# --root: the kernel is one of a build root's (scripts/root.sh), and the
# build runs inside that root, with its compiler and sparse
# (scripts/in-root.sh), as DKMS would on a machine of that release.
# --arch arm64: an arm64 kernel (amd64, the default: this machine's), whose headers scripts/arm64-apt.sh
# unpacked in $BUILD/arm64/kernels/KVER, cross-built with the release's
# aarch64-linux-gnu compiler (this machine's, or ROOT's with --root).
# The modules end in OUTDIR/module/meas.ko and
# OUTDIR/module/example/meas_example.ko, the log in OUTDIR/build.log.
# A copy per kernel: Kbuild does not rebuild objects when only the
# flavour (the kernel configuration) of the same version changes.
set -eu

usage="usage: build-kernel.sh [--root ROOT] [--arch arm64] KVER OUTDIR"
root='' arch=''
while :; do
	case "${1:-}" in
	--root) root=${2:?$usage}; shift 2 ;;
	--arch) arch=${2:?$usage}; shift 2 ;;
	*) break ;;
	esac
done
kver=${1:?$usage}
out=${2:?$usage}
shift 2
kdir=/lib/modules/$kver/build
top=$(cd "$(dirname "$0")/.." && pwd -P)
binds=()
case "$arch" in
'' | amd64) hdrs=$root$kdir ;;
arm64)
	# the unpacked kernel, at the same path inside a root as outside
	kernels=${BUILD:-$top/build}/arm64/kernels/$kver
	kdir=$kernels/lib/modules/$kver/build hdrs=$kdir
	if [ -d "$kernels" ]; then
		kernels=$(cd "$kernels" && pwd -P) kdir=$kernels/lib/modules/$kver/build
		binds=(--bind "$kernels")
	fi
	set -- ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "$@" ;;
*) echo "build-kernel: unknown architecture: $arch" >&2; exit 2 ;;
esac

if [ ! -d "$hdrs" ]; then
	echo "build-kernel: no headers for $kver ($hdrs): make deps-matrix" >&2
	exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
# Only the sources: objects of another kernel must not leak in.
(cd "$top" && tar -cf - --exclude='.*' --exclude='*.o' --exclude='*.o.d' \
	--exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=modules.order --exclude=Module.symvers \
	VERSION Kbuild module uapi) | tar -xf - -C "$out"
log=$out/build.log
# Two jobs: the machines have two cores (MEAS_BUILD_JOBS changes it).
if [ -n "$root" ]; then
	set -- "$top/scripts/in-root.sh" "$root" --bind "$out" "${binds[@]}" -- \
		make -j"${MEAS_BUILD_JOBS:-2}" -C "$kdir" M="$out" W=1 C=2 "$@" modules
else
	# shellcheck disable=SC2086 # MAKE may have arguments
	set -- ${MAKE:-make} -j"${MEAS_BUILD_JOBS:-2}" -C "$kdir" M="$out" W=1 C=2 "$@" modules
fi
if ! "$@" >"$log" 2>&1; then
	grep -E 'error|warning' "$log" | head -n 40 >&2
	echo "build-kernel: $kver: the build failed (see $log)" >&2
	exit 1
fi
# The compiler's and sparse's file:line: diagnostics, modpost's, and
# Kbuild's when the compiler is not the one that built the kernel.
if grep -E ':[0-9]+:([0-9]+:)? (warning|error):|WARNING: modpost|^warning: the compiler differs' "$log" >&2; then
	echo "build-kernel: $kver: warnings (W=1 or sparse), see $log" >&2
	exit 1
fi
# The 7 series' Kbuild turns sparse off when its check of it fails or,
# as in Debian's linux-kbuild-7.* packages, is missing: said, not hidden.
if grep -q 'C=2 specified, but .* is not available or not up to date' "$log"; then
	echo "build-kernel: $kver: built, no warnings (W=1; sparse turned off by Kbuild)"
else
	echo "build-kernel: $kver: built, no warnings (W=1, sparse)"
fi
