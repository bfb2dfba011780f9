#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The contract of build.sh that make check-debug relies on: on a fresh
# cache, and again once it is cached, standard output is the kernel
# directory alone, whatever the kernel's tools print; a failed build prints
# nothing there and is not cached.  The kernel is a stub: a tarball whose
# Makefile and merge_config.sh print on stdout and stderr as the real
# configuration tools do (the cause of the first-run failure of issue 19),
# so the test takes a second, not the 15 minutes of the real build.
# dpkg-query is a stub too: the build packages need not be installed.
# TAP on stdout.  Run by make unit.
#   selftests/debug-kernel/build_test.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
TAP_PREFIX=debug-kernel/build.sh
. "$here/../measctl/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- the stub kernel source tree ---------------------------------------
tree=$work/linux-source-9.9
mkdir -p "$tree/scripts/kconfig" "$work/bin"
opts="KASAN PROVE_LOCKING DEBUG_KMEMLEAK UBSAN DEBUG_LIST 9P_FS FUSE_FS CHECKPOINT_RESTORE DETECT_HUNG_TASK FAILSLAB FAULT_INJECTION_DEBUG_FS"
{
	printf 'defconfig:\n'
	printf '\t@echo "#"; echo "# configuration written to .config"; echo "#"\n'
	printf '\t@echo "warning: stub kernel" >&2\n'
	printf '\t@: >.config; for o in %s; do echo "CONFIG_$$o=y" >>.config; done\n' "$opts"
	printf '%%.config:\n\t@echo "Using .config as base"; echo "Merging $@"\n'
	printf 'olddefconfig:\n\t@echo "#"; echo "# configuration written to .config"; echo "#"\n'
	printf 'bzImage modules:\n'
	printf '\t@test -z "$(STUB_FAIL)" || { echo "stub: $@ failed" >&2; exit 2; }\n'
	printf '\t@echo "Kernel: arch/x86/boot/bzImage is ready  (#1)"\n'
	printf '\t@mkdir -p arch/x86/boot include/config\n'
	printf '\t@echo 9.9.0-stub >include/config/kernel.release; : >arch/x86/boot/bzImage\n'
	printf 'modules_install:\n'
	printf '\t@echo "  DEPMOD  9.9.0-stub"; mkdir -p $(INSTALL_MOD_PATH)/lib/modules/9.9.0-stub\n'
} >"$tree/Makefile"
printf '#!/bin/sh\necho "Using $2 as base"; echo "Merging $3"\n' \
	>"$tree/scripts/kconfig/merge_config.sh"
chmod +x "$tree/scripts/kconfig/merge_config.sh"
tar -cJf "$work/linux-source-9.9.tar.xz" -C "$work" linux-source-9.9
printf '#!/bin/sh\necho "install ok installed"\n' >"$work/bin/dpkg-query"
chmod +x "$work/bin/dpkg-query"

# run build.sh on the stub: stdout to $work/out, stderr to $work/err
build() {
	env PATH="$work/bin:$PATH" LINUX_SRC_TAR="$work/linux-source-9.9.tar.xz" \
		MEAS_DEBUG_CACHE="$work/cache" "$@" \
		"$here/build.sh" >"$work/out" 2>"$work/err"
}

echo "TAP version 13"
echo "1..10"

# ---- a failed build: nothing on stdout, nothing cached ------------------
build STUB_FAIL=1
rc=$?
[ $rc -ne 0 ] && [ ! -s "$work/out" ]
ok $? "a failed build exits $rc and prints nothing on stdout"
ls "$work"/cache/debug-kernel-*/.done >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "a failed build is not cached"

# ---- a build stopped after its configuration resumes -------------------
# what the stopped build had made is kept: make redoes only what is missing
part=$(ls -d "$work"/cache/debug-kernel-* 2>/dev/null | head -n 1)
[ -n "$part" ] && [ -f "$part/.configured" ] && : >"$part/src/made-before.o"
ok $? "a build that failed after configuring is marked configured"
build
rc=$?
[ $rc -eq 0 ] && [ -f "$part/src/made-before.o" ] && [ -f "$part/.done" ] &&
	grep -q "resuming the build" "$work/err"
ok $? "the next run resumes it (exit $rc) and keeps what was made"

# ---- the first run, on a fresh cache -----------------------------------
rm -rf "$work/cache"
build
ok $? "the first run succeeds"
dir=$(cat "$work/out")
[ "$(wc -l <"$work/out")" -eq 1 ] && case $dir in
	"$work"/cache/debug-kernel-*/src) true ;; *) false ;; esac
ok $? "the first run prints one line, the directory ($(head -c 200 "$work/out" | tr '\n' '|'))"
[ -f "$dir/.config" ] && [ -f "$dir/arch/x86/boot/bzImage" ] &&
	[ -d "$dir/../root/lib/modules/9.9.0-stub" ]
ok $? "the directory holds the configured, built and installed kernel"
grep -q "configuration written to .config" "$work/err" &&
	grep -q "bzImage is ready" "$work/err"
ok $? "the tools' messages went to stderr"

# ---- the second run, cached --------------------------------------------
build
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = "$dir" ] && [ ! -s "$work/err" ]
ok $? "the cached run prints the same directory and nothing else"

# ---- what make check-debug does with it ---------------------------------
kdir=$(build && cat "$work/out") && [ -d "$kdir" ] &&
	[ "$(cat "$kdir/include/config/kernel.release")" = 9.9.0-stub ]
ok $? "kdir=\$(build.sh) is a usable kernel directory"
exit $status
