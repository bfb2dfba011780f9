#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/vm/vm-slot.sh, the queue in which run-vm.sh's guests wait for
# a VM slot: first come, first served, a waiter that is gone (even by
# SIGKILL, even with its pid reused) does not hold the queue, and no more
# guests than slots.  No QEMU: each waiter is a shell that takes a slot,
# writes its name to a log and holds the slot until told to let go.
# TAP; part of make unit.
#   selftests/unit/vm_slot_test.sh OUTDIR
set -u
out=${1:?usage: vm_slot_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=selftests/pkg/tap.sh
. "$top/selftests/pkg/tap.sh"
vs=$out/vm-slot-test
rm -rf "$vs"
mkdir -p "$vs/locks"
export MEAS_VM_SLOT_POLL=0.1
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT

# waiter NAME SLOTS: in the background, take a slot, log NAME, hold the
# slot until the file NAME.go exists
waiter() {
	bash -c '. "$1"; vm_slot_take "$2" "$3" "$4" 2>>"$5/$4.err" || exit 1
		echo "$4" >>"$5/order"
		i=0
		while [ ! -e "$5/$4.go" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done' \
		waiter "$top/selftests/vm/vm-slot.sh" "$2" "$vs/locks" "$1" "$vs" &
	pids+=($!)
	last=$!
}

# until_true CMD...: CMD true within 30 s (make check runs this beside
# the builds and the guests)
until_true() {
	local i=0
	until "$@"; do
		[ $i -lt 300 ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# shellcheck disable=SC2317 # these are called through until_true and ok
order() { [ "$(tr '\n' ' ' 2>/dev/null <"$vs/order")" = "$1" ]; }
# shellcheck disable=SC2317
queued() { [ "$(find "$vs/locks/queue" -type f | wc -l)" = "$1" ]; }
go() { touch "$vs/$1.go"; }

# one slot, free: taken at once, without a word
waiter a 1
ok "vm-slot: a free slot is taken" until_true order "a "
ok "vm-slot: no waiting message when a slot was free" [ ! -s "$vs/a.err" ]

# first come, first served: b, then c, wait behind a; when a goes, b
# comes next although c polls as often
waiter b 1
until_true queued 1
waiter c 1
until_true queued 2
sleep 0.5
ok "vm-slot: while the slot is held, b and c wait" order "a "
ok "vm-slot: a waiter says once that it waits" \
	[ "$(grep -c 'b: waiting for one of 1 VM slots' "$vs/b.err")" = 1 ]
go a
ok "vm-slot: a's slot goes to b, who came first" until_true order "a b "
sleep 0.5
ok "vm-slot: c still waits behind b" order "a b "
go b
ok "vm-slot: then c" until_true order "a b c "

# a waiter killed by SIGKILL, its ticket left behind, does not hold the
# queue: e behind it gets the slot once c lets go
waiter d 1
until_true queued 1
kill -9 "$last"
wait "$last" 2>/dev/null
waiter e 1
until_true grep -q waiting "$vs/e.err"
go c
ok "vm-slot: a waiter killed by SIGKILL is passed over" until_true order "a b c e "
ok "vm-slot: its ticket is removed" until_true queued 0

# a ticket whose pid lives but started at another time (the pid was
# reused): passed over as well
go e
until_true order "a b c e "
echo "$$ 1" >"$vs/locks/queue/000000000000"
waiter f 1
ok "vm-slot: a ticket of a reused pid is passed over" until_true order "a b c e f "

# two slots: two guests at once, the third waits for one of them
go f
: >"$vs/order"
waiter g 2
until_true order "g "
waiter h 2
ok "vm-slot: two slots hold two guests" until_true order "g h "
waiter i 2
until_true queued 1
sleep 0.5
ok "vm-slot: a third waits" order "g h "
go h
ok "vm-slot: and comes in when one goes" until_true order "g h i "
go g
go i
wait
pids=()
ok "vm-slot: the queue is empty at the end" queued 0
exit $((fails > 0))
