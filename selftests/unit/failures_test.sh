#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/failures.sh, the digest a failed make check ends with: from a
# stream log of passes and failures of each kind it keeps the failures
# and nothing else.  TAP; part of make unit.
#   selftests/unit/failures_test.sh OUTDIR
set -u
out=${1:?usage: failures_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
mkdir -p "$out"
log=$out/failures-test.log
cat >"$log" <<'LOG'
ok 1 - a pass
not ok 2 - clock: a failure
# not ok 3 - nested failure
ok 4 - not ok in its name is no failure
vmtest: 10 passed, 0 failed, 1 skipped
pkgtest: 9 passed, 1 failed, 0 skipped
make[2]: *** [Makefile:256: check-kernels] Error 1
matrix: 7.3.1-amd64   amd64 trixie generic full gcc 14 FAIL - - - 3s
matrix: 7.2.1-amd64   amd64 sid generic smoke gcc 15 ok 9 0 0 90s
matrix: 7.3.1-amd64 (full): run-vm.sh status 2; see console.out
matrix: the list of kernels is not whole: scripts/kernels.sh ended with status 1; the end of kernels.log:
matrix:   root: sid: no linux-headers-amd64 in sid
run-vm: waiting for one of 2 VM slots
run-vm: TIMEOUT: the VM did not finish within 900s
run-vm: FAIL: qemu exited with status 1
LOG
digest=$("$top/scripts/failures.sh" "$out/missing.log" "$log")
rc=$?
has() { grep -q -F -- "$1" <<<"$digest"; }
lacks() { ! has "$1"; }
ok "failures: status 0 when a log was read" [ "$rc" = 0 ]
for l in 2 3 6 7 8 10 11 12 14 15; do
	ok "failures: keeps line $l" has "failures:   $l:"
done
for l in 1 4 5 9 13; do
	ok "failures: leaves line $l" lacks "failures:   $l:"
done
ok "failures: names the log and its count" has "failures: $log, 10 lines (the first 40):"
"$top/scripts/failures.sh" "$out/missing.log" >/dev/null
ok "failures: status 1 when no log could be read" [ $? = 1 ]
echo "1..$n"
exit $((fails > 0))
