#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# On the host, after the benchmark VMs: the table of make bench.
#   selftests/bench/insn_table.sh [-t TIME_LOG] COUNTS INSN_LOG...
# Each COUNTS is an insncount plugin's file, the INSN_LOG after it the
# console of the VM that ran insn_bench.sh (its INSN-RUN lines say what
# each pair of marker counts belongs to); TIME_LOG is the console of the
# timed benchmark (bench.sh; its BENCH-RATIO lines).  Per workload and
# variant: the median over the repeats of the instructions per event,
# what that adds to the baseline's, the largest deviation of a repeat
# from that median, the instruction ratio (the baseline's instructions
# per unit of work over the variant's: what the time ratio would be if
# every instruction took the same time), the time ratio, and the peers:
# for each, what it adds an event, how many times what the variant adds
# that is, its instruction ratio and its time ratio.  The VMs run different
# workloads.  The workloads pinned to CPU 0 count what
# CPU 0 ran outside the timer interrupt (the system calls under task
# measurement: every CPU), at N and 2N events: (I(2N) - I(N)) / N.
# The sampler's event is a clock tick on the CPU that runs the loop: that
# CPU's instructions in the timer interrupt, less the free loop's, over
# its ticks (see Documentation/performance.rst).
set -eu
usage="usage: insn_table.sh [-t TIME_LOG] COUNTS INSN_LOG..."
tlog=/dev/null
if [ "${1:-}" = -t ]; then
	tlog=${2:?$usage}
	shift 2
fi
[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] || { echo "$usage" >&2; exit 2; }

