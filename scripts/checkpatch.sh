#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch --strict on the module, the uapi headers and the tools, with checkpatch.pl
# taken from Debian's linux-source tarball (extracted once into build/).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir="$top/build/checkpatch"
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort | tail -n 1)
[ -n "$tarball" ] || { echo "linux-source tarball missing: run 'make deps'" >&2; exit 1; }
if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
		'linux-source-*/scripts/checkpatch.pl' \
		'linux-source-*/scripts/spelling.txt' \
		'linux-source-*/scripts/const_structs.checkpatch'
fi
cd "$top"
"$dir/scripts/checkpatch.pl" --strict --no-tree --show-types --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f \
	$(find module -name "*.[ch]" ! -name "*.mod.c" | sort) \
	uapi/linux/meas*.h

# The tools are user space.  Every finding fails, except those listed one
# by one in checkpatch-tools.allow (libc and ELF names, the attribute
# macros user space has to define itself, a signal flag, messages kept
# whole); syscall_names.h is generated (gen_syscalls.sh).
found=$("$dir/scripts/checkpatch.pl" --strict --no-tree --show-types --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f \
	$(find tools -name "*.[ch]" ! -name syscall_names.h | sort) |
	grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' || true)
left=$(printf '%s\n' "$found" | awk -F'\t+' '
	BEGIN { n = 0 }
	NR == FNR {
		if ($0 !~ /^#/ && NF == 3) { path[n] = $1; type[n] = $2; text[n++] = $3 }
		next
	}
	$0 == "" { next }
	{
		file = $0; sub(/:.*/, "", file)
		t = $0; sub(/^[^ ]+ [A-Z]+:/, "", t); msg = t; sub(/:.*/, "", t)
		sub(/^[^:]+: /, "", msg)
		for (i = 0; i < n; i++)
			if (file ~ path[i] && t == type[i] && msg ~ text[i])
				next
		print
	}' "$top/scripts/checkpatch-tools.allow" -)
if [ -n "$left" ]; then
	printf '%s\n' "$left"
	exit 1
fi
