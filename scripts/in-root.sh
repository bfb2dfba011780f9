#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a build root (scripts/root.sh), as root, with the
# root's own compiler and tools, as DKMS runs on a user's machine of that
# release.
#   scripts/in-root.sh ROOT [--overlay] [--bind DIR]... -- CMD [ARGS...]
#
# In a mount namespace of its own (the mounts vanish with the command):
# /proc, /dev and /sys of this machine, and the repository and each
# --bind DIR at the same paths inside the root, so that paths in logs and
# Kbuild's output mean the same inside and out.  The environment is the
# root's (PATH, HOME, LANG), with none of the caller's variables but those
# given in MEAS_ROOT_ENV (NAME=VALUE words).
# With --overlay, ROOT is not written: the command runs in an overlay whose
# upper layer is a tmpfs, with this machine's resolv.conf there, so that
# what it installs from Debian's archive (a build's dependencies, as a
# buildd installs them) vanishes with it; ROOT may be one in use (the
# arm64 test root).
# Needs root (unshare, mount, chroot).
set -eu

root=${1:?usage: in-root.sh ROOT [--overlay] [--bind DIR]... -- CMD [ARGS...]}
shift
top=$(cd "$(dirname "$0")/.." && pwd -P)
binds=$top
overlay=
while [ $# -gt 0 ]; do
	case "$1" in
	--overlay) overlay=1; shift ;;
	--bind) binds="$binds $(cd "$2" && pwd -P)"; shift 2 ;;
	--) shift; break ;;
	*) echo "in-root: unknown option: $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "in-root: no command" >&2; exit 2; }
[ -x "$root/usr/bin/env" ] || { echo "in-root: not a root: $root" >&2; exit 2; }
root=$(cd "$root" && pwd -P)
[ "$(id -u)" = 0 ] || { echo "in-root: needs root (mount, chroot)" >&2; exit 2; }

if [ -z "${MEAS_IN_ROOT_NS:-}" ]; then
	[ -n "$overlay" ] || MEAS_IN_ROOT_NS=$binds exec unshare --mount \
		--propagation private "$0" "$root" -- "$@"
	# the overlay's mount point, empty again once the namespace is gone
	ov=$(mktemp -d)
	trap 'rmdir "$ov"' EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
	rc=0
	MEAS_IN_ROOT_NS=$binds MEAS_IN_ROOT_OVERLAY=$ov unshare --mount \
		--propagation private "$0" "$root" -- "$@" || rc=$?
	exit "$rc"
fi
binds=$MEAS_IN_ROOT_NS

ov=${MEAS_IN_ROOT_OVERLAY:-}
if [ -n "$ov" ]; then
	mount -t tmpfs -o mode=0755 meas-in-root "$ov"
	mkdir "$ov/upper" "$ov/work" "$ov/root"
	mount -t overlay meas-in-root \
		-o "lowerdir=$root,upperdir=$ov/upper,workdir=$ov/work" "$ov/root"
	root=$ov/root
	rm -f "$root/etc/resolv.conf"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf"
fi

mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --rbind /sys "$root/sys"
for b in $binds; do
	mkdir -p "$root$b"
	mount --bind "$b" "$root$b"
done
# shellcheck disable=SC2086 # one NAME=VALUE per word
exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive SYSTEMD_OFFLINE=1 \
	${MEAS_ROOT_ENV:-} "$@"
