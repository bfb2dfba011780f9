#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# measctl_test.sh - end-to-end test of measctl against a loaded meas.ko.
#
# Run as root, from the top of the repository, with meas.ko loaded and
# tools/measctl/measctl built, e.g. in the test VM:
#
#   selftests/vm/run-vm.sh -- sh -c \
#	'insmod module/meas.ko && selftests/measctl/measctl_test.sh'
#
# Prints TAP; exits 1 if any test fails.  MEASCTL overrides the binary;
# MEAS_TEST_TIMING=1 adds the uptime after each passed test.
#
# Under TCG every exec costs ~0.1 s and a python3 start-up seconds, so
# outputs are matched with shell builtins, and the --json outputs are
# kept and validated by one python3 (json module) run at the end.
#
# Each check is a shell expression in single quotes, evaluated when the
# check runs.
# shellcheck disable=SC2016,SC2034

M=${MEASCTL:-tools/measctl/measctl}
export MEAS_RUNDIR=/tmp/meas-run
T=$(mktemp -d /tmp/measctl-test.XXXXXX) || exit 1
J=$T/json
mkdir "$J" || exit 1

# Bad arguments: each must exit 2 and change nothing (one test each).
BAD_ARGS='
start
start 16
start 0,,1
start 0x10000
stop -t -1
get 0
get 0 0 0 -1
get x 0
get 0 0 0 99999999999999999999
watch -i 0
watch -n 1.5
watch --bogus
run
frobnicate'

# Usage errors name what is allowed (issue 19): ARGS|PATTERN, one a line;
# each exits 2 and its message matches the glob PATTERN.
BAD_SAYS='
start 16|*bad class list '"'"'16'"'"': classes are 0..15, as a list (0,14), a range (0-3), a mask (0x1..0xffff) or '"'"'all'"'"'; defined now: 0,14-15*
start|*which classes? (0..15*
stop 0 1|*one CLASSES*
get x 0|*a number 0..15; defined now: 0,14-15*
get 0 x|*class 0 has 0..*
get 0 0 x|*an item number*
get 0 0 0 -1|*0 or more*
info x|*info takes none*
version x|*none taken*
watch -i 0|*0.001..86400 s*
watch -n 0|*1 or more*
watch foo|*watch takes options only*
top -N x|*0 for all*
top -s bogus|*pid, cpu*
iotrace -d 0|*0.001..*
profile -d 0|*0.001..*
profile -i 0|*ms)*
define x 1:1|*user-defined classes are 1..13; defined now: 0,14-15*
update 1 0 1 0 x|*a decimal integer*
update x 0 1 0 1|*user-defined classes are 1..13*
run|*no command to run*
task|*start, stop, run, report*
task frob|*(start, stop, run, report)*
task stop x|*1..2147483647*
task start --load x|*std or detailed*
task start -i 0|*none*'

NBAD=0
NJSON=9		# documents saved by mctlj below
NTESTS=48	# check calls outside the bad-arguments loop

n=0
nfail=0
nj=0
rc=0
out=
err=
doc=
py=

pass() {
	n=$((n + 1))
	echo "ok $n - $1"
	[ -n "$MEAS_TEST_TIMING" ] && read -r up _ </proc/uptime && echo "# $up"
}

fail() {
	n=$((n + 1))
	nfail=$((nfail + 1))
	echo "not ok $n - $1"
	shift
	for d in "$@"; do
		printf '%s\n' "$d" | while IFS= read -r l; do
			echo "# $l"
		done
	done
}

# check DESC EXPR: pass if the shell expression EXPR is true; on failure
# show it and the last command's status and output.
check() {
	if eval "$2"; then
		pass "$1"
	else
		fail "$1" "failed: $2" "rc=$rc" "$out" "$err"
	fi
}

# load FILE VAR: FILE's contents into VAR, with builtins only.
load() {
	_v=
	while IFS= read -r _l || [ -n "$_l" ]; do
		_v="$_v$_l
"
	done <"$1"
	eval "$2=\$_v"
}

# mctl ARGS...: run measctl; sets rc, out and err.
mctl() {
	"$M" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	load "$T/out" out
	load "$T/err" err
}

