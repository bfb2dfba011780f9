#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lines that say what failed in make check's stream logs, printed at
# the end of a failed make check: a CI that keeps only the tail of the
# output still shows the cause, not just the last stage that passed.
#
#   scripts/failures.sh LOG...
#
# A line is kept when it is a failed TAP test ("not ok"), a stage's
# closing count with failures, make's error, or a line of the matrix or
# of run-vm.sh that reports a failure or a timeout; at most 40 a log,
# each with its line number.  Exit status 0; 1 if no LOG could be read.
set -u
pattern='^(# )?not ok [0-9]|^[a-z][a-z0-9.+-]*: [0-9]+ passed, [1-9][0-9]* failed|'
pattern+='make(\[[0-9]+\])?: \*\*\*|^matrix: .*(FAIL|status [1-9]|not whole)|'
pattern+='^matrix:   |^run-vm: (FAIL|TIMEOUT)'
read_any=0
for log in "$@"; do
	[ -r "$log" ] || continue
	read_any=1
	n=$(grep -c -E "$pattern" "$log")
	[ "$n" != 0 ] || continue
	echo "failures: $log, $n lines (the first 40):"
	grep -n -E "$pattern" "$log" | head -n 40 | sed 's/^/failures:   /'
done
[ "$read_any" = 1 ]
