#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernels.sh, the list of the kernel matrix, with stand-ins for
# what it asks (kver.sh, root.sh, arm64-apt.sh): the rows and lanes of
# each release, and that a root or an arm64 kernel that cannot be had
# fails the list, said, after every other row is written.  TAP; part of
# make unit.
#   selftests/unit/kernels_test.sh OUTDIR
set -u
out=${1:?usage: kernels_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
t=$(mkdir -p "$out" && cd "$out" && pwd -P)/kernels-test
rm -rf "$t"
mkdir -p "$t/scripts"
cp "$top/scripts/kernels.sh" "$t/scripts/"
cat >"$t/scripts/kver.sh" <<'EOF2'
#!/bin/bash
if [ "${1:-}" = --matrix ]; then
	printf '%s\n' 6.1.0-9-amd64 6.1.0-9-cloud-amd64 6.12.9+deb12-amd64
else
	echo 6.1.0-9-amd64
fi
EOF2
cat >"$t/scripts/root.sh" <<'EOF2'
#!/bin/bash
[ "$1" = --kernels ] && shift
[ "$1" != "${ROOT_FAILS:-}" ] || { echo "root: $1: the archive is not reachable" >&2; exit 1; }
case "$1" in
trixie) printf '%s\n' "trixie generic 6.12.50-amd64" "trixie-backports generic 7.3.1+bpo-amd64" \
	"trixie-backports rt 7.3.1+bpo-rt-amd64" ;;
sid) echo "sid generic 7.4.1-amd64" ;;
esac
EOF2
cat >"$t/scripts/arm64-apt.sh" <<'EOF2'
#!/bin/bash
[ "$2/$3" != "${ARM64_FAILS:-}" ] || exit 1
case "$2/$3" in
bookworm/arm64) echo 6.1.0-9-arm64 ;;
bookworm/6.12-arm64) echo 6.12.9+deb12-arm64 ;;
trixie/arm64) echo 6.12.50-arm64 ;;
trixie-backports/arm64) echo 7.3.1+bpo-arm64 ;;
sid/arm64) echo 7.4.1-arm64 ;;
esac
EOF2
chmod +x "$t"/scripts/*.sh
# list NAME [VAR=VALUE...]: the list in $t/NAME.out, its messages in
# $t/NAME.err, its status in rc
list() {
	local name=$1
	shift
	env "$@" "$t/scripts/kernels.sh" >"$t/$name.out" 2>"$t/$name.err"
	rc=$?
	o=$t/$name.out e=$t/$name.err
}
has() { grep -q -x -F -- "$1" "$o"; }

list amd64 MEAS_MATRIX_ARCHS=amd64
ok "kernels: amd64 alone: status 0, nothing said" sh -c "[ $rc = 0 ] && [ ! -s '$e' ]"
ok "kernels: 7 rows" [ "$(wc -l <"$o")" = 7 ]
ok "kernels: the default kernel's row" has "bookworm - 6.1.0-9-amd64 generic default amd64"
ok "kernels: Debian 12's cloud kernel runs the smoke set" has "bookworm - 6.1.0-9-cloud-amd64 cloud smoke amd64"
ok "kernels: Debian 12's 6.12 runs the whole suite" has "bookworm - 6.12.9+deb12-amd64 generic full amd64"
ok "kernels: trixie's kernel, built in its root, the smoke set" has "trixie trixie 6.12.50-amd64 generic smoke amd64"
ok "kernels: the backports' rt kernel runs the whole suite" has "trixie-backports trixie 7.3.1+bpo-rt-amd64 rt full amd64"
ok "kernels: and its generic kernel" has "trixie-backports trixie 7.3.1+bpo-amd64 generic full amd64"
ok "kernels: sid's kernel in its root" has "sid sid 7.4.1-amd64 generic smoke amd64"
ok "kernels: no arm64 row" sh -c "! grep -q arm64 '$o'"

list both MEAS_MATRIX_ARCHS="amd64 arm64"
ok "kernels: both archs: status 0, 12 rows" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$o') = 12 ]"
ok "kernels: with arm64's lanes, the backports' rt kernel runs the smoke set" \
	has "trixie-backports trixie 7.3.1+bpo-rt-amd64 rt smoke amd64"
ok "kernels: and its generic kernel too, its series run whole on arm64" \
	has "trixie-backports trixie 7.3.1+bpo-amd64 generic smoke amd64"
ok "kernels: Debian 12's 6.12 amd64 still runs the whole suite" has "bookworm - 6.12.9+deb12-amd64 generic full amd64"
ok "kernels: Debian 12's arm64 6.1 runs the whole suite" has "bookworm - 6.1.0-9-arm64 generic full arm64"
ok "kernels: the backports' arm64 kernel too" has "trixie-backports trixie 7.3.1+bpo-arm64 generic full arm64"
ok "kernels: sid's arm64 kernel the smoke set" has "sid sid 7.4.1-arm64 generic smoke arm64"

list default -u MEAS_MATRIX_ARCHS
ok "kernels: both architectures by default, 12 rows" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$o') = 12 ]"
ok "kernels: by default the arm64 rows are there, 7.3 amd64 the smoke set" \
	sh -c "grep -q -x 'trixie-backports trixie 7.3.1+bpo-arm64 generic full arm64' '$o' &&
	       grep -q -x 'trixie-backports trixie 7.3.1+bpo-amd64 generic smoke amd64' '$o'"

list root ROOT_FAILS=trixie
ok "kernels: a root that cannot be made fails the list" [ "$rc" = 1 ]
ok "kernels: and says which, after the root's own message" \
	sh -c "grep -q 'the archive is not reachable' '$e' && grep -q -x \"kernels: root trixie's kernels could not be listed\" '$e'"
ok "kernels: the other root's rows are still listed" has "sid sid 7.4.1-amd64 generic smoke amd64"
ok "kernels: and Debian 12's" has "bookworm - 6.12.9+deb12-amd64 generic full amd64"
ok "kernels: none of the failed root's" sh -c "! grep -q '^trixie' '$o'"

list arm64 MEAS_MATRIX_ARCHS="amd64 arm64" ARM64_FAILS=trixie-backports/arm64
ok "kernels: an arm64 kernel that cannot be had fails the list" [ "$rc" = 1 ]
ok "kernels: and says which" grep -q -x "kernels: trixie-backports' arm64 kernel could not be listed" "$e"
ok "kernels: the rows after it are still listed" has "sid sid 7.4.1-arm64 generic smoke arm64"
ok "kernels: 11 rows" [ "$(wc -l <"$o")" = 11 ]

echo "1..$n"
exit $((fails > 0))
