#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Count the TAP results in a log and print one closing line:
#   NAME: N passed, M failed
# Exit non-zero when a test failed or none ran.
name=$1
log=$2
pass=$(grep -c -E '^(# )?ok [0-9]+' "$log")
fail=$(grep -c -E '^(# )?not ok [0-9]+' "$log")
skip=$(grep -c -E '^(# )?ok [0-9]+ .*# SKIP' "$log")
echo "$name: $((pass - skip)) passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
