#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM, under QEMU with the insncount plugin
# (selftests/bench/insn/): each workload at N and 2N events, each run
# bracketed by the marker (insn_mark), so that the host can take the
# instructions per event as (I(2N) - I(N)) / N, boot and setup cancelling.
# After each run one line
#   INSN-RUN WORKLOAD VARIANT REP N EVENTS SECONDS
# tells the host (selftests/bench/insn_table.sh) what the two marker
# counts in between belong to; EVENTS is N, or for the sampler the
# clock ticks of the loop's CPU while it ran (one every 5 ms), SECONDS the
# loop's time (sampler only, "-" otherwise).  First the plugin learns
# where the local timer interrupt starts and returns, so that it can
# count apart what the interrupt runs.
#   selftests/bench/insn_bench.sh BUILD_DIR [events|sampler]
# "events" runs the ping-pong, fio, the lean reads and the system calls, "sampler" the
# clock's loop (make bench boots a VM for each, see selftests/Makefile);
# both by default.
# MEAS_INSN_REPS (default 3) repeats; MEAS_INSN_SCALE (default 1) scales
# every N; MEAS_INSN_ONLY (a list of workloads) runs only those.
# MEAS_INSN_PROF=1 also writes the profile of each run (the plugin's
# prof= file, insn_mark prof before and after it) and lists the module's
# functions after each insmod ("INSN-SYM ADDRESS NAME") and the kernel's
# (INSN-KSYMS: gzip, base64), for selftests/bench/insn/insn_prof.sh.
# MEAS_INSN_PEERS=0 leaves out the peers (libbpf-tools, bpftrace, perf
# record: what a user would run instead, selftests/bench/peers.sh); a
# peer the guest's root does not have is left out and said so (the arm64
# test root has libbpf-tools alone); MEAS_INSN_PROCS=N
# keeps N idle processes alive while the events run (the scaling rows,
# Documentation/performance.rst).
set -eu
out=${1:?usage: insn_bench.sh BUILD_DIR [events|sampler]}
part=${2:-all}
mark="$out/insn_mark"
reps=${MEAS_INSN_REPS:-3}
scale=${MEAS_INSN_SCALE:-1}
only=${MEAS_INSN_ONLY:-}
prof=${MEAS_INSN_PROF:-0}
peers=${MEAS_INSN_PEERS:-1}
procs=${MEAS_INSN_PROCS:-0}
M=tools/measctl/measctl
export MEAS_RUNDIR=/tmp/meas-insn

# run WORKLOAD VARIANT REP N CMD...: one bracketed run; the command's
# output goes to /tmp/insn.out (its first line may carry the events).
run() {
	w=$1 v=$2 r=$3 n=$4
	shift 4
	[ "$prof" = 0 ] || "$mark" prof
	"$mark"
	"$@" >/tmp/insn.out
	"$mark"
	[ "$prof" = 0 ] || "$mark" prof
	echo "INSN-RUN $w $v $r $n $(events "$w" "$n")"
}

# whether MEAS_INSN_ONLY leaves WORKLOAD out
skip() {
	[ -n "$only" ] && case " $only " in *" $1 "*) false ;; *) true ;; esac
}

# load meas (MEAS_KO, default module/meas.ko); for the profile, where its
# functions are
load() {
	insmod "${MEAS_KO:-module/meas.ko}"
	[ "$prof" = 0 ] ||
		awk '$4 == "[meas]" && ($2 == "t" || $2 == "T") {
			print "INSN-SYM", $1, $3 }' /proc/kallsyms
}

# the events a run had: the sampler's ticks follow from the loop's time
events() {
	case "$1" in
	sampler) awk '{ printf "%.0f %s", $2 / 0.005, $2 }' /tmp/insn.out ;;
	*) echo "$2 -" ;;
	esac
}

# both sizes of one workload and variant: twice the events, same setup
both() {
	w=$1 v=$2 r=$3 n=$4
	shift 4
	skip "$w" && return
	run "$w" "$v" "$r" "$n" "$@" $n
	run "$w" "$v" "$r" $((2 * n)) "$@" $((2 * n))
}

