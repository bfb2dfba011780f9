#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cgroup_cmds_test.sh - end-to-end test of measctl cgroup (the cgroup
# tree of the module's per-cgroup totals) against a loaded meas.ko, with
# cgroup2 at /sys/fs/cgroup.  Run as root from the top of the
# repository, e.g. in the test VM:
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/measctl/cgroup_cmds_test.sh'
#
# Makes a slice with two services and a cgroup named as podman names a
# container, runs work in them, and checks the tree, its names, its sums
# (exited processes included), the periodic view, a removed cgroup, the
# usage errors, and what a user outside group meas sees.  Prints TAP;
# exits 1 if any test fails.
# shellcheck disable=SC2016,SC2034

M=${MEASCTL:-tools/measctl/measctl}
export MEAS_RUNDIR=/tmp/meas-run-cgroup
T=$(mktemp -d /tmp/cgroup-cmds-test.XXXXXX) || exit 1
CG=/sys/fs/cgroup
S=$CG/meas-cmd.slice
ID=3f2b1c0d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c
NTESTS=27
# shellcheck source-path=SCRIPTDIR source=cmdtap.sh
. "$(dirname "$0")/cmdtap.sh"

echo "TAP version 13"
echo "1..$NTESTS"

if [ ! -e $CG/cgroup.procs ]; then
	mount -t cgroup2 none $CG 2>/dev/null
fi
if [ ! -e $CG/cgroup.procs ]; then
	for i in $(seq $NTESTS); do echo "ok $i # SKIP no cgroup2"; done
	exit 0
fi

# wait_for_line REGEX FILE: until a line of FILE matches (30 s at most)
wait_for_line() {
	w=0
	while [ $w -lt 300 ] && ! grep -q "$1" "$2" 2>/dev/null; do
		sleep 0.1
		w=$((w + 1))
	done
}

# run CGROUP CMD...: CMD in CGROUP, in the background
run_in() {
	cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@" &
}

mkdir -p "$S/a.service" "$S/b.service" "$S/libpod-$ID.scope/container" \
	"$S/c.service"
"$M" start 15 >/dev/null 2>&1

# a.service: 40 processes that exit, each spinning a little
run_in "$S/a.service" sh -c 'i=0; while [ $i -lt 40 ]; do sh -c "j=0; while [ \$j -lt 2000 ]; do j=\$((j+1)); done"; i=$((i+1)); done'
wait $!
# b.service: one sleeper, then gone, then the cgroup removed
run_in "$S/b.service" sleep 0.3
wait $!
# the "container": a sleeper in crun's subgroup, until the end kills it
# (the whole file takes 40 s in a stock kernel, 214 s in the debug one)
run_in "$S/libpod-$ID.scope/container" sleep 3600
ctr=$!
# until it is in its cgroup and sleeping there (5 s at most)
i=0
while [ $i -lt 50 ] && { ! grep -qx $ctr "$S/libpod-$ID.scope/container/cgroup.procs" ||
	[ "$(cat /proc/$ctr/comm 2>/dev/null)" != sleep ]; }; do
	sleep 0.1
	i=$((i + 1))
done

mctl cgroup /meas-cmd.slice -d 0
check "cgroup PATH -d 0: the slice, its services and the container's subgroup" \
	'[ $rc = 0 ] && grep -q "meas-cmd.slice$" "$T/out" && grep -q " a.service$" "$T/out" && grep -q " b.service$" "$T/out" && grep -q " container  \[podman:3f2b1c0d9e8a\]$" "$T/out"'

check "cgroup: the header line and the columns" \
	'head -1 "$T/out" | grep -q "^measctl cgroup  since class 15 was enabled" && sed -n 2p "$T/out" | grep -q "%CPU.*LAUNCH.*STOPS.*%DISC  DISC-MS.*READ.*THR CGROUP"'

