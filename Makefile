# SPDX-License-Identifier: GPL-2.0
#
# meas: build the module and the tools, install dependencies, test.
#
#   make            module/meas.ko and the tools (W=1)
#   make deps       install the Debian packages build, run and test need
#   make check      unit tests on the host, selftests in the test VM (the
#                   test build, MEAS_TEST=1), check-shipped
#   make MEAS_TEST=1 the test build: meas.ko with its fault-injection
#                   parameters (module/core/inject.c), which the VM tests use
#   make check-shipped the default build, as packages ship it, made apart:
#                   its modinfo has the version and no test hook
#   make check-debug the VM selftests in the debug kernel (KASAN, lockdep,
#                   kmemleak, UBSAN); not run by CI: before landing module/
#   make demo       load meas (here or in the VM) and report class 0
#   make bench      context-switch benchmark in the VM
#   make sparse     sparse on every file of the module (C=2)
#   make checkpatch checkpatch --strict on the kernel sources

KVER_RUNNING := $(shell uname -r)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER_RUNNING)/build) \
	$(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1))
export KDIR
# The test VM boots the kernel meas.ko was built for.
export KVER = $(shell modinfo -F vermagic module/meas.ko 2>/dev/null | cut -d' ' -f1)

BUILD ?= $(CURDIR)/build
export BUILD

# MEAS_TEST=1: the test build, with the fault-injection parameters the
# selftests use (module/core/inject.c); make check and make check-debug set
# it.  The default build, the one packages ship, has none.
MEAS_TEST ?=
MEAS_TEST_FLAG = $(if $(filter 1,$(MEAS_TEST)),MEAS_TEST=1)

.PHONY: all module tools deps deps-debug check check-debug check-shipped unit vmtest \
	demo bench sparse checkpatch clean

all: module tools

module:
	@test -n "$(KDIR)" || { echo "no kernel build directory: run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 $(MEAS_TEST_FLAG) modules

tools:
	$(MAKE) -C tools

deps:
	scripts/deps.sh

# deps and what building the debug kernel needs (flex, bison, libelf, libssl)
deps-debug:
	scripts/deps.sh debug

unit:
	$(MAKE) -C selftests unit

vmtest: all
	$(MAKE) -C selftests vmtest

# The VM tests need the test build's fault injection (MEAS_TEST=1); the
# build packages ship is checked apart (check-shipped).
vmtest: MEAS_TEST = 1

check: deps
	$(MAKE) MEAS_TEST=1 all
	$(MAKE) unit
	$(MAKE) check-shipped
	$(MAKE) MEAS_TEST=1 vmtest

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
	@test -n "$(KDIR)" || { echo "no kernel build directory: run 'make deps'" >&2; exit 1; }
	set -e; rm -rf $(SHIPPED_SRC); $(call copy_sources,$(SHIPPED_SRC)); \
	$(MAKE) -C $(KDIR) M=$(SHIPPED_SRC) W=1 MEAS_TEST= modules
	selftests/shipped_test.sh $(SHIPPED_SRC)/module/meas.ko | tee $(BUILD)/shipped.tap
	@selftests/tap-summary.sh shipped $(BUILD)/shipped.tap

# The debug lane: meas.ko and the example built against the debug kernel
# (selftests/debug-kernel/build.sh, cached) from a copy of the sources in
# $(BUILD)/debug-src, so the objects of the normal build stay as they are.
DEBUG_SRC := $(BUILD)/debug-src

check-debug: deps-debug tools
	set -e; kdir=$$(selftests/debug-kernel/build.sh); \
	$(call copy_sources,$(DEBUG_SRC)); \
	$(MAKE) -C $$kdir M=$(DEBUG_SRC) W=1 MEAS_TEST=1 modules; \
	$(MAKE) -C selftests vmtest-debug DEBUG_KDIR=$$kdir DEBUG_SRC=$(DEBUG_SRC)

demo: deps
	$(MAKE) all
	scripts/demo.sh

bench: deps
	$(MAKE) all
	$(MAKE) -C selftests bench

sparse:
	@test -n "$(KDIR)" || { echo "no kernel build directory: run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules

checkpatch:
	scripts/checkpatch.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	$(MAKE) -C tools clean
	$(MAKE) -C selftests clean
	rm -rf $(BUILD)
