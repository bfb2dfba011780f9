#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# root-checks.sh N - run by selftests/pkg/pkgtest.sh inside the throw-away
# root once the packages are installed: what a user finds on the system.
# Prints TAP lines numbered from N + 1; details go to stderr.

set -u
n=$1

ok() {
	local d=$1
	shift
	n=$((n + 1))
	echo "=== $d" >&2
	if "$@" >&2; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok "measctl is on PATH as /usr/sbin/measctl" \
	test "$(command -v measctl)" = /usr/sbin/measctl

# --- man pages ---

ok "man -w measctl finds measctl(8)" \
	test "$(man -w measctl)" = /usr/share/man/man8/measctl.8.gz
ok "man -w 4 meas finds meas(4)" \
	test "$(man -w 4 meas)" = /usr/share/man/man4/meas.4.gz

# man --warnings, at 80 columns. The layout notices of groff's tables
# (a justified line in a narrow table column, a table box crossing a page
# boundary) depend on the width and the page length only; lintian skips
# them too ("can't break line" in groff 1.22, "cannot break line" in 1.23).
# Anything else is a failure.
render() {
	MANWIDTH=80 man --warnings -E UTF-8 "$@" >"$tmp/page" 2>"$tmp/warn" || return 1
	grep -v -e 'cannot adjust line' -e "can't break line" -e 'cannot break line' \
		-e 'character above first line discarded' \
		${RENDER_ALLOW:+-e "$RENDER_ALLOW"} "$tmp/warn" >"$tmp/bad"
	cat "$tmp/bad"
	[ ! -s "$tmp/bad" ] && [ -s "$tmp/page" ]
}
ok "measctl(8) renders without warnings" render 8 measctl
ok "meas(4) renders without warnings" render 4 meas

commands=$(measctl help 2>&1 | sed -n 's/^  measctl \([a-z]*\).*/\1/p' | sort -u)
every_command_in_page() {
	local c missing=""
	[ -n "$commands" ] || return 1
	MANWIDTH=200 man 8 measctl 2>/dev/null >"$tmp/page8"
	for c in $commands; do
		grep -q "measctl $c" "$tmp/page8" || missing+=" $c"
	done
	[ -z "$missing" ] || { echo "not in measctl(8):$missing"; return 1; }
}
ok "measctl(8) shows every command measctl help lists" every_command_in_page
ok "meas(4) covers the generic netlink family" \
	sh -c 'MANWIDTH=200 man 4 meas 2>/dev/null | grep -q "THE GENERIC NETLINK FAMILY"'

# --- bash completion, in an interactive bash as a new user's .bashrc sets
# it up (Debian's /etc/skel/.bashrc loads bash-completion) ---

cp /etc/skel/.bashrc "$tmp/.bashrc"
complete_words() { # complete_words LINE: what TAB offers after LINE
	HOME=$tmp bash -i -c '
		line=$1
		_completion_loader measctl 2>/dev/null
		read -r -a COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		fn=$(complete -p measctl | sed -n "s/.*-F \([^ ]*\).*/\1/p")
		[ -n "$fn" ] || exit 1
		"$fn" measctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$1" 2>/dev/null
}
offers() { # offers LINE WORD...: every WORD is offered
	local w got
	got=$(complete_words "$1") || return 1
	for w in "${@:2}"; do
		grep -qx -- "$w" <<<"$got" || { echo "'$1' does not offer '$w': $got"; return 1; }
	done
}
ok "completion is loaded for measctl (complete -p)" \
	env HOME="$tmp" bash -i -c '_completion_loader measctl; complete -p measctl | grep -q _measctl'
# shellcheck disable=SC2086 # one command per word
ok "completion: every command of measctl help" offers "measctl " $commands
ok "completion: options of ps" offers "measctl ps -" -s --sort -a --exited --json
ok "completion: sort keys of ps -s" offers "measctl ps -s " cpu pid wait command
ok "completion: class numbers for start" offers "measctl start " 0 14 15 all
ok "completion: task subcommands" offers "measctl task " start stop run report
ok "completion: load levels of task start --load" offers "measctl task start --load " std detailed
ok "completion: PIDs for task start --pid" offers "measctl task start --pid " 1
ok "completion: files for task report" offers "measctl task report /etc/host" /etc/hostname
ok "completion: commands for run" offers "measctl run -c 0 bas" bash

# --- system files ---

ok "udev rule /lib/udev/rules.d/60-meas.rules gives /dev/meas to group meas" \
	grep -q 'KERNEL=="meas".*GROUP="meas", MODE="0660"' /lib/udev/rules.d/60-meas.rules
ok "system group meas exists" \
	sh -c 'gid=$(getent group meas | cut -d: -f3) && [ "$gid" -lt 1000 ]'
ok "modules-load.d loads meas at boot" grep -qx meas /usr/lib/modules-load.d/meas.conf
ok "/etc/modprobe.d/meas.conf is a conffile of meas-dkms" \
	sh -c "dpkg-query -W -f='\${Conffiles}' meas-dkms | grep -q ' /etc/modprobe.d/meas.conf '"

# --- libmeas-dev: a program built with pkg-config ---

cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <libmeas.h>
#include <linux/meas.h>

int main(void)
{
	int fd = meas_open();

	printf("meas_open: %d, ABI class 0 has %d items\n", fd, MEAS_C0_FIXED_ITEMS);
	return 0;
}
EOF
ok "pkg-config libmeas: version $(cat /usr/src/meas-*/VERSION 2>/dev/null)" \
	sh -c 'test "$(pkg-config --modversion libmeas)" = "$(cat /usr/src/meas-*/VERSION)"'
ok "a program builds and links against libmeas with pkg-config" \
	sh -c "cc -Wall -Wextra -Werror -o '$tmp/prog' '$tmp/prog.c' \$(pkg-config --cflags --libs libmeas) && '$tmp/prog'"
every_header() {
	local h
	for h in /usr/include/meas/linux/*.h; do
		# shellcheck disable=SC2046 # pkg-config's flags, one per word
		echo "#include <linux/$(basename "$h")>" |
			cc -Wall -Werror -fsyntax-only -x c $(pkg-config --cflags libmeas) - || return 1
	done
}
ok "every installed uapi header compiles on its own" every_header

# --- meas-pcp: the PCP agent where Debian's pcp looks for it ---

# shellcheck disable=SC1091 # Debian's pcp's: PCP_PMDAS_DIR, PCP_VAR_DIR...
. /etc/pcp.conf
pmdadir=$PCP_PMDAS_DIR/meas
ok "man -w pmdameas finds pmdameas(1)" \
	test "$(man -w pmdameas)" = /usr/share/man/man1/pmdameas.1.gz
# Its table of metrics (four columns, names of up to 33 characters) is
# wider than groff's page at 80 columns, and groff says so: in two lines
# (groff 1.22, Debian 12) or one (1.23, Debian 13); lintian renders at 120
# and sees nothing. Any other warning fails. groff 1.23 words the layout
# notices render() lets pass "cannot break line".
RENDER_ALLOW='^warning: file .*, around line [0-9]*:$\|^  table wider than line width$\|^<standard input>:[0-9]*: warning: table wider than line length minus indentation$' \
	ok "pmdameas(1) renders without warnings but the table's width" render 1 pmdameas
agent_files() {
	local f
	for f in pmdameas Install Remove; do
		[ -f "$pmdadir/$f" ] && [ -x "$pmdadir/$f" ] || { echo "no executable $pmdadir/$f"; return 1; }
	done
	for f in pmns root domain.h; do
		[ -s "$pmdadir/$f" ] || { echo "no $pmdadir/$f"; return 1; }
	done
}
ok "the agent in PCP's PMDA directory $pmdadir (/etc/pcp.conf)" agent_files
ok "the PMNS and domain.h shipped are the agent's (pmdameas -N, -H)" \
	sh -c "cd '$pmdadir' && ./pmdameas -N | cmp - pmns && ./pmdameas -H | cmp - domain.h"
ok "pmlogconf group $PCP_VAR_DIR/config/pmlogconf/meas/summary probes meas.version" \
	grep -q '^probe[[:space:]]*meas.version exists' "$PCP_VAR_DIR/config/pmlogconf/meas/summary"
ok "the package did not add meas to $PCP_PMCDCONF_PATH (the administrator runs Install)" \
	awk '$1 == "meas" { f = 1 } END { exit f }' "$PCP_PMCDCONF_PATH"
