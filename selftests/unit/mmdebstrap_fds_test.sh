#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mmdebstrap-tries.sh starts mmdebstrap with no descriptor open
# above 2, whatever its caller has open (make -j's jobserver, matrix.sh's
# saved descriptors): mmdebstrap passes its own pipe's number to a dash
# hook that reads a single digit.  A stand-in mmdebstrap on PATH records
# the descriptors it was given and what it read.  TAP; part of make unit.
#   selftests/unit/mmdebstrap_fds_test.sh OUTDIR
set -u
out=${1:?usage: mmdebstrap_fds_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
t=$(mkdir -p "$out" && cd "$out" && pwd -P)/mmdebstrap-fds-test
rm -rf "$t"
mkdir -p "$t/bin"
cat >"$t/bin/mmdebstrap" <<'EOF2'
#!/bin/bash
# its descriptors but bash's own on this script
ls -l /proc/$$/fd | awk -v self="$(readlink -f "$0")" \
	'$NF != self && $(NF - 1) == "->" { printf "%s%s", n++ ? " " : "", $(NF - 2) }
	 END { print "" }' >"$FDS"
cat >"$SOURCES"
echo "args: $*"
EOF2
chmod +x "$t/bin/mmdebstrap"
# shellcheck source=scripts/mmdebstrap-tries.sh
. "$top/scripts/mmdebstrap-tries.sh"
exec 9>/dev/null 10>/dev/null 11>"$t/held"
PATH=$t/bin:$PATH FDS=$t/fds SOURCES=$t/sources \
	mmdebstrap_tries test "$t/root" "deb http://deb.debian.org/debian trixie main" \
	"$t/log" trixie --variant=apt
rc=$?
exec 9>&- 10>&- 11>&-
ok "mmdebstrap-tries: a run that succeeds: status 0" [ "$rc" = 0 ]
read -r fds <"$t/fds"
ok "mmdebstrap-tries: mmdebstrap had 0, 1 and 2 open, nothing more ($fds)" [ "$fds" = "0 1 2" ]
ok "mmdebstrap-tries: its sources came on its input" \
	grep -q -x -F "deb http://deb.debian.org/debian trixie main" "$t/sources"
ok "mmdebstrap-tries: its output went to LOG.1, with the suite, DIR and '-' last" \
	grep -q -E "^args: --variant=apt .* trixie $t/root -$" "$t/log.1"
echo "1..$n"
exit $((fails > 0))
