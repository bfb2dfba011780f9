#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - build meas for each kernel of the test matrix and test it
# there in the VM, then print a summary table.  make check-matrix.
#
#   selftests/vm/matrix.sh SELFTESTS_DIR MATRIX_DIR KVER...
#
# For each KVER: scripts/build-kernel.sh builds the test build of meas.ko
# and the example (MEAS_TEST=1, W=1, sparse, no warning) in
# MATRIX_DIR/KVER, then the lane of that kernel runs in the VM:
#   default  the kernel of make vmtest, which runs the whole suite there:
#            only built here, its row reads SELFTESTS_DIR/vm.log
#   full     the whole suite (selftests/run_tests.sh), the fuzzers 30 s
#            each instead of 120 (MEAS_FUZZ_SECONDS)
#   smoke    selftests/smoke.sh: load, START/GET/STOP of every class, a
#            task measurement, the clock, unload
# The lanes: MEAS_MATRIX_FULL (a list of versions) run the whole suite;
# by default the 6.12 generic and 6.12 PREEMPT_RT kernels.  The cloud
# flavours have no 9p: their guest root is a copy (run-vm.sh --copy).
# MEAS_MATRIX_JOBS VMs run at a time (default 2: one per core, as TCG
# runs a guest on one thread); a lane starts as soon as its kernel is
# built, the full lanes first.  Logs: MATRIX_DIR/KVER/{build,vm}.log.
# Exit status 1 if any build or lane failed.
set -uo pipefail

out=${1:?usage: matrix.sh SELFTESTS_DIR MATRIX_DIR KVER...}
mdir=${2:?usage: matrix.sh SELFTESTS_DIR MATRIX_DIR KVER...}
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$top" || exit 2
default=$(scripts/kver.sh)
jobs=${MEAS_MATRIX_JOBS:-2}

lane_of() {
	local k=$1 f
	[ "$k" = "$default" ] && { echo default; return; }
	if [ -n "${MEAS_MATRIX_FULL:-}" ]; then
		for f in $MEAS_MATRIX_FULL; do
			[ "$f" = "$k" ] && { echo full; return; }
		done
		echo smoke
		return
	fi
	case "$k" in
	*-cloud-amd64) echo smoke ;;
	6.12.*-amd64) echo full ;;
	*) echo smoke ;;
	esac
}

# Run lane $2 of kernel $1 in the VM; its TAP goes to $dir/vm.log.
run_lane() {
	local k=$1 lane=$2 dir=$mdir/$1 ko
	ko=${dir#"$top"/}/module/meas.ko
	case "$lane" in
	full)
		truncate -s 64M "$dir/io-disk.img"
		KVER=$k MEAS_KO=$ko MEAS_EXAMPLE_KO=${ko%meas.ko}example/meas_example.ko \
			MEAS_FUZZ_SECONDS=${MEAS_MATRIX_FUZZ_SECONDS:-30} \
			selftests/vm/run-vm.sh --timeout 1500 --disk "$dir/io-disk.img" \
			--log "$dir/vm.log" -- selftests/run_tests.sh "$out" ;;
	smoke)
		KVER=$k MEAS_KO=$ko selftests/vm/run-vm.sh --timeout 600 \
			--copy tools/measctl/measctl --copy selftests/smoke.sh \
			--copy selftests/measctl/tap.sh \
			--copy "$ko" --log "$dir/vm.log" -- selftests/smoke.sh ;;
	esac
}

declare -A build_ok lane secs
start_all=$(date +%s)

# Run lane $2 of kernel $1 in the background, its status and seconds in
# lane.result; at most $jobs at a time.
start_lane() {
	local k=$1
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
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

# The kernels of the full lanes first, the default last; each lane
# starts as soon as its kernel is built, while the next one builds.
order=()
for l in full smoke default; do
	for k in "$@"; do
		[ "$(lane_of "$k")" = "$l" ] && order+=("$k")
	done
done
for k in "${order[@]}"; do
	lane[$k]=$(lane_of "$k")
	t=$(date +%s)
	if MAKE=${MAKE:-make} scripts/build-kernel.sh "$k" "$mdir/$k" MEAS_TEST=1; then
		build_ok[$k]=ok
	else
		build_ok[$k]=FAIL
	fi
	secs[$k]=$(($(date +%s) - t))
	[ "${build_ok[$k]}" = ok ] && [ "${lane[$k]}" != default ] && start_lane "$k"
done
wait

# The summary.
status=0
printf '\nmatrix: %-28s %-7s %-6s %6s %6s %7s %6s\n' kernel lane build passed failed skipped time
for k in "$@"; do
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
			echo "matrix: $k (${lane[$k]}): run-vm.sh status $rc; see $mdir/$k/console.out" >&2
			grep -E '^(# )?not ok |^run-vm: ' "$mdir/$k/console.out" | head -n 20 >&2
		fi
	fi
	printf 'matrix: %-28s %-7s %-6s %6s %6s %7s %5ss\n' "$k" "${lane[$k]}" \
		"${build_ok[$k]}" "$p" "$f" "$s" "$t"
	# One closing line per tested kernel, for .ci/run's count.
	[ "${lane[$k]}" = default ] || [ "$p" = - ] ||
		echo "matrix-$k: $p passed, $f failed, $s skipped"
done
echo "matrix: $# kernels in $(($(date +%s) - start_all)) s"
exit $status
