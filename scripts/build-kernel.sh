#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build meas.ko and the example client for one installed kernel, in a
# copy of the sources of its own, with W=1 and sparse (C=2), and fail on
# any warning of either.  Used by make check-matrix and build-matrix.
#   scripts/build-kernel.sh [--root ROOT] KVER OUTDIR [KBUILD ARGS...]
# --root: the kernel is one of a build root's (scripts/root.sh), and the
# build runs inside that root, with its compiler and sparse
# (scripts/in-root.sh), as DKMS would on a machine of that release.
# The modules end in OUTDIR/module/meas.ko and
# OUTDIR/module/example/meas_example.ko, the log in OUTDIR/build.log.
# A copy per kernel: Kbuild does not rebuild objects when only the
# flavour (the kernel configuration) of the same version changes.
set -eu

root=
if [ "${1:-}" = --root ]; then
	root=${2:?usage: build-kernel.sh [--root ROOT] KVER OUTDIR}
	shift 2
fi
kver=${1:?usage: build-kernel.sh [--root ROOT] KVER OUTDIR}
out=${2:?usage: build-kernel.sh [--root ROOT] KVER OUTDIR}
shift 2
kdir=/lib/modules/$kver/build
top=$(cd "$(dirname "$0")/.." && pwd -P)

if [ ! -d "$root$kdir" ]; then
	echo "build-kernel: no headers for $kver ($root$kdir): make deps-matrix" >&2
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
	set -- "$top/scripts/in-root.sh" "$root" --bind "$out" -- \
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
echo "build-kernel: $kver: built, no warnings (W=1, sparse)"
