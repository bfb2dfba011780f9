#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The verdict of make check-kcsan, on the host: counts KCSAN's reports in
# the guest's kernel log (run-vm.sh --log's LOG.dmesg) and prints them.
# A report is meas's if one of the two racing accesses is in meas.ko or
# meas_example.ko: the first frame under "read/write to ... by ...:" (or
# under "race at unknown origin") is "[meas]" or "[meas_example]".  Those
# must be none.  Reports where meas is only further down a stack (a
# kernel function meas calls races with the kernel itself) and reports
# with no meas frame at all are not meas's code: they are counted and
# their titles listed, not judged.  The count of reports between two
# CPUs shows that KCSAN did see the vCPUs race.  Fails too if the log
# does not show KCSAN enabled or does not say which tests ran.
#   selftests/debug-kernel/kcsan-reports.sh LOG
set -u
log=${1:?usage: kcsan-reports.sh LOG}
status=0
dmesg=$log.dmesg
[ -s "$dmesg" ] || dmesg=$log

if ! grep -q 'kcsan: enabled early' "$dmesg"; then
	echo "kcsan: not enabled in this kernel (no 'kcsan: enabled early')"
	status=1
fi
ran=$(sed -n 's/^# kcsan lane: ran //p' "$log" | tail -n 1)
if [ -z "$ran" ]; then
	echo "kcsan: the lane did not end (no '# kcsan lane: ran' line)"
	status=1
fi

# One record per report, from its "BUG: KCSAN:" line to the rule that
# closes it, timestamps dropped, tagged OURS (an access in meas), VIA
# (meas further down a stack) or KERNEL; CROSS if the two accesses were
# on two CPUs.
reports=$(mktemp)
trap 'rm -f "$reports"' EXIT
sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$dmesg" | awk -v out="$reports" '
	function flush(  tag) {
		tag = top ? "OURS" : (deep ? "VIA" : "KERNEL")
		if (ncpu == 2 && cpu[1] != cpu[2])
			tag = tag " CROSS"
		print tag " " rec "\n%%" >out
		inrep = 0
	}
	/^BUG: KCSAN: / {
		inrep = 1; rec = $0; top = deep = ncpu = 0; first = 0; next
	}
	!inrep { next }
	/^====/ { flush(); next }
	{ rec = rec "\n" $0 }
	/ on cpu [0-9]+:$/ {
		first = 1
		c = $0; sub(/.* on cpu /, "", c); sub(/:$/, "", c)
		cpu[++ncpu] = c
		next
	}
	first && /^ / {
		if (/\[meas(_example)?\]/) top = 1
		first = 0; next
	}
	/\[meas(_example)?\]/ { deep = 1 }
	END { if (inrep) flush() }'
ours=$(grep -c '^OURS.* BUG: KCSAN:' "$reports")
via=$(grep -c '^VIA.* BUG: KCSAN:' "$reports")
kernel=$(grep -c '^KERNEL.* BUG: KCSAN:' "$reports")
cross=$(grep -c '^[A-Z]* CROSS BUG: KCSAN:' "$reports")

if [ "$ours" -gt 0 ]; then
	echo "kcsan: the reports in meas:"
	awk '/^OURS/, /^%%$/' "$reports" | sed 's/^OURS\( CROSS\)\{0,1\} //; s/^%%$//; s/^/  /'
fi
if [ "$via" -gt 0 ]; then
	echo "kcsan: the reports in the kernel reached from meas (not counted):"
	sed -n 's/^VIA\( CROSS\)\{0,1\} BUG: KCSAN: /  /p' "$reports" | sort | uniq -c | sort -rn
fi
if [ "$kernel" -gt 0 ]; then
	echo "kcsan: the reports elsewhere in the kernel (not counted):"
	sed -n 's/^KERNEL\( CROSS\)\{0,1\} BUG: KCSAN: /  /p' "$reports" | sort | uniq -c | sort -rn
fi
echo "kcsan: tests run:${ran:- none}"
echo "kcsan: $ours reports in meas ($(sed -n 's/^OURS\( CROSS\)\{0,1\} BUG/BUG/p' "$reports" |
	sort -u | wc -l) distinct); not meas's: $via reached from meas, $kernel elsewhere; $cross of all between two CPUs"
[ "$ours" -eq 0 ] || status=1
exit $status
