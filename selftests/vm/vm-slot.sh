# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# vm-slot.sh - the machine's VM slots, given in the order they were asked
# for.  Sourced by run-vm.sh; selftests/unit/vm_slot_test.sh tests it.
#
# A guest runs only while it holds one of SLOTS lock files.  Waiters take
# a ticket and queue: only the oldest live ticket may take a slot that
# comes free.  Without the queue every waiter polled the slots, and one
# that had just come always had its chance at once: in the fresh run of
# 30 November make check's guests' stream (one guest at a time) waited
# 19 minutes for a slot while the matrix's lanes, arriving one after the
# other, took every slot that came free.
#
# A ticket is a file queue/NNNNNNNNNNNN holding the waiter's pid and its
# start time (field 22 of /proc/PID/stat), so that a waiter killed
# without its trap (SIGKILL) does not hold the queue, even when its pid
# has been reused.

# vm_slot_start PID: the start time of PID, empty if it is gone
vm_slot_start() {
	local s
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	s=${s##*) }
	# shellcheck disable=SC2086 # split into the fields after the name
	set -- $s
	echo "${20}"
}

# vm_slot_head DIR: the name of the oldest ticket whose waiter lives;
# the tickets of waiters that are gone are removed.  Under the queue lock.
vm_slot_head() {
	local f pid start
	for f in "$1"/queue/*; do
		[ -e "$f" ] || return 0
		pid='' start=''
		read -r pid start <"$f"
		if [ -n "$pid" ] && [ "$(vm_slot_start "$pid")" = "$start" ]; then
			echo "${f##*/}"
			return 0
		fi
		rm -f "$f"
	done
}

# vm_slot_try SLOTS DIR: take a free slot on fd 8, or fail
vm_slot_try() {
	local s
	for s in $(seq 1 "$1"); do
		exec 8>"$2/slot$s"
		flock -n 8 && return 0
		exec 8>&-
	done
	return 1
}

# vm_slot_take SLOTS DIR [PROG]: wait in the queue, then hold a slot on
# fd 8 until the calling shell and its children end.  Says once, on
# stderr, that it waits.  Uses fd 9 for the queue's lock.
vm_slot_take() {
	local slots=$1 dir=$2 prog=${3:-run-vm} me n waited=0
	mkdir -p "$dir/queue"
	exec 9>"$dir/queue.lock"
	flock 9
	n=$(cat "$dir/queue.next" 2>/dev/null) || n=0
	me=$(printf '%012d' $((10#${n:-0} + 1)))
	echo "$me" >"$dir/queue.next"
	echo "$$ $(vm_slot_start $$)" >"$dir/queue/$me"
	while :; do
		if [ "$(vm_slot_head "$dir")" = "$me" ] && vm_slot_try "$slots" "$dir"; then
			rm -f "$dir/queue/$me"
			exec 9>&-
			return 0
		fi
		flock -u 9
		[ "$waited" = 1 ] || echo "$prog: waiting for one of $slots VM slots" >&2
		waited=1
		sleep "${MEAS_VM_SLOT_POLL:-1}"
		flock 9
	done
}
