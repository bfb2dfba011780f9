#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix's scheduling (selftests/vm/matrix.sh --list), with
# stand-ins for what it calls: scripts/kernels.sh writes its rows with
# pauses, as the build roots are made between them; build-kernel.sh,
# the arm64 preparation and run-vm.sh note when they start and end.  It
# checks that Debian 12's lanes run before the list is whole, the full
# lanes first, no more lanes at a time than MEAS_MATRIX_JOBS, the arm64
# lanes only once their root is made, and that a failed list, build or
# root fails the matrix and says so.  TAP; part of make unit.
#   selftests/unit/matrix_test.sh OUTDIR
set -u
out=${1:?usage: matrix_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# ok DESCRIPTION COMMAND..., n and fails
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"

t=$(mkdir -p "$out" && cd "$out" && pwd -P)/matrix-test
rm -rf "$t"
mkdir -p "$t/scripts" "$t/selftests/vm" "$t/a64tree/selftests/vm"
cp "$top/selftests/vm/matrix.sh" "$t/selftests/vm/"
trace=$t/trace

# the list: Debian 12's rows at once, an arm64 row after its download,
# the roots' rows after their roots, which take until Debian 12's full
# lane has ended (30 s at most)
cat >"$t/scripts/kernels.sh" <<'EOF'
#!/bin/bash
echo "bookworm - 6.1.0-1-amd64 generic default amd64"
echo "bookworm - 6.1.0-1-cloud-amd64 cloud smoke amd64"
echo "bookworm - 6.12.1-amd64 generic full amd64"
sleep 0.5
echo "bookworm - 6.1.0-1-arm64 generic full arm64"
# the roots take long: Debian 12's full lane ends first, if it started
for i in $(seq 300); do
	! grep -q -x "lane 6.12.1-amd64 end" "$TRACE" 2>/dev/null || break
	sleep 0.1
done
echo "list roots" >>"$TRACE"
echo "trixie trixie 7.3.1-amd64 generic full amd64"
echo "trixie trixie 7.3.1-arm64 generic full arm64"
echo "sid sid 7.2.1-amd64 generic smoke amd64"
[ "${LIST_STATUS:-0}" = 0 ] || echo "root: sid: no linux-headers-amd64 in sid" >&2
exit "${LIST_STATUS:-0}"
EOF
cat >"$t/scripts/build-kernel.sh" <<'EOF'
#!/bin/bash
while [ "${1#--}" != "$1" ]; do shift 2; done
echo "build $1 start" >>"$TRACE"
sleep 0.3
mkdir -p "$2/module/example"
touch "$2/module/meas.ko" "$2/module/example/meas_example.ko"
echo "build $1 end" >>"$TRACE"
[ "$1" != "${BUILD_FAILS:-}" ]
EOF
cat >"$t/scripts/arm64-tools.sh" <<EOF
#!/bin/bash
sleep 0.5
echo "$t/a64tree"
EOF
cat >"$t/scripts/arm64-root.sh" <<EOF
#!/bin/bash
sleep 1
[ -z "\${ROOT_FAILS:-}" ] || { echo "arm64-root: the stand-in fails" >&2; exit 1; }
echo "arm64 root made" >>"\$TRACE"
mkdir -p "$t/a64root"
echo "$t/a64root"
EOF
# a lane: counts the lanes running beside it in $t/running
cat >"$t/selftests/vm/run-vm.sh" <<'EOF'
#!/bin/bash
log=
while [ $# -gt 0 ]; do
	case "$1" in
	--log) log=$2; shift 2 ;;
	--) break ;;
	*) shift ;;
	esac
done
r=$(flock "$TRACE.lock" sh -c 'n=$(($(cat "$0" 2>/dev/null || echo 0) + 1)); echo $n >"$0"; echo $n' "$TRACE.running")
echo "lane $KVER start $r" >>"$TRACE"
case "$KVER" in
6.1.0-1-arm64) # runs beside the cloud lane, if two may run at once
	for i in $(seq 100); do
		! grep -q "^lane 6.1.0-1-cloud-amd64 start" "$TRACE" || break
		sleep 0.1
	done ;;
