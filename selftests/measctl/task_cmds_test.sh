#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# task_cmds_test.sh - end-to-end test of 'measctl task' (openSM2 task
# measurement: start, stop, run, report) against a loaded meas.ko, as
# root from the top of the repository, in the test VM:
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/measctl/task_cmds_test.sh build/selftests'
#
# BUILD_DIR holds clock_spin (a program spending its CPU time in one
# named function).  Prints TAP; exits 1 if a test fails.  The JSON
# checks are made by one python3 run at the end (python3 starts slowly
# under TCG).
out=${1:?usage: task_cmds_test.sh BUILD_DIR}
M=${MEASCTL:-tools/measctl/measctl}
T=$(mktemp -d /tmp/task-cmds-test.XXXXXX) || exit 1
SPIN=$out/clock_spin
TAP_PREFIX=task
. "$(dirname "$0")/tap.sh"

# $1: expected exit status; the rest: the command.  True if it matches.
exits() {
	want=$1
	shift
	"$@" >"$T/last.out" 2>"$T/last.err"
	got=$?
	[ "$got" -eq "$want" ] || echo "# exit $got, not $want: $*"
	[ "$got" -eq "$want" ]
}

echo "TAP version 13"
echo "1..28"

# ---- run: a command measured from its exec to its exit ----
$M task run -i 1 --svc --load detailed --file "$T/spin" -- "$SPIN" 400 \
	>"$T/spin.sum" 2>"$T/spin.err"
ok $? "run of a CPU-bound program"
grep -q "ended: exit" "$T/spin.sum"
ok $? "run: the END record came, reason exit"
$M task report "$T/spin" >"$T/spin.txt" 2>"$T/spin.txt.err"
ok $? "text report of the file"
topf=$(awk '/^PC samples by function/ { getline; getline; $1 = ""; $2 = ""; print; exit }' "$T/spin.txt")
case "$topf" in
*"meas_spin_target (clock_spin)") r=0 ;;
*) r=1 ;;
esac
ok $r "top function from the symbol table ($topf)"
$M --json task report "$T/spin" >"$T/spin.json"
ok $? "--json report"

exits 3 $M task run -- sh -c 'exit 3'
ok $? "run exits with the command's status"
exits 127 $M task run -- /nonexistent/command
ok $? "run of a missing command: 127"

# system calls: dd makes at least 500 reads and 500 writes
$M --json task run --svc --file "$T/dd" --report -- \
	dd if=/dev/zero of=/dev/null bs=1 count=500 >"$T/dd.json" 2>/dev/null
ok $? "run --svc --report --json of dd"

# the standard file, /var/tmp/meas-task.UID.PID
$M task run -- true >"$T/std.sum"
ok $? "run with the standard file"
std=$(sed -n 's/.* file \(.*\)$/\1/p' "$T/std.sum" | head -n 1)
case "$std" in
/var/tmp/meas-task.$(id -u).*) [ -s "$std" ] ;;
*) false ;;
esac
ok $? "standard file name and content ($std)"
$M task report "$std" >/dev/null
ok $? "report of the standard file"
rm -f "$std"

# ---- start and stop of a running process ----
sleep 60 &
sl=$!
$M task start --pid "$sl" --svc --file "$T/sleep" >"$T/start.out"
ok $? "start of a running process"
grep -q "^session [0-9]* pid $sl file $T/sleep\$" "$T/start.out"
ok $? "start prints session, pid and file"
exits 1 $M task start --pid "$sl" --file "$T/sleep2" &&
	grep -q "NPS0045 process $sl is already measured" "$T/last.err"
ok $? "start twice: NPS0045, exit 1"
$M --json task start --pid "$sl" --file "$T/sleep2" >"$T/busy.json" 2>/dev/null
ok $(($? != 1)) "start twice, --json: exit 1"
$M task stop "$sl" >"$T/stop.out"
ok $? "stop"
grep -q "^session [0-9]* pid $sl samples [0-9]* kernel_samples [0-9]* svcs [0-9]* lost 0\$" \
	"$T/stop.out"
ok $? "stop prints samples, kernel_samples, svcs, lost"
exits 1 $M task stop "$sl" &&
	grep -q "NPS0046 process $sl is not measured" "$T/last.err"
ok $? "stop of a process not measured: NPS0046, exit 1"
$M --json task stop "$sl" >"$T/notmeas.json" 2>/dev/null
ok $(($? != 1)) "stop not measured, --json: exit 1"
kill "$sl"
wait "$sl" 2>/dev/null
$M --json task report "$T/sleep" >"$T/sleep.json"
ok $? "report of a stopped measurement"

exits 1 $M task start --pid 2147483647 --file "$T/none" &&
	grep -q "NPS0047 process 2147483647 does not exist" "$T/last.err"
ok $? "start of a process that does not exist: NPS0047, exit 1"

# ---- bad usage: exit 2, nothing started ----
exits 2 $M task start --interval 0
ok $? "--interval 0 refused"
exits 2 $M task start --interval 10001
ok $? "--interval 10001 refused"
exits 2 $M task start --load sometimes
ok $? "bad --load refused"
exits 2 $M task run --pid 1 -- true
ok $? "run --pid refused"

python3 - "$T" "$n" "$(dirname "$0")" <<'PY'
import os, sys

sys.path.insert(0, sys.argv[3])
from tapjson import Tap

T = sys.argv[1]
tap = Tap(T, int(sys.argv[2]), "task")
ok, load = tap.ok, tap.load

d = load("spin.json")
s = (d.get("sessions") or [{}])[0]
end = s.get("end") or {}
fn = (s.get("functions") or [{}])[0]
gen1 = [o["name"] for l in s.get("load_info", []) if l["gen"] == 1
        for o in l["objects"]]
ok(d.get("ok") is True and s.get("complete") is True and
   s.get("end_reason") == "exit" and s.get("interval_ms") == 1 and
   s.get("load") == "detailed" and s.get("samples", 0) > 0 and
   s.get("samples") == end.get("samples") and s.get("lost") == 0 and
   fn.get("function") == "meas_spin_target" and
   any(x.endswith("/clock_spin") for x in gen1),
   "json: complete, %s samples, top %s, clock_spin in generation 1"
   % (s.get("samples"), fn.get("function")))

r = load("dd.json")
calls = {c["name"]: c["count"] for c in
         (r.get("report") or {}).get("syscalls", [])}
ok(r.get("exit_status") == 0 and r.get("complete") is True and
   calls.get("read", 0) >= 500 and calls.get("write", 0) >= 500,
   "run --report: dd's read %s and write %s calls by name"
   % (calls.get("read"), calls.get("write")))

b = load("busy.json")
m = load("notmeas.json")
z = (load("sleep.json").get("sessions") or [{}])[0]
ok(b.get("ok") is False and b.get("result") == 45 and
   b.get("errno_name") == "EBUSY" and m.get("result") == 46 and
   m.get("errno_name") == "ENOENT" and z.get("end_reason") == "stop" and
   z.get("svc") is True,
   "json errors: result %s %s, %s %s; stopped session ended by %s"
   % (b.get("result"), b.get("errno_name"), m.get("result"),
      m.get("errno_name"), z.get("end_reason")))
sys.exit(tap.bad)
PY
[ $? -eq 0 ] || status=1
rm -rf "$T"
exit $status
