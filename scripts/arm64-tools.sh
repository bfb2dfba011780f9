#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# meas's programs for arm64: measctl, libmeas, meas-exporter, pmdameas
# and the programs of the VM suite, cross-built with this machine's
# aarch64-linux-gnu-gcc against the arm64 test root (scripts/arm64-root.sh,
# also the guest's root, so they run there with the libraries they were
# linked with), in a copy of the tree of their own, $BUILD/arm64/tree:
# the tests and scripts find every program at the path they use in an
# x86-64 run (tools/measctl/measctl, build/selftests/...), and the guest
# of an arm64 lane mounts that copy as the repository (run-vm.sh runs
# from it).
#
#   scripts/arm64-tools.sh [TARGET...]
#                              update the copy, build what changed (and
#                              the selftests' TARGETs: bench-insn-bins
#                              for make bench-arm64), print the copy's
#                              path
#
# The copy follows the tree (rsync, without what .gitignore lists), so
# make rebuilds only what changed.  The programs the build runs (pmdameas
# -N) run under qemu-aarch64 with the root's libraries.  Needs root
# (the test root's first making).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
BUILD=${BUILD:-$top/build}
root=$("$top/scripts/arm64-root.sh")
tree=$BUILD/arm64/tree
cross=aarch64-linux-gnu-
command -v "${cross}gcc" >/dev/null ||
	{ echo "arm64-tools: ${cross}gcc missing: run 'make deps'" >&2; exit 1; }

mkdir -p "$tree"
rsync -a --delete --exclude=.git --exclude-from="$top/.gitignore" "$top/" "$tree/"
export PKG_CONFIG_LIBDIR=$root/usr/lib/aarch64-linux-gnu/pkgconfig:$root/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$root QEMU_LD_PREFIX=$root
make=(make -j"${MEAS_BUILD_JOBS:-2}" SYSROOT="$root"
	CC="${cross}gcc --sysroot=$root" AR="${cross}ar" BUILD="$tree/build")
"${make[@]}" -C "$tree/tools" >&2
"${make[@]}" -C "$tree/selftests" vmtest-bins "$@" >&2
echo "$tree"
