#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# adversary's MEAS_ADVERSARY_SECONDS: a value that is not 1 to 30 fails
# the test at its first line, before it touches the machine (null_blk,
# pid_max, meas), so this runs on the host.  The values it takes are run
# by the VM lanes (make vmtest 30 s, the matrix's full lanes 10).
# TAP; part of make unit.
#   selftests/unit/adversary_env_test.sh OUTDIR (where adversary is built)
set -u
out=${1:?usage: adversary_env_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
log=$out/adversary-env-test.log
# shellcheck disable=SC2317 # called through ok
# nothing after the check ran: no "attempts" line, no null_blk
not_started() { ! grep -q '^# adversary: .* s of attempts' "$log"; }
for v in 0 31 -5 abc 10x; do
	MEAS_ADVERSARY_SECONDS=$v timeout 60 "$out/adversary" >"$log" 2>&1
	rc=$?
	ok "adversary: MEAS_ADVERSARY_SECONDS=$v fails the test (status $rc)" [ $rc = 1 ]
	ok "adversary: MEAS_ADVERSARY_SECONDS=$v: says what it takes" \
		grep -q 'MEAS_ADVERSARY_SECONDS: 1 to 30' "$log"
	ok "adversary: MEAS_ADVERSARY_SECONDS=$v: before it starts" \
		not_started
done
exit $((fails > 0))