# the peers (bpftrace, perf record)
. "$(dirname "$0")/peers.sh"

# both sizes of a workload under a peer, the module not loaded: a
# bpftrace program (bt PROGRAM) or a libbpf-tools program (lt "TOOL
# LINKS", peers.sh), attached before and stopped after
peer() {
	w=$1 v=$2 r=$3 n=$4 kind=$5 prog=$6
	shift 6
	[ "$peers" = 1 ] || return 0
	skip "$w" && return
	peer_installed "$kind" "$prog" || {
		[ "$r" != 0 ] || echo "INSN-SKIP $w $v: $peer_tool is not installed"
		return 0
	}
	"${kind}_start" "$prog" "$last"
	both "$w" "$v" "$r" "$n" "$@"
	"${kind}_stop"
}

# fio, 4 KiB random reads, 8 in flight (libaio): null_blk with
# irqmode=0 completes each request as it is submitted, so that every
# io_getevents() finds the batch done and reaps it whole, the same path
# in every run (with interrupts or a timer completing them, how many one
# call reaps depends on timing, and fio's instructions per request moved
# by 40% between repeats).
fio_n() {
	taskset -c "$last" fio --name=randread --filename=/dev/nullb0 --direct=1 --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=8 --numjobs=1 \
		--cpus_allowed=0 --output-format=terse --terse-version=3 \
		--number_ios="$1"
}

# The lean block workload: synchronous 4 KiB O_DIRECT reads, one at a
# time, pinned to CPU 0 (sread): what a probe adds to a request shows in
# full on a request of a few thousand instructions.
read_n() {
	taskset -c 0 "$out/sread" -n "$1"
}

# the sampler: one run of a fixed loop, with the clock free or ticking
# (the holder started and stopped outside the bracket); its peer "perf"
# is perf record sampling every CPU with call chains at the same rate
# (200 Hz, every 5 ms), as a user profiling the machine would
sampler() {
	v=$1 r=$2
	skip sampler && return
	case "$v" in
	free) ;;
	perf)
		[ "$peers" = 1 ] && peer_installed perf || return 0
		perf_start 0
		;;
	*)
		taskset -c 0 "$out/clock_hold" -i 5 -c "$v" >/tmp/insn.hold &
		holder=$!
		while ! grep -q ticking /tmp/insn.hold 2>/dev/null; do
			sleep 0.05
		done
		;;
	esac
	run sampler "$v" "$r" "$spin" "$out/spin" -c "$last" -n "$spin"
	case "$v" in
	free) ;;
	perf) perf_stop ;;
	*)
		kill "$holder"
		wait "$holder" 2>/dev/null || true
		;;
	esac
}

# the addresses of the kernel's symbols $@ that it has, comma-separated
syms() {
	awk -v s=" $* " 'index(s, " " $3 " ") && !seen[$3]++ {
		printf "%s%s", n++ ? "," : "", $1 } END { print "" }' /proc/kallsyms
}
# Where the timer interrupt is: x86-64's has an entry of its own, and
# returns through error_return; arm64's enters where every interrupt does
# (from the kernel, from a 64-bit task, from a 32-bit one) and runs the
# arch timer's handler (virtual or physical timer), which the plugin
# looks for in each interrupt up to its exception return.
case $(uname -m) in
aarch64)
	"$mark" timer "$(syms el1h_64_irq el0t_64_irq el0t_32_irq)" \
		"$(syms arch_timer_handler_virt arch_timer_handler_phys)" ;;
*) "$mark" timer "$(syms asm_sysvec_apic_timer_interrupt)" "$(syms error_return)" ;;
esac
# the kernel's functions, for the profile (the host has no System.map of
# Debian's kernel: that is in the -dbg package)
[ "$prof" = 0 ] || awk '$2 ~ /^[tT]$/ && NF == 3 { print $1, $3 }' /proc/kallsyms |
	gzip -1 | base64 -w 120 | sed 's/^/INSN-KSYMS /'

