#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# MEAS_TP_PROTO() (module/core/tp.h) fails the build of a probe whose
# prototype is not the one the kernel declares for its tracepoint, and
# MEAS_TP() one without its MEAS_TP_PROTO(): a tiny module built three
# ways against the kernel make builds for.  TAP; part of make unit.
#   selftests/unit/tpcheck_test.sh KDIR OUTDIR
set -u
kdir=${1:?usage: tpcheck_test.sh KDIR OUTDIR}
out=${2:?usage: tpcheck_test.sh KDIR OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
rm -rf "$out"
mkdir -p "$out"
cat >"$out/tpcheck.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/sched.h>
#include <trace/events/sched.h>
#include "core/tp.h"

#ifdef WRONG
static void probe(void *data, struct task_struct *p, long dest_cpu) { }
#else
static void probe(void *data, struct task_struct *p, int dest_cpu) { }
#endif
#ifndef UNCHECKED
MEAS_TP_PROTO(sched_migrate_task, probe);
#endif
static struct meas_tp tps[] __used = {
	MEAS_TP(sched_migrate_task, probe, false),
};
MODULE_LICENSE("GPL");
C
# shellcheck disable=SC2016 # $(TPCHECK) is Kbuild's, not the shell's
printf 'obj-m := tpcheck.o\nccflags-y += -I%s/module -I%s/uapi $(TPCHECK)\n' \
	"$top" "$top" >"$out/Kbuild"

build() { # build FLAGS: 0 if the module built
	make -s -C "$kdir" M="$out" TPCHECK="$1" modules >"$out/log" 2>&1
}
echo "TAP version 13"
echo "1..3"
if build ""; then echo "ok 1 - tpcheck: the kernel's prototype builds"
else echo "not ok 1 - tpcheck: the kernel's prototype builds"; sed 's/^/# /' "$out/log"; fi
if ! build -DWRONG && grep -q 'register_trace_sched_migrate_task' "$out/log"; then
	echo "ok 2 - tpcheck: another prototype fails the build, naming the tracepoint"
else
	echo "not ok 2 - tpcheck: another prototype fails the build, naming the tracepoint"
fi
if ! build -DUNCHECKED && grep -q 'meas_tp_proto_sched_migrate_task_probe' "$out/log"; then
	echo "ok 3 - tpcheck: an entry without its MEAS_TP_PROTO() fails the build"
else
	echo "not ok 3 - tpcheck: an entry without its MEAS_TP_PROTO() fails the build"
fi
