#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The profile of the instruction-count benchmark, by guest function: where
# the instructions of one event go.
#   selftests/bench/insn/insn_prof.sh PROFILE INSN_LOG WORKLOAD VARIANT [BASE]
# PROFILE is the plugin's prof= file and INSN_LOG the console of the VM
# that ran insn_bench.sh with MEAS_INSN_PROF=1 (make bench-insn
# MEAS_INSN_PROF=1), which lists the kernel's and the module's functions.
# For each function, its instructions per event in the runs of WORKLOAD
# and VARIANT, (I(2N) - I(N)) / N over the reported repeats, as the
# table counts them (CPU 0 outside the timer interrupt; every CPU for
# the system calls; the timer interrupt of the loop's CPU for the
# sampler, per second of the loop, as its runs are not N and 2N); with
# BASE, less those of the BASE variant: what the variant adds, function
# by function.  A module loaded again is assumed at the same address.
set -eu
usage="usage: insn_prof.sh PROFILE INSN_LOG WORKLOAD VARIANT [BASE]"
[ $# -ge 4 ] && [ $# -le 5 ] || { echo "$usage" >&2; exit 2; }
prof=$1 log=$2 w=$3 v=$4 base=${5:-}

{
	# the symbols: "ADDRESS 0 NAME", 16 hex digits so that sort orders them
	tr -d '\r' <"$log" | sed -n 's/^INSN-KSYMS //p' | base64 -d | gunzip |
		awk '{ print $1, 0, $2 }'
	tr -d '\r' <"$log" | awk '
		$1 == "INSN-SYM" { if (!seen) print $2, 0, $3 " [meas]"; syms = 1; next }
		$1 == "INSN-RUN" && syms { seen = 1 }'
	# the weighted blocks: "ADDRESS 1 INSTRUCTIONS", per event
	tr -d '\r' <"$log" | grep -a '^INSN-RUN ' | cat - "$prof" | awk -v w="$w" -v v="$v" -v b="$base" '
	function pad(a) { while (length(a) < 16) a = "0" a; return a }
	# INSN-RUN WORKLOAD VARIANT REP N EVENTS SECONDS: run k is section 2k
	$1 == "INSN-RUN" {
		k++
		if ($2 != w || $4 == 0 || ($3 != v && $3 != b)) next
		sign = $3 == v ? 1 : -1
		if (w == "sampler") {
			# per second of the loop, averaged over the repeats
			wt[2 * k] = sign / $7
			nrep[$3]++
			next
		}
		# (I(2N) - I(N)) / N summed over the repeats, divided at the end
		first = !(($3 " " $4) in had); had[$3 " " $4] = 1
		wt[2 * k] = (first ? -1 : 1) * sign
		next
	}
	$1 == "P" { sec++; next }
	(sec in wt) {
		c = w == "sampler" ? $6 : (w == "syscall" ? $3 + $5 : $3)
		if (c) blk[pad($1)] += wt[sec] * $2 * c
	}
	END {
		for (a in blk) print a, 1, blk[a] / (w == "sampler" ? nrep[v] : nper)
	}' nper="$(tr -d '\r' <"$log" | awk -v w="$w" -v v="$v" '
		$1 == "INSN-RUN" && $2 == w && $3 == v && $4 > 0 { n[$4] = n[$4] ? (n[$4] < $5 ? n[$4] : $5) : $5 }
		END { for (r in n) t += n[r]; print t ? t : 1 }')"
} | LC_ALL=C sort -k1,1 -k2,2n | awk -v w="$w" -v v="$v" -v b="$base" '
	$2 == 0 { f = $3; for (i = 4; i <= NF; i++) f = f " " $i; next }
	{ fn = $1 < "ffff800000000000" ? "(user space)" : (f == "" ? "(below the kernel)" : f); s[fn] += $3; tot += $3 }
	END {
		printf "%s %s%s: instructions per %s, by function\n", w, v,
			b == "" ? "" : " less " b, w == "sampler" ? "second of the loop" : "event"
		for (fn in s) if (s[fn] >= 0.5 || s[fn] <= -0.5) printf "%10.1f  %s\n", s[fn], fn
		printf "%10.1f  total\n", tot
	}' | { IFS= read -r head; echo "$head"; sort -k1,1gr; }
