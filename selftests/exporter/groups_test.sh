#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# groups_test.sh - meas-exporter's process groups against a loaded
# meas.ko, in the test VM: the configuration file (every error refused
# with its line), groups by cgroup v2 path and by name, no pid label, the
# cap and its counter, counters that never decrease from scrape to
# scrape, and conservation: over a window of hundreds of sub-second
# processes the groups' CPU seconds sum to class 0's busy CPU time within
# 1%, both read from the same two scrapes (counters, not timing).
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/exporter/groups_test.sh'
#
# Prints TAP; exits 1 if any test fails.  MEAS_EXPORTER overrides the
# binary; MEAS_GROUPS_PROCS the number of /bin/true processes (500: a
# fork and exec costs about 0.3 s in a loaded TCG guest, and 2000 of
# them were 42% of make vmtest's time; groups_bench.sh forks 5000).

# shellcheck disable=SC2016,SC2154 # checks are eval-ed strings; tap.sh sets status
X=${MEAS_EXPORTER:-tools/exporter/meas-exporter}
PROCS=${MEAS_GROUPS_PROCS:-500}
PORT=9873
URL=http://127.0.0.1:$PORT/metrics
CG=/sys/fs/cgroup
T=$(mktemp -d /tmp/groups-test.XXXXXX) || exit 1
xpid=""
TAP_PREFIX=groups
# shellcheck source=../measctl/tap.sh
. selftests/measctl/tap.sh

check() {
	eval "$2"
	r=$?
	ok $r "$1"
	[ $r = 0 ] || sed 's/^/# err: /' "$T/err" 2>/dev/null | head -20
}

scrape() {
	curl -sf -m 60 -o "$1" "$URL"
}

# sum FILE FAMILY: the sum of a family's samples
sum() {
	awk -v f="$2" 'index($0, f "{") == 1 { s += $NF } END { printf "%.9f\n", s }' "$1"
}

# value FILE SAMPLE
value() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $NF; f = 1 } END { if (!f) print "none" }' "$1"
}

start() {
	"$X" --port $PORT "$@" 2>"$T/xerr" &
	xpid=$!
	i=0
	while [ $i -lt 100 ] && ! curl -sf -m 5 -o /dev/null "$URL"; do
		sleep 0.2
		i=$((i + 1))
	done
}

stop() {
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null && wait "$xpid"
	xpid=""
}

# run_in CGROUP CMD...: CMD in a new cgroup below $CG
run_in() {
	d=$CG/$1
	shift
	mkdir -p "$d"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$d" "$@"
}

cleanup() {
	stop
	rm -rf "$T"
}
trap cleanup EXIT

echo "TAP version 13"

# ---- the configuration file: bad files refused, with their line ----------
bad_conf() {
	printf '%b' "$2" >"$T/bad.conf"
	line=$3
	"$X" --once --group-config "$T/bad.conf" >/dev/null 2>"$T/err"
	check "refused: $1" '[ $? = 2 ] && grep -q "bad.conf:$line: " "$T/err"'
}
bad_conf "an unknown keyword" "cgroup-depth 1\nfoo 1\n" 2
bad_conf "cgroup-depth out of range" "cgroup-depth 17\n" 1
bad_conf "cgroup-depth not a number" "# c\ncgroup-depth two\n" 2
bad_conf "max-groups 0" "max-groups 0\n" 1
bad_conf "max-groups with two numbers" "max-groups 3 4\n" 1
bad_conf "a group without a pattern" "group web\n" 1
bad_conf "a group named other" "group other sh\n" 1
bad_conf "a group name starting with /" "group /x sh\n" 1
bad_conf "a group name with a quote" 'group a"b sh\n' 1
bad_conf "a pattern of 64 bytes" "group g $(printf '%064d' 0)\n" 1
"$X" --once --group-config "$T/none.conf" >/dev/null 2>"$T/err"
check "refused: a file that does not exist" \
	'[ $? = 2 ] && grep -q "none.conf: No such file" "$T/err"'

# ---- groups by cgroup and by name --------------------------------------------
mountpoint -q $CG || mount -t cgroup2 none $CG
check "cgroup2 mounted" 'mountpoint -q $CG'
cat >"$T/g.conf" <<EOF
# process groups of the test
cgroup-depth 1
max-groups 16
group spinners spin-*   # by name
EOF
start --process-groups --group-config "$T/g.conf" --no-user-classes
scrape "$T/s0" 2>"$T/err"
check "a scrape with process groups" '[ $? = 0 ] && grep -q "^meas_process_group_cpu_seconds_total{group=\"other\"}" "$T/s0"'

ln -sf /bin/sh "$T/spin-a"
run_in grp-a sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
"$T/spin-a" -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
# Both processes have exited: their exit records are folded in by the
# exporter's exits thread as they arrive, not by the scrape
# (Documentation/exporter.rst), so a scrape may come first under TCG;
# scrape until both groups are there, at most 20 times in 10 s.
i=0
until scrape "$T/s1" && grep -q 'group="/grp-a"' "$T/s1" &&
	grep -q '^meas_process_group_exits_total{group="spinners"} [1-9]' "$T/s1" ||
	[ $i -ge 20 ]; do
	sleep 0.5
	i=$((i + 1))
done
echo "# the groups of the two exited processes after $i extra scrapes"
check "a cgroup is a group by its path" \
	'awk "/^meas_process_group_cpu_seconds_total\{group=\"\/grp-a\"\}/ { exit !(\$NF > 0) }" "$T/s1" && grep -q "group=\"/grp-a\"" "$T/s1"'
