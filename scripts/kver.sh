#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Kernel versions meas is built for.
#
#   scripts/kver.sh            the kernel to build for when neither KVER nor
#                              KDIR is given (make): the running kernel if
#                              its headers are installed, otherwise
#                              Debian's default kernel, the version the
#                              linux-headers-amd64 metapackage depends on
#   scripts/kver.sh --matrix   the kernels of the test matrix, one a line:
#                              Debian 12's 6.1 and 6.12 series, generic,
#                              cloud and PREEMPT_RT, as their installed
#                              metapackages name them (make deps-matrix)
#
# Never "the newest installed": a machine with 6.12 headers beside the
# running 6.1 would build for a kernel it does not run.  Prints nothing
# for a kernel whose headers are not installed.
set -eu

# The version a linux-headers-* metapackage depends on, if installed.
meta_kver() {
	dpkg-query -W -f='${Depends}' "linux-headers-$1" 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p'
}

if [ "${1:-}" = --matrix ]; then
	for m in amd64 cloud-amd64 rt-amd64 6.12-amd64 6.12-cloud-amd64 6.12-rt-amd64; do
		v=$(meta_kver "$m")
		[ -n "$v" ] && [ -d "/lib/modules/$v/build" ] && echo "$v"
	done
	exit 0
fi

running=$(uname -r)
if [ -d "/lib/modules/$running/build" ]; then
	echo "$running"
	exit 0
fi
v=$(meta_kver amd64)
[ -n "$v" ] && [ -d "/lib/modules/$v/build" ] && echo "$v"
exit 0
