# SPDX-License-Identifier: GPL-2.0
# TAP for the install test's guest scripts (guest.sh, systemd-guest.sh)
# and selftests/unit/{matrix,failures,kernels,mmdebstrap_fds,alternatives}_test.sh,
# sourced:
#   ok DESCRIPTION COMMAND...   runs COMMAND; prints "ok N - DESCRIPTION"
#                               or "not ok N - DESCRIPTION" and counts it
# n counts the checks, fails the failures; end with exit $((fails > 0)).
n=0
fails=0
ok() {
	local d=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		fails=$((fails + 1))
	fi
}
