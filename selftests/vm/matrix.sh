#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - build meas for each kernel of the test matrix and test it
# there in the VM, then print a summary table.  make check-matrix.
#
#   selftests/vm/matrix.sh [--table | --list] SELFTESTS_DIR MATRIX_DIR KERNELS_FILE
#
# KERNELS_FILE has the rows of scripts/kernels.sh ("RELEASE ROOT VERSION
# FLAVOUR LANE ARCH"); with --list, matrix.sh runs scripts/kernels.sh
# itself and takes each row as it is written, so that Debian 12's
# kernels build and run while the build roots of the others are made
# (KERNELS_FILE is written when the list is whole).  For each kernel:
# scripts/build-kernel.sh builds the test build of meas.ko and the
# example (MEAS_TEST=1, W=1, sparse, no warning), on this machine or
# inside the kernel's build root with that release's compiler, in
# MATRIX_DIR/VERSION; then the lane runs in the VM, which boots the
# kernel from this machine's /boot or from its root (run-vm.sh --kernel,
# --modules):
#   default  the kernel of make vmtest, which runs the whole suite there:
#            only built here, its row reads SELFTESTS_DIR/vm.log
#   full     the whole suite (selftests/run_tests.sh), the fuzzers 30 s
#            each instead of 120 (MEAS_FUZZ_SECONDS)
#   smoke    selftests/smoke.sh: load, START/GET/STOP of every class, a
#            task measurement, the clock, unload
# The cloud flavours have no 9p: their guest root is a copy (run-vm.sh
# --copy).  An arm64 kernel (ARCH arm64) is cross-built from the headers
# scripts/arm64-apt.sh unpacked, and its lane runs from the arm64 copy
# of the tree (scripts/arm64-tools.sh: the programs built for arm64) in
# qemu-system-aarch64, the arm64 test root as the guest's root.
# MEAS_MATRIX_JOBS lanes run at a time (default 2: one per core, as TCG
# runs a guest on one thread; run-vm.sh's slots keep the machine's
# guests at that many while make check runs other stages beside the
# matrix), and one build; a lane starts as soon as its kernel is built,
# the full lanes first.  The full lanes fork 200 processes in the
# process groups test (MEAS_GROUPS_PROCS), make vmtest 500, and run the
# adversary 10 s (MEAS_ADVERSARY_SECONDS), make vmtest 30.  Logs:
# MATRIX_DIR/VERSION/{build,vm}.log.  Exit status 1 if any build or lane
# failed, or the list could not be made whole.
# With --table, the summary table alone, from what the last run left
# (make check prints it last, once every stage it reads has ended).
set -uo pipefail

usage="usage: matrix.sh [--table | --list] SELFTESTS_DIR MATRIX_DIR KERNELS_FILE"
table_only=0 list=0
case "${1:-}" in
--table) table_only=1; shift ;;
--list) list=1; shift ;;
esac
out=${1:?$usage}
mdir=${2:?$usage}
kfile=${3:?$usage}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# absolute: an arm64 lane runs in another directory (run_lane)
mdir=$(mkdir -p "$mdir" && cd "$mdir" && pwd -P) || exit 2
out=$(cd "$out" 2>/dev/null && pwd -P || echo "$out")
cd "$top" || exit 2
jobs=${MEAS_MATRIX_JOBS:-2}

declare -A rel root flav lane arch build_ok secs cc
kernels=()
nread=0
# Take in the lines of $kfile not read yet.  Only whole lines: a line
# whose newline is not written yet is read the next time.
read_kernels() {
	local r rt k f l a n=0
	while read -r r rt k f l a; do
		n=$((n + 1))
		[ $n -gt $nread ] || continue
		nread=$n
		[ -n "$k" ] || continue
		kernels+=("$k")
		rel[$k]=$r root[$k]=$rt flav[$k]=$f lane[$k]=$l arch[$k]=${a:-amd64}
	done <"$kfile"
}

# --list: scripts/kernels.sh writes the list while the matrix runs, so
# that the kernels found first (Debian 12's, this machine's) build and
# run while the build roots of the others are made; the list is moved
# to KERNELS_FILE when complete (KERNELS_FILE.new until then, and its
# maker's exit status in KERNELS_FILE.status, its messages in
# KERNELS_FILE.log: their end is printed with the table when it failed).
kstatusf=$kfile.status klog=$kfile.log kstatus=0
if [ "$list" = 1 ]; then
	rm -f "$kfile.new" "$kstatusf" "$klog"
	: >"$kfile.new"
	{
		scripts/kernels.sh >"$kfile.new" 2>"$klog"
		echo $? >"$kstatusf"
	} &
	kfile=$kfile.new
