#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The build roots of the kernels Debian 12 does not ship: a Debian 13
# (trixie, with its backports) and a Debian unstable (sid) system made
# with mmdebstrap from Debian's archive, in which meas is built for those
# kernels with the compiler of their own release, as DKMS does on a
# user's machine of that release (Documentation/build-and-test.rst,
# "Build roots").
#
#   scripts/root.sh NAME            make the root NAME if it is missing,
#                                   bring its kernels up to date with the
#                                   archive, print its path
#   scripts/root.sh --kernels NAME  the same, then print its kernels, one
#                                   "SUITE FLAVOUR VERSION" line each
#   scripts/root.sh --next          the newest generic kernel in the
#                                   archive, of trixie-backports, sid and
#                                   experimental: installed in its root,
#                                   printed as a line of scripts/kernels.sh
#                                   ("SUITE ROOT VERSION generic smoke";
#                                   make check-next)
#   scripts/root.sh --source NAME VERSION
#                                   make the root NAME if it is missing,
#                                   install the newest linux-source-VERSION
#                                   of its suites there, print the path of
#                                   its tarball (the debug lanes' kernels,
#                                   selftests/debug-kernel/build.sh)
#
# NAME is trixie or sid.  The roots live in $BUILD/roots/NAME (BUILD
# defaults to the repository's build/); none is committed.  Each run asks
# the archive again (apt-get update): every kernel is the one the suite's
# linux-headers-* metapackage depends on today, with its image, so that
# the matrix follows Debian's uploads; kernels the metapackages left are
# purged.  MEAS_ROOT_OFFLINE=1 uses the root as it is.  Needs root.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=scripts/mmdebstrap-tries.sh
. "$top/scripts/mmdebstrap-tries.sh"
BUILD=${BUILD:-$top/build}
list=0
case "${1:-}" in
--kernels) list=1; shift ;;
--next) list=next; set -- trixie ;;
--source) list=source; shift ;;
esac
name=${1:?usage: root.sh [--kernels] trixie|sid | --next | --source trixie|sid VERSION}
mirror=http://deb.debian.org/debian

# What a root is: its suite, its sources, its kernels ("SUITE:META" for
# each metapackage linux-headers-META of SUITE; a SUITE of "trixie" means
# Debian 13 itself, its point releases and its security updates, not
# backports) and its packages beyond the build tools.
settings() {
	case "$1" in
	trixie)
		suite=trixie
		sources="deb $mirror trixie main
deb $mirror trixie-updates main
deb http://deb.debian.org/debian-security trixie-security main
deb $mirror trixie-backports main"
		ksets="trixie:amd64 trixie-backports:amd64 trixie-backports:cloud-amd64
trixie-backports:rt-amd64"
		# where a newer kernel than the matrix's comes from (--next)
		nexts="trixie-backports:amd64"
		# A backports kernel wants the linux-base of backports, as for a
		# user who installs one (apt-get install -t trixie-backports).
		prefs="Package: linux-base linux-image-* linux-headers-* linux-kbuild-* linux-source-*
Pin: release n=trixie-backports
Pin-Priority: 500"
		# make deb and its lintian check; make pkgtest's Debian 13 system:
		# DKMS, systemd and udev, PCP, Prometheus, man and completion
		extra="debhelper dh-dkms dpkg-dev fakeroot lintian python3-docutils
pkg-config libjson-c-dev libmicrohttpd-dev libnl-3-dev libnl-genl-3-dev
libpcp-pmda3-dev libpcp3-dev dkms systemd systemd-sysv udev pcp prometheus
man-db groff-base bash-completion adduser curl iproute2" ;;
	sid)
		suite=sid
		# experimental's packages are installed only by name (priority 1)
		sources="deb $mirror sid main
