# SPDX-License-Identifier: GPL-2.0
#
# meas: build the module and the tools, install dependencies, test.
#
#   make            module/meas.ko and the tools (W=1)
#   make deps       install the Debian packages build, run and test need
#   make check      unit tests on the host, selftests in the test VM
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

.PHONY: all module tools deps deps-debug check check-debug unit vmtest demo bench sparse \
	checkpatch clean

all: module tools

module:
	@test -n "$(KDIR)" || { echo "no kernel build directory: run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

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

check: deps
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) vmtest

# The debug lane: meas.ko and the example built against the debug kernel
# (selftests/debug-kernel/build.sh, cached) from a copy of the sources in
# $(BUILD)/debug-src, so the objects of the normal build stay as they are.
DEBUG_SRC := $(BUILD)/debug-src

check-debug: deps-debug tools
	set -e; kdir=$$(selftests/debug-kernel/build.sh); \
	mkdir -p $(DEBUG_SRC); \
	tar -cf - --exclude='.*' --exclude='*.o' --exclude='*.o.d' \
		--exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude=modules.order --exclude=Module.symvers \
		Kbuild module uapi | tar -xf - -C $(DEBUG_SRC); \
	$(MAKE) -C $$kdir M=$(DEBUG_SRC) W=1 modules; \
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