{
	tr -d '\r' <"$tlog" | grep -a '^BENCH-RATIO ' || true
	vm=0
	while [ $# -gt 0 ]; do
		vm=$((vm + 1))
		grep -a '^[0-9][0-9]* [0-9][0-9]* [0-9][0-9]*' "$1" | sed "s/^/C $vm /"
		tr -d '\r' <"$2" | grep -a '^INSN-RUN ' | sed "s/^INSN-RUN /INSN-RUN $vm /"
		shift 2
	done
} | awk '
function median(s,    a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function spread(s, m,    a, n, i, d, w) {
	n = split(s, a, " ")
	w = 0
	for (i = 1; i <= n; i++) {
		d = a[i] > m ? a[i] - m : m - a[i]
		if (d > w) w = d
	}
	return m ? 100 * w / m : 0
}
# C VM VCPU TOTAL TIMER REST0.. TIMER0.. IRQS0..: the marker counts of
# each VM; for the sampler the timer interrupt of the last vCPU, which
# runs the loop: its instructions and how often it was entered
$1 == "C" {
	m = $2; n = ++nc[m]; c[m, n] = $4; q[m, n] = $5; z[m, n] = $6
	nv1 = (NF - 5) / 3
	q1[m, n] = $(5 + 2 * nv1); e1[m, n] = $(5 + 3 * nv1)
	next
}
# INSN-RUN VM WORKLOAD VARIANT REP N EVENTS SECONDS: made one field
# shorter, so that $2 is the workload as insn_bench.sh printed it
$1 == "INSN-RUN" {
	m = $2; $2 = ""; $0 = $0
	j = ++k[m]
	if (2 * j > nc[m]) { print "insn_table: fewer marker counts than runs" > "/dev/stderr"; bad = 1; exit 1 }
	i = c[m, 2 * j] - c[m, 2 * j - 1]; t = q[m, 2 * j] - q[m, 2 * j - 1]
	if ($2 == "sampler") {
		t = q1[m, 2 * j] - q1[m, 2 * j - 1]
		irqs = e1[m, 2 * j] - e1[m, 2 * j - 1]
	}
	# pinned to CPU 0: what CPU 0 ran outside the timer interrupt; for
	# task measurement those of every CPU, as its records are written to the
	# file by a worker that runs on the other CPU
	if ($2 == "syscall") { i -= t; t = 0 }
	else if ($2 != "sampler") { i = z[m, 2 * j] - z[m, 2 * j - 1]; t = 0 }
	key = $2 " " $3 " " $4
	if ($2 == "sampler") {
		# one run a variant: the same loop with the clock free or not
		d[key] = i; dq[key] = t; de[key] = $6; ds[key] = $7; di[key] = irqs
		if ($4 > 0) { if (!(($2 " " $3) in seen)) order[++nv] = $2 " " $3; seen[$2 " " $3] = 1; reps[$4] = 1 }
		next
	}
	if (!(key in first)) { first[key] = i; ft[key] = t; fe[key] = $6; fs[key] = $7; next }
	d[key] = i - first[key]; dq[key] = t - ft[key]
	de[key] = $6 - fe[key]; ds[key] = $7 - fs[key]
	if ($4 > 0) { if (!(($2 " " $3) in seen)) order[++nv] = $2 " " $3; seen[$2 " " $3] = 1; reps[$4] = 1 }
	next
}
$1 == "BENCH-RATIO" { tr[$2 " " $3] = $4; next }
END {
	if (bad) exit 1
	base["pingpong"] = "absent"; base["fio"] = "absent"; base["read"] = "absent"
	base["sampler"] = "free"; base["syscall"] = "unmeasured"
	event["pingpong"] = "round trip"; event["fio"] = "request"
	event["read"] = "request"
	event["sampler"] = "tick"; event["syscall"] = "system call"
	# the peers of a variant: what a user would run instead, rows of
	# their own (insn_bench.sh, bench.sh), shown beside the variant,
	# libbpf-tools first, then bpftrace
	peer["pingpong 0"] = "cpudist bpftrace"
	peer["pingpong 15"] = "offcputime"
	peer["pingpong 0+15"] = "runqlat bt-runqlat"
	peer["fio 0+14"] = "biolatency bt-biolat"
	peer["read 0"] = "biolatency bt-biolat"
	peer["read 0+14"] = "biolatency bt-biolat"
	peer["sampler pc"] = "perf"
	for (pk in peer) {
		np = split(peer[pk], pl, " ")
		for (i = 1; i <= np; i++) ispeer[substr(pk, 1, index(pk, " ")) pl[i]] = 1
	}
	for (o = 1; o <= nv; o++) {
		split(order[o], wv, " "); w = wv[1]; v = wv[2]
		pe = ""; ra = ""
		for (r in reps) {
			key = w " " v " " r; bkey = w " " base[w] " " r
			if (!(key in d) || !(bkey in d)) continue
			if (w == "sampler") {
				# the timer interrupt of the loop CPU (nohz_full: the
				# ticks of the clock, less what the free loop has
				# there, the residual tick, at its rate a second) per
				# interrupt it entered, less those of the free loop
				f = ds[key] / ds[bkey]
				x = 0
				if (v != base[w])
					x = (dq[key] - f * dq[bkey]) / (di[key] - f * di[bkey])
				# the instructions of the loop, at its rate a second, over
				# those and the instructions of the ticks (one every 5 ms)
				y = d[bkey] / (d[bkey] + x * de[key] / f)
			} else {
				# the timer interrupt is left out (above)
				x = (d[key] - dq[key]) / de[key]
				y = ((d[bkey] - dq[bkey]) / de[bkey]) / x
			}
			pe = pe " " x
			ra = ra " " y
		}
		med[o] = median(pe); spr[o] = spread(pe, med[o])
		mv[order[o]] = med[o]
		ira[order[o]] = median(ra)
		tra[order[o]] = (v == base[w]) ? "1" : (order[o] in tr ? tr[order[o]] : "-")
	}
	# what a variant adds to its baseline an event (the sampler: its
	# instructions are already those a tick adds)
	for (o = 1; o <= nv; o++) {
		split(order[o], wv, " "); w = wv[1]
		bk = w " " base[w]
		add[order[o]] = (w == "sampler") ? mv[order[o]] : ((bk in mv) ? mv[order[o]] - mv[bk] : 0)
	}
	printf "%-9s %-11s %-12s %10s %7s %7s %7s %7s  %s\n", "workload", "variant",
		"event", "insn/event", "added", "spread", "insn", "time", "peers: added, meas ahead by,"
	printf "%-9s %-11s %-12s %10s %7s %7s %7s %7s  %s\n", "", "", "", "", "", "", "ratio",
		"ratio", "insn ratio, time ratio"
	for (o = 1; o <= nv; o++) {
		split(order[o], wv, " "); w = wv[1]; v = wv[2]
		if (order[o] in ispeer) pc = "(a peer)"
		else if (!(order[o] in peer)) pc = "-"
		else {
			pc = ""
			np = split(peer[order[o]], pl, " ")
			for (i = 1; i <= np; i++) {
				pw = w " " pl[i]
				if (pw in ira)
					ps = sprintf("%s %+.0f %.1fx %.3f %s", pl[i], add[pw],
						add[order[o]] > 0 ? add[pw] / add[order[o]] : 0,
						ira[pw], tra[pw])
				else
					ps = pl[i] " not run"
				pc = pc (i > 1 ? "; " : "") ps
			}
		}
		printf "%-9s %-11s %-12s %10.0f %+7.0f %6.2f%% %7.3f %7s  %s\n", w, v,
			event[w], med[o], add[order[o]], spr[o], ira[order[o]], tra[order[o]], pc
	}
}'
