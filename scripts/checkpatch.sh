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
