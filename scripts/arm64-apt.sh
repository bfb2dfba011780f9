#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's arm64 packages for the arm64 lanes, without adding an
# architecture to this machine's dpkg: a private apt configuration under
# $BUILD/arm64/apt/RELEASE (its own sources, lists, state and cache,
# APT::Architecture arm64), whose packages are downloaded to
# $BUILD/arm64/debs and unpacked with dpkg-deb -x, never installed.
#
#   scripts/arm64-apt.sh kernel SUITE META
#       the arm64 kernel the metapackage linux-headers-META of SUITE
#       depends on today (META: arm64, 6.12-arm64, rt-arm64, ...): its
#       headers, their common part and the kbuild tools (amd64 programs,
#       of the same upload), its image and modules, unpacked into
#       $BUILD/arm64/kernels/VERSION as a root would hold them
#       (boot/vmlinuz-VERSION, lib/modules/VERSION with its build link
#       and modules.dep, usr/src, usr/lib/linux-kbuild-*); prints the
#       VERSION.  A kernel unpacked whole is used as it is, one missing
#       is fetched again; the packages are not kept.
#   scripts/arm64-apt.sh fetch SUITE PKG...
#       download the arm64 packages PKG (with no dependency) of SUITE's
#       release; prints the path of each .deb.
#   scripts/arm64-apt.sh version SUITE META
#       "VERSION DEBIAN-VERSION": the kernel linux-headers-META of SUITE
#       depends on today and its headers' package version; nothing is
#       fetched.
#   scripts/arm64-apt.sh next
#       the newest generic arm64 kernel in the archive, of
#       trixie-backports, sid and experimental (by package version), fetched
#       and unpacked as "kernel" does, printed as a line of
#       scripts/kernels.sh: "SUITE ROOT VERSION generic smoke arm64", ROOT
#       the build root with that suite's cross compiler (make check-next,
#       beside scripts/root.sh --next's amd64 kernel).
#
# SUITE: bookworm (Debian 12 with its updates and security updates),
# trixie (the same for Debian 13), trixie-backports, sid, experimental
# (sid's with experimental's, which are candidates only there).  Each run of a
# release asks the archive again once (apt-get update, at most every
# MEAS_ARM64_APT_TTL seconds, default 3600); MEAS_ROOT_OFFLINE=1 uses
# the lists and kernels there are.  Needs no root but for writing $BUILD.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
BUILD=${BUILD:-$top/build}
usage="usage: arm64-apt.sh kernel|version SUITE META | fetch SUITE PKG... | next"
cmd=${1:?$usage}

# next: each suite asked in its own run (its own lists), then the newest
# fetched; the roots are scripts/root.sh's, whose gcc builds that suite's
# kernels (experimental's with sid's, as root.sh --next does for amd64).
if [ "$cmd" = next ]; then
	best='' bestv=''
	for s in trixie-backports sid experimental; do
		read -r k v < <("$0" version "$s" arm64) || continue
		if [ -z "$bestv" ] || dpkg --compare-versions "$v" gt "$bestv"; then
			best=$s bestv=$v
		fi
	done
	[ -n "$best" ] || { echo "arm64-apt: no arm64 kernel found in the archive" >&2; exit 1; }
	k=$("$0" kernel "$best" arm64)
	root=sid
	[ "$best" != trixie-backports ] || root=trixie
	echo "$best $root $k generic smoke arm64"
	exit 0
fi
suite=${2:?$usage}
shift 2
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# The release of SUITE, its sources and the default release that makes
# SUITE's packages the candidates (backports' priority is 100 otherwise).
default_release=
case "$suite" in
bookworm | trixie)
	rel=$suite
	sources="deb [signed-by=$keyring] $mirror $rel main
deb [signed-by=$keyring] $mirror $rel-updates main
deb [signed-by=$keyring] http://deb.debian.org/debian-security $rel-security main" ;;
trixie-backports)
	rel=trixie default_release=trixie-backports
	sources="deb [signed-by=$keyring] $mirror trixie main
deb [signed-by=$keyring] $mirror trixie-updates main
deb [signed-by=$keyring] http://deb.debian.org/debian-security trixie-security main" ;;
sid)
	rel=sid
	sources="deb [signed-by=$keyring] $mirror sid main" ;;
experimental)
	rel=experimental default_release=experimental
	sources="deb [signed-by=$keyring] $mirror sid main
deb [signed-by=$keyring] $mirror experimental main" ;;
*)
	echo "arm64-apt: unknown suite '$suite'" >&2
	exit 2 ;;
