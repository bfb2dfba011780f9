#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - build meas for each kernel of the test matrix and test it
# there in the VM, then print a summary table.  make check-matrix.
#
#   selftests/vm/matrix.sh [--table] SELFTESTS_DIR MATRIX_DIR KERNELS_FILE
#
# KERNELS_FILE has the rows of scripts/kernels.sh ("RELEASE ROOT VERSION
# FLAVOUR LANE ARCH").  For each: scripts/build-kernel.sh builds the test
# build of meas.ko and the example (MEAS_TEST=1, W=1, sparse, no
# warning), on this machine or inside the kernel's build root with that
# release's compiler, in MATRIX_DIR/VERSION; then the lane runs in the VM,
# which boots the kernel from this machine's /boot or from its root
# (run-vm.sh --kernel, --modules):
#   default  the kernel of make vmtest, which runs the whole suite there:
#            only built here, its row reads SELFTESTS_DIR/vm.log
#   full     the whole suite (selftests/run_tests.sh), the fuzzers 30 s
#            each instead of 120 (MEAS_FUZZ_SECONDS)
#   smoke    selftests/smoke.sh: load, START/GET/STOP of every class, a
#            task measurement, the clock, unload
# The cloud flavours have no 9p: their guest root is a copy (run-vm.sh
# --copy).  An arm64 kernel (ARCH arm64) is cross-built from the headers
# scripts/arm64-apt.sh unpacked, and its lane runs from the arm64 copy
# of the tree (scripts/arm64-tools.sh: the programs built for arm64)
# in qemu-system-aarch64, the arm64 test root as the guest's root.  MEAS_MATRIX_JOBS lanes run at a time (default 2: one per
# core, as TCG runs a guest on one thread; run-vm.sh's slots keep the
# machine's guests at that many while make check runs other stages
# beside the matrix); a lane starts as soon as its kernel is built, the
# full lanes first.  The full lanes fork 500 processes in the process
# groups test, not 2000 (MEAS_GROUPS_PROCS; the default lane's run has
# 2000).  Logs: MATRIX_DIR/VERSION/{build,vm}.log.  Exit status 1 if any
# build or lane failed.  With --table, the summary table alone, from what
# the last run left (make check prints it last, once every stage it
# reads has ended).
set -uo pipefail

usage="usage: matrix.sh [--table] SELFTESTS_DIR MATRIX_DIR KERNELS_FILE"
table_only=0
if [ "${1:-}" = --table ]; then
	table_only=1
	shift
fi
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
while read -r r rt k f l a; do
	[ -n "$k" ] || continue
	kernels+=("$k")
	rel[$k]=$r root[$k]=$rt flav[$k]=$f lane[$k]=$l arch[$k]=${a:-amd64}