deb $mirror experimental main"
		ksets="sid:amd64"
		nexts="sid:amd64 experimental:amd64"
		prefs=""
		extra="" ;;
	*)
		echo "root: unknown root '$1' (trixie or sid)" >&2
		exit 2 ;;
	esac
}
settings "$name"
# Building meas (W=1, sparse) and, in the debug lanes, a kernel; the
# release's cross compiler for its arm64 kernels (the arm64 lanes), which
# are fetched apart (scripts/arm64-apt.sh).
base="build-essential bc kmod sparse xz-utils zstd cpio flex bison libelf-dev
libssl-dev python3 rsync ca-certificates gcc-aarch64-linux-gnu"

[ "$(id -u)" = 0 ] || { echo "root: needs root (mmdebstrap, chroot)" >&2; exit 2; }
dir=$BUILD/roots/$name
mkdir -p "$BUILD/roots"
in_root() { "$top/scripts/in-root.sh" "$dir" -- "$@"; }

# A new root: made aside and moved in place when whole, so that a
# half-made one is never taken for a root.
make_root() {
	command -v mmdebstrap >/dev/null ||
		{ echo "root: mmdebstrap missing: run 'make deps'" >&2; return 1; }
	# The archive a machine reaches may be a mirror that is updated
	# less often than the suites' Release files say they expire (sid's
	# say a week): an expired one is used, not refused.
	# shellcheck disable=SC2086 # the lists are words
	mmdebstrap_tries root "$dir.new" "$sources" "$BUILD/roots/$name-mmdebstrap.log" \
		"$suite" --variant=apt \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--include="$(echo $base $extra | tr ' ' ',')" || return 1
	# Kernel images are installed without an initramfs (the test VM
	# boots its own), and no service starts in a chroot.
	chroot "$dir.new" dpkg-divert --quiet --local --rename \
		--add /usr/sbin/update-initramfs
	ln -s /bin/true "$dir.new/usr/sbin/update-initramfs"
	printf '#!/bin/sh\nexit 101\n' >"$dir.new/usr/sbin/policy-rc.d"
	chmod 755 "$dir.new/usr/sbin/policy-rc.d"
	mkdir -p "$dir.new/.meas"
	mv "$dir.new" "$dir"
}

# The version of linux-headers-$2 the newest of its versions in suite $1
# depends on, as the root's apt sees the archive; with --version first,
# "PACKAGE-VERSION KERNEL-VERSION".
meta_kver() {
	local show=0
	if [ "$1" = --version ]; then
		show=1
		shift
	fi
	local s=$1 meta=$2 v best=
	for v in $(in_root apt-cache madison "linux-headers-$meta" |
		awk -F'|' -v s="$s" '{
			split($3, w, " "); d = w[2]; sub("/.*", "", d)
			if (s == "trixie" ? d ~ /^trixie(-updates|-security)?$/ : d == s)
				{ gsub(/ /, "", $2); print $2 }
		}'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done
	[ -n "$best" ] || return 1
	[ "$show" = 0 ] || printf '%s ' "$best"
	in_root apt-cache show "linux-headers-$meta=$best" |
		sed -n 's/^Depends: .*linux-headers-\([0-9][^ ,]*-'"$meta"'\).*/\1/p' |
		head -n 1
}

# The image package of kernel $1 (signed, or the unsigned one).
image_pkg() {
	if in_root apt-cache show "linux-image-$1" >/dev/null 2>&1; then
		echo "linux-image-$1"
	else
		echo "linux-image-$1-unsigned"
	fi
}

# The sources and pins as this script has them now, and the archive's
# lists.
update_lists() {
	echo "$sources" >"$dir/etc/apt/sources.list"
	if [ -n "$prefs" ]; then
		echo "$prefs" >"$dir/etc/apt/preferences.d/meas-kernels"
	fi
	in_root apt-get update -qq -o DPkg::Lock::Timeout=900 >&2
}

