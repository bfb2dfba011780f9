# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# TAP for the measctl command tests (proc_cmds_test.sh,
# cgroup_cmds_test.sh), sourced after they set M (measctl) and T (their
# scratch directory):
#   check DESCRIPTION EXPR   evals EXPR: "ok N" or "not ok N", and on a
#                            failure the last command's output as comments
#   mctl ARGS...             runs measctl, output in $T/out and $T/err,
#                            exit status in $rc
# n counts the checks, nfail the failures.
n=0
nfail=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n - $1"
	sed 's/^/# /' "$T/out" "$T/err" 2>/dev/null | head -30
}
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }
# shellcheck disable=SC2034 # rc is the callers'
mctl() { "$M" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
