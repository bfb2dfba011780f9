#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every command of measctl has its bash completion and its entry in the
# man page: the commands and the subcommands of each group (task's) come
# from measctl itself (measctl --help, measctl GROUP --help), which lists
# its table (tools/measctl/commands.h, checked equal here); completion is
# what tools/measctl/measctl.bash-completion offers after "measctl ",
# "measctl help " and "measctl GROUP ", with bash-completion's helpers;
# the man page is Documentation/measctl.rst: a Synopsis line "measctl
# COMMAND" for each command, and an entry "``measctl GROUP SUB" for each
# subcommand.  Then the same checks are shown to fail on copies that
# lack a command, so that none passes vacuously.  TAP; part of make unit.
#   selftests/unit/cmdlist_test.sh OUTDIR
set -u
out=${1:?usage: cmdlist_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
measctl=$top/tools/measctl/measctl
completion=$top/tools/measctl/measctl.bash-completion
page=$top/Documentation/measctl.rst
tmp=$out/cmdlist
rm -rf "$tmp"
mkdir -p "$tmp"
n=0
fails=0

ok() { # ok DESCRIPTION COMMAND...
	local d=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/why" 2>&1; then
		echo "ok $n - commands: $d"
	else
		echo "not ok $n - commands: $d"
		sed 's/^/# /' "$tmp/why"
		fails=$((fails + 1))
	fi
}

# fails DESCRIPTION COMMAND...: the check must fail (a negative self-check)
fails() {
	local d=$1
	shift
	ok "$d" bash -c '! "$@"' bash "$@"
}

# The commands measctl lists, in its order; a group's subcommands.
commands=$("$measctl" --help | sed -n 's/^  measctl \([a-z][a-z-]*\).*/\1/p' | awk '!seen[$0]++')
subs_of() { # subs_of COMMAND: its subcommands, none for a plain command
	"$measctl" "$1" --help 2>/dev/null | sed -n "s/^  measctl $1 \\([a-z][a-z-]*\\).*/\\1/p"
}
groups=""
for c in $commands; do
	[ -n "$(subs_of "$c")" ] && groups+=" $c"
done

# what TAB offers after "measctl WORD... " with completion file FILE
offered() { # offered FILE WORD...
	bash -c '
		. /usr/share/bash-completion/bash_completion || exit 1
		. "$1" || exit 1
		shift
		COMP_WORDS=(measctl "$@" "")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		fn=$(complete -p measctl | sed -n "s/.*-F \([^ ]*\).*/\1/p")
		[ -n "$fn" ] || exit 1
		"$fn" measctl "" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$@"
}

offers() { # offers FILE "WORDS BEFORE" NAME...: each NAME is offered
	local file=$1 before=$2 got w missing=""
	shift 2
	# shellcheck disable=SC2086 # the words before, one per word
	got=$(offered "$file" $before) || { echo "completion failed to load"; return 1; }
	for w in "$@"; do
		grep -qx -- "$w" <<<"$got" || missing+=" $w"
	done
	[ -z "$missing" ] || { echo "'measctl $before' does not offer:$missing"; return 1; }
}

# The Synopsis of the page: its lines up to the next section's title.
synopsis() { # synopsis FILE
	awk '/^Synopsis$/ { on = 1; next } on && /^[A-Za-z].*/ && prev == "" && NR > 1 { exit }
	     on { print } { prev = $0 }' "$1"
}

in_page() { # in_page FILE COMMAND...: a Synopsis line for each
	local file=$1 c missing=""
	shift
	for c in "$@"; do
		synopsis "$file" | grep -qE "^  measctl $c( |$)" || missing+=" $c"
	done
	[ -z "$missing" ] || { echo "no 'measctl COMMAND' line in the Synopsis of $file for:$missing"; return 1; }
}

subs_in_page() { # subs_in_page FILE GROUP SUB...: an entry for each
	local file=$1 g=$2 s missing=""
	shift 2
	for s in "$@"; do
		grep -qE "^\`\`measctl $g $s( |\`\`)" "$file" || missing+=" $s"
	done
	[ -z "$missing" ] || { echo "no entry '\`\`measctl $g SUB' in $file for:$missing"; return 1; }
}

same_as_table() { # the list measctl prints is commands.h's
	local table
	table=$(sed -n 's/^MEASCTL_COMMAND(\([a-z][a-z-]*\))$/\1/p' "$top/tools/measctl/commands.h")
	[ -n "$commands" ] || { echo "measctl --help lists no command"; return 1; }
	[ "$commands" = "$table" ] || {
		echo "measctl --help lists: $(tr '\n' ' ' <<<"$commands")"
		echo "commands.h lists:     $(tr '\n' ' ' <<<"$table")"
		return 1
	}
}

# shellcheck disable=SC2086,SC2046 # one command per word
{
ok "measctl --help lists the commands of commands.h, in its order" same_as_table
ok "completion offers every command after 'measctl '" offers "$completion" "" $commands
ok "completion offers every command after 'measctl help '" offers "$completion" help $commands
for g in $groups; do
	ok "completion offers every subcommand after 'measctl $g '" \
		offers "$completion" "$g" $(subs_of "$g")
done
ok "the Synopsis of measctl(8) names every command" in_page "$page" $commands
for g in $groups; do
	ok "measctl(8) has an entry for every subcommand of $g" \
		subs_in_page "$page" "$g" $(subs_of "$g")
done

# The negative self-checks: a command (the middle one) and a group's
# last subcommand taken out of copies, and a command that is in neither.
victim=$(awk '{ w[NR] = $0 } END { print w[int((NR + 1) / 2)] }' <<<"$commands")
sed -E "s/(^|[^a-z-])$victim([^a-z-]|$)/\\1\\2/g" "$completion" >"$tmp/completion"
grep -vE "^  measctl $victim( |$)" "$page" >"$tmp/page.rst"
# shellcheck disable=SC2016 # the script's own arguments
ok "(self-check) the copies differ from the originals" \
	bash -c '! cmp -s "$1" "$2" && ! cmp -s "$3" "$4"' bash \
	"$completion" "$tmp/completion" "$page" "$tmp/page.rst"
fails "(self-check) completion without '$victim' fails" \
	offers "$tmp/completion" "" $commands
fails "(self-check) a page without '$victim' in its Synopsis fails" \
	in_page "$tmp/page.rst" $commands
fails "(self-check) a command in neither fails the completion check" \
	offers "$completion" "" $commands nosuchcommand
fails "(self-check) a command in neither fails the page check" \
	in_page "$page" $commands nosuchcommand
for g in $groups; do
	last=$(subs_of "$g" | tail -n 1)
	sed -E "s/(^|[^a-z-])$last([^a-z-]|$)/\\1\\2/g" "$completion" >"$tmp/completion-$g"
	grep -vE "^\`\`measctl $g $last( |\`\`)" "$page" >"$tmp/page-$g.rst"
	fails "(self-check) completion without '$g $last' fails" \
		offers "$tmp/completion-$g" "$g" $(subs_of "$g")
	fails "(self-check) a page without '$g $last' fails" \
		subs_in_page "$tmp/page-$g.rst" "$g" $(subs_of "$g")
done
}
echo "1..$n"
[ "$fails" -eq 0 ]
