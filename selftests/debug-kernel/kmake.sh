#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run make in a kernel tree of build.sh's cache, with the compiler that
# built it: here for Debian 12's kernel, in the build root named in the
# tree's ROOT-NAME for a root's (Debian 13's gcc 14 for 7.3), as
# scripts/in-root.sh runs it, with the cache directory bound there too.
# make check-debug and make check-kcsan build meas.ko with it.
#   selftests/debug-kernel/kmake.sh KDIR [MAKE ARGS...]
#
# Environment: MAKE (this machine's make command), BUILD (where the
# roots are, default build/).
set -eu
kdir=${1:?usage: kmake.sh KDIR [MAKE ARGS...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd -P)
kdir=$(cd "$kdir" && pwd -P)
if [ ! -f "$kdir/../ROOT-NAME" ]; then
	# shellcheck disable=SC2086 # MAKE may have arguments
	exec ${MAKE:-make} -C "$kdir" "$@"
fi
root=${BUILD:-$top/build}/roots/$(cat "$kdir/../ROOT-NAME")
# M= and every other path the caller gives are under the repository,
# which in-root.sh binds.
exec "$top/scripts/in-root.sh" "$root" --bind "$kdir/.." -- \
	make -j"${MEAS_BUILD_JOBS:-2}" -C "$kdir" "$@"
