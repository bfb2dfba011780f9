# SPDX-License-Identifier: GPL-2.0
#
# meas: build the module and the tools, install dependencies, test.
#
#   make            module/meas.ko and the tools (W=1)
#   make deps       install the Debian packages build, run and test need
#   make deps-matrix and Debian 12's kernels of the test matrix (the others are
#                   in build roots, scripts/root.sh)
#   make build-matrix build meas.ko for each kernel of the matrix (W=1, sparse)
#   make check-matrix and test it in each kernel of the matrix (Debian 12's,
#                   Debian 13's, its backports' and sid's, amd64 and arm64,
#                   scripts/kernels.sh): the whole suite or the smoke set, a
#                   summary table
#   make check-next the newest kernel in Debian's archive today, amd64's and
#                   arm64's, each built in its root and booted with the
#                   smoke set (not part of make check)
#   make check      unit tests on the host, selftests in the test VM (the
#                   test build, MEAS_TEST=1), check-shipped, pkgtest,
#                   check-matrix
#   make MEAS_TEST=1 the test build: meas.ko with its fault-injection
#                   parameters (module/core/inject.c), which the VM tests use
#   make check-shipped the default build, as packages ship it, made apart:
#                   its modinfo has the version and no test hook
#   make check-prometheus meas-exporter scraped by a real Prometheus (part
#                   of make check; needs make all first)
#   make check-pcp  pmdameas with Debian's PCP in the VM: pmcd, pminfo,
#                   pmlogger, pmrep, the kill test (part of make check)
#   make check-cgroups systemd services and a podman container in the VM
#                   booted with systemd, against cpu.stat and io.stat
#                   (part of make check)
#   make check-arm64 the kernel matrix's arm64 lanes alone (not yet in
#                   make check: its budget); PKGTEST_ARM64=1: and
#                   pkgtest-arm64
#   make check-debug the VM selftests in the debug kernel (KASAN, lockdep,
#                   kmemleak, UBSAN); not run by CI: before landing module/;
#                   KERNEL=7.3: in Debian 13's 7.3, with DEBUG_PREEMPT and
#                   full preemption
#   make check-kcsan the hot-path tests, stress and storms in a KCSAN kernel
#                   (7.3); not run by CI: before landing module/
#   make demo       load meas (here or in the VM) and report class 0
#   make check-insn the instruction counter of make bench counts exactly,
#                   x86-64 and arm64 (host only, seconds; part of make check)
#   make bench      the benchmarks in the VM: time ratios and instructions
#                   per event (Documentation/performance.rst)
#   make bench-arm64 the instructions per event in Debian 12's 6.1 arm64,
#                   beside the arm64 libbpf-tools
#   make sparse     sparse on every file of the module (C=2)
#   make checkpatch checkpatch --strict on the kernel sources, the uapi and
#                   the tools (lib, measctl, exporter; see
#                   scripts/checkpatch-tools.allow)
#   make man        the man pages measctl(8) and meas(4), from Documentation/
#   make deb        the Debian packages meas-dkms, measctl, libmeas-dev,
#                   meas-exporter, meas-pcp
#   make install    the tools, library, headers, man pages, completion,
#                   udev rule and DKMS sources (DESTDIR, PREFIX; see
#                   Documentation/install.rst); make uninstall removes them
#   make deb-arm64  the arm64 packages, built natively in an overlay of the
#                   arm64 test root (Debian 12), into build/arm64/deb
#   make pkgtest    the packages installed as a user does, in a throw-away
#                   root, DKMS, and the module and tool in the test VM
#   make pkgtest-arm64 the same for the arm64 packages on Debian 12 arm64,
#                   booted in qemu-system-aarch64 (not part of make check)

# The kernel to build for and to boot in the test VM (see "Choosing the
# kernel" in Documentation/build-and-test.rst):
#   make KVER=6.12.117+deb12-amd64 ...   an installed kernel, by version
#   make KDIR=/path/to/build ...         a kernel build tree
# Default: the running kernel if its headers are installed, otherwise
# Debian's default kernel, the one the linux-headers-amd64 package
# depends on; never "the newest installed".
ifeq ($(origin KDIR),undefined)
ifeq ($(KVER),)
KVER := $(shell scripts/kver.sh)
endif
KDIR := /lib/modules/$(KVER)/build
else ifeq ($(KVER),)
KVER := $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
endif
# Not passed on while unknown: make check's sub-makes choose again after
# make deps has installed the headers.
ifneq ($(KVER),)
export KDIR KVER
endif

