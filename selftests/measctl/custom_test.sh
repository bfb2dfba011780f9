#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# custom_test.sh - measctl define, undefine, describe and update, and the
# names get and watch print for a user-defined class; then the unload of
# meas.ko with a class still defined (meas.ko is loaded again after).
#
# Run as root from the top of the repository with meas.ko loaded and no
# /dev/meas open elsewhere (selftests/run_tests.sh).  Prints TAP; exits 1
# if a test fails.  MEASCTL overrides the binary.
# shellcheck disable=SC2016

M=${MEASCTL:-tools/measctl/measctl}
export MEAS_RUNDIR=/tmp/meas-run-custom
T=$(mktemp -d /tmp/custom-test.XXXXXX) || exit 1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

n=0
nfail=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

notok() {
	n=$((n + 1))
	nfail=$((nfail + 1))
	echo "not ok $n - $1"
	printf '%s\n' "rc=$rc" "$out" "$err" | sed 's/^/# /'
}

# check DESC EXPR: pass if the shell expression EXPR is true.
check() {
	if eval "$2"; then ok "$1"; else notok "$1"; fi
}

# mctl ARGS...: run measctl; sets rc, out and err.
mctl() {
	"$M" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}

# has STRING TEXT: STRING contains TEXT (literally).
has() {
	case $1 in
	*"$2"*) return 0 ;;
	esac
	return 1
}

# json DESC ARGS...: measctl --json ARGS; one valid JSON document per line.
json() {
	_d=$1
	shift
	"$M" --json "$@" >"$T/json" 2>"$T/err"
	rc=$?
	out=$(cat "$T/json")
	err=$(cat "$T/err")
	if "$PY" -c 'import json,sys
for l in open(sys.argv[1]):
    json.loads(l)' "$T/json" 2>>"$T/err"; then
		ok "$_d"
	else
		notok "$_d"
	fi
}

echo "TAP version 13"
echo "1..34"

"$M" undefine 9 >/dev/null 2>&1

# ---- define, describe ------------------------------------------------------
mctl define --name lab 9 'disk:2:reads,writes,qlen/gauge' '1:3'
check "define: exit 0" '[ $rc -eq 0 ] && has "$out" "class 9 defined"'
mctl describe 9
check "describe: class and subclass names" \
	'has "$out" "class 9 lab" && has "$out" "subclass 0 disk: 2 entries of 3 items"'
check "describe: item names and kinds" \
	'has "$out" "item 0 reads counter" && has "$out" "item 2 qlen gauge" && has "$out" "subclass 1 -: 1 entry of 3 items"'
json "describe --json is JSON" describe 9
check "describe --json: kinds" 'has "$out" "\"kind\":\"gauge\""'
mctl define 9 1:1
check "define an existing class: code 3, exit 1" \
	'[ $rc -eq 1 ] && has "$err" "result 3 (class already defined)"'
mctl define 0 1:1
check "define class 0: code 2 (the module's)" \
	'[ $rc -eq 1 ] && has "$err" "result 2"'
mctl define 10 '2:bad name'
check "define a name with a space: code 7" \
	'[ $rc -eq 1 ] && has "$err" "result 7 (bad name)"'
mctl define 10 '1:abcdefghijklmnopqrstuvwxyz0123456'
check "define a name longer than 31: usage error" '[ $rc -eq 2 ]'
mctl define 10 '1:2:3:4'
check "define a bad subclass: usage error" '[ $rc -eq 2 ]'
mctl define 10 '1:a/x'
check "define a bad kind: usage error" '[ $rc -eq 2 ]'
if setpriv --reuid=65534 --regid=65534 --groups="${MEAS_VM_GID:-4040}" --inh-caps=-all \
	"$M" define 10 1:1 >"$T/out" 2>"$T/err"; then rc=0; else rc=$?; fi
err=$(cat "$T/err")
check "unprivileged define: EPERM, exit 1" \
	'[ $rc -eq 1 ] && has "$err" "Operation not permitted"'

# ---- update ----------------------------------------------------------------
mctl update 9 0 1 reads 5
check "update while not enabled: code 1" \
	'[ $rc -eq 1 ] && has "$err" "result 1 (class not enabled)"'
mctl start 9
check "start 9 (a holder)" '[ $rc -eq 0 ]'
mctl update 9 0 1 reads 5
check "update by item name" '[ $rc -eq 0 ] && [ "$out" = ok ]'
mctl update 9 0 2 1 7
check "update by item number" '[ $rc -eq 0 ]'
mctl update --set 9 0 1 qlen 42
check "update --set" '[ $rc -eq 0 ]'
mctl update 9 1 1 2 -3
check "update with a negative value" '[ $rc -eq 0 ]'
if setpriv --reuid=65534 --regid=65534 --groups="${MEAS_VM_GID:-4040}" --inh-caps=-all \
	"$M" update 9 0 1 0 1 >"$T/out" 2>"$T/err"; then rc=0; else rc=$?; fi
err=$(cat "$T/err")
check "unprivileged update: EPERM" \
	'[ $rc -eq 1 ] && has "$err" "Operation not permitted"'
mctl update 9 0 3 0 1
check "update entry 3 of 2: code 3" '[ $rc -eq 1 ] && has "$err" "result 3 (bad entry)"'
mctl update 9 0 1 3 1
check "update item 3 of 3: code 2" '[ $rc -eq 1 ] && has "$err" "result 2"'
mctl update 9 2 1 0 1
check "update subclass 2: code 4" '[ $rc -eq 1 ] && has "$err" "result 4"'
mctl update 9 0 1 nosuch 1
check "update an unknown item name: exit 1" '[ $rc -eq 1 ] && has "$err" "no item"'
mctl update --fast 9 7 99 -99 1
check "update --fast with absurd arguments: ok" '[ $rc -eq 0 ]'
json "update --json is JSON" update --double 9 0 2 0 1

# ---- names in get and watch -----------------------------------------------
mctl get 9 0
check "get: names with the entry" \
	'has "$out" "0 5 reads[1]" && has "$out" "2 42 qlen[1]" && has "$out" "4 7 writes[2]" && has "$out" "3 1 reads[2]"'
mctl get 9 1
check "get: unnamed items" 'has "$out" "2 18446744073709551613 -"'
mctl watch -i 0.2 -n 1 -c 9
check "watch: the class and its item names" \
	'[ $rc -eq 0 ] && has "$out" "class 9 lab" && has "$out" "disk.qlen[1]" && has "$out" "(gauge)"'
json "watch --json is JSON with the names" watch -i 0.2 -n 1 -c 9
check "watch --json: custom items" 'has "$out" "\"custom\":" && has "$out" "disk.writes[2]"'

# ---- undefine ----------------------------------------------------------------
mctl undefine 9
check "undefine while enabled: code 4" '[ $rc -eq 1 ] && has "$err" "result 4 (class enabled)"'
mctl stop 9
mctl undefine 9
check "undefine once disabled" '[ $rc -eq 0 ] && has "$out" "class 9 removed"'
mctl describe 9
check "describe a removed class: code 5" '[ $rc -eq 1 ] && has "$err" "result 5"'

# ---- meas.ko goes with a class still defined ---------------------------------
"$M" define 13 1:1 >/dev/null
if rmmod meas && ! grep -q '^meas ' /proc/modules; then
	ok "rmmod meas with a user-defined class"
	insmod "${MEAS_KO:-module/meas.ko}" && selftests/meas-udev.sh ||
		echo "# insmod failed"
else
	rc=$?
	notok "rmmod meas with a user-defined class"
fi

rm -rf "$T"
[ "$nfail" -eq 0 ]