check "a name rule is a group" \
	'grep -q "^meas_process_group_exits_total{group=\"spinners\"} [1-9]" "$T/s1"'
check "no pid label" '! grep -q "pid=" "$T/s1"'
# A cgroup made right after a walk of /sys/fs/cgroup is found by the
# next walk, not put in other (the walks had a one-second limit once):
# a process in grp-c makes the exporter walk, then grp-d is made and
# used at once.
until_group() {
	i=0
	until scrape "$2" && grep -q "^meas_process_group_exits_total{group=\"$1\"} [1-9]" "$2" ||
		[ $i -ge 20 ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
run_in grp-c true
# the exits thread folds grp-c's record, and walks, within this
sleep 0.3
run_in grp-d true
until_group /grp-d "$T/s3"
check "a cgroup made just after a walk is a group by its path" \
	'grep -q "^meas_process_group_exits_total{group=\"/grp-c\"} 1\$" "$T/s3" &&
	 grep -q "^meas_process_group_exits_total{group=\"/grp-d\"} 1\$" "$T/s3"'
"$X" --once --format prometheus --process-groups >"$T/prom" 2>"$T/err"
promtool check metrics <"$T/prom" >"$T/err" 2>&1
check "promtool check metrics: nothing to report" '[ $? = 0 ] && [ ! -s "$T/err" ]'

# ---- conservation and monotony over hundreds of short processes ----------
scrape "$T/a"
run_in grp-b sh -c "i=0; while [ \$i -lt $PROCS ]; do /bin/true; i=\$((i + 1)); done" &
w1=$!
run_in grp-c sh -c 'i=0; while [ $i -lt 200 ]; do sh -c "j=0; while [ \$j -lt 300 ]; do j=\$((j + 1)); done"; i=$((i + 1)); done' &
w2=$!
k=0
mono=0
prev="$T/a"
while kill -0 $w1 2>/dev/null || kill -0 $w2 2>/dev/null; do
	k=$((k + 1))
	[ $k -le 40 ] || break
	sleep 1
	scrape "$T/m$k" || continue
	# every counter sample of the previous scrape is there, not lower
	awk 'NR == FNR { if ($1 ~ /^meas_process_group.*_total\{/) v[$1] = $NF; next }
	     $1 in v { if ($NF + 0 < v[$1] + 0) { print "decreased", $1, v[$1], $NF; bad = 1 } ; delete v[$1] }
	     END { for (s in v) { print "vanished", s; bad = 1 } exit bad }' \
		"$prev" "$T/m$k" >>"$T/mono" || mono=1
	prev="$T/m$k"
done
wait $w1
wait $w2
scrape "$T/b"
cp "$T/mono" "$T/err" 2>/dev/null
check "group counters never decrease ($k scrapes in the window)" '[ $mono = 0 ] && [ $k -ge 2 ]'
ga=$(sum "$T/a" meas_process_group_cpu_seconds_total)
gb=$(sum "$T/b" meas_process_group_cpu_seconds_total)
ca=$(value "$T/a" 'meas_cpu_seconds_total{mode="busy"}')
cb=$(value "$T/b" 'meas_cpu_seconds_total{mode="busy"}')
lost=$(value "$T/b" meas_process_exit_records_lost_total)
ex=$(awk 'index($0, "meas_process_group_exits_total{group=\"/grp-b\"}") == 1 { print $NF }' "$T/b")
echo "# groups: $ga -> $gb s, class 0 busy: $ca -> $cb s, /grp-b exits $ex, lost $lost"
check "every short process folded in ($PROCS /bin/true exits in /grp-b)" \
	'[ "${ex:-0}" -ge "$PROCS" ] && [ "$lost" = 0 ]'
cons=$(awk -v ga="$ga" -v gb="$gb" -v ca="$ca" -v cb="$cb" 'BEGIN {
	g = gb - ga; c = cb - ca; d = g - c; if (d < 0) d = -d
	printf "%s groups %.6f s, class 0 %.6f s, off %.4f%%\n", \
		((c > 0 && d <= c / 100) ? "within" : "outside"), g, c, (c > 0 ? 100 * d / c : 100) }')
echo "# $cons"
check "the groups' CPU seconds sum to class 0 busy CPU time within 1%" \
	'[ "${cons%% *}" = within ]'
stop

# ---- the cap: one group besides "other" ------------------------------------
printf 'cgroup-depth 1\nmax-groups 1\n' >"$T/cap.conf"
# made first: the exporter's first walk of /sys/fs/cgroup maps them
mkdir -p $CG/grp-d $CG/grp-e $CG/grp-f
start --process-groups --group-config "$T/cap.conf" --no-user-classes
run_in grp-d /bin/true
run_in grp-e /bin/true
run_in grp-f /bin/true
scrape "$T/c"
ngroups=$(grep -c '^meas_process_group_cpu_seconds_total{' "$T/c")
capped=$(value "$T/c" meas_process_groups_capped_total)
echo "# $ngroups groups, $capped processes capped"
check "the cap holds: one group and other" '[ "$ngroups" = 2 ]'
check "what the cap folded into other is counted" '[ "${capped:-0}" -ge 3 ]'
stop
[ -s "$T/xerr" ] && sed 's/^/# exporter: /' "$T/xerr"
exit $status
