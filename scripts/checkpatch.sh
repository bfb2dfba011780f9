#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch --strict on the module and uapi sources (every uapi header), with checkpatch.pl
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

# The tools are user space: the kernel's own attribute macros (__printf,
# __noreturn) do not exist there, libc and ELF names are CamelCase
# (PRIu64, Elf64_Ehdr), a signal flag is volatile sig_atomic_t, and user
# messages are long strings split for the source.  Those types, and only
# those, are ignored for tools/; everything else is held to the kernel's
# rules.  syscall_names.h is generated (gen_syscalls.sh).  tools/exporter
# is not covered yet: its findings are left to its owner.
"$dir/scripts/checkpatch.pl" --strict --no-tree --show-types --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
	--ignore PREFER_DEFINED_ATTRIBUTE_MACRO,CAMELCASE,VOLATILE \
	--ignore SPLIT_STRING,LONG_LINE_STRING -f \
	$(find tools/lib tools/measctl -name "*.[ch]" ! -name syscall_names.h | sort)