"$M" --json cgroup /meas-cmd.slice -d 0 >"$T/tree.json" 2>"$T/err"
rc=$?
python3 - "$T/tree.json" "$ID" >"$T/out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ident = sys.argv[2]
by = {c["path"]: c for c in d["cgroups"]}
s = "/meas-cmd.slice"
a, ctr = by[s + "/a.service"], by[s + "/libpod-%s.scope/container" % ident]
sl = by[s]
assert d["command"] == "cgroup" and d["root"] == s, d
assert a["unit"] == "a.service" and a["name"] == "a.service", a
assert ctr["container_id"] == ident and ctr["runtime"] == "podman", ctr
assert ctr["unit"] == "libpod-%s.scope" % ident, ctr
# 40 processes and their parent exited there: each launched at least once
assert a["launches"] >= 41 and a["items"]["stops-exit"] >= 41, a
assert a["cpu_ns"] > 0 and a["threads"] == 0, a
assert ctr["threads"] == 1, ctr
# the slice is the sum of its subtree, to the unit
for k in ("cpu_ns", "launches"):
    kids = sum(c[k] for p, c in by.items() if p.count("/") == 2)
    assert sl[k] == kids, (k, sl[k], kids)
assert sl["id"] is None, sl      # no thread ever ran in the slice itself
# the mean disc wait per stop for disc, null where no thread stopped so
for c in by.values():
    it = c["items"]
    n = it["stops-disc-blocked"] + it["stops-disc-unblocked"]
    want = it["paused-disc-ns"] // n if n else None
    assert c["disc_wait_per_stop_ns"] == want, (c["path"], c["disc_wait_per_stop_ns"], want)
print("a.service launches %d, cpu %d ns" % (a["launches"], a["cpu_ns"]))
PY
py=$?
check "cgroup --json: names, sums of exited processes, the slice the sum of its services ($(head -1 "$T/out"))" \
	'[ $rc = 0 ] && [ $py = 0 ]'

mctl cgroup /meas-cmd.slice -d 1 -s path
check "cgroup -d 1: the container's subgroup hidden; -s path: siblings by name" \
	'[ $rc = 0 ] && ! grep -q " container " "$T/out" && [ "$(sed -n "4p;5p;6p" "$T/out" | awk "{print \$NF}" | tr "\n" " ")" = "a.service b.service [podman:3f2b1c0d9e8a] " ]'

mctl cgroup /meas-cmd.slice/a.service
check "cgroup of one service: one row" \
	'[ $rc = 0 ] && [ "$(wc -l <"$T/out")" = 3 ] && grep -q "/meas-cmd.slice/a.service$" "$T/out"'

mctl cgroup /sys/fs/cgroup/meas-cmd.slice/a.service/
check "cgroup takes /sys/fs/cgroup/PATH/ too" \
	'[ $rc = 0 ] && grep -q "/meas-cmd.slice/a.service$" "$T/out"'

mctl cgroup
check "cgroup: the whole tree from /, this slice in it" \
	'[ $rc = 0 ] && grep -q "^.* /$" "$T/out" && grep -q " meas-cmd.slice$" "$T/out"'

rmdir "$S/b.service"
mctl cgroup /meas-cmd.slice
check "a removed cgroup keeps its totals, marked removed" \
	'[ $rc = 0 ] && grep -q " b.service (removed)$" "$T/out"'

run_in "$S/a.service" sh -c 'while :; do :; done'
spin=$!
mctl cgroup /meas-cmd.slice -n 2 -i 0.3
kill $spin
check "cgroup -n 2 -i 0.3: two intervals, a.service busy in them" \
	'[ $rc = 0 ] && [ "$(grep -c "^measctl cgroup  interval" "$T/out")" = 2 ] && grep " a.service$" "$T/out" | tail -1 | awk "{exit !(\$1 > 20)}"'

"$M" --json cgroup / -n 2 -i 0.2 >"$T/out" 2>"$T/err"
rc=$?
check "cgroup --json -n 2: one object per interval" \
	'[ $rc = 0 ] && [ "$(grep -c "\"command\":\"cgroup\"" "$T/out")" = 2 ] && python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$T/out"'

mctl cgroup -s bogus
r1=$rc
mctl cgroup meas-cmd.slice
r2=$rc
mctl cgroup / /x
r3=$rc
mctl cgroup --archive /nonexistent /a/b/c/d
r4=$rc
mctl cgroup -d 17
check "usage errors: sort key, relative path, two paths, a replayed path deeper than the archive's, depth" \
	'[ $r1 = 2 ] && [ $r2 = 2 ] && [ $r3 = 2 ] && [ $r4 = 2 ] && [ $rc = 2 ]'