esac
[ "$suite" != trixie-backports ] && [ "$suite" != trixie ] ||
	sources="$sources
deb [signed-by=$keyring] $mirror trixie-backports main"

adir=$BUILD/arm64/apt/$rel
debs=$BUILD/arm64/debs
mkdir -p "$adir"/{state/lists/partial,cache/archives/partial,apt.conf.d,sources.list.d,preferences.d} "$debs"
: >>"$adir/state/status"
echo "$sources" >"$adir/sources.list"
# Everything apt reads or writes is under $adir; amd64 is there for the
# kbuild tools the arm64 headers run on this machine.  An archive mirror
# may lag behind the suites' Valid-Until (sid's last a week).  apt's
# binary caches are kept there too: without them each apt call read the
# release's lists again, 2 s of CPU for sid's, and make check calls it often
# (the lock below lets one run of this script at a time per release).
cat >"$adir/apt.conf" <<EOF
APT::Architecture "arm64";
APT::Architectures { "arm64"; "amd64"; };
APT::Sandbox::User "root";
APT::Get::AllowUnauthenticated "false";
Acquire::Check-Valid-Until "false";
Acquire::Retries "10";
Acquire::Languages "none";
Dir::State "$adir/state";
Dir::State::status "$adir/state/status";
Dir::Cache "$adir/cache";
Dir::Cache::pkgcache "$adir/cache/pkgcache.bin";
Dir::Cache::srcpkgcache "$adir/cache/srcpkgcache.bin";
Dir::Etc::SourceList "$adir/sources.list";
Dir::Etc::SourceParts "$adir/sources.list.d";
Dir::Etc::Preferences "$adir/preferences";
Dir::Etc::PreferencesParts "$adir/preferences.d";
Dir::Etc::Parts "$adir/apt.conf.d";
Debug::NoLocking "true";
EOF
export APT_CONFIG=$adir/apt.conf
aptq() { apt-cache ${default_release:+-o APT::Default-Release=$default_release} "$@"; }

# One update of a release's lists at a time, and not more often than
# the TTL (several kernels of one release are fetched in a row).
exec 9>"$adir/lock"
flock 9
stamp=$adir/state/updated
if [ "${MEAS_ROOT_OFFLINE:-0}" != 1 ] || [ ! -e "$stamp" ]; then
	age=$(($(date +%s) - $(stat -c %Y "$stamp" 2>/dev/null || echo 0)))
	if [ "$age" -gt "${MEAS_ARM64_APT_TTL:-3600}" ] ||
		[ "$(stat -c %Y "$adir/sources.list")" -gt "$(stat -c %Y "$stamp")" ]; then
		apt-get update -qq >&2
		touch "$stamp"
	fi
fi

# The candidate version of package $1 (an empty line if none).
candidate() {
	aptq policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v '(none)' || true
}

# Download package $1 (NAME[:ARCH]) at version $2 to $debs unless there;
# print the file's path.
download() {
	local name=${1%%:*} arch=arm64 f
	case "$1" in *:*) arch=${1#*:} ;; esac
	# (an arch: all package's name ends in _all.deb)
	for f in "$debs/${name}_${2//:/%3a}_"{"$arch",all}.deb; do
		[ -s "$f" ] && { echo "$f"; return 0; }
	done
	(cd "$debs" && apt-get download -qq "$1=$2" >&2) ||
		{ echo "arm64-apt: cannot download $1=$2" >&2; return 1; }
	for f in "$debs/${name}_${2//:/%3a}_"{"$arch",all}.deb; do
		[ -s "$f" ] && { echo "$f"; return 0; }
	done
	echo "arm64-apt: $1=$2 missing after its download" >&2
	return 1
}

if [ "$cmd" = fetch ]; then
	for p in "$@"; do
		v=$(candidate "$p")
		[ -n "$v" ] || { echo "arm64-apt: no $p in $suite" >&2; exit 1; }
		download "$p" "$v"
	done
	exit 0
fi
[ "$cmd" = kernel ] || [ "$cmd" = version ] || { echo "$usage" >&2; exit 2; }
meta=${1:?$usage}

# The kernel of the metapackage, then its packages.
mv_=$(candidate "linux-headers-$meta")
[ -n "$mv_" ] || { echo "arm64-apt: no linux-headers-$meta in $suite" >&2; exit 1; }
# (the flavour, the end of every version: rt-arm64 of META 6.12-rt-arm64)
flav=$meta
[[ ! $meta =~ ^[0-9.]+-(.*)$ ]] || flav=${BASH_REMATCH[1]}
k=$(aptq show "linux-headers-$meta=$mv_" |
	sed -n 's/^Depends: .*linux-headers-\([0-9][^ ,]*-'"$flav"'\).*/\1/p' | head -n 1)
