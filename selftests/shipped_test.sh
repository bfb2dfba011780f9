#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module as packages ship it (built without MEAS_TEST): modinfo shows
# the version of the tree (the file VERSION) and no fault-injection
# parameter, and no injection code is linked in.  TAP on stdout.
#   selftests/shipped_test.sh PATH/meas.ko
ko=${1:?usage: shipped_test.sh PATH/meas.ko}
top=$(cd "$(dirname "$0")/.." && pwd)
TAP_PREFIX=shipped
. "$top/selftests/measctl/tap.sh"
hooks="fail_start fail_io fail_task clock_fail abi_version task_race task_end_hold io_snap_race io_cursor_race"

echo "TAP version 13"
echo "1..5"
want=$(cat "$top/VERSION")
got=$(modinfo -F version "$ko")
[ -n "$want" ] && [ "$got" = "$want" ]
ok $? "modinfo version '$got' is VERSION '$want'"

params=$(modinfo -F parm "$ko")
[ -n "$params" ]
ok $? "modinfo lists the module's parameters ($(echo "$params" | wc -l))"

found=
for p in $hooks; do
	echo "$params" | grep -q "^$p:" && found="$found $p"
done
[ -z "$found" ]
ok $? "no fault-injection parameter (found:${found:- none})"

# every parameter a test build adds says so in its description
echo "$params" | grep -qi "test build"
[ $? -ne 0 ]
ok $? "no parameter described as a test hook"

nm "$ko" | grep -q 'meas_inject_'
[ $? -ne 0 ]
ok $? "no injection code (meas_inject_*) linked in"
exit $status