mctl cgroup --archive /nonexistent
check "cgroup --archive of no archive fails, saying why" \
	'[ $rc = 1 ] && grep -q "cannot open the archive /nonexistent" "$T/err"'

mctl cgroup /no-such.slice
check "cgroup of a path with no totals fails, saying why" \
	'[ $rc = 1 ] && grep -q "no totals under /no-such.slice" "$T/err"'

# --cgroup PATH and the CGROUP column of the process views
mctl ps -c /meas-cmd.slice/libpod-$ID.scope
check "ps -c PATH: the container's process only, named by its cgroup" \
	'[ $rc = 0 ] && [ "$(wc -l <"$T/out")" = 2 ] && grep -q "^ *$ctr .* podman:3f2b1c0d9e8a *sleep$" "$T/out" && head -1 "$T/out" | grep -q " CGROUP  *COMMAND$"'

mctl ps -c /meas-cmd.slice
check "ps -c covers the subtree, and nothing outside it" \
	'[ $rc = 0 ] && grep -q "^ *$ctr " "$T/out" && ! grep -q "^ *$$ " "$T/out"'

"$M" --json ps -c /sys/fs/cgroup/meas-cmd.slice/libpod-$ID.scope/ >"$T/out" 2>"$T/err"
rc=$?
check "ps --json: the process's cgroup path and name" \
	'[ $rc = 0 ] && grep -q "\"cgroup\":\"/meas-cmd.slice/libpod-$ID.scope/container\",\"cgroup_name\":\"podman:3f2b1c0d9e8a\"" "$T/out"'

run_in "$S/a.service" sh -c 'while :; do :; done'
spin=$!
mctl top -c /meas-cmd.slice/a.service -n 1 -i 0.3 -N 0
kill $spin
wait $spin 2>/dev/null
check "top -c PATH: the service's spinner, not the rest" \
	'[ $rc = 0 ] && [ "$(grep -c "a.service *sh" "$T/out")" = 1 ] && [ "$(wc -l <"$T/out")" = 3 ]'

# Ends at its fifth record: those of the three exits outside would come
# first if the filter let them through.  The exits start once the header
# is out, which exits prints when it has joined the group (a fixed pause
# was too short in the debug kernel).
"$M" exits -c /meas-cmd.slice/a.service -n 5 -t 60 >"$T/out" 2>"$T/err" &
ex=$!
wait_for_line '^ *SEQ ' "$T/out"
for i in 1 2 3; do sh -c "exit $i"; done
run_in "$S/a.service" sh -c 'for i in 1 2 3 4; do sh -c "exit $i"; done'
wait $!
wait $ex
rc=$?
check "exits -c PATH: the four exits in the service and its shell, not the others" \
	'[ $rc = 0 ] && [ "$(grep -c " exit [0-9] .* a.service " "$T/out")" = 5 ] && [ "$(grep -c " exit [0-9]" "$T/out")" = 5 ]'

"$M" --json run --cgroup /meas-cmd.slice/a.service -- sh -c \
	'echo $$ >'"$S"'/a.service/cgroup.procs; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>"$T/out" 2>"$T/err"
rc=$?
python3 - "$T/out" >"$T/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cgroup"]
assert c["path"] == "/meas-cmd.slice/a.service", c
it = c["items"]
assert it["cpu-ns"] > 1000000 and it["launches"] >= 1, it
print("cpu %d ns, launches %d" % (it["cpu-ns"], it["launches"]))
PY
py=$?
check "run --cgroup PATH: the service's deltas over the command ($(head -1 "$T/py"))" \
	'[ $rc = 0 ] && [ $py = 0 ]'

mctl run --cgroup /meas-cmd.slice/a.service -- true
check "run --cgroup: the text report has the cgroup's lines" \
	'[ $rc = 0 ] && grep -q "^cgroup /meas-cmd.slice/a.service: cpu " "$T/out" && grep -q "^  paused: disc" "$T/out"'