# Whether a wakeup preempts the running task depends on how long each
# ran, which is host time: with wakeup preemption off (no other task
# competes) the ping-pong takes the same path in every run.  CFS (the 6.1
# series) has a granularity to make it never happen; EEVDF (since 6.6)
# has none, but the scheduler feature it tests first.
if [ -e /sys/kernel/debug/sched/wakeup_granularity_ns ]; then
	echo 1000000000 >/sys/kernel/debug/sched/wakeup_granularity_ns
else
	echo NO_WAKEUP_PREEMPTION >/sys/kernel/debug/sched/features
fi
# (not nproc: with isolcpus=0 it leaves CPU 0 out)
cpus=$(getconf _NPROCESSORS_ONLN)
last=$((cpus - 1))

pp=$((20000 * scale))
io=$((20000 * scale))
# about 5 s under TCG, a thousand ticks: at 60 million (0.3 s) the 60
# ticks of a run left the cost of one to chance within 17%
spin=$((1000000000 * scale))
svc=$((800000 * scale))

rmmod null_blk 2>/dev/null || true
modprobe null_blk queue_mode=2 nr_devices=1 gb=4 irqmode=0
i=0
while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

# what the probes cost a context switch, a request, a system call
event_costs() {
	r=$1
	both pingpong absent $r $pp taskset -c 0 "$out/pingpong" -n
	both fio absent $r $io fio_n
	both read absent $r $io read_n
	peer pingpong bpftrace $r $pp bt "$BT_COUNT" taskset -c 0 "$out/pingpong" -n
	peer pingpong bt-runqlat $r $pp bt "$BT_RUNQLAT" taskset -c 0 "$out/pingpong" -n
	peer pingpong cpudist $r $pp lt "$LT_CPUDIST" taskset -c 0 "$out/pingpong" -n
	peer pingpong runqlat $r $pp lt "$LT_RUNQLAT" taskset -c 0 "$out/pingpong" -n
	peer pingpong offcputime $r $pp lt "$LT_OFFCPU" taskset -c 0 "$out/pingpong" -n
	peer fio bt-biolat $r $io bt "$BT_BIOLAT" fio_n
	peer fio biolatency $r $io lt "$LT_BIOLAT" fio_n
	peer read bt-biolat $r $io bt "$BT_BIOLAT" read_n
	peer read biolatency $r $io lt "$LT_BIOLAT" read_n
	load
	both pingpong 0 $r $pp taskset -c 0 "$out/pingpong" -e -n
	$M start 15 >/dev/null
	both pingpong 15 $r $pp taskset -c 0 "$out/pingpong" -n
	both pingpong 0+15 $r $pp taskset -c 0 "$out/pingpong" -e -n
	$M stop >/dev/null
	$M start 0 >/dev/null
	both read 0 $r $io read_n
	$M stop >/dev/null
	$M start 0,14 >/dev/null
	both fio 0+14 $r $io fio_n
	both read 0+14 $r $io read_n
	$M stop >/dev/null
	both syscall unmeasured $r $svc taskset -c 0 "$out/task_bench" -s -n
	both syscall svc $r $svc taskset -c 0 "$out/task_bench" -s -m -n
	rmmod meas
}

# what a tick of the clock costs
tick_costs() {
	r=$1
	load
	sampler free $r
	sampler pc $r
	sampler snap $r
	rmmod meas
	sampler perf $r
}

# N live processes that do nothing, for the scaling rows
if [ "$procs" -gt 0 ]; then
	taskset -c "$last" "$out/idlers" "$procs" >/tmp/insn.idlers &
	idlers=$!
	i=0
	while ! grep -q ready /tmp/insn.idlers && [ $i -lt 6000 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q ready /tmp/insn.idlers || { echo "idlers did not start" >&2; exit 1; }
	echo "INSN-PROCS $(ls -d /proc/[0-9]* | wc -l)"
fi

# The first round warms QEMU's translation cache and the guest's page
# cache: it is run but not reported (rep 0).
r=0
while [ $r -le "$reps" ]; do
	case "$part" in
	events) event_costs $r ;;
	sampler) tick_costs $r ;;
	*) event_costs $r; tick_costs $r ;;
	esac
	r=$((r + 1))
done
rmmod null_blk
if [ "$procs" -gt 0 ]; then
	kill "$idlers"
	wait "$idlers" 2>/dev/null || true
fi
