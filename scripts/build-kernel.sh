#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build meas.ko and the example client for one installed kernel, in a
# copy of the sources of its own, with W=1 and sparse (C=2), and fail on
# any warning of either.  Used by make check-matrix and build-matrix.
#   scripts/build-kernel.sh KVER OUTDIR [KBUILD ARGS...]
# The modules end in OUTDIR/module/meas.ko and
# OUTDIR/module/example/meas_example.ko, the log in OUTDIR/build.log.
# A copy per kernel: Kbuild does not rebuild objects when only the
# flavour (the kernel configuration) of the same version changes.
set -eu

kver=${1:?usage: build-kernel.sh KVER OUTDIR}
out=${2:?usage: build-kernel.sh KVER OUTDIR}
shift 2
kdir=/lib/modules/$kver/build
top=$(cd "$(dirname "$0")/.." && pwd -P)

if [ ! -d "$kdir" ]; then
	echo "build-kernel: no headers for $kver ($kdir): make deps-matrix" >&2
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
if ! ${MAKE:-make} -j"${MEAS_BUILD_JOBS:-2}" -C "$kdir" M="$out" W=1 C=2 "$@" modules >"$log" 2>&1; then
	grep -E 'error|warning' "$log" | head -n 40 >&2
	echo "build-kernel: $kver: the build failed (see $log)" >&2
	exit 1
fi
# The compiler's and sparse's file:line: diagnostics, and modpost's.
if grep -E ':[0-9]+:([0-9]+:)? (warning|error):|WARNING: modpost' "$log" >&2; then
	echo "build-kernel: $kver: warnings (W=1 or sparse), see $log" >&2
	exit 1
fi
echo "build-kernel: $kver: built, no warnings (W=1, sparse)"
