# SPDX-License-Identifier: GPL-2.0
#
# Included by the top-level Makefile: man pages, make install/uninstall,
# the Debian packages and their test (Documentation/install.rst).

VERSION := $(shell cat $(CURDIR)/VERSION)

# --- man pages: the Documentation/ pages themselves, through rst2man ---

MAN_DIR := $(BUILD)/man
# page -> its source; each source is the page Documentation/ shows.
MAN_PAGES := $(MAN_DIR)/measctl.8 $(MAN_DIR)/meas.4 $(MAN_DIR)/meas-exporter.8 \
	$(MAN_DIR)/pmdameas.1
RST2MAN ?= rst2man
RST2MAN_FLAGS := --strict --no-generator --no-datestamp

man: $(MAN_PAGES)

$(MAN_DIR)/measctl.8: Documentation/measctl.rst VERSION
$(MAN_DIR)/meas.4: Documentation/uapi.rst VERSION
$(MAN_DIR)/meas-exporter.8: Documentation/exporter.rst VERSION
$(MAN_DIR)/pmdameas.1: Documentation/pcp.rst VERSION
$(MAN_PAGES):
	@mkdir -p $(MAN_DIR)
	$(RST2MAN) $(RST2MAN_FLAGS) $< $@.tmp
	mv $@.tmp $@

# --- make install / make uninstall ---

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# dkms(8) looks for sources in /usr/src only, whatever the prefix.
DKMS_SRCDIR ?= /usr/src/meas-$(VERSION)
# udev, modprobe and systemd-modules-load read the system's directories
# for a package (PREFIX /usr) and /etc for what an administrator adds.
ifeq ($(PREFIX),/usr)
UDEV_RULESDIR ?= $(or $(shell pkg-config --variable=udevdir udev 2>/dev/null),/lib/udev)/rules.d
MODULES_LOADDIR ?= /usr/lib/modules-load.d
else
UDEV_RULESDIR ?= /etc/udev/rules.d
MODULES_LOADDIR ?= /etc/modules-load.d
endif
MODPROBEDIR ?= /etc/modprobe.d
# meas-kernel, which says why a kernel has no meas (its modprobe.d file:
# the system's directory for a package, /etc's otherwise; the kernel hook
# has only /etc/kernel/postinst.d)
LIBEXECDIR ?= $(PREFIX)/lib/meas
ifeq ($(PREFIX),/usr)
MODPROBE_LIBDIR ?= /usr/lib/modprobe.d
else
MODPROBE_LIBDIR ?= /etc/modprobe.d
endif
KERNEL_POSTINSTDIR ?= /etc/kernel/postinst.d
# meas-exporter's unit: the system's unit directory for a package
ifeq ($(PREFIX),/usr)
SYSTEMDUNITDIR ?= $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
else
SYSTEMDUNITDIR ?= /etc/systemd/system
endif

# The module's sources for DKMS: what Kbuild needs, no example client.
DKMS_FILES = dkms.conf VERSION Kbuild \
	$(shell find module uapi -path module/example -prune -o -type f \
		\( -name '*.[ch]' -o -name Kbuild \) -print | LC_ALL=C sort)