[ -n "$k" ] || { echo "arm64-apt: linux-headers-$meta=$mv_ names no kernel" >&2; exit 1; }
if [ "$cmd" = version ]; then
	echo "$k $(candidate "linux-headers-$k")"
	exit 0
fi
kdir=$BUILD/arm64/kernels/$k
if [ -e "$kdir/.complete" ]; then
	echo "$k"
	exit 0
fi
hv=$(candidate "linux-headers-$k")
deps=$(aptq show "linux-headers-$k=$hv" | sed -n 's/^Depends: //p' | head -n 1)
common=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-headers-[^ ]*-common[^ ]*\).*/\1/p' | head -n 1)
kbuild=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n 1)
image=linux-image-$k
[ -n "$(candidate "$image")" ] || image=linux-image-$k-unsigned
iv=$(candidate "$image")
# Since the 7 series the image is in parts, packages of the same kernel
# the image depends on (linux-binary-*, linux-modules-*).
parts=$(aptq show "$image=$iv" | sed -n 's/^Depends: //p' | head -n 1 | tr ',' '\n' |
	sed -n 's/^ *\(linux-[a-z]*-'"${k//./\\.}"'\) (= .*/\1/p')
# The headers' programs (fixdep, modpost) run here: amd64's, of the
# headers' upload where the archive still has it.
# (apt-cache show of a version the lists lack still exits 0: madison
# lists the versions there are; amd64's may be a later upload than
# arm64's, as 6.1.192-3 beside arm64's -2 in bookworm-security)
kv=$hv
aptq madison "$kbuild:amd64" 2>/dev/null | awk -F' *[|] *' -v v="$kv" '$2 == v { f = 1 } END { exit !f }' ||
	kv=$(candidate "$kbuild:amd64")
files=$(download "linux-headers-$k" "$hv" &&
	download "$common" "$(candidate "$common")" &&
	download "$kbuild:amd64" "$kv" &&
	download "$image" "$iv" &&
	for p in $parts; do download "$p" "$(candidate "$p")" || exit 1; done)

rm -rf "$kdir.new"
mkdir -p "$kdir.new"
for f in $files; do
	dpkg-deb -x "$f" "$kdir.new"
done
# Debian 13's packages have their modules under usr/lib (merged /usr);
# since the 7 series the image and its configuration are there too, and
# the package's scripts put them in /boot.
[ -e "$kdir.new/lib" ] || ln -s usr/lib "$kdir.new/lib"
for f in vmlinuz config; do
	if [ ! -e "$kdir.new/boot/$f-$k" ] && [ -e "$kdir.new/lib/modules/$k/$f" ]; then
		mkdir -p "$kdir.new/boot"
		ln -s "../lib/modules/$k/$f" "$kdir.new/boot/$f-$k"
	fi
done
# The flavour's Makefile includes the common directory by its absolute
# path (/usr/src/...), since the 7 series it names itself so too
# (KBUILD_OUTPUT), and lib/modules' build link is absolute: all are made
# relative to the unpacked tree, where they are.
hdr=$kdir.new/usr/src/linux-headers-$k
# shellcheck disable=SC2016 # make's $(...), not the shell's
sed -i -e 's|^include /usr/src/\([^/]*\)/Makefile$|include $(dir $(lastword $(MAKEFILE_LIST)))../\1/Makefile|' \
	-e 's|^KBUILD_OUTPUT=/usr/src/[^/]*$|KBUILD_OUTPUT:=$(realpath $(dir $(lastword $(MAKEFILE_LIST))))|' \
	"$hdr/Makefile"
! grep -q /usr/src "$hdr/Makefile" ||
	{ echo "arm64-apt: $hdr/Makefile still names /usr/src" >&2; exit 1; }
# shellcheck disable=SC2016 # make's $(...)
grep -q '^include \$(dir' "$hdr/Makefile" ||
	{ echo "arm64-apt: unexpected $hdr/Makefile" >&2; exit 1; }
mods=$(cd "$kdir.new/lib/modules/$k" && pwd -P)
ln -sfn "$(realpath --relative-to="$mods" "$hdr")" "$mods/build"
depmod -b "$kdir.new" "$k"
touch "$kdir.new/.complete"
rm -rf "$kdir"
mv "$kdir.new" "$kdir"
# the unpacked kernel is the cache; its packages are not kept
# shellcheck disable=SC2086 # one path a word
rm -f $files
echo "$k"
