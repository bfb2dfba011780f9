#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# golden.sh [--update] TOP OUT - what users see of the tools, byte for
# byte against the files recorded here: measctl's help (all of it, each
# command's and each task subcommand's) and its usage errors,
# meas-exporter's and pmdameas's usage, the exporter's metric families
# (OUT/families_dump), and every PCP metric with its help text, as
# "pminfo -dT meas" shows them (OUT/pmda_dump), and the PMNS Install
# reads.  None of it needs /dev/meas.  A case is one file CASE.txt: the
# command line, its standard output, its standard error and its exit
# status.  A file recorded here that no case makes any more fails too.
# --update records the outputs of today's tree instead (only when a
# change of what users see is meant: the diff is then part of the commit).
# Prints TAP.

set -u
shopt -s nullglob
update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
top=$1
out=$2
golden=$top/selftests/golden/out
got=$out/golden
rm -rf "$got"
mkdir -p "$got"

bins=$top/tools/measctl:$top/tools/exporter:$top/tools/pmda:$out
run_env=(env -i PATH="$bins:/usr/bin:/bin" LC_ALL=C HOME=/nonexistent)
skipped=()

# case NAME CMD [ARGS...]: run CMD and record it as NAME.txt
case_() {
	local name=$1 rc
	shift
	{
		printf '$ %s\n' "$*"
		"${run_env[@]}" "$@" >"$got/.stdout" 2>"$got/.stderr"
		rc=$?
		cat "$got/.stdout"
		if [ -s "$got/.stderr" ]; then
			echo "--- stderr"
			cat "$got/.stderr"
		fi
		echo "--- exit $rc"
	} >"$got/$name.txt"
}

# The same, when its output names the classes /dev/meas defines now: only
# where there is no /dev/meas (as on the build host), so that it is stable.
case_nodev() {
	if [ -e /dev/meas ]; then
		skipped+=("$1")
		cp "$golden/$1.txt" "$got/$1.txt" 2>/dev/null
		return
	fi
	case_ "$@"
}

# ---- measctl: the help, from its own list of commands ----
case_ measctl-help measctl --help
commands=$("${run_env[@]}" measctl --help | sed -n 's/^  measctl \([a-z]*\).*/\1/p' |
	awk '!seen[$0]++')
subs=$("${run_env[@]}" measctl task --help | sed -n 's/^  measctl task \([a-z]*\).*/\1/p' |
	awk '!seen[$0]++')
for c in $commands; do
	case_ "measctl-$c-help" measctl "$c" --help
	case_ "measctl-help-$c" measctl help "$c"
done
for s in $subs; do
	case_ "measctl-task-$s-help" measctl task "$s" --help
done

# ---- measctl: usage errors (none opens /dev/meas but the last three) ----
case_ measctl-err-none measctl
case_ measctl-err-command measctl nosuch
case_ measctl-err-option measctl --nosuch
case_ measctl-err-help-command measctl help nosuch
case_ measctl-err-help-args measctl help get info
case_ measctl-err-task-none measctl task
case_ measctl-err-task-sub measctl task nosuch
case_ measctl-err-task-option measctl task start --nosuch
case_ measctl-err-task-pid measctl task start --pid 0
case_ measctl-err-task-run measctl task run
case_ measctl-err-option-arg measctl top --sort
case_ measctl-err-option-extra measctl ps --exited=1
case_ measctl-err-ps-sort measctl ps -s nosuch
case_ measctl-err-ps-arg measctl ps extra
case_ measctl-err-top-sort measctl top --sort=nosuch
case_ measctl-err-top-interval measctl top -i 0
case_ measctl-err-top-lines measctl top -N x
case_ measctl-err-exits-count measctl exits -n x
case_ measctl-err-exits-time measctl exits -t x
case_ measctl-err-cgroup-sort measctl cgroup -s nosuch
case_ measctl-err-cgroup-path measctl cgroup system.slice
case_ measctl-err-cgroup-depth measctl cgroup -d 17
case_ measctl-err-cgroup-archive measctl cgroup --archive x /a/b/c/d
case_ measctl-err-cgroup-window measctl cgroup -S @0
case_ measctl-err-ps-cgroup measctl ps -c system.slice
case_ measctl-err-top-cgroup-archive measctl top --archive x -c /
case_ measctl-err-run-cgroup measctl run --cgroup x -- true
case_ measctl-err-watch-interval measctl watch -i 0
case_ measctl-err-watch-count measctl watch -n -1
case_ measctl-err-watch-start measctl watch -S @10:00
case_ measctl-err-iostat-count measctl iostat -n x
case_ measctl-err-iotrace-duration measctl iotrace -d x
case_ measctl-err-get-none measctl get
case_ measctl-err-header-args measctl header 0
case_ measctl-err-define-sub measctl define 1 bad
case_ measctl-err-describe-none measctl describe
case_ measctl-err-update-value measctl update 1 0 0 0 x
case_ measctl-err-iotrace-from measctl iotrace --from x.json
case_ measctl-err-update-args measctl update 1
case_ measctl-err-profile-interval measctl profile -i 0
case_ measctl-err-flame-args measctl flame a b
case_ measctl-err-run-none measctl run
case_ measctl-err-stop-timeout measctl stop -t x
case_nodev measctl-err-start-classes measctl start nosuch
case_nodev measctl-err-get-class measctl get x 0
case_nodev measctl-err-define-class measctl define x 1:1

# ---- meas-exporter and pmdameas ----
case_ exporter-help meas-exporter --help
case_ exporter-err-option meas-exporter --nosuch
case_ exporter-families families_dump
case_ pmda-help pmdameas --help
case_ pmda-pmns pmdameas -N
case_ pmda-domain pmdameas -H
case_ pmda-metrics pmda_dump
rm -f "$got/.stdout" "$got/.stderr"

if ((update)); then
	rm -rf "$golden"
	mkdir -p "$golden"
	cp "$got"/*.txt "$golden/"
	echo "# golden: $(find "$golden" -name '*.txt' | wc -l) files recorded in $golden"
	exit 0
fi

n=0
fail=0
for f in "$got"/*.txt "$golden"/*.txt; do
	name=$(basename "$f" .txt)
	[[ " ${done_[*]:-} " == *" $name "* ]] && continue
	done_+=("$name")
	n=$((n + 1))
	if [[ " ${skipped[*]:-} " == *" $name "* ]]; then
		echo "ok $n - golden: $name # SKIP /dev/meas exists: its classes are in the output"
	elif [ ! -e "$golden/$name.txt" ]; then
		echo "not ok $n - golden: $name is not recorded (golden.sh --update if it is meant)"
		fail=1
	elif [ ! -e "$got/$name.txt" ]; then
		echo "not ok $n - golden: $name is recorded but no case makes it any more"
		fail=1
	elif diff -u "$golden/$name.txt" "$got/$name.txt" >"$got/$name.diff"; then
		rm -f "$got/$name.diff"
		echo "ok $n - golden: $name"
	else
		echo "not ok $n - golden: $name differs from what was recorded:"
		sed 's/^/# /' "$got/$name.diff"
		fail=1
	fi
done
echo "1..$n"
exit $fail