# mctlj KIND DESC ARGS...: mctl with --json; stdout is kept for the JSON
# validation at the end (KIND json: one document; jsonl: one per line).
mctlj() {
	nj=$((nj + 1))
	_f=$J/$nj.$1
	printf '%s\n' "$2" >"$J/$nj.desc"
	shift 2
	"$M" --json "$@" >"$_f" 2>"$T/err"
	rc=$?
	load "$_f" out
	load "$T/err" err
}

# has STRING PATTERN: STRING contains the glob PATTERN.
has() {
	case $1 in
	*$2*) return 0 ;;
	esac
	return 1
}

# lines STRING: the number of lines of STRING, into $nl.
lines() {
	_s=$1
	nl=0
	while [ -n "$_s" ]; do
		_s=${_s#*
}
		nl=$((nl + 1))
	done
}

# state: read INFO once: $gm = global mask, $en0 = enablers of class 0.
state() {
	gm=
	dm=
	en0=
	"$M" info >"$T/info" 2>/dev/null
	while read -r a b c d; do
		case $a in
		enabled-classes) gm=${c#(}; gm=${gm%)} ;;
		defined-classes) dm=${c#(}; dm=${dm%)} ;;
		0) en0=$c ;;
		esac
	done <"$T/info"
}

# mask_is WANT: the global mask is WANT, polled for up to ~3 s.
mask_is() {
	_i=0
	state
	while [ "$gm" != "$1" ] && [ $_i -lt 30 ]; do
		state
		_i=$((_i + 1))
	done
	[ "$gm" = "$1" ]
}

# gone PID: the process has exited (or is a zombie), polled up to ~3 s.
gone() {
	_i=0
	while [ $_i -lt 30 ]; do
		_st=
		[ -e "/proc/$1/stat" ] || return 0
		read -r _st 2>/dev/null <"/proc/$1/stat" || return 0
		_st=${_st##*) }
		case $_st in
		Z* | X* | "") return 0 ;;
		esac
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

holder_pid() {
	case $out in
	*"holder pid "*) _p=${out#*holder pid }; echo "${_p%%,*}" ;;
	*'"holder_pid":'*) _p=${out#*\"holder_pid\":}; echo "${_p%%,*}" ;;
	esac
}

# records: number of holder records, into $nrec.
records() {
	nrec=0
	for _f in "$MEAS_RUNDIR"/holder.*; do
		case ${_f##*/holder.} in
		"" | *[!0-9]*) ;;
		*) nrec=$((nrec + 1)) ;;
		esac
	done
	[ -n "$1" ] && [ "$nrec" = "$1" ]
}