BUILD ?= $(CURDIR)/build
export BUILD

# MEAS_TEST=1: the test build, with the fault-injection parameters the
# selftests use (module/core/inject.c); make check and make check-debug set
# it.  The default build, the one packages ship, has none.
MEAS_TEST ?=
MEAS_TEST_FLAG = $(if $(filter 1,$(MEAS_TEST)),MEAS_TEST=1)

.PHONY: all module tools deps deps-debug deps-matrix build-matrix check check-host check-guests check-kernels check-matrix check-next check-debug check-kcsan check-pictures check-cgroups check-cgroups-newest check-arm64 check-shipped check-insn unit vmtest \
	demo bench bench-arm64 sparse checkpatch clean man deb deb-trixie deb-arm64 install uninstall pkgtest \
	pkgtest-bookworm pkgtest-trixie pkgtest-arm64 check-install \
	check-version check-prometheus check-pcp

all: module tools

KDIR_CHECK = @test -n "$(KVER)" -a -d "$(KDIR)" || \
	{ echo "no kernel build directory '$(KDIR)' for '$(KVER)': run 'make deps' or set KVER=" >&2; exit 1; }

# Objects built for another kernel are removed first: Kbuild would not
# notice a change of flavour of the same version.  Only module/'s (Kbuild's
# clean would also delete every object and .ko under build/ and tools/).
module:
	$(KDIR_CHECK)
	@mkdir -p $(BUILD); test "$$(cat $(BUILD)/module.kdir 2>/dev/null)" = "$(KDIR)" || \
		{ find module \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
			-o -name '.*.cmd' -o -name '*.o.d' -o -name modules.order \) -delete; \
		rm -f Module.symvers modules.order; echo "$(KDIR)" >$(BUILD)/module.kdir; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 $(MEAS_TEST_FLAG) modules

tools:
	$(MAKE) -C tools

deps:
	scripts/deps.sh

# deps and what building the debug kernel needs (flex, bison, libelf, libssl)
deps-debug:
	scripts/deps.sh debug

# deps and the kernels of the test matrix (images and headers)
deps-matrix:
	scripts/deps.sh matrix

# The kernels of the matrix, found at run time from the suites'
# metapackages (scripts/kernels.sh: Debian 12's 6.1 and 6.12, generic,
# cloud, rt, on this machine; Debian 13's 6.12 and the backports' newest,
# generic, cloud and rt, in the trixie build root; sid's in the sid root;
# and the arm64 generic kernel of each, cross-built),
# one "RELEASE ROOT VERSION FLAVOUR LANE ARCH" line each, in $(MATRIX)/kernels.
MATRIX := $(BUILD)/matrix
# The matrix's architectures, for scripts/kernels.sh and the targets
# below: both (build-and-test.rst, "The kernel matrix");
# MEAS_MATRIX_ARCHS=amd64 for amd64's lanes alone; make check-arm64
# runs arm64's lanes alone.
MEAS_MATRIX_ARCHS ?= amd64 arm64
export MEAS_MATRIX_ARCHS
matrix_kernels = mkdir -p $(MATRIX) && scripts/kernels.sh >$(MATRIX)/kernels.new && \
	mv $(MATRIX)/kernels.new $(MATRIX)/kernels

# The arm64 test root (two minutes on a new machine: the packages
# unpacked, scripts/arm64-root.sh): when the matrix has arm64 lanes, it
# starts in the background before the build roots are made,
# and matrix.sh's arm64 lanes wait for it (scripts/arm64-root.sh works
# under a lock; its log: build/arm64/root-early.log).
arm64_root_early = $(if $(filter arm64,$(MEAS_MATRIX_ARCHS)), \
	mkdir -p $(BUILD)/arm64 && { scripts/arm64-root.sh </dev/null \
		>$(BUILD)/arm64/root-early.log 2>&1 & })

