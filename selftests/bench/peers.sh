# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the benchmarks that run in the test VM (insn_bench.sh,
# bench.sh, fio_bench.sh, clock_bench.sh): the peers, what a user would
# run instead of meas to count the same events, run with the module not
# loaded (Documentation/performance.rst, "The peers").
#   bt_start PROGRAM CPU   bpftrace PROGRAM in the background, on CPU;
#                          returns once its probes are attached
#   bt_stop                stops it
#   perf_start CPU         perf record, every CPU at 200 Hz (the
#                          sampler's 5 ms) with call chains, on CPU;
#                          back once its events are on
#   perf_stop              stops it
#   lt_start "TOOL LINKS" CPU
#                          a libbpf-tools program (Debian's libbpf-tools,
#                          $LT_*) in the background, on CPU; returns once
#                          it holds its LINKS BPF links (attached)
#   lt_stop                stops it (it prints what it gathered)
#   peer_installed KIND PROG
#                          whether the peer's program is there (KIND bt,
#                          lt or perf; PROG as for *_start); its name in
#                          $peer_tool
# Each is started (bpftrace compiles its program, which takes seconds
# under TCG) and stopped outside what is measured.

# bpftrace: class 0's counting of the ping-pong, the context switches
# and wakeups of each CPU
BT_COUNT='tracepoint:sched:sched_switch { @switch[cpu] = count(); }
tracepoint:sched:sched_wakeup { @wakeup[cpu] = count(); }'
# runqlat: as bpftrace's runqlat.bt, over tracepoints, with the count of
# switches: what classes 0 and 15 keep besides (time waited to run)
BT_RUNQLAT='tracepoint:sched:sched_wakeup, tracepoint:sched:sched_wakeup_new {
	@qtime[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
	@switch[cpu] = count();
	if (args->prev_state == 0) { @qtime[args->prev_pid] = nsecs; }
	$ns = @qtime[args->next_pid];
	if ($ns) { @usecs = hist((nsecs - $ns) / 1000); }
	delete(@qtime[args->next_pid]); }'
# biolatency: as bpftrace's biolatency.bt, over the block tracepoints,
# with a count per disk: what classes 0 and 14 keep per disk
BT_BIOLAT='tracepoint:block:block_rq_issue { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/ {
	@ios[args->dev] = count();
	@usecs = hist((nsecs - @start[args->dev, args->sector]) / 1000);
	delete(@start[args->dev, args->sector]); }'

bt_start() {
	taskset -c "$2" bpftrace -e "$1" >/tmp/peer.bt 2>&1 &
	peer_pid=$!
	peer_i=0
	while ! grep -q '^Attaching' /tmp/peer.bt && [ $peer_i -lt 1800 ]; do
		sleep 0.1
		peer_i=$((peer_i + 1))
	done
	grep -q '^Attaching' /tmp/peer.bt || { cat /tmp/peer.bt >&2; exit 1; }
	sleep 1		# the message comes before the last attach
}

# libbpf-tools: the compiled CO-RE programs a user is now told to run,
# with what they attach (BPF links) on Debian 12's 0.26: runqlat three
# (sched_wakeup, sched_wakeup_new, sched_switch), cpudist one
# (sched_switch), biolatency two (block_rq_issue, block_rq_complete;
# block_rq_insert only with -Q), offcputime one (sched_switch, with the
# kernel and user stacks of each task that leaves the CPU)
LT_RUNQLAT='runqlat 3'
LT_CPUDIST='cpudist 1'
LT_BIOLAT='biolatency 2'
LT_OFFCPU='offcputime 1'

# the BPF links process $1 holds
lt_links() {
	n=0
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = anon_inode:bpf_link ] && n=$((n + 1))
	done
	echo $n
}

lt_start() {
	# shellcheck disable=SC2086 # "$1" is TOOL LINKS: now $1 $2, CPU $3
	set -- $1 "$2"
	taskset -c "$3" "$1" >/tmp/peer.lt 2>&1 &
	peer_pid=$!
	peer_i=0
	while [ "$(lt_links $peer_pid)" -lt "$2" ] && [ $peer_i -lt 1800 ]; do
		kill -0 $peer_pid 2>/dev/null || break
		sleep 0.1
		peer_i=$((peer_i + 1))
	done
	[ "$(lt_links $peer_pid)" -ge "$2" ] || { cat /tmp/peer.lt >&2; exit 1; }
}

# whether the peer still runs (kill -0 also succeeds for a zombie)
peer_alive() {
	peer_st=$(sed 's/.*) \(.\).*/\1/' /proc/"$peer_pid"/stat 2>/dev/null) || return 1
	[ -n "$peer_st" ] && [ "$peer_st" != Z ]
}

# SIGINT, and 120 s for the peer to print what it gathered and exit;
# one that does not is killed and said so (bpftrace once hung there in
# a 7.3 guest, and the benchmark waited for its VM's timeout)
peer_stop() {
	kill -INT "$peer_pid" 2>/dev/null || true
	peer_i=0
	while peer_alive && [ $peer_i -lt 1200 ]; do
		sleep 0.1
		peer_i=$((peer_i + 1))
	done
	if peer_alive; then
		echo "peers: $1 did not exit within 120 s of SIGINT: killed" >&2
		kill -KILL "$peer_pid" 2>/dev/null || true
	fi
	wait "$peer_pid" || true
}

lt_stop() {
	peer_stop libbpf-tools
}

bt_stop() {
	peer_stop bpftrace
}

perf_start() {
	rm -f /tmp/peer.ctl /tmp/peer.ack
	mkfifo /tmp/peer.ctl /tmp/peer.ack
	# events off until perf has set up (it first reads every process's
	# maps, which takes seconds under TCG), then on, acknowledged
	taskset -c "$1" perf record -D -1 \
		--control fifo:/tmp/peer.ctl,/tmp/peer.ack \
		-F 200 -a -g -B -o /tmp/peer.perf >/tmp/peer.perf.log 2>&1 &
	peer_pid=$!
	echo enable >/tmp/peer.ctl
	read -r peer_ack </tmp/peer.ack
	[ "$peer_ack" = ack ] || { cat /tmp/peer.perf.log >&2; exit 1; }
}

# (what perf says it captured goes to the console, as PEER-PERF lines)
perf_stop() {
	peer_stop perf
	sed 's/^/PEER-PERF /' /tmp/peer.perf.log
}

peer_installed() {
	case "$1" in
	bt) peer_tool=bpftrace ;;
	lt) peer_tool=${2%% *} ;;
	*) peer_tool=$1 ;;
	esac
	command -v "$peer_tool" >/dev/null
}