refresh() {
	local ks k s meta flav want="" pkgs
	update_lists
	: >"$dir/.meas/kernels.new"
	for ks in $ksets; do
		s=${ks%%:*} meta=${ks#*:}
		k=$(meta_kver "$s" "$meta") ||
			{ echo "root: $name: no linux-headers-$meta in $s" >&2; return 1; }
		case "$meta" in
		cloud-*) flav=cloud ;;
		rt-*) flav=rt ;;
		*) flav=generic ;;
		esac
		echo "$s $flav $k" >>"$dir/.meas/kernels.new"
		want="$want linux-headers-$k $(image_pkg "$k")"
	done
	# shellcheck disable=SC2086 # the lists are words
	in_root apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=900 $base $extra $want >&2
	# Kernels the metapackages no longer name, and what only they needed.
	# shellcheck disable=SC2016 # dpkg-query's fields, not the shell's
	pkgs=$(in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
		'linux-headers-[0-9]*' 'linux-image-[0-9]*' 2>/dev/null |
		awk '$1 ~ /^.i/ { print $2 }' | grep -E -- '-(amd64|unsigned)$' |
		grep -v -x -F "$(echo "$want" | tr ' ' '\n')" || true)
	if [ -n "$pkgs" ]; then
		# shellcheck disable=SC2086 # one package a word
		in_root apt-get purge -y -qq -o DPkg::Lock::Timeout=900 $pkgs >&2
	fi
	in_root apt-get autoremove --purge -y -qq -o DPkg::Lock::Timeout=900 >&2
	in_root apt-get clean >&2
	mv "$dir/.meas/kernels.new" "$dir/.meas/kernels"
}

# --next: the roots brought up to date, then the newest kernel of their
# next suites installed where it comes from.
if [ "$list" = next ]; then
	best='' bestv='' bestr='' bests=''
	for r in trixie sid; do
		"$0" "$r" >/dev/null
		settings "$r"
		dir=$BUILD/roots/$r
		for ks in $nexts; do
			read -r v k < <(meta_kver --version "${ks%%:*}" "${ks#*:}") || continue
			if [ -z "$bestv" ] || dpkg --compare-versions "$v" gt "$bestv"; then
				best=$k bestv=$v bestr=$r bests=${ks%%:*}
			fi
		done
	done
	[ -n "$best" ] || { echo "root: no kernel found in the archive" >&2; exit 1; }
	dir=$BUILD/roots/$bestr
	exec 9>"$BUILD/roots/$bestr.lock"
	flock 9
	in_root apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=900 "linux-headers-$best" "$(image_pkg "$best")" >&2
	echo "$bests $bestr $best generic smoke"
	exit 0
fi

# One maker or refresher of a root at a time.
exec 9>"$BUILD/roots/$name.lock"
flock 9
[ -d "$dir" ] || make_root
# --source: the kernel's source alone; the root's kernels are left as they
# are.  The pins above take linux-source-* from backports, where the
# newest kernels are.  MEAS_ROOT_OFFLINE=1 takes the tarball installed.
if [ "$list" = source ]; then
	v=${2:?usage: root.sh --source trixie|sid VERSION}
	tar=/usr/src/linux-source-$v.tar.xz
	if [ "${MEAS_ROOT_OFFLINE:-0}" != 1 ] || [ ! -f "$dir$tar" ]; then
		update_lists
		in_root apt-get install -y -qq --no-install-recommends \
			-o DPkg::Lock::Timeout=900 "linux-source-$v" >&2
		in_root apt-get clean >&2
	fi
	[ -f "$dir$tar" ] || { echo "root: $name: no $tar after installing linux-source-$v" >&2; exit 1; }
	echo "$dir$tar"
	exit 0
fi
if [ "${MEAS_ROOT_OFFLINE:-0}" != 1 ] || [ ! -s "$dir/.meas/kernels" ]; then
	refresh
fi
if [ "$list" = 1 ]; then
	cat "$dir/.meas/kernels"
else
	echo "$dir"
fi