done <"$kfile"
[ ${#kernels[@]} -gt 0 ] || { echo "matrix: no kernel in $kfile" >&2; exit 1; }

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
	# (arm64 is slower under TCG: the suite took 13 minutes in 6.1)
	tmo=1500
	[ "${arch[$k]}" != arm64 ] || tmo=3000
	case "$2" in
	full)
		truncate -s 64M "$dir/io-disk.img"
		KVER=$k MEAS_KO=$ko MEAS_EXAMPLE_KO=${ko%meas.ko}example/meas_example.ko \
			MEAS_FUZZ_SECONDS=${MEAS_MATRIX_FUZZ_SECONDS:-30} \
			MEAS_GROUPS_PROCS=${MEAS_MATRIX_GROUPS_PROCS:-500} \
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

# Run the lane of kernel $1 in the background, its status and seconds in
# lane.result; at most $jobs at a time (the arm64 preparation, also in
# the background, is not a lane: it runs no guest).
prep_pid=''
start_lane() {
	local k=$1
	while [ "$(jobs -rp | grep -cvxF "${prep_pid:-none}")" -ge "$jobs" ]; do
		wait -n
	done
	rm -f "$mdir/$k/lane.result"
	(
		t=$(date +%s)
		run_lane "$k" "${lane[$k]}" >"$mdir/$k/console.out" 2>&1
		rc=$?
		echo "$rc $(($(date +%s) - t))" >"$mdir/$k/lane.result"
	) &
}

# The full lanes first, amd64's then arm64's, then the smoke lanes, the
# default last: the longest lanes start first, and the short ones fill
# the slots at the end.  Each lane starts as soon as its kernel is built,
# while the next one builds.  Each build's result, time and compiler go
# to build.result, for the table.
order=()
for l in full smoke default; do
	for a in amd64 arm64; do
		for k in "${kernels[@]}"; do
			[ "${arch[$k]}" = "$a" ] && [ "${lane[$k]}" = "$l" ] && order+=("$k")
		done
	done
done
# The arm64 lanes' root and programs (scripts/arm64-root.sh,
# scripts/arm64-tools.sh), made in the background from the start, while
# amd64's kernels build and their lanes run (the root takes minutes on a
# new machine: every maintainer script runs under qemu-aarch64); the
# first arm64 kernel waits for them.  arm64.prep: "0 TREE ROOT" or "1".
arm64_tree='' arm64_root='' arm64_ok=''
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
arm64_wait() {
	wait "$prep_pid" 2>/dev/null # (or already reaped by a lane's wait -n)
	read -r arm64_ok arm64_tree arm64_root <"$mdir/arm64.prep" 2>/dev/null || arm64_ok=1
}
rm -f "$mdir/arm64.prep"
if [ "$table_only" = 0 ] && [[ " ${arch[*]} " = *" arm64 "* ]]; then
	arm64_prepare &
	prep_pid=$!
fi
[ "$table_only" = 1 ] || for k in "${order[@]}"; do
	[ "${arch[$k]}" != arm64 ] || [ -n "$arm64_ok" ] || arm64_wait
	t=$(date +%s)
	r=$(root_dir "$k")
	rm -f "$mdir/$k/build.result" "$mdir/$k/lane.result"
	if [ "${arch[$k]}" = arm64 ] && [ "$arm64_ok" != 0 ]; then
		b=FAIL
	elif MAKE=${MAKE:-make} scripts/build-kernel.sh ${r:+--root "$r"} \
		--arch "${arch[$k]}" "$k" "$mdir/$k" MEAS_TEST=1; then
		b=ok
	else
		b=FAIL
	fi
	mkdir -p "$mdir/$k"
	echo "$b $(($(date +%s) - t)) $(compiler_of "$k")" >"$mdir/$k/build.result"
	[ "$b" = ok ] && [ "${lane[$k]}" != default ] && start_lane "$k"
done
wait
for k in "${kernels[@]}"; do
	read -r b t c <"$mdir/$k/build.result" 2>/dev/null || b=FAIL t=0 c=
	build_ok[$k]=$b secs[$k]=$t cc[$k]=$c
done

# The summary.
status=0
row() { # one line of the table, the header or a kernel's
	printf 'matrix: %-28s %-5s %-16s %-7s %-7s %-11s %-5s %6s %6s %7s %6s\n' "$@"
}
echo
row kernel arch release flavour lane compiler build passed failed skipped time
for k in "${kernels[@]}"; do
	log=$mdir/$k/vm.log
	p=- f=- s=- t=${secs[$k]}
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
			[ "$table_only" = 1 ] ||
				echo "matrix: $k (${lane[$k]}): run-vm.sh status $rc; see $mdir/$k/console.out" >&2
			[ "$table_only" = 1 ] ||
				grep -E '^(# )?not ok |^run-vm: ' "$mdir/$k/console.out" | head -n 20 >&2
		fi
	fi
	row "$k" "${arch[$k]}" "${rel[$k]}" "${flav[$k]}" "${lane[$k]}" "${cc[$k]:--}" \
		"${build_ok[$k]}" "$p" "$f" "$s" "${t}s"
	# One closing line per tested kernel, for .ci/run's count (once).
	[ "$table_only" = 1 ] || [ "${lane[$k]}" = default ] || [ "$p" = - ] ||
		echo "matrix-$k: $p passed, $f failed, $s skipped"
done
[ "$table_only" = 1 ] || echo "matrix: ${#kernels[@]} kernels in $(($(date +%s) - start_all)) s"
exit $status