# meas.ko and the example for each, in $(MATRIX)/<version>, W=1 and
# sparse, in its build root for the roots' kernels; the test build
# (MEAS_TEST=1), which the VM tests load and which has all the code of
# the default one
build-matrix: deps-matrix
	$(matrix_kernels)
	set -e; while read -r rel root k flav lane arch; do \
		r=; [ "$$root" = - ] || r="--root $(BUILD)/roots/$$root"; \
		MAKE="$(MAKE)" scripts/build-kernel.sh $$r --arch $$arch $$k $(MATRIX)/$$k MEAS_TEST=1; \
	done <$(MATRIX)/kernels

# The matrix in the VM: each kernel built (build-matrix's way) and tested,
# the whole suite or the smoke set (selftests/vm/matrix.sh), and a table.
# matrix.sh makes the list itself (MATRIX_LIST=1), so that Debian 12's
# kernels build and run while the build roots are made.
check-matrix: deps-matrix tools
	$(arm64_root_early)
	$(MAKE) -C selftests vmtest-matrix MATRIX_DIR=$(MATRIX) MATRIX_KERNELS=$(MATRIX)/kernels \
		MATRIX_LIST=1
	$(MAKE) check-cgroups-newest

# make check-cgroups in the backports' newest generic kernel, with the
# matrix's build of meas.ko for it (so after check-matrix, in its stream)
check-cgroups-newest:
	set -e; k=$$(awk '$$1 == "trixie-backports" && $$4 == "generic" && $$6 != "arm64" { v = $$3 } END { print v }' \
		$(MATRIX)/kernels); \
	test -n "$$k" || { echo "check-cgroups-newest: no trixie-backports amd64 kernel in $(MATRIX)/kernels" >&2; exit 1; }; \
	$(MAKE) -C selftests check-cgroups CGR_KERNEL=$$k CGR_KO=$(MATRIX)/$$k/module/meas.ko

# The matrix's arm64 lanes alone (Documentation/build-and-test.rst, "The
# arm64 lanes"), in their own directory, for a change to the module or
# to the arm64 scripts; PKGTEST_ARM64=1: and the arm64 install test
# (make pkgtest-arm64).
MATRIX_ARM64 := $(BUILD)/matrix-arm64
check-arm64: MEAS_MATRIX_ARCHS = arm64
check-arm64: deps-matrix tools
	$(arm64_root_early)
	rc=0; $(MAKE) -C selftests vmtest-matrix MATRIX_DIR=$(MATRIX_ARM64) \
		MATRIX_KERNELS=$(MATRIX_ARM64)/kernels MATRIX_LIST=1 || rc=1; \
	if [ "$(PKGTEST_ARM64)" = 1 ]; then $(MAKE) pkgtest-arm64 || rc=1; fi; \
	exit $$rc

# The next kernels: the newest generic kernel in Debian's archive today
# for each architecture (trixie-backports, sid or experimental; amd64's
# found by scripts/root.sh --next and installed in its build root,
# arm64's by scripts/arm64-apt.sh next and unpacked), built in that root
# with its release's compiler and booted with the smoke set.  Not part
# of make check: an upload to the archive must never turn an unrelated
# change red.
NEXT := $(BUILD)/next
check-next: deps tools
	mkdir -p $(NEXT) && scripts/root.sh --next >$(NEXT)/kernels.new && \
		scripts/arm64-apt.sh next >>$(NEXT)/kernels.new && \
		mv $(NEXT)/kernels.new $(NEXT)/kernels
	@while read -r rel root k flav lane arch; do \
		echo "check-next: the newest $${arch:-amd64} kernel in Debian's archive is $$k ($$rel)"; \
	done <$(NEXT)/kernels
	$(MAKE) -C selftests vmtest-matrix MATRIX_DIR=$(NEXT) MATRIX_KERNELS=$(NEXT)/kernels

unit:
	$(MAKE) -C selftests unit

# the instruction counter of make bench (Documentation/performance.rst)
check-insn:
	$(MAKE) -C selftests insn-check

vmtest: all
	$(MAKE) -C selftests vmtest