UAPI_HEADERS = $(wildcard uapi/linux/*.h)

INSTALL ?= install

# The supported kernel series, stated in dkms.conf alone
MEAS_KERNEL_MIN := $(shell sed -n 's/^MEAS_KERNEL_MIN="\(.*\)"$$/\1/p' dkms.conf)
MEAS_KERNEL_MAX := $(shell sed -n 's/^MEAS_KERNEL_MAX="\(.*\)"$$/\1/p' dkms.conf)
# tools/system/*.in with the directories, the version and the range
SUBST = sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@MEAS_KERNEL_MIN@|$(MEAS_KERNEL_MIN)|g' \
	-e 's|@MEAS_KERNEL_MAX@|$(MEAS_KERNEL_MAX)|g'

install: tools man
	$(INSTALL) -D -m 0755 tools/measctl/measctl $(DESTDIR)$(SBINDIR)/measctl
	$(INSTALL) -D -m 0644 $(MAN_DIR)/measctl.8 $(DESTDIR)$(MANDIR)/man8/measctl.8
	$(INSTALL) -D -m 0644 $(MAN_DIR)/meas.4 $(DESTDIR)$(MANDIR)/man4/meas.4
	$(INSTALL) -D -m 0644 tools/measctl/measctl.bash-completion \
		$(DESTDIR)$(COMPLETIONDIR)/measctl
	$(INSTALL) -D -m 0644 tools/lib/libmeas.a $(DESTDIR)$(LIBDIR)/libmeas.a
	$(INSTALL) -D -m 0644 tools/lib/libmeas.h $(DESTDIR)$(INCLUDEDIR)/meas/libmeas.h
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/meas/linux
	$(INSTALL) -m 0644 $(UAPI_HEADERS) $(DESTDIR)$(INCLUDEDIR)/meas/linux/
	$(INSTALL) -d $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		tools/lib/libmeas.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/libmeas.pc
	for f in $(DKMS_FILES); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; \
	done
	$(INSTALL) -D -m 0644 tools/system/60-meas.rules $(DESTDIR)$(UDEV_RULESDIR)/60-meas.rules
	$(INSTALL) -D -m 0644 tools/system/modules-load.conf $(DESTDIR)$(MODULES_LOADDIR)/meas.conf
	$(INSTALL) -D -m 0644 tools/system/modprobe.conf $(DESTDIR)$(MODPROBEDIR)/meas.conf
	$(INSTALL) -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MODPROBE_LIBDIR) \
		$(DESTDIR)$(KERNEL_POSTINSTDIR)
	$(SUBST) tools/system/meas-kernel.in >$(DESTDIR)$(LIBEXECDIR)/meas-kernel
	chmod 0755 $(DESTDIR)$(LIBEXECDIR)/meas-kernel
	$(SUBST) tools/system/modprobe-kernel.conf.in \
		>$(DESTDIR)$(MODPROBE_LIBDIR)/meas-kernel.conf
	$(SUBST) tools/system/kernel-postinst.in >$(DESTDIR)$(KERNEL_POSTINSTDIR)/meas
	chmod 0755 $(DESTDIR)$(KERNEL_POSTINSTDIR)/meas
	$(INSTALL) -D -m 0755 tools/exporter/meas-exporter $(DESTDIR)$(SBINDIR)/meas-exporter
	$(INSTALL) -D -m 0644 $(MAN_DIR)/meas-exporter.8 $(DESTDIR)$(MANDIR)/man8/meas-exporter.8
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's|@SBINDIR@|$(SBINDIR)|' tools/exporter/meas-exporter.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/meas-exporter.service.tmp
	mv $(DESTDIR)$(SYSTEMDUNITDIR)/meas-exporter.service.tmp \
		$(DESTDIR)$(SYSTEMDUNITDIR)/meas-exporter.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/measctl $(DESTDIR)$(MANDIR)/man8/measctl.8 \
		$(DESTDIR)$(MANDIR)/man4/meas.4 $(DESTDIR)$(COMPLETIONDIR)/measctl \
		$(DESTDIR)$(LIBDIR)/libmeas.a $(DESTDIR)$(PKGCONFIGDIR)/libmeas.pc \
		$(DESTDIR)$(UDEV_RULESDIR)/60-meas.rules \
		$(DESTDIR)$(MODULES_LOADDIR)/meas.conf $(DESTDIR)$(MODPROBEDIR)/meas.conf \
		$(DESTDIR)$(LIBEXECDIR)/meas-kernel $(DESTDIR)$(MODPROBE_LIBDIR)/meas-kernel.conf \
		$(DESTDIR)$(KERNEL_POSTINSTDIR)/meas \
		$(DESTDIR)$(SBINDIR)/meas-exporter $(DESTDIR)$(MANDIR)/man8/meas-exporter.8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/meas-exporter.service
	rm -rf $(DESTDIR)$(INCLUDEDIR)/meas $(DESTDIR)$(DKMS_SRCDIR)
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null

# --- Debian packages ---

# dpkg-buildpackage writes the packages next to the source tree, so the
# build runs in a copy under $(BUILD)/deb, with none of this make's
# settings; the .debs land there.
DEB_DIR := $(BUILD)/deb
DEB_SRC := $(DEB_DIR)/meas-$(VERSION)

deb: check-version
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_SRC)
	tar -cf - --exclude='./build' --exclude='./.git' --exclude='*.o' \
		--exclude='*.ko' --exclude='*.a' --exclude='*.cmd' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude=modules.order --exclude=Module.symvers \
		--exclude=tools/measctl/measctl --exclude=tools/measctl/task/syscall_names.h \
		--exclude=tools/exporter/meas-exporter \
		--exclude=tools/pmda/pmdameas --exclude=tools/pmda/pmns \
		--exclude=tools/pmda/domain.h \
		. | tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && env -u BUILD -u KDIR -u KVER -u MAKEFLAGS -u MAKELEVEL \
		-u MFLAGS dpkg-buildpackage -us -uc -b
	ls $(DEB_DIR)/*.deb

# VERSION, dkms.conf and debian/changelog name one version.
check-version:
	@v=$$(cat VERSION); \
	d=$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf); \
	c=$$(dpkg-parsechangelog -l debian/changelog -S Version); \
	if [ "$$v" != "$$d" ] || [ "$$v" != "$$c" ]; then \
		echo "check-version: VERSION $$v, dkms.conf $$d, debian/changelog $$c" >&2; \
		exit 1; \
	fi; echo "check-version: $$v everywhere"

# The packages of Debian 13, built in its root (scripts/root.sh) by its
# own dpkg-buildpackage, debhelper and compiler, into $(BUILD)/trixie/deb
DEB13_BUILD := $(BUILD)/trixie
deb-trixie: check-version
	root=$$(scripts/root.sh trixie) && \
	scripts/in-root.sh "$$root" --bind $(BUILD) -- \
		make -C $(CURDIR) --no-print-directory deb BUILD=$(DEB13_BUILD)

# The arm64 packages of Debian 12, built natively as a buildd builds
# them: in an overlay of the arm64 system root (scripts/arm64-root.sh
# system, installed with apt as a Debian system is), its programs run by
# qemu-user, the build's dependencies installed from
# Debian's archive into the overlay's tmpfs (they vanish with it), then
# make deb by Debian 12 arm64's own dpkg-buildpackage, debhelper and gcc,
# into $(BUILD)/arm64/deb (with meas-dkms, the same on every
# architecture, so that the directory holds what a user installs).
DEB64_BUILD := $(BUILD)/arm64
deb-arm64: check-version
	t=$$(date +%s) && root=$$(scripts/arm64-root.sh system) && \
	scripts/in-root.sh "$$root" --overlay --bind $(BUILD) -- sh -ec '\
		apt-get update -q; \
		apt-get install -q -y --no-install-recommends build-essential; \
		apt-get build-dep -q -y --no-install-recommends $(CURDIR); \
		make -C $(CURDIR) --no-print-directory deb BUILD=$(DEB64_BUILD)' && \
	echo "deb-arm64: built in $$(($$(date +%s) - t)) s"

# The packages installed as a user does (selftests/pkg/pkgtest.sh): on
# this machine, Debian 12, with every kernel of its matrix installed, as
# DKMS builds for each; and in Debian 13's root, with its 6.12 and its
# backports' kernels, and the packages built there.
# One target each (make check runs them in its two streams, see
# Makefile); pkgtest runs both, the second even when the first fails.
pkgtest:
	rc=0; $(MAKE) pkgtest-bookworm || rc=1; $(MAKE) pkgtest-trixie || rc=1; \
	exit $$rc

pkgtest-bookworm: deps-matrix deb check-install
	selftests/pkg/pkgtest.sh $(DEB_DIR)

pkgtest-trixie: deps-matrix deb-trixie
	selftests/pkg/pkgtest.sh --system $(BUILD)/roots/trixie $(DEB13_BUILD)/deb

# The arm64 install test (selftests/pkg/pkgtest.sh --arch arm64): the
# arm64 packages installed in an overlay of the arm64 system root (Debian
# 12, scripts/arm64-root.sh system, cached), DKMS building meas for
# Debian 12's arm64 kernel, which then boots in qemu-system-aarch64. Not
# part of make check (its budget); make check-arm64 PKGTEST_ARM64=1 runs
# it too.
pkgtest-arm64: deps-matrix deb-arm64
	k=$$(scripts/arm64-apt.sh kernel bookworm arm64) && \
	root=$$(scripts/arm64-root.sh system) && \
	MEAS_PKGTEST_KERNELS=$$k selftests/pkg/pkgtest.sh --system "$$root" \
		--arch arm64 $(DEB64_BUILD)/deb

# make install and make uninstall into a DESTDIR, PREFIX /usr/local and /usr
check-install: tools man
	selftests/pkg/install_test.sh | tee $(BUILD)/install-test.tap
	@selftests/tap-summary.sh install $(BUILD)/install-test.tap