# iotrace -c: direct reads of a null_blk disk from a.service, with the io
# controller on, are charged to a.service; those from elsewhere are not
if modprobe null_blk nr_devices=1 2>/dev/null && [ -b /dev/nullb0 ] &&
   echo +io >$CG/cgroup.subtree_control 2>/dev/null &&
   echo +io >"$S/cgroup.subtree_control" 2>/dev/null; then
	# ends at its fifth record, at most 60 s: the reads from a.service
	# come after the seven from outside, which it would print first if
	# the filter let them through
	"$M" --json iotrace -c /meas-cmd.slice/a.service -n 5 -d 60 >"$T/io" 2>"$T/err" &
	io=$!
	sleep 1.5
	dd if=/dev/nullb0 of=/dev/null bs=4k count=7 skip=100 iflag=direct 2>/dev/null
	run_in "$S/a.service" dd if=/dev/nullb0 of=/dev/null bs=4k count=5 iflag=direct status=none
	wait $!
	wait $io
	rc=$?
	cp "$T/io" "$T/out"
	check "iotrace -c PATH: the service's five reads, charged to it, no other" \
		'[ $rc = 0 ] && [ "$(grep -c "\"cgroup\":\"/meas-cmd.slice/a.service\"" "$T/io")" = 5 ] && [ "$(grep -c "\"op\":" "$T/io")" = 5 ]'
	echo -io >"$S/cgroup.subtree_control" 2>/dev/null
	rmmod null_blk 2>/dev/null
else
	pass "# SKIP no null_blk or io controller"
fi

# A user outside group meas: over netlink, the cgroups where only their
# processes ran, and not the others (counted hidden).
if command -v setpriv >/dev/null 2>&1; then
	NOBODY="setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all"
	$NOBODY sleep 60 &
	nb=$!
	sleep 0.2
	echo $nb >"$S/c.service/cgroup.procs"
	$NOBODY "$M" --json cgroup /meas-cmd.slice >"$T/out" 2>"$T/err"
	rc=$?
	check "cgroup as nobody outside group meas: runs over netlink" \
		'[ $rc = 0 ] && ! grep -q "Permission denied" "$T/err"'
	check "cgroup as nobody: nobody's service, not root's; the rest hidden" \
		'grep -q "\"path\":\"/meas-cmd.slice/c.service\"" "$T/out" && ! grep -q "a.service" "$T/out" && ! grep -q "\"hidden\":0," "$T/out"'
	$NOBODY "$M" cgroup /meas-cmd.slice/a.service >"$T/out" 2>"$T/err"
	rc=$?
	check "cgroup as nobody of root's service: nothing shown, an error" \
		'[ $rc = 1 ] && ! grep -q "a.service$" "$T/out"'
	$NOBODY "$M" ps -a >"$T/out" 2>"$T/err"
	rc=$?
	check "ps as nobody outside group meas: over netlink, nobody's processes only" \
		'[ $rc = 0 ] && grep -q "^ *$nb .* nobody .* c.service *sleep$" "$T/out" && [ "$(awk "NR > 1 && \$3 != \"nobody\"" "$T/out" | wc -l)" = 0 ]'
	$NOBODY "$M" top -n 1 -i 0.2 -N 0 >"$T/out" 2>"$T/err"
	rc=$?
	check "top as nobody outside group meas: an interval of nobody's processes" \
		'[ $rc = 0 ] && grep -q "^measctl top  interval 1" "$T/out" && grep -q " nobody .* measctl$" "$T/out" && [ "$(awk "NR > 2 && \$2 != \"nobody\"" "$T/out" | wc -l)" = 0 ]'
	$NOBODY "$M" exits -t 1 >"$T/out" 2>"$T/err"
	rc=$?
	check "exits as nobody outside group meas: the group needs CAP_SYS_ADMIN, said so" \
		'[ $rc = 1 ] && grep -q "CAP_SYS_ADMIN" "$T/err" && ! grep -q "/dev/meas" "$T/err"'
	kill $nb
else
	for i in 1 2 3 4 5 6; do pass "# SKIP no setpriv"; done
fi

kill $ctr 2>/dev/null
wait 2>/dev/null
"$M" stop >/dev/null 2>&1
for d in "$S/libpod-$ID.scope/container" "$S/libpod-$ID.scope" \
	 "$S/a.service" "$S/c.service" "$S"; do
	rmdir "$d" 2>/dev/null
done
rm -rf "$T"
[ $nfail = 0 ]
