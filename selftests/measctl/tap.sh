# SPDX-License-Identifier: GPL-2.0
# TAP for the measctl shell tests, sourced after setting TAP_PREFIX:
#   ok STATUS WHAT   prints "ok N - PREFIX: WHAT" when STATUS is 0, else
#                    "not ok N - PREFIX: WHAT" and sets status=1
# n counts the checks (tapjson.py goes on from it), status is the exit.
status=0
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $TAP_PREFIX: $2"
	else
		echo "not ok $n - $TAP_PREFIX: $2"
		status=1
	fi
}
