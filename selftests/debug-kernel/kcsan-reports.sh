#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The verdict of make check-kcsan, on the host: counts KCSAN's reports in
# the guest's kernel log (run-vm.sh --log's LOG.dmesg) and prints them.
# A report is meas's if a frame of either stack is in meas.ko or
# meas_example.ko ("[meas]", "[meas_example]"): those must be none.
# Reports in the rest of the kernel are counted and their titles listed,
# not judged: they are not meas's to fix, and they show that KCSAN saw
# the two vCPUs race.  Fails too if the log does not show KCSAN enabled
# or does not say which tests ran.
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
# closes it; the timestamps are dropped.
reports=$(mktemp)
trap 'rm -f "$reports"' EXIT
sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$dmesg" | awk -v out="$reports" '
	/^BUG: KCSAN: / { inrep = 1; rec = $0; ours = 0; next }
	inrep && /^====/ {
		print (ours ? "OURS " : "KERNEL ") rec "\n%%" >out
		inrep = 0; next
	}
	inrep { rec = rec "\n" $0; if (/\[meas(_example)?\]/) ours = 1 }
	END { if (inrep) print (ours ? "OURS " : "KERNEL ") rec "\n%%" >out }'
ours=$(grep -c '^OURS BUG: KCSAN:' "$reports")
kernel=$(grep -c '^KERNEL BUG: KCSAN:' "$reports")

if [ "$ours" -gt 0 ]; then
	echo "kcsan: the reports in meas:"
	awk '/^OURS /, /^%%$/' "$reports" | sed 's/^OURS //; s/^%%$//; s/^/  /'
fi
if [ "$kernel" -gt 0 ]; then
	echo "kcsan: the titles of the reports elsewhere in the kernel (not counted):"
	sed -n 's/^KERNEL BUG: KCSAN: /  /p' "$reports" | sort | uniq -c | sort -rn
fi
echo "kcsan: tests run:${ran:- none}"
echo "kcsan: $ours reports in meas ($(grep '^OURS BUG: KCSAN:' "$reports" |
	sort -u | wc -l) distinct), $kernel elsewhere in the kernel"
[ "$ours" -eq 0 ] || status=1
exit $status