*-cloud-* | 7.2*) sleep 0.3 ;;
*) sleep 0.8 ;;
esac
flock "$TRACE.lock" sh -c 'echo $(($(cat "$0") - 1)) >"$0"' "$TRACE.running"
printf 'ok 1 - one\nok 2 - two\n' >"$log"
echo "lane $KVER end" >>"$TRACE"
# a guest that died between two tests: every result so far passed
[ "$KVER" != "${LANE_DIES:-}" ] || exit 125
EOF
cp "$t/selftests/vm/run-vm.sh" "$t/a64tree/selftests/vm/"
chmod +x "$t"/scripts/*.sh "$t"/selftests/vm/*.sh "$t"/a64tree/selftests/vm/*.sh

# start NAME [VAR=VALUE...]: the matrix of the stand-ins in $t/NAME, in
# the background (the five runs at once); its output in log, its events
# in trace, its status in rc
start() {
	local d=$t/$1
	shift
	mkdir -p "$d"
	(
		env TRACE="$d/trace" MEAS_MATRIX_POLL=0.1 MEAS_MATRIX_JOBS=2 "$@" \
			timeout 120 "$t/selftests/vm/matrix.sh" --list "$t/out" "$d/m" "$d/m/kernels" \
			>"$d/log" 2>&1
		echo $? >"$d/rc"
	) &
}
# use NAME: the assertions below are about run NAME
use() { d=$t/$1 log=$t/$1/log trace=$t/$1/trace && read -r rc <"$d/rc"; }
start pass
start list LIST_STATUS=3
start build BUILD_FAILS=7.3.1-amd64
start root ROOT_FAILS=1
start dies LANE_DIES=7.2.1-amd64
wait
line() { grep -n -m1 -x -F "$1" "$trace" | cut -d: -f1; }
before() { # before EVENT1 EVENT2: EVENT1 is in the trace, before EVENT2
	local a b
	a=$(line "$1") b=$(line "$2")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
row() { grep -q -E "^matrix: $1 .* $2 " "$log"; }

use pass
ok "matrix: every lane passes: status 0" [ "$rc" = 0 ]
ok "matrix: the list is whole in KERNELS_FILE, and no .new left" \
	sh -c "[ \$(wc -l <'$d/m/kernels') = 7 ] && [ ! -e '$d/m/kernels.new' ]"
ok "matrix: a row for each of the 7 kernels" [ "$(grep -c -E '^matrix: [0-9][^ ]*-(amd64|arm64) ' "$log")" = 7 ]
ok "matrix: Debian 12's full lane ran before the roots' rows were listed" \
	before "lane 6.12.1-amd64 end" "list roots"
ok "matrix: a full lane builds before a smoke lane listed before it" \
	before "build 6.12.1-amd64 start" "build 6.1.0-1-cloud-amd64 start"
ok "matrix: the default kernel builds after the others listed with it" \
	before "build 6.1.0-1-cloud-amd64 end" "build 6.1.0-1-amd64 start"
ok "matrix: and its lane is make vmtest's: none runs here" sh -c "! grep -q 'lane 6.1.0-1-amd64 ' '$trace'"
ok "matrix: an arm64 lane starts only once the arm64 root is made" \
	before "arm64 root made" "lane 6.1.0-1-arm64 start 1" ||
	before "arm64 root made" "lane 6.1.0-1-arm64 start 2"
ok "matrix: never more than MEAS_MATRIX_JOBS (2) lanes at a time" \
	sh -c "! grep -q -E '^lane .* start [3-9]' '$trace'"
ok "matrix: two lanes did run at once" grep -q -E '^lane .* start 2$' "$trace"
ok "matrix: each lane's closing line, for .ci/run" \
	[ "$(grep -c -E '^matrix-.*: 2 passed, 0 failed, 0 skipped$' "$log")" = 6 ]

use list
ok "matrix: a list that ends in failure fails the matrix" [ "$rc" = 1 ]
ok "matrix: and says so" grep -q "the list of kernels is not whole: scripts/kernels.sh ended with status 3" "$log"
ok "matrix: the kernels it did list still ran" row 7.3.1-amd64 "ok +2 +0"
ok "matrix: the end of the list's messages follows, with their cause" \
	grep -q -x "matrix:   root: sid: no linux-headers-amd64 in sid" "$log"
"$t/selftests/vm/matrix.sh" --table "$t/out" "$d/m" "$d/m/kernels" >"$t/log-table" 2>&1
ok "matrix: the table printed apart (make check's last) repeats the cause" \
	sh -c "grep -q 'the list of kernels is not whole: scripts/kernels.sh ended with status 3' '$t/log-table' &&
		grep -q -x 'matrix:   root: sid: no linux-headers-amd64 in sid' '$t/log-table'"
"$t/selftests/vm/matrix.sh" --table "$t/out" "$t/pass/m" "$t/pass/m/kernels" >"$t/log-table" 2>&1
rc=$?
ok "matrix: and a whole list's table does not, status 0" \
	sh -c "[ $rc = 0 ] && ! grep -q 'not whole' '$t/log-table'"

use build
ok "matrix: a failed build fails the matrix" [ "$rc" = 1 ]
ok "matrix: its row says FAIL, and its lane did not run" \
	sh -c "grep -q -E '^matrix: 7.3.1-amd64 .* FAIL ' '$log' && ! grep -q 'lane 7.3.1-amd64' '$trace'"
ok "matrix: the other kernels still ran" row 7.2.1-amd64 "ok +2 +0"

use root
ok "matrix: no arm64 root: the matrix fails" [ "$rc" = 1 ]
ok "matrix: each arm64 lane says why" \
	[ "$(grep -c 'no arm64 test root or programs' "$log")" = 2 ]
ok "matrix: and no arm64 lane ran" sh -c "! grep -q 'lane .*-arm64' '$trace'"
ok "matrix: the amd64 lanes still ran" row 7.3.1-amd64 "ok +2 +0"

use dies
ok "matrix: a lane whose guest died after its passes fails the matrix" [ "$rc" = 1 ]
ok "matrix: its row says so, though no test failed" \
	grep -q -E '^matrix: 7.2.1-amd64 .* ok +2 +0 +0 +[0-9]+s  FAIL \(run-vm.sh status 125\)$' "$log"
"$t/selftests/vm/matrix.sh" --table "$t/out" "$d/m" "$d/m/kernels" >"$t/log-table" 2>&1
rc=$?
ok "matrix: and so does the table printed apart, make check's last" \
	sh -c "[ $rc = 1 ] && grep -q -E '^matrix: 7.2.1-amd64 .*  FAIL \(run-vm.sh status 125\)$' '$t/log-table'"
ok "matrix: its closing line counts the lane as one failure, for .ci/run" \
	grep -q -x 'matrix-7.2.1-amd64: 2 passed, 1 failed, 0 skipped' "$log"
ok "matrix: a passing row has no verdict" sh -c "! grep -q -E '^matrix: 7.3.1-amd64 .*FAIL' '$log'"

: >"$t/empty"
"$t/selftests/vm/matrix.sh" "$t/out" "$t/m-empty" "$t/empty" >"$t/log-empty" 2>&1
rc=$?
ok "matrix: without --list, an empty list is refused" \
	sh -c "[ $rc = 1 ] && grep -q 'no kernel in' '$t/log-empty'"

echo "1..$n"
[ "$fails" = 0 ] || { echo "# the runs' output and events: $t/*/log, $t/*/trace"; exit 1; }
