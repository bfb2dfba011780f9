# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/root.sh and scripts/arm64-root.sh: a root made with
# mmdebstrap, aside in DIR, by up to three runs.
#
#   mmdebstrap_tries WHO DIR SOURCES LOG SUITE [MMDEBSTRAP OPTION...]
#
# SOURCES are the lines of sources.list; apt asks the mirror again for a
# download it drops (Acquire::Retries).  A run that fails anyway is made
# again after one minute, then after three: a new machine fetches some
# hundreds of packages per root, and make check's fresh pre-checks of 29
# November twice lost the arm64 root to one "apt download failed" 18 s
# in, which the same run a few minutes later did not meet.  Each run's
# whole output is kept in LOG.N (--quiet would hide apt's own error
# lines), and apt's errors are shown when a run fails.  Before each run,
# what a killed mmdebstrap left mounted in DIR (its /proc, /sys, device
# nodes) is unmounted, and DIR removed without crossing a mount point.
# Returns 1 when the third run fails.
#
# mmdebstrap runs with no descriptor open above 2: it hands apt the
# number of a pipe of its own for a hook that dash runs ("cat >&FD"), and
# dash reads one digit there.  Started from make -j (its jobserver's
# pipe) inside matrix.sh (a saved descriptor 10), the pipe was 11, and
# every run failed after the download with "Bad fd number", reported by
# apt as "apt download failed": the failed list of kernels of CI on
# 036da10, and likely the "drops" the retries below were made for.

# unmount_below DIR: every mount below DIR, deepest first
unmount_below() {
	findmnt -rn -o TARGET | awk -v d="$1/" 'index($0, d) == 1' | sort -r |
	while read -r m; do
		umount -l "$m"
	done
}

# close_fds: close every descriptor above 2 of this (sub)shell
close_fds() {
	local fd
	for fd in /proc/"$BASHPID"/fd/*; do
		fd=${fd##*/}
		[ "$fd" -gt 2 ] && [ -e "/proc/$BASHPID/fd/$fd" ] || continue
		exec {fd}>&-
	done
}

mmdebstrap_tries() {
	local who=$1 dir=$2 sources=$3 log=$4 suite=$5 try pause
	shift 5
	for try in 1 2 3; do
		unmount_below "$dir"
		rm -rf --one-file-system "$dir"
		if [ "$try" != 1 ]; then
			pause=$((try == 2 ? 60 : 180))
			echo "$who: failed (log: $log.$((try - 1))); once more in $pause s" >&2
			sleep "$pause"
		fi
		(
			close_fds
			printf '%s\n' "$sources" | mmdebstrap "$@" \
				--aptopt='Acquire::Retries "10"' \
				"$suite" "$dir" - >"$log.$try" 2>&1
		) && return 0
		grep -E '^(E|W): |^Err:' "$log.$try" | tail -n 20 >&2
	done
	echo "$who: mmdebstrap failed three times (log: $log.3)" >&2
	return 1
}