else
	read_kernels
	[ ${#kernels[@]} -gt 0 ] || { echo "matrix: no kernel in $kfile" >&2; exit 1; }
fi

# The directory of kernel $1's root ("" for this machine's).
root_dir() {
	[ "${root[$1]}" = - ] || echo "${BUILD:-$top/build}/roots/${root[$1]}"
}

# Where kernel $1's files are, as in a root: an arm64 kernel's where
# scripts/arm64-apt.sh unpacked them, the others' in their root or here.
kernel_dir() {
	if [ "${arch[$1]}" = arm64 ]; then
		echo "${BUILD:-$top/build}/arm64/kernels/$1"
	else
		root_dir "$1"
	fi
}

# The compiler that built kernel $1, from its configuration: "gcc 14.2.0".
compiler_of() {
	sed -n -E 's/^CONFIG_CC_VERSION_TEXT="?([^ ]*) .* ([0-9][0-9.]*)"?$/\1 \2/p' \
		"$(kernel_dir "$1")/lib/modules/$1/build/include/config/auto.conf" \
		2>/dev/null | sed -E 's/^([a-z0-9_]+-)*(gcc|clang)(-[0-9]+)?/\2/'
}

# Run lane $2 of kernel $1 in the VM; its TAP goes to $dir/vm.log.  An
# arm64 lane runs in the arm64 copy of the tree, its modules copied there.
run_lane() {
	local k=$1 dir=$mdir/$1 ko r run=$top out=$out tmo
	local -a boot=()
	ko=${dir#"$top"/}/module/meas.ko
	r=$(kernel_dir "$k")
	if [ -n "$r" ]; then
		boot=(--kernel "$r/boot/vmlinuz-$k" --modules "$r/lib/modules/$k")
	fi
	if [ "${arch[$k]}" = arm64 ]; then
		run=$arm64_tree out=$arm64_tree/build/selftests ko=build/matrix/$k/module/meas.ko
		mkdir -p "$run/${ko%/meas.ko}/example"
		cp "$dir/module/meas.ko" "$run/$ko"
		cp "$dir/module/example/meas_example.ko" "$run/${ko%meas.ko}example/"
		boot+=(--arch arm64 --root "$arm64_root")
	fi
	cd "$run" || return 2
	# bounds against a hang, as make vmtest's VM_TIMEOUT: the suite took
	# 11 minutes idle and over 25 beside the other stream; arm64 is
	# slower under TCG (13 minutes in 6.1 idle)
	tmo=3000
	[ "${arch[$k]}" != arm64 ] || tmo=4500
	case "$2" in
	full)
		truncate -s 64M "$dir/io-disk.img"
		KVER=$k MEAS_KO=$ko MEAS_EXAMPLE_KO=${ko%meas.ko}example/meas_example.ko \
			MEAS_FUZZ_SECONDS=${MEAS_MATRIX_FUZZ_SECONDS:-30} \
			MEAS_GROUPS_PROCS=${MEAS_MATRIX_GROUPS_PROCS:-200} \
			MEAS_ADVERSARY_SECONDS=${MEAS_MATRIX_ADVERSARY_SECONDS:-10} \
			selftests/vm/run-vm.sh "${boot[@]}" --timeout "$tmo" \
			--disk "$dir/io-disk.img" --log "$dir/vm.log" \
			-- selftests/run_tests.sh "$out" ;;
	smoke)
		KVER=$k MEAS_KO=$ko selftests/vm/run-vm.sh "${boot[@]}" --timeout 600 \
			--copy tools/measctl/measctl --copy selftests/smoke.sh \
			--copy selftests/measctl/tap.sh --copy selftests/meas-udev.sh \
			--copy "$ko" --log "$dir/vm.log" -- selftests/smoke.sh ;;
	esac
}

start_all=$(date +%s)

# The arm64 lanes' root and programs (scripts/arm64-root.sh,
# scripts/arm64-tools.sh), made in the background from the first arm64
# kernel on, while amd64's kernels build and their lanes run (the root
# takes minutes on a new machine: every maintainer script runs under
# qemu-aarch64); the arm64 lanes wait for them.  arm64.prep: "0 TREE
# ROOT" or "1".
arm64_tree='' arm64_root='' arm64_ok='' prep_pid=''
arm64_prepare() {
	local t tree root
	t=$(date +%s)
	if tree=$(scripts/arm64-tools.sh 2>"$mdir/arm64.log") &&
		root=$(scripts/arm64-root.sh 2>>"$mdir/arm64.log"); then
		# the guest mounts the tree at its own path in the root
		mkdir -p "$root$tree" && echo "0 $tree $root" >"$mdir/arm64.prep.new"
	else
		tail -n 20 "$mdir/arm64.log" >&2
		echo 1 >"$mdir/arm64.prep.new"
	fi
	mv "$mdir/arm64.prep.new" "$mdir/arm64.prep"
	echo "matrix: arm64 root and programs: $(($(date +%s) - t)) s (log: $mdir/arm64.log)"
}
# Whether the arm64 lanes can start: the preparation has ended (its
# result then in arm64_ok).
arm64_ready() {
	[ -z "$arm64_ok" ] || return 0
	[ -e "$mdir/arm64.prep" ] || return 1
	read -r arm64_ok arm64_tree arm64_root <"$mdir/arm64.prep" || arm64_ok=1
}
rm -f "$mdir/arm64.prep"

# Each kernel is built, then its lane runs, both in the background: one
# build at a time (a build uses both cores), at most $jobs lanes at a
# time.  A step has ended when its result file is there: build.result
# (ok or FAIL, seconds, compiler, for the table) and lane.result (status
# and seconds).  Of what is ready, the full lanes come first, amd64's
# then arm64's, then the smoke lanes, the default (built only) last: the
# longest lanes start first, and the short ones fill the slots at the
# end.  Builds follow the same order.
rank() {
	case "${lane[$1]} ${arch[$1]}" in
	"full amd64") rk=0 ;;
	"full arm64") rk=1 ;;
	"smoke amd64") rk=2 ;;
	"smoke arm64") rk=3 ;;
	*) rk=4 ;;
	esac
}
declare -A state # building, built, running, ended
# The first kernel of rank order for which $1 (a function of the
# kernel) is true.
first() {
	local k best='' rb=9 rk
	for k in "${kernels[@]}"; do
		"$1" "$k" || continue
		rank "$k"
		[ "$rk" -lt "$rb" ] && best=$k rb=$rk
	done
	echo "$best"
}
# shellcheck disable=SC2317 # called by first
is_new() { [ -z "${state[$1]:-}" ]; }
# shellcheck disable=SC2317 # called by first
is_ready() {
	[ "${state[$1]:-}" = built ] || return 1
	[ "${arch[$1]}" != arm64 ] || arm64_ready
}
count() {
	local k n=0
	for k in "${kernels[@]}"; do
		[ "${state[$k]:-}" = "$1" ] && n=$((n + 1))
	done
	echo "$n"
}