# The VM tests need the test build's fault injection (MEAS_TEST=1); the
# build packages ship is checked apart (check-shipped).
vmtest: MEAS_TEST = 1

# make check: the build, then three streams side by side: the host's
# checks (check-host), the guests of the default kernel (the VM suite,
# Prometheus, PCP, pictures, Debian 12's install test) and the kernels
# (the matrix, then Debian 13's install test).  run-vm.sh keeps the
# machine's guests at one per CPU (MEAS_VM_SLOTS), taken in the order
# asked for (one more per CPU thinned a guest's timer samples enough to
# fail task_test's sampling test).  Each stream's output
# goes to its log as it runs (tail -f build/check-*.log) and is printed
# whole when the stream ends; a failed stream fails make check once all
# have ended.  The matrix table comes last, and when anything failed,
# the lines that say what (scripts/failures.sh).
check: deps-matrix
	$(MAKE) MEAS_TEST=1 all
	$(MAKE) -C selftests vmtest-bins # once, before the streams use them
	@rc=0; $(MAKE) -j3 -k check-stream-host check-stream-guests check-stream-kernels || rc=$$?; \
	$(MAKE) --no-print-directory -C selftests vmtest-matrix-table \
		MATRIX_DIR=$(MATRIX) MATRIX_KERNELS=$(MATRIX)/kernels || rc=1; \
	[ $$rc = 0 ] || scripts/failures.sh $(BUILD)/check-host.log $(BUILD)/check-guests.log \
		$(BUILD)/check-kernels.log; \
	exit $$rc

# The host's checks, a stream of their own beside the guests and the
# kernels: the kernels' stream makes its build roots and builds while
# these run, instead of after them (they took the first four minutes of
# a fresh make check with a CPU idle; their guests, check-insn's and
# vm-harness-check's, take a slot like any other).
check-host:
	$(MAKE) check-version
	$(MAKE) unit
	$(MAKE) check-insn
	$(MAKE) -C selftests vm-harness-check
	$(MAKE) check-shipped

check-guests:
	$(MAKE) MEAS_TEST=1 vmtest
	$(MAKE) check-prometheus
	$(MAKE) check-pcp
	$(MAKE) check-cgroups
	$(MAKE) MEAS_TEST=1 check-pictures
	$(MAKE) pkgtest-bookworm

# Debian 13's install test ends the kernels' stream, which would end
# first without it: in the fresh run of 30 November with both
# architectures the kernels' stream ended at 48 minutes, the guests' (with
# this test at its end) at 61.
check-kernels:
	rc=0; $(MAKE) check-matrix || rc=1; \
	$(MAKE) pkgtest-trixie || rc=1; exit $$rc

# One stream of make check, its output in build/check-STREAM.log, printed
# whole at its end (one stream's at a time).
check-stream-%:
	@mkdir -p $(BUILD); echo "check: $* started at $$(date +%T), its log: $(BUILD)/check-$*.log"
	@rc=0; $(MAKE) check-$* >$(BUILD)/check-$*.log 2>&1 || rc=$$?; \
	end=$$(date +%T); flock $(BUILD)/check-output.lock cat $(BUILD)/check-$*.log; \
	echo "check: $* ended at $$end, status $$rc"; exit $$rc

# meas-exporter in the test VM scraped by a real Prometheus on the host,
# with the meas.ko and tools already built (about 2 minutes)
check-prometheus:
	$(MAKE) -C selftests check-prometheus

# pmdameas with Debian's PCP in the test VM (Documentation/pcp.rst), with
# the meas.ko and tools already built (about 7 minutes under TCG)
check-pcp:
	$(MAKE) -C selftests check-pcp

# The cgroups of meas with real parts: systemd services and a podman
# container in the test VM booted with systemd, against cpu.stat and
# io.stat (selftests/cgroup_real.sh; Documentation/cgroup.rst).  About
# three minutes.
check-cgroups: all
	$(MAKE) -C selftests check-cgroups

check-cgroups: MEAS_TEST = 1

# The pictures (Documentation/pictures.rst): made by measctl in the test VM,
# then loaded in headless Chromium on the host; screenshots in
# build/pictures/.  About two minutes.
check-pictures: all
	$(MAKE) -C selftests pictures

