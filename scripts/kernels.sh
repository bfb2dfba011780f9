#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernels of the test matrix (make check-matrix), one line each:
#   RELEASE ROOT VERSION FLAVOUR LANE
# RELEASE  the suite the kernel comes from: bookworm (Debian 12),
#          trixie (Debian 13), trixie-backports, sid
# ROOT     "-" for a kernel of this machine (Debian 12), or the build
#          root it is built in (scripts/root.sh: trixie, sid)
# FLAVOUR  generic, cloud or rt
# LANE     default (the kernel of make vmtest: built only, its suite is
#          make vmtest's), full (the whole suite) or smoke (smoke.sh)
#
# Every version is what the suites' linux-headers metapackages depend on
# today: Debian 12's as installed by make deps-matrix (scripts/kver.sh
# --matrix), the roots' as scripts/root.sh finds them in the archive.
# The lanes, in this one place (Documentation/build-and-test.rst, "The
# kernel matrix"): the whole suite in Debian 12's 6.1 (make vmtest), in
# Debian 12's 6.12 generic and in the backports' newest, generic and
# PREEMPT_RT; the smoke set in every other kernel.
#
# Environment: MEAS_MATRIX_ROOTS, the build roots in the matrix (default
# "trixie sid"; empty for Debian 12's kernels alone); MEAS_MATRIX_FULL,
# versions that run the whole suite instead of the rule above.
set -eu
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
	"bookworm 6.12."*" generic") echo full ;;
	"trixie-backports "*" generic" | "trixie-backports "*" rt") echo full ;;
	*) echo smoke ;;
	esac
}

for k in $("$top/scripts/kver.sh" --matrix); do
	f=$(flavour_of "$k")
	echo "bookworm - $k $f $(lane_of bookworm "$k" "$f")"
done
for r in ${MEAS_MATRIX_ROOTS-trixie sid}; do
	"$top/scripts/root.sh" --kernels "$r" | while read -r rel f k; do
		echo "$rel $r $k $f $(lane_of "$rel" "$k" "$f")"
	done
done
