#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM as root, from the repository, with meas.ko not
# loaded: the cost of the shared clock.  A CPU-bound loop pinned to CPU 1
# runs for MEAS_CLOCK_BENCH_SECONDS (default 2) with meas loaded and the
# clock free, and with the clock ticking every 5 ms on both CPUs (the PC
# sampler, the call-stack sampler, then the snapshot collector),
# alternated; medians and ratios.  The call stacks' own cost is the
# difference between the PC and the stack runs (issue 17: within 2 points).
# The peer: perf record sampling every CPU at the same rate (peers.sh).
#   selftests/bench/clock_bench.sh BUILD_DIR
set -eu
out=${1:?usage: clock_bench.sh BUILD_DIR}
secs=${MEAS_CLOCK_BENCH_SECONDS:-2}
reps=${MEAS_BENCH_REPS:-7}

. "$(dirname "$0")/peers.sh"

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Run the loop while a holder keeps the clock ticking with collector $1.
with_clock() {
	taskset -c 0 "$out/clock_hold" -i 5 -c "$1" >/tmp/clock_bench.hold &
	holder=$!
	while ! grep -q ticking /tmp/clock_bench.hold 2>/dev/null; do
		sleep 0.05
	done
	"$out/spin" -c 1 -t "$secs"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
}

insmod "${MEAS_KO:-module/meas.ko}"
# The first run warms QEMU's translation cache: discard it.
"$out/spin" -c 1 -t 1 >/dev/null
with_clock pc >/dev/null
: >/tmp/cb.base; : >/tmp/cb.pc; : >/tmp/cb.stack; : >/tmp/cb.snap; : >/tmp/cb.perf
i=0
while [ $i -lt "$reps" ]; do
	"$out/spin" -c 1 -t "$secs" >>/tmp/cb.base
	perf_start 0
	"$out/spin" -c 1 -t "$secs" >>/tmp/cb.perf
	perf_stop
	with_clock pc >>/tmp/cb.pc
	with_clock stack >>/tmp/cb.stack
	with_clock snap >>/tmp/cb.snap
	i=$((i + 1))
done

# The tick's own cost, which host load barely touches: the time between
# the hrtimer_expire_entry and _exit events of clock_tick, per tick, while
# the loop runs under the PC sampler and under the call-stack sampler.
# Its median in per cent of the 5 ms period is the CPU the tick takes.
T=/sys/kernel/tracing
tick_cost() {
	echo 0 >$T/tracing_on
	: >$T/trace
	echo 1 >$T/events/timer/hrtimer_expire_entry/enable
	echo 1 >$T/events/timer/hrtimer_expire_exit/enable
	echo 1 >$T/tracing_on
	with_clock "$1" >/dev/null
	echo 0 >$T/tracing_on
	echo 0 >$T/events/timer/hrtimer_expire_entry/enable
	echo 0 >$T/events/timer/hrtimer_expire_exit/enable
	# per hrtimer: entry of clock_tick, then its exit, durations in us
	awk '/hrtimer_expire_entry:.*function=clock_tick/ {
		t = $0; sub(/:? *hrtimer_expire_entry.*/, "", t); n = split(t, w, " ");
		h = $0; sub(/.*hrtimer=/, "", h); sub(/ .*/, "", h); start[h] = w[n]
	}
	/hrtimer_expire_exit:/ {
		h = $0; sub(/.*hrtimer=/, "", h); sub(/ .*/, "", h)
		if (h in start) {
			t = $0; sub(/:? *hrtimer_expire_exit.*/, "", t); n = split(t, w, " ")
			printf "%.3f\n", (w[n] - start[h]) * 1e6; delete start[h]
		}
	}' $T/trace >/tmp/cb.tick.$1
	echo "$(wc -l </tmp/cb.tick.$1) ticks, median $(median </tmp/cb.tick.$1) us"
}
if [ -d $T/events/timer/hrtimer_expire_entry ]; then
	echo "clock_tick, PC sampler:  $(tick_cost pc)"
	echo "clock_tick, call stacks: $(tick_cost stack)"
	pcus=$(median </tmp/cb.tick.pc)
	stus=$(median </tmp/cb.tick.stack)
	awk -v p="$pcus" -v s="$stus" 'BEGIN { printf "tick cost at 5 ms: PC sampler %.3f%% of a CPU, call stacks %.3f%%: stacks add %.3f points\n", p / 50, s / 50, (s - p) / 50 }'
fi
rmmod meas
base=$(median </tmp/cb.base)
pc=$(median </tmp/cb.pc)
stack=$(median </tmp/cb.stack)
snap=$(median </tmp/cb.snap)
perf=$(median </tmp/cb.perf)
echo "CPU-bound loop, iterations/s on CPU 1, clock free:            $base (runs: $(tr '\n' ' ' </tmp/cb.base))"
echo "CPU-bound loop, iterations/s, PC sampler at 5 ms, 2 CPUs:     $pc (runs: $(tr '\n' ' ' </tmp/cb.pc))"
echo "CPU-bound loop, iterations/s, call stacks at 5 ms, 2 CPUs:    $stack (runs: $(tr '\n' ' ' </tmp/cb.stack))"
echo "CPU-bound loop, iterations/s, snapshots at 5 ms, 2 CPUs:      $snap (runs: $(tr '\n' ' ' </tmp/cb.snap))"
awk -v b="$base" -v m="$pc" 'BEGIN { printf "ratio PC sampler/clock free: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$stack" 'BEGIN { printf "ratio call stacks/clock free: %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
# Each stack run follows its PC run: their ratio, pair by pair, cancels
# the load of a shared host better than the medians do.
paste /tmp/cb.pc /tmp/cb.stack | awk '{ print $2 / $1 }' >/tmp/cb.pair
pair=$(median </tmp/cb.pair)
echo "call stacks / program counters, pair by pair: $(tr '\n' ' ' </tmp/cb.pair)"
awk -v r="$pair" 'BEGIN { printf "call stacks against program counters only: median ratio %.3f, %.1f points\n", r, (1 - r) * 100 }'
awk -v b="$base" -v m="$snap" 'BEGIN { printf "ratio snapshots/clock free:  %.3f (overhead %.1f%%)\n", m / b, (1 - m / b) * 100 }'
awk -v b="$base" -v m="$pc" 'BEGIN { printf "BENCH-RATIO sampler pc %.3f\n", m / b }'
awk -v b="$base" -v m="$snap" 'BEGIN { printf "BENCH-RATIO sampler snap %.3f\n", m / b }'
echo "CPU-bound loop, iterations/s, perf record -F 200 -a -g:       $perf (runs: $(tr '\n' ' ' </tmp/cb.perf))"
awk -v b="$base" -v m="$perf" 'BEGIN { printf "BENCH-RATIO sampler perf %.3f\n", m / b }'
