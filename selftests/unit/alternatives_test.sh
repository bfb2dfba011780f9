#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/arm64-root.sh alternatives: the links the arm64 test root gets
# in place of update-alternatives (its packages are unpacked, their
# maintainer scripts never run), from stand-in packages whose postinst
# says what real ones do: a continued line with slaves, two packages
# offering one name at two priorities, a target that is not in the root,
# a command with a variable, a link that a package already ships.  TAP;
# part of make unit.
#   selftests/unit/alternatives_test.sh OUTDIR
# SC2016: the postinsts are sh of their own; SC2317: link, missing run by ok
# shellcheck disable=SC2016,SC2317
set -u
out=${1:?usage: alternatives_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
t=$(mkdir -p "$out" && cd "$out" && pwd -P)/alternatives-test
rm -rf "$t"
r=$t/root
mkdir -p "$r/var/cache/apt/archives" "$r/usr/bin" "$r/usr/sbin"

# deb NAME POSTINST: a package of that postinst into the root's cache
deb() {
	local d=$t/pkg-$1
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: 1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' \
		"$1" >"$d/DEBIAN/control"
	printf '%s\n' "$2" >"$d/DEBIAN/postinst"
	chmod 755 "$d/DEBIAN/postinst"
	dpkg-deb -b -Znone "$d" "$r/var/cache/apt/archives/$1_1_all.deb" >/dev/null
}

touch "$r/usr/bin/gawk" "$r/usr/bin/mawk" "$r/usr/sbin/rmt-tar" "$r/usr/bin/w.procps" \
	"$r/usr/bin/which.debianutils" "$r/usr/bin/pager-real" "$r/usr/bin/shipped"
ln -s shipped "$r/usr/bin/pager"
deb gawk '#!/bin/sh
set -e
if [ "$1" = configure ]; then
    update-alternatives --install /usr/bin/awk awk /usr/bin/gawk 10 \
        --slave /usr/bin/nawk nawk /usr/bin/gawk \
        --slave /usr/share/man/man1/awk.1.gz awk.1.gz /usr/share/man/man1/gawk.1.gz
fi'
deb mawk '#!/bin/sh
update-alternatives --install /usr/bin/awk awk /usr/bin/mawk 5 --slave /usr/bin/nawk nawk /usr/bin/mawk'
deb tar '#!/bin/sh
update-alternatives --install "/usr/sbin/rmt" "rmt" "/usr/sbin/rmt-tar" 50'
deb gone '#!/bin/sh
update-alternatives --install /usr/bin/gone gone /usr/bin/not-in-root 99'
deb varied '#!/bin/sh
update-alternatives --install /usr/bin/w w "$prefix/usr/bin/w.procps" 50'
deb pager '#!/bin/sh
update-alternatives --install /usr/bin/pager pager /usr/bin/pager-real 10'
deb plain '#!/bin/sh
echo no alternatives here'
mkdir -p "$t/pkg-none/DEBIAN"
printf 'Package: none\nVersion: 1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' \
	>"$t/pkg-none/DEBIAN/control"
dpkg-deb -b -Znone "$t/pkg-none" "$r/var/cache/apt/archives/none_1_all.deb" >/dev/null

"$top/scripts/arm64-root.sh" alternatives "$r" >"$t/out" 2>&1
st=$?
link() { [ "$(readlink "$r$1")" = "/etc/alternatives/$2" ] && [ "$(readlink "$r/etc/alternatives/$2")" = "$3" ]; }
missing() { [ ! -e "$r$1" ] && [ ! -L "$r$1" ]; }
ok "alternatives: status 0, even for packages with no postinst" [ "$st" = 0 ]
ok "the highest priority wins: awk -> gawk, through /etc/alternatives" link /usr/bin/awk awk /usr/bin/gawk
ok "a slave of a continued line: nawk -> gawk" link /usr/bin/nawk nawk /usr/bin/gawk
ok "quoted words: rmt -> rmt-tar" link /usr/sbin/rmt rmt /usr/sbin/rmt-tar
ok "a target not in the root makes no link" missing /usr/bin/gone
ok "a slave whose target is not in the root makes no link" missing /usr/share/man/man1/awk.1.gz
ok "a command with a variable is left" missing /usr/bin/w
ok "a link a package ships stays as it is" [ "$(readlink "$r/usr/bin/pager")" = shipped ]
ok "nothing is said" [ ! -s "$t/out" ]
exit $((fails > 0))