build() {
	local k=$1 t b r
	t=$(date +%s)
	r=$(root_dir "$k")
	if MAKE=${MAKE:-make} scripts/build-kernel.sh ${r:+--root "$r"} 		--arch "${arch[$k]}" "$k" "$mdir/$k" MEAS_TEST=1; then
		b=ok
	else
		b=FAIL
	fi
	mkdir -p "$mdir/$k"
	echo "$b $(($(date +%s) - t)) $(compiler_of "$k")" >"$mdir/$k/build.result.new"
	mv "$mdir/$k/build.result.new" "$mdir/$k/build.result"
}

start_lane() {
	local k=$1
	echo "matrix: $k: its ${lane[$k]} lane starts, $(($(date +%s) - start_all)) s in"
	(
		t=$(date +%s)
		if [ "${arch[$k]}" = arm64 ] && [ "$arm64_ok" != 0 ]; then
			echo "matrix: no arm64 test root or programs (see $mdir/arm64.log)"
			rc=125
		else
			run_lane "$k" "${lane[$k]}"
			rc=$?
		fi >"$mdir/$k/console.out" 2>&1
		echo "$rc $(($(date +%s) - t))" >"$mdir/$k/lane.result"
	) &
}

# One pass: take in new kernels, note what ended, start what can start.
# Status 1 once everything has ended.
step() {
	local k b whole=1
	# (looked at before the reading: once the maker has ended, what is
	# read is the whole list)
	[ "$list" = 0 ] || [ -e "$kstatusf" ] || whole=0
	read_kernels
	if [ -z "$prep_pid" ] && [[ " ${arch[*]} " = *" arm64 "* ]]; then
		arm64_prepare &
		prep_pid=$!
	fi
	# here, not in first's subshell: start_lane's needs arm64_ok and the
	# paths it reads
	arm64_ready || :
	for k in "${kernels[@]}"; do
		case "${state[$k]:-}" in
		building)
			[ -e "$mdir/$k/build.result" ] || continue
			read -r b _ <"$mdir/$k/build.result"
			if [ "$b" = ok ] && [ "${lane[$k]}" != default ]; then
				state[$k]=built
			else
				state[$k]=ended
			fi ;;
		running) [ ! -e "$mdir/$k/lane.result" ] || state[$k]=ended ;;
		esac
	done
	while [ "$(count running)" -lt "$jobs" ] && k=$(first is_ready) && [ -n "$k" ]; do
		state[$k]=running
		start_lane "$k"
	done
	if [ "$(count building)" = 0 ] && k=$(first is_new) && [ -n "$k" ]; then
		state[$k]=building
		rm -f "$mdir/$k/build.result" "$mdir/$k/lane.result"
		build "$k" &
	fi
	[ "$whole" = 1 ] && [ "$(count ended)" = ${#kernels[@]} ] && return 1
	return 0
}
if [ "$table_only" = 0 ]; then
	while step; do
		sleep "${MEAS_MATRIX_POLL:-2}" # (selftests/unit/matrix_test.sh: less)
	done
	wait
fi
if [ "$list" = 1 ]; then
	read -r kstatus <"$kstatusf" || kstatus=1
	mv "$kfile" "${kfile%.new}"
	kfile=${kfile%.new}
fi
for k in "${kernels[@]}"; do
	read -r b t c <"$mdir/$k/build.result" 2>/dev/null || b=FAIL t=0 c=
	build_ok[$k]=$b secs[$k]=$t cc[$k]=$c
done

# The summary.
status=0
row() { # one line of the table, the header or a kernel's, and its verdict
	printf 'matrix: %-28s %-5s %-16s %-7s %-7s %-11s %-5s %6s %6s %7s %6s%s\n' "$@"
}
echo
row kernel arch release flavour lane compiler build passed failed skipped time ""
for k in "${kernels[@]}"; do
	log=$mdir/$k/vm.log
	p=- f=- s=- t=${secs[$k]} verdict=
	if [ "${lane[$k]}" = default ]; then
		log=$out/vm.log
	fi
	if [ "${build_ok[$k]}" != ok ]; then
		status=1
	elif [ -s "$log" ]; then
		p=$(grep -c -E '^(# )?ok [0-9]+' "$log")
		f=$(grep -c -E '^(# )?not ok [0-9]+' "$log")
		s=$(grep -c -E '^(# )?ok [0-9]+ .*# SKIP' "$log")
		p=$((p - s))
	fi
	if [ "${lane[$k]}" != default ] && [ "${build_ok[$k]}" = ok ]; then
		read -r rc vt <"$mdir/$k/lane.result" 2>/dev/null || { rc=125; vt=0; }
		t=$((t + vt))
		if [ "$rc" != 0 ] || [ "$f" = - ] || [ "$f" != 0 ] || [ "$p" = 0 ]; then
			status=1
			# a lane that died between tests has no "not ok": the
			# row says so, or it would read as a pass
			verdict="  FAIL (run-vm.sh status $rc)"
			[ "$table_only" = 1 ] ||
				echo "matrix: $k (${lane[$k]}): run-vm.sh status $rc; see $mdir/$k/console.out" >&2
			[ "$table_only" = 1 ] ||
				grep -E '^(# )?not ok |^run-vm: |^matrix: ' "$mdir/$k/console.out" | head -n 20 >&2
		fi
	fi
	row "$k" "${arch[$k]}" "${rel[$k]}" "${flav[$k]}" "${lane[$k]}" "${cc[$k]:--}" \
		"${build_ok[$k]}" "$p" "$f" "$s" "${t}s" "$verdict"
	# One closing line per tested kernel, for .ci/run's count (once); a
	# lane that failed with no failed test counts as one failure.
	[ -z "$verdict" ] || [ "$f" != 0 ] || f=1
	[ "$table_only" = 1 ] || [ "${lane[$k]}" = default ] || [ "$p" = - ] ||
		echo "matrix-$k: $p passed, $f failed, $s skipped"
done
[ "$table_only" = 1 ] || echo "matrix: ${#kernels[@]} kernels in $(($(date +%s) - start_all)) s"
# The list's failure, with its cause: also under the table that make
# check prints last, where a CI's tail shows it.
if [ "$table_only" = 1 ]; then
	read -r kstatus <"$kstatusf" 2>/dev/null || kstatus=0
fi
if [ "$kstatus" != 0 ]; then
	echo "matrix: the list of kernels is not whole: scripts/kernels.sh ended with status $kstatus; the end of $klog:" >&2
	tail -n 15 "$klog" 2>/dev/null | sed 's/^/matrix:   /' >&2
	status=1
fi
exit $status