check-pictures: MEAS_TEST = 1

# A copy of the module's sources in $(1), for a build apart from module/'s.
define copy_sources
mkdir -p $(1); \
tar -cf - --exclude='.*' --exclude='*.o' --exclude='*.o.d' \
	--exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=modules.order --exclude=Module.symvers \
	VERSION Kbuild module uapi | tar -xf - -C $(1)
endef

# The build packages ship (no MEAS_TEST), made from a fresh copy in
# $(BUILD)/shipped-src: its modinfo has the version and no test hook.
SHIPPED_SRC := $(BUILD)/shipped-src

check-shipped:
	$(KDIR_CHECK)
	set -e; rm -rf $(SHIPPED_SRC); $(call copy_sources,$(SHIPPED_SRC)); \
	$(MAKE) -C $(KDIR) M=$(SHIPPED_SRC) W=1 MEAS_TEST= modules
	selftests/shipped_test.sh $(SHIPPED_SRC)/module/meas.ko | tee $(BUILD)/shipped.tap
	@selftests/tap-summary.sh shipped $(BUILD)/shipped.tap

# The debug lane: meas.ko and the example built against the debug kernel
# (selftests/debug-kernel/build.sh, cached) from a copy of the sources in
# $(BUILD)/debug-src, so the objects of the normal build stay as they are.
# KERNEL chooses the kernel: empty (the default) for Debian 12's 6.1,
# built here; 7.3 (or another linux-source of Debian 13 and its
# backports) for that one, built in the trixie root with full preemption,
# and meas.ko with it (selftests/debug-kernel/kmake.sh).
KERNEL ?=
DEBUG_LANE := $(if $(KERNEL),-$(KERNEL))
DEBUG_SRC := $(BUILD)/debug-src$(DEBUG_LANE)

check-debug: deps-debug tools
	set -e; kdir=$$(selftests/debug-kernel/build.sh $(if $(KERNEL),--source $(KERNEL))); \
	$(call copy_sources,$(DEBUG_SRC)); \
	MAKE="$(MAKE)" selftests/debug-kernel/kmake.sh $$kdir M=$(DEBUG_SRC) W=1 MEAS_TEST=1 modules; \
	$(MAKE) -C selftests vmtest-debug DEBUG_KDIR=$$kdir DEBUG_SRC=$(DEBUG_SRC) \
		DEBUG_LANE=$(DEBUG_LANE)

# The KCSAN lane: the same, in the KCSAN kernel of KERNEL (default 7.3;
# build.sh --kcsan), with the hot-path tests, the stress and the
# time-items storms (selftests/debug-kernel/kcsan-run.sh); it ends with
# the number of KCSAN reports in meas, which must be 0.
KCSAN_KERNEL := $(or $(KERNEL),7.3)
KCSAN_SRC := $(BUILD)/kcsan-src-$(KCSAN_KERNEL)

check-kcsan: deps-debug tools
	set -e; kdir=$$(selftests/debug-kernel/build.sh --source $(KCSAN_KERNEL) --kcsan); \
	$(call copy_sources,$(KCSAN_SRC)); \
	MAKE="$(MAKE)" selftests/debug-kernel/kmake.sh $$kdir M=$(KCSAN_SRC) W=1 MEAS_TEST=1 modules; \
	$(MAKE) -C selftests vmtest-kcsan DEBUG_KDIR=$$kdir DEBUG_SRC=$(KCSAN_SRC)

demo: deps
	$(MAKE) all
	scripts/demo.sh

bench: deps
	$(MAKE) all
	$(MAKE) -C selftests bench

# the instruction count on arm64, beside the arm64 peers (no module build
# here: the script cross-builds it)
bench-arm64: deps
	$(MAKE) -C selftests bench-arm64

# on the test build, which has all the code of the default one
sparse:
	$(KDIR_CHECK)
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 MEAS_TEST=1 modules

checkpatch:
	scripts/checkpatch.sh

include scripts/install.mk

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	$(MAKE) -C tools clean
	$(MAKE) -C selftests clean
	rm -rf $(BUILD)