cleanup() {
	"$M" stop -t 2 >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

while IFS= read -r args; do
	[ -n "$args" ] && NBAD=$((NBAD + 1))
done <<END_OF_BAD_ARGS
$BAD_ARGS
END_OF_BAD_ARGS
NSAYS=0
while IFS= read -r args; do
	[ -n "$args" ] && NSAYS=$((NSAYS + 1))
done <<END_OF_BAD_SAYS
$BAD_SAYS
END_OF_BAD_SAYS
PLAN=$((NTESTS + NJSON + NBAD + NSAYS))

echo "TAP version 13"
echo "1..$PLAN"

"$M" stop -t 2 >/dev/null 2>&1
rm -rf "$MEAS_RUNDIR"

# --- preconditions and help -----------------------------------------------

state
check "meas is loaded and no class is enabled" \
	'[ -c /dev/meas ] && [ "$gm" = 0x0000 ]'

mctl --help
check "--help prints the usage and exits 0" \
	'[ $rc = 0 ] && has "$out" "usage: measctl"'

mctl
check "no command: usage on stderr, exit 2" \
	'[ $rc = 2 ] && has "$err" "usage: measctl"'

# --- versions: measctl, libmeas, meas.ko from VERSION; the ABI ------------

read -r V <VERSION
abi=$(sed -n 's/^#define MEAS_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' uapi/linux/meas*.h)
mctl --version
check "--version: measctl, libmeas, meas.ko $V and ABI $abi" \
	'[ $rc = 0 ] && [ "$out" = "measctl $V
libmeas $V (ABI $abi)
meas.ko $V (ABI $abi)
ABI $abi
" ] && [ -z "$err" ]'

mctl version
check "the version command prints the same" \
	'[ $rc = 0 ] && has "$out" "meas.ko $V (ABI $abi)"'

mctlj json "version --json prints a valid document" --version
check "--version --json names the four versions" \
	'[ $rc = 0 ] && has "$out" "\"measctl\":\"$V\"" && has "$out" "\"module\":\"$V\"" && has "$out" "\"module_abi\":$abi"'

# A module older than measctl (the test build reports ABI 1 on demand):
# every command that opens /dev/meas says so, --version marks it.
echo 1 >/sys/module/meas/parameters/abi_version
wrc=$?
mctl info
check "a module of an older ABI: info warns, naming both ABIs and the release" \
	'[ $wrc = 0 ] && [ $rc = 0 ] && has "$err" "has ABI 1, older than the ABI $abi measctl $V was built for" && has "$err" "load the meas.ko of release $V"'
mctl --version
echo 0 >/sys/module/meas/parameters/abi_version
check "--version marks the older module" \
	'[ $rc = 0 ] && has "$out" "meas.ko $V (ABI 1, older)" && has "$err" "older than the ABI"'

# --- start: a holder keeps the class enabled ------------------------------

mctl start 0
pid1=$(holder_pid)
check "start 0 exits 0 and names its holder" '[ $rc = 0 ] && [ -n "$pid1" ]'

rec=
[ -f "$MEAS_RUNDIR/holder.$pid1" ] && load "$MEAS_RUNDIR/holder.$pid1" rec
check "the holder records its mask in \$MEAS_RUNDIR/holder.<pid>" \
	'[ "$rec" = "0x0001
" ]'

state
check "class 0 stays enabled after measctl exits (INFO global mask)" \
	'[ "$gm" = 0x0001 ] && [ "$en0" = 1 ]'

comm=
[ -e "/proc/$pid1/comm" ] && read -r comm <"/proc/$pid1/comm"
check "the holder is alive as measctl-holder" '[ "$comm" = measctl-holder ]'

mctlj json "start --json prints valid JSON" start 0
pid2=$(holder_pid)
state
check "a second start makes a second holder: 2 records, 2 enablers" \
	'[ $rc = 0 ] && [ -n "$pid2" ] && [ "$pid2" != "$pid1" ] &&
	 records 2 && [ "$en0" = 2 ]'

# --- get, header, info ----------------------------------------------------

mctl get 0 0
lines "$out"
check "get 0 0 prints 100 'item value name' lines" \
	'[ $rc = 0 ] && [ $nl = 100 ] && has "
$out" "
0 [0-9]* launches
" && has "$out" "
88 [0-9]* time-cpu-ns
"'

mctl get 0 0 -3 3
check "get 0 0 -3 3 returns the subclass header" \
	'[ $rc = 0 ] && [ "$out" = "-3 2 entries
-2 100 items-per-entry
-1 3 entry0-size
" ]'

mctl get --fast 0 0 26 3
check "get --fast 0 0 26 3 prints items 26..28" \
	'[ $rc = 0 ] && has "$out" "26 * stops-exit
27 * forks
28 * execs
"'

mctlj json "get --json is valid JSON" get 0 0
check "get --json exits 0 with 100 items" \
	'[ $rc = 0 ] && has "$out" "\"words\":100,"'

mctl get 0 9
check "get of a bad subclass exits 1 naming the MPE code" \
	'[ $rc = 1 ] && has "$err" "result 5 (bad subclass)"'

mctl header 0 0
check "header 0 0: 2 entries, 100 items per entry, entry-0 size 3" \
	'[ $rc = 0 ] && [ "$out" = "class 0 subclass 0
entries 2
items-per-entry 100
entry0-size 3
items 100
" ]'

mctlj json "header --json is valid JSON" header 0 0
check "header --json exits 0" '[ $rc = 0 ] && has "$out" "\"entries\":2,"'

mctl info
check "info shows ABI version, class 0 defined with 2 enablers" \
	'[ $rc = 0 ] && has "$out" "abi-version $abi
defined-classes 0" && has "$out" "
enabled-classes 0 (0x0001)
" && has "$out" "    0      yes        2 "'

mctlj json "info --json is valid JSON" info
check "info --json exits 0" '[ $rc = 0 ] && has "$out" "\"global_mask\":\"0x0001\""'

# --- unprivileged ---------------------------------------------------------

unpriv() {
	setpriv --reuid=65534 --regid=65534 --groups="${MEAS_VM_GID:-4040}" --inh-caps=-all \
		"$M" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	load "$T/out" out
	load "$T/err" err
}

unpriv get 0 0
lines "$out"
check "an unprivileged user may GET class 0 while it is enabled" \
	'[ $rc = 0 ] && [ $nl = 100 ]'

unpriv start 0
state
check "unprivileged start fails: exit 1, message on permission, no holder" \
	'[ $rc = 1 ] && has "$err" "not permitted" && has "$err" "permission" &&
	 records 2 && [ "$en0" = 2 ]'

unpriv stop
state
check "unprivileged stop of root's holders fails with exit 1" \
	'[ $rc = 1 ] && [ "$en0" = 2 ] && [ -d "/proc/$pid1" ]'

# --- stop -----------------------------------------------------------------

mctl stop 14
state
check "stop of a class no holder holds exits 1 and leaves the holders" \
	'[ $rc = 1 ] && records 2 && [ "$en0" = 2 ]'

mctl stop
check "stop exits 0 and reports nothing enabled" \
	'[ $rc = 0 ] && has "$out" "
enabled classes: none (0x0000)
"'

check "stop removed the records and the holders exited" \
	'records 0 && gone "$pid1" && gone "$pid2"'

state
check "after stop the global mask is 0" '[ "$gm" = 0x0000 ]'

mctl stop
check "stop with nothing held exits 1" '[ $rc = 1 ]'

mctl get 0 0
check "get of a class nobody enabled exits 1: 'class not enabled'" \
	'[ $rc = 1 ] && has "$err" "result 1 (class not enabled)"'

mctlj json "a failure with --json prints a valid error document" get 0 0
check "get --json of a class not enabled exits 1 with ok false" \
	'[ $rc = 1 ] && has "$out" "\"ok\":false"'

# --- a holder killed with SIGKILL, or sent SIGTERM ------------------------

mctl start 0
pid3=$(holder_pid)
[ -n "$pid3" ] && kill -9 "$pid3"
check "kill -9 of a holder stops its classes (file release)" \
	'[ -n "$pid3" ] && mask_is 0x0000 && gone "$pid3"'

mctl stop
check "stop removes the stale record of the killed holder, exit 1" \
	'[ $rc = 1 ] && records 0 && has "$out" "stale"'

mctl start 0
pid4=$(holder_pid)
[ -n "$pid4" ] && kill -TERM "$pid4"
check "SIGTERM: the holder stops its classes and removes its record" \
	'[ -n "$pid4" ] && mask_is 0x0000 && gone "$pid4" && records 0'

mctl start all
state
check "start all enables every defined class" \
	'[ $rc = 0 ] && [ -n "$dm" ] && [ "$gm" = "$dm" ]'

mctlj json "stop --json is valid JSON" stop
state
check "stop --json exits 0 and class 0 is off" \
	'[ $rc = 0 ] && [ "$gm" = 0x0000 ]'

mctl start 5
check "start of an undefined class exits 1: 'class not defined'" \
	'[ $rc = 1 ] && has "$err" "result 5 (class not defined)" && records 0'

# --- run ------------------------------------------------------------------

mctl run -- true
check "run -- true prints elapsed time and deltas, exits 0" \
	'[ $rc = 0 ] && has "$out" "exit status 0, * s elapsed" &&
	 has "$out" "
   0  launches  * [0-9]*" &&
	 has "$out" "
  88  time-cpu-ns  * [0-9]*.[0-9]* ms  * [0-9]*.[0-9]%
"'

mctl run -- false
check "run -- false exits 1" '[ $rc = 1 ]'

mctl run -- sh -c 'exit 7'
check "run propagates the command's exit status (7)" '[ $rc = 7 ]'

mctl run -- /nonexistent/cmd
check "run of a missing command exits 127" '[ $rc = 127 ]'

mctlj json "run --json is valid JSON" run -- true
state
check "run --json exits 0 and left nothing enabled" \
	'[ $rc = 0 ] && [ "$gm" = 0x0000 ]'

# --- watch ----------------------------------------------------------------

mctl watch -n 2 -i 0.2
check "watch -n 2 -i 0.2 prints 2 intervals with names" \
	'[ $rc = 0 ] && has "$out" "--- * interval 1 *
*   0  launches *
*  88  time-cpu-ns *
--- * interval 2 *
*   0  launches *
*  88  time-cpu-ns *" && ! has "$out" "interval 3"'

mctlj jsonl "watch --json prints valid JSON lines" watch -n 2 -i 0.2
lines "$out"
check "watch --json prints 2 lines" '[ $rc = 0 ] && [ $nl = 2 ]'

# No time item above 100% x CPUs in an interval (watch shows % of one
# CPU): the kernel's time against the kernel's clock (issue 19).
"$M" --json watch -n 8 -i 0.25 >"$T/bound.jsonl" 2>"$T/err"
rc=$?
py=$(python3 - "$T/bound.jsonl" "$(nproc)" <<'END_OF_PY'
import json, sys
cpus, worst, n = int(sys.argv[2]), 0.0, 0
for line in open(sys.argv[1]):
    for it in json.loads(line)["items"]:
        if "pct" in it:
            n += 1
            worst = max(worst, it["pct"])
print("%d shares, highest %.4f%% of %d%%" % (n, worst, 100 * cpus))
sys.exit(0 if n and worst <= 100.0 * cpus else 1)
END_OF_PY
)
prc=$?
check "watch: no time item above 100% x CPUs ($py)" '[ $rc = 0 ] && [ $prc = 0 ]'

"$M" watch -i 0.2 >"$T/out" 2>"$T/err" &
wpid=$!
mask_is 0x0001
mid=$gm
kill -TERM $wpid
wait $wpid
rc=$?
state
check "watch holds class 0 and stops cleanly on SIGTERM" \
	'[ "$mid" = 0x0001 ] && [ $rc = 0 ] && [ "$gm" = 0x0000 ]'

# --- bad arguments --------------------------------------------------------

set -f
while IFS= read -r args; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	mctl $args
	check "bad arguments exit 2: measctl $args" '[ $rc = 2 ] && [ -n "$err" ]'
done <<END_OF_BAD_ARGS
$BAD_ARGS
END_OF_BAD_ARGS
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	mctl $args
	check "usage error names what is allowed: measctl $args" \
		'[ $rc = 2 ] && has "$err" "$want"'
done <<END_OF_BAD_SAYS
$BAD_SAYS
END_OF_BAD_SAYS
set +f

state
check "bad arguments changed nothing" '[ "$gm" = 0x0000 ] && records 0'

# --- the JSON documents, validated by python3 at once ---------------------

python3 - "$J" >"$T/pyout" 2>&1 <<'END_OF_PY'
import json, os, sys

d = sys.argv[1]
for name in sorted(os.listdir(d), key=lambda s: (len(s), s)):
    base, kind = name.rsplit(".", 1)
    if kind == "desc":
        continue
    try:
        text = open(os.path.join(d, name)).read()
        if kind == "jsonl":
            docs = [json.loads(l) for l in text.splitlines()]
            if not docs:
                raise ValueError("no lines")
        else:
            docs = [json.loads(text)]
        if not all(isinstance(x, dict) for x in docs):
            raise ValueError("not an object")
        print(base, "ok")
    except Exception as e:
        print(base, "bad", str(e).replace("\n", " "))
END_OF_PY
i=1
while [ $i -le $nj ]; do
	read -r desc <"$J/$i.desc"
	res=
	while read -r num verdict why; do
		[ "$num" = $i ] && res="$verdict $why"
	done <"$T/pyout"
	case $res in
	"ok ") pass "$desc" ;;
	*)
		load "$T/pyout" py
		f=$J/$i.json
		[ -f "$f" ] || f=$J/$i.jsonl
		load "$f" doc
		fail "$desc" "python3: ${res:-no verdict}" "$doc" "$py"
		;;
	esac
	i=$((i + 1))
done

if [ $n -ne "$PLAN" ]; then
	echo "# planned $PLAN tests, ran $n"
	nfail=$((nfail + 1))
fi
echo "# $nfail of $n failed"
[ $nfail = 0 ]
