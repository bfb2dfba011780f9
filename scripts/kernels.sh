#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernels of the test matrix (make check-matrix), one line each:
#   RELEASE ROOT VERSION FLAVOUR LANE ARCH
# RELEASE  the suite the kernel comes from: bookworm (Debian 12),
#          trixie (Debian 13), trixie-backports, sid
# ROOT     "-" for a kernel of this machine (Debian 12), or the build
#          root it is built in (scripts/root.sh: trixie, sid)
# FLAVOUR  generic, cloud or rt
# LANE     default (the kernel of make vmtest: built only, its suite is
#          make vmtest's), full (the whole suite) or smoke (smoke.sh)
# ARCH     amd64, or arm64: Debian's arm64 kernel of the same suite,
#          fetched and unpacked by scripts/arm64-apt.sh, cross-built with
#          the release's compiler (this machine's or the root's) and
#          booted in qemu-system-aarch64
#
# Every version is what the suites' linux-headers metapackages depend on
# today: Debian 12's as installed by make deps-matrix (scripts/kver.sh
# --matrix), the roots' as scripts/root.sh finds them in the archive.
# The lanes, in this one place (Documentation/build-and-test.rst, "The
# kernel matrix"): the whole suite in Debian 12's 6.1 (make vmtest) and
# in Debian 12's 6.12 generic; on arm64, in Debian 12's 6.1 and the
# backports' newest; in the backports' newest amd64, generic and
# PREEMPT_RT, when the matrix has amd64's lanes alone; the smoke set in
# every other kernel.  With arm64's lanes too, the backports' amd64
# kernels run the smoke set: their series is run whole on arm64 (and
# with full preemption by make check-debug KERNEL=7.3), and make check
# keeps to its budget (each of those full lanes is about 15 minutes of
# a VM).
#
# Environment: MEAS_MATRIX_ROOTS, the build roots in the matrix (default
# "trixie sid"; empty for Debian 12's kernels alone); MEAS_MATRIX_FULL,
# versions that run the whole suite instead of the rule above;
# MEAS_MATRIX_ARCHS, the architectures (default "amd64 arm64"; "amd64"
# for amd64's lanes alone; make check-arm64 runs "arm64" alone).
# A root or an arm64 kernel that cannot be had is said on stderr and
# fails the list (status 1) once every other row is written: the matrix
# runs what it could list, and fails.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
default=$("$top/scripts/kver.sh")

flavour_of() {
	case "$1" in
	*-cloud-amd64) echo cloud ;;
	*-rt-amd64) echo rt ;;
	*) echo generic ;;
	esac
}

lane_of() { # lane_of RELEASE VERSION FLAVOUR
	local f
	if [ "$2" = "$default" ] && [ "$1" = bookworm ]; then
		echo default
		return
	fi
	if [ -n "${MEAS_MATRIX_FULL:-}" ]; then
		for f in $MEAS_MATRIX_FULL; do
			[ "$f" = "$2" ] && { echo full; return; }
		done
		echo smoke
		return
	fi
	case "$1 $2 $3" in
	"bookworm 6.1."*"-arm64 generic" | "trixie-backports "*"-arm64 generic") echo full ;;
	*"-arm64 "*) echo smoke ;;
	"bookworm 6.12."*" generic") echo full ;;
	"trixie-backports "*" generic" | "trixie-backports "*" rt")
		if [[ $archs = *" arm64 "* ]]; then echo smoke; else echo full; fi ;;
	*) echo smoke ;;
	esac
}

archs=" ${MEAS_MATRIX_ARCHS-amd64 arm64} "
failed=0
# failed WHAT: note that WHAT could not be listed
failed() {
	echo "kernels: $1 could not be listed" >&2
	failed=1
}
# The arm64 kernel of metapackage linux-headers-$2 of suite $1, built in
# root $3 ("-": here): its line.
arm64_kernel() {
	local k
	k=$("$top/scripts/arm64-apt.sh" kernel "$1" "$2") || return 1
	echo "$1 $3 $k generic $(lane_of "$1" "$k" generic) arm64"
}

if [[ $archs = *" amd64 "* ]]; then
	ks=$("$top/scripts/kver.sh" --matrix) || failed "Debian 12's kernels"
	for k in $ks; do
		f=$(flavour_of "$k")
		echo "bookworm - $k $f $(lane_of bookworm "$k" "$f") amd64"
	done
fi
[[ $archs != *" arm64 "* ]] || {
	arm64_kernel bookworm arm64 - || failed "bookworm's arm64 kernel"
	arm64_kernel bookworm 6.12-arm64 - || failed "bookworm's 6.12 arm64 kernel"
}
for r in ${MEAS_MATRIX_ROOTS-trixie sid}; do
	if [[ $archs = *" amd64 "* ]]; then
		"$top/scripts/root.sh" --kernels "$r" | while read -r rel f k; do
			echo "$rel $r $k $f $(lane_of "$rel" "$k" "$f") amd64"
		done || { failed "root $r's kernels"; continue; }
	else
		"$top/scripts/root.sh" "$r" >/dev/null || { failed "root $r"; continue; }
	fi
	[[ $archs != *" arm64 "* ]] || case "$r" in
	trixie)
		arm64_kernel trixie arm64 trixie || failed "trixie's arm64 kernel"
		arm64_kernel trixie-backports arm64 trixie ||
			failed "trixie-backports' arm64 kernel" ;;
	sid) arm64_kernel sid arm64 sid || failed "sid's arm64 kernel" ;;
	esac
done
exit "$failed"
