#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pkgtest.sh [--system ROOT [--arch arm64]] DEB_DIR - meas installed as a
# user installs it (make pkgtest, part of make check, and make
# pkgtest-arm64; Documentation/install.rst, "The install test").
#
# In a mount namespace of its own, an overlay whose lower layer is a
# Debian system and whose upper layer is a tmpfs becomes a throw-away copy
# of that system: this machine's root (Debian 12), or with --system ROOT a
# build root of another release (scripts/root.sh: trixie, Debian 13, with
# its kernels, systemd, PCP and Prometheus), whose own tools then do all
# of what follows; with --arch arm64, ROOT is the arm64 system root
# (scripts/arm64-root.sh system, Debian 12), a bare system whose programs
# qemu-user runs: there the test first installs from Debian's archive
# what an arm64 user's machine has (linux-headers-arm64, DKMS, systemd,
# PCP, man, lintian), and the arm64 kernel the VM boots, cached under
# $BUILD/arm64/kernels, goes where its package puts it. There, in a
# chroot, it:
#   - runs lintian on the packages (no errors);
#   - installs DEB_DIR's .debs (built for that release) with apt-get,
#     which lets DKMS build meas for every installed kernel, as on a
#     user's machine, and checks that every kernel of the supported series
#     (dkms.conf's range) got the module, and that kernels made up below
#     and above the range are skipped with meas's message; meas-pcp goes
#     with the root's own Debian pcp;
#   - checks the man pages (man -w, man --warnings), the bash completion
#     (in an interactive bash, as a new user's .bashrc sets it up), the
#     udev rule, the group, modules-load.d, modprobe.d, builds a
#     program against libmeas-dev with pkg-config, and finds the PCP
#     agent's files in PCP's directories;
# then boots that root in the test VM (run-vm.sh --root) with its kernels
# (Debian 12: a 6.1 and a 6.12 one; Debian 13: the newest, 7.3 today;
# arm64: Debian 12's 6.1, in qemu-system-aarch64),
# where selftests/pkg/guest.sh loads meas with modprobe and runs measctl
# from PATH, and on the first kernel installs the PCP agent in pmcd, reads
# it and removes it (pcp-guest.sh), then boots the root's systemd
# (systemd-guest.sh: what the packages do at boot, meas-exporter.service);
# and at last purges the packages and checks that nothing of meas is
# left: no file, no DKMS tree, no udev rule, no group.
#
# Results are TAP lines in $BUILD/pkgtest/pkgtest.log ($BUILD/pkgtest-NAME
# for --system .../NAME, $BUILD/pkgtest-arm64 for --arch arm64); the last
# line is "pkgtest: N passed, M failed, K skipped" ("pkgtest-NAME: ...").
# Needs root (mounts, chroot).
#
# Environment: MEAS_PKGTEST_KERNELS, the kernels the VM boots (default:
# this machine's newest 6.1 and 6.12 generic amd64 kernels; in a
# --system root, its newest generic kernel; with --arch arm64, the newest
# 6.1 arm64 kernel in $BUILD/arm64/kernels).

set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=${BUILD:-$repo/build}
usage="usage: $0 [--system ROOT [--arch arm64]] DEB_DIR"
lower=/
name=pkgtest
system=()
# dpkg's name of the system's architecture
arch=$(dpkg --print-architecture)
while [ $# -ge 2 ]; do
	case $1 in
	--system)
		lower=$(cd "$2" && pwd -P) || exit 2
		name=pkgtest-$(basename "$lower")
		system+=(--system "$lower") ;;
	--arch)
		[ "$2" = arm64 ] || { echo "$usage" >&2; exit 2; }
		arch=$2
		system+=(--arch "$arch") ;;
	*) break ;;
	esac
	shift 2
done
if [ "$arch" = arm64 ]; then
	[ "$lower" != / ] || { echo "$usage" >&2; exit 2; }
	name=pkgtest-arm64
fi
out=$BUILD/$name
log=$out/pkgtest.log

[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
debdir=$(cd "$1" && pwd -P)
[ "$(id -u)" = 0 ] || { echo "pkgtest: needs root (mount, chroot)" >&2; exit 2; }

# Everything below runs in a private mount namespace: the mounts vanish
# with the process, whatever happens.
if [ -z "${MEAS_PKGTEST_NS:-}" ]; then
	mkdir -p "$out"
	: >"$log"
	start=$(date +%s)
	rc=0
	MEAS_PKGTEST_NS=1 unshare --mount --propagation private "$0" \
		"${system[@]}" "$@" || rc=$?
	echo "# $name took $(($(date +%s) - start)) s" | tee -a "$log"
	"$repo/selftests/tap-summary.sh" "$name" "$log" || rc=1
	exit "$rc"
fi

n=0
ok() { # ok DESCRIPTION COMMAND...: one TAP result
	local d=$1
	shift
	n=$((n + 1))
	if "$@" >>"$out/detail.log" 2>&1; then
		echo "ok $n - $d" | tee -a "$log"
	else
		echo "not ok $n - $d" | tee -a "$log"
		echo "#   (details in $out/detail.log)" | tee -a "$log"
	fi
}
note() { echo "# $*" | tee -a "$log"; echo "=== $*" >>"$out/detail.log"; }
: >"$out/detail.log"

# --- the throw-away root ---------------------------------------------------

t=$out/t
mkdir -p "$t"
mount -t tmpfs -o mode=0755,size=8g meas-pkgtest "$t"
mkdir -p "$t/upper" "$t/work" "$t/root"
R=$t/root
mount -t overlay meas-pkgtest -o "lowerdir=$lower,upperdir=$t/upper,workdir=$t/work" "$R"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount --rbind /dev "$R/dev"
mount -t tmpfs tmpfs "$R/run"
mount -t tmpfs tmpfs "$R/tmp"
# run-vm.sh mounts the repository at its own path in the guest: a clone
# under /tmp needs that directory on the root's fresh /tmp too
mkdir -p "$R$repo"
# dpkg's database as it is now, copied whole into the upper layer, where
# it hides the lower one: others may run apt on this machine while the
# test runs, and their half-done changes must not show through. A copy
# taken in the middle of a host's dpkg run (updates/ not empty) is taken
# again.
snapshot_dpkg() {
	local try
	for try in $(seq 1 60); do
		[ "$try" = 1 ] || sleep 5
		rm -rf "$R/var/lib/dpkg"
		cp -a "$lower/var/lib/dpkg" "$R/var/lib/dpkg"
		[ -z "$(ls -A "$R/var/lib/dpkg/updates")" ] && return 0
	done
	echo "pkgtest: dpkg's database stayed busy for 5 minutes" >&2
	return 1
}
snapshot_dpkg
in_root() { chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# The headers of kernel $1 in the root, seen from here: its build link is
# read as the root reads it (Debian 12's is absolute, /usr/src/...: here
# that is this machine's /usr/src, which has no arm64 kernel's).
headers() {
	local l
	l=$(readlink "$R/lib/modules/$1/build") || return 1
	case $l in
	/*) l=$R$l ;;
	*) l=$R/lib/modules/$1/$l ;;
	esac
	[ -f "$l/Makefile" ] && echo "$l"
}

# --- an arm64 user's machine ------------------------------------------------

# The arm64 test root holds what the VM suite runs, not what a user's
# machine has: that comes from Debian's archive, as on a new machine, into
# the upper layer (services are not started in the chroot, and systemctl
# knows it is offline, as in the build roots: pcp's postinst would fail
# on its daemon-reload otherwise). The kernel is the one the arm64 lanes
# boot, where its package would put it, before its headers' package makes
# its build link; the package itself is not installed, as its initramfs,
# made under qemu-user for a VM that boots its own, would cost minutes.
user_pkgs=(linux-headers-arm64 dkms openssl gcc libc6-dev systemd systemd-sysv
	udev pcp man-db groff-base bash-completion adduser pkg-config lintian)
user_machine() {
	rm -f "$R/etc/resolv.conf"
	cp -L /etc/resolv.conf "$R/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
	chmod 755 "$R/usr/sbin/policy-rc.d"
	in_root apt-get update -q && in_root env SYSTEMD_OFFLINE=1 apt-get install -q -y \
		--no-install-recommends -o DPkg::Lock::Timeout=900 "${user_pkgs[@]}"
}
kernel_in_root() { # kernel_in_root VERSION: its image and modules, not its build link
	local kd=$BUILD/arm64/kernels/$1
	[ -f "$kd/.complete" ] || { echo "no kernel $kd (scripts/arm64-apt.sh)"; return 1; }
	cp "$kd/boot/"*"-$1" "$R/boot/" &&
		cp -a "$kd/lib/modules/$1" "$R/lib/modules/" &&
		rm -f "$R/lib/modules/$1/build"
}
newest_cached() { # the newest 6.1 generic kernel of $BUILD/arm64/kernels
	local d
	for d in "$BUILD"/arm64/kernels/6.1.*-arm64; do
		[ -f "$d/.complete" ] && basename "$d"
	done | sort -V | tail -n 1
}
if [ "$arch" = arm64 ]; then
	arm64_kernels=${MEAS_PKGTEST_KERNELS:-$(newest_cached)}
	for k in $arm64_kernels; do
		ok "Debian's $k in the root (/boot, /lib/modules)" kernel_in_root "$k"
	done
	t0=$(date +%s)
	ok "apt-get install of what an arm64 user's machine has (${user_pkgs[*]})" \
		user_machine
	note "installing them under qemu-user took $(($(date +%s) - t0)) s"
	for k in $arm64_kernels; do
		ok "linux-headers-arm64 installed the headers of $k" headers "$k"
	done
fi

# The newest generic kernel of series $1 ("" for any) in the root.
newest() {
	for kdir in "$R"/lib/modules/"$1"*-"$arch"; do
		[ -f "$R/boot/vmlinuz-$(basename "$kdir")" ] && basename "$kdir"
	done | grep -v -e -rt- -e -cloud- | sort -V | tail -n 1
}
# The VM boots, on this machine (Debian 12), the newest generic kernel of
# each series it ships, 6.1 and 6.12; in another release's root, its
# newest generic kernel (Debian 13's: its backports', 7.3 today).
kernels=${MEAS_PKGTEST_KERNELS:-}
if [ -z "$kernels" ] && [ "$lower" = / ]; then
	for s in 6.1. 6.12.; do
		k=$(newest "$s")
		ok "a ${s%.} kernel is installed to boot ($k)" test -n "$k"
		kernels+=" $k"
	done
elif [ -z "$kernels" ]; then
	kernels=$(newest "")
	ok "a kernel is installed in the root to boot ($kernels)" test -n "$kernels"
fi

# A user's machine has the headers of the kernels it boots. This machine
# has the matrix's too (the cloud and rt flavours of both series), and
# DKMS would build meas for each: ten minutes of make check's budget for
# builds the matrix makes already, with the same compiler and headers.
# So the throw-away root first loses, with apt as a user would remove
# them, the headers of every kernel the VM does not boot; DKMS then
# builds for the kernels it does, which the VM loads.
others=()
for kdir in "$R"/lib/modules/*/; do
	k=$(basename "$kdir")
	case " $kernels " in *" $k "*) continue ;; esac
	in_root dpkg-query -W "linux-headers-$k" >/dev/null 2>&1 &&
		others+=("linux-headers-$k")
done
if [ ${#others[@]} -gt 0 ]; then
	ok "the headers of the kernels the VM does not boot purged (${others[*]})" \
		in_root apt-get purge -y -q -o DPkg::Lock::Timeout=900 "${others[@]}"
fi

cache=/var/cache/meas-pkgtest
mkdir -p "$R$cache"
# Everything the build made (lintian reads the .changes and all it
# names), and the five packages a user installs (not the debug symbols).
mkdir -p "$R$cache/all"
cp "$debdir"/*.deb "$debdir"/*.changes "$debdir"/*.buildinfo "$R$cache/all/"
pkgs="meas-dkms measctl libmeas-dev meas-exporter meas-pcp"
for p in $pkgs; do
	cp "$debdir/${p}_"*.deb "$R$cache/"
done
cp "$repo/selftests/pkg/root-checks.sh" "$R$cache/"
debs=$(cd "$R$cache" && ls ./*.deb)
note "system: $(in_root sh -c '. /etc/os-release; echo "$PRETTY_NAME"')"
note "packages: $(echo "$debs" | xargs -n1 basename | tr '\n' ' ')"

# --- lintian, the system's own -------------------------------------------------

lintian_check() {
	in_root sh -c "lintian --fail-on error --info --display-level '>=warning' \
		$cache/all/*.changes" | tee "$out/lintian.txt"
}
ok "lintian reports no errors" lintian_check
note "lintian: $(grep -c '^E: ' "$out/lintian.txt" || true) errors," \
	"$(grep -c '^W: ' "$out/lintian.txt" || true) warnings"
sed -n 's/^\([EW]: .*\)/# lintian: \1/p' "$out/lintian.txt" | tee -a "$log"

# --- install, as a user does -------------------------------------------------

# What the root has named after meas before the packages come (kernel
# headers' IMA_MEASURE_* on an arm64 user's machine): the purge must
# leave no other.
meas_names() { find "$t/upper" -iname '*meas*' | sed "s|^$t/upper||" | LC_ALL=C sort; }
meas_names >"$out/names-before.txt"

install_debs() {
	# shellcheck disable=SC2086 # one path per word
	in_root sh -c "cd $cache && apt-get install -y --no-install-recommends \
		-o DPkg::Lock::Timeout=900 $(echo $debs)"
}
t0=$(date +%s)
ok "apt-get install of the five packages (DKMS builds meas)" install_debs
note "install with the DKMS builds took $(($(date +%s) - t0)) s"

# The supported series, as dkms.conf states them, and whether kernel $1 is
# of one (7.3.4+deb13-amd64: 7003).
conf() { sed -n "s/^$1=\"\\(.*\\)\"\$/\\1/p" "$repo/dkms.conf"; }
kmin=$(conf MEAS_KERNEL_MIN)
kmax=$(conf MEAS_KERNEL_MAX)
series() { echo "$1" | awk -F'[.+-]' '{ print $1 * 1000 + $2 }'; }
supported() {
	local s
	s=$(series "$1")
	[ "$s" -ge "$(series "$kmin")" ] && [ "$s" -le "$(series "$kmax")" ]
}
note "supported kernel series (dkms.conf): $kmin to $kmax"

# Every kernel with headers: a module if the kernel is of a supported
# series, nothing otherwise. DKMS compresses it as the kernel's own modules are
# (meas.ko.xz for 6.12); the checks read an uncompressed copy.
installed_ko() { # installed_ko KERNEL OUT: DKMS's module, uncompressed, to OUT
	local ko
	ko=$(ls "$R/lib/modules/$1/updates/dkms/"meas.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] || { echo "no meas.ko* in /lib/modules/$1/updates/dkms"; return 1; }
	case $ko in
	*.xz) xz -dc "$ko" ;;
	*.zst) zstd -qdc "$ko" ;;
	*.gz) gzip -dc "$ko" ;;
	*) cat "$ko" ;;
	esac >"$2" || return 1
	local v
	v=$(modinfo -F vermagic "$2") && [ "${v%% *}" = "$1" ]
}
for kdir in "$R"/lib/modules/*/; do
	k=$(basename "$kdir")
	headers "$k" >/dev/null || continue
	ko=$out/meas-$k.ko
	rm -f "$ko"
	if supported "$k"; then
		ok "DKMS built and installed meas for $k (its vermagic)" installed_ko "$k" "$ko"
		ok "the module for $k is the build packages ship (shipped_test.sh)" \
			"$repo/selftests/shipped_test.sh" "$ko"
		# Signed with DKMS's key, the one Secure Boot users enroll
		# (Documentation/install.rst, "Secure Boot").
		ok "DKMS signed the module for $k with its MOK key" \
			sh -c "[ \"\$(modinfo -F signer '$ko')\" = 'DKMS module signing key' ] &&
				[ -s '$R/var/lib/dkms/mok.pub' ]"
		ok "dkms status: meas installed for $k" \
			sh -c "chroot '$R' dkms status -m meas -k '$k' | grep -q ': installed'"
	else
		ok "DKMS skipped $k (not a supported series)" sh -c "! ls '$kdir'updates/dkms/meas.ko*"
	fi
done

# A kernel outside the range is skipped, not failed (dkms build exits 77),
# and meas's kernel hook says so: one below the range and one above it,
# and one of the range whose configuration lacks perf events. They are
# made up from the headers of an installed kernel of the range.
hdr= inrange=
for kdir in "$R"/lib/modules/*/; do
	k=$(basename "$kdir")
	supported "$k" && h=$(headers "$k") || continue
	hdr=$(basename "$h") inrange=$k
	break
done
fake_kernel() { # fake_kernel VERSION [CONFIG_TO_DROP]
	mkdir -p "$R/lib/modules/$1" "$R/tmp/src-$1"
	cp -a "$R/usr/src/$hdr/." "$R/tmp/src-$1/"
	# dropped where each DKMS reads it: .config (3.0.10), or the build's
	# include/config/auto.conf where there is one (3.2.2)
	[ -z "${2:-}" ] || sed -i "/^$2=/d" "$R/tmp/src-$1/.config" \
		$(ls "$R/tmp/src-$1/include/config/auto.conf" 2>/dev/null)
	ln -sfn "/tmp/src-$1" "$R/lib/modules/$1/build"
}
skipped() { # skipped VERSION: dkms build refuses it with status 77
	local rc=0
	in_root dkms build -m meas -v "$(cat "$repo/VERSION")" -k "$1" || rc=$?
	[ "$rc" = 77 ] && [ ! -e "$R/var/lib/dkms/meas/$(cat "$repo/VERSION")/$1" ]
}
hook_says() { # hook_says VERSION: the kernel hook's message names it and the range
	local msg
	msg=$(in_root /etc/kernel/postinst.d/meas "$1" 2>&1) || return 1
	echo "$msg"
	[[ $msg == *"not built for kernel $1"*"series $kmin to $kmax"* ]]
}
below=$(( $(series "$kmin") / 1000 )).$(( $(series "$kmin") % 1000 - 1 ))
[ "${below#*.}" != -1 ] || below=$(( $(series "$kmin") / 1000 - 1 )).99
above=$(( $(series "$kmax") / 1000 )).$(( $(series "$kmax") % 1000 + 1 ))
fakes="$below.0-99-$arch $above.0-99-$arch $kmin.0-99-$arch"
if [ -n "$hdr" ]; then
	for f in $below.0-99-$arch $above.0-99-$arch; do
		fake_kernel "$f"
		ok "dkms build skips $f, outside $kmin to $kmax (BUILD_EXCLUSIVE_KERNEL)" \
			skipped "$f"
		ok "the kernel hook says meas is not built for $f, and why" hook_says "$f"
	done
	fake_kernel "$kmin.0-99-$arch" CONFIG_PERF_EVENTS
	ok "dkms build skips a kernel without CONFIG_PERF_EVENTS (BUILD_EXCLUSIVE_CONFIG)" \
		skipped "$kmin.0-99-$arch"
	ok "the kernel hook is silent for a kernel of the range" \
		sh -c "[ -z \"\$(chroot '$R' /etc/kernel/postinst.d/meas '$inrange' 2>&1)\" ]"
	for f in $fakes; do
		rm -rf "${R:?}/lib/modules/$f" "$R/tmp/src-$f"
	done
else
	ok "a supported kernel's headers to make kernels outside the range from" false
fi

# Checks inside the root: man pages, completion, files, group, libmeas.
in_root bash "$cache/root-checks.sh" "$n" >"$out/root-checks.tap" 2>>"$out/detail.log" || true
cat "$out/root-checks.tap" | tee -a "$log"
n=$(grep -c -E '^(not )?ok ' "$log" || true)

# --- the VM boots the root ------------------------------------------------------

# A user who may use /dev/meas (group meas) and one who may not, and a
# parameter in modprobe.d that the VM checks.
in_root useradd --no-create-home --groups meas meas-user >>"$out/detail.log" 2>&1
in_root useradd --no-create-home meas-other >>"$out/detail.log" 2>&1
printf 'options meas proc_slots=1024\n' >>"$R/etc/modprobe.d/meas.conf"

# The PCP agent is tested on the first kernel only: it is the same
# program on both, and pmcd and PCP's Install cost most of a minute.
pcp=pcp
# arm64's guest runs in qemu-system-aarch64, twice as slow under TCG
vm=()
slow=1
[ "$arch" != arm64 ] || vm=(--arch arm64) slow=2
for k in $kernels; do
	vmlog=$out/vm-$k.log
	t0=$(date +%s)
	rc=0
	# QEMU runs here, in this mount namespace, so it sees the overlay.
	KVER=$k "$repo/selftests/vm/run-vm.sh" "${vm[@]}" --root "$R" --kernel "$R/boot/vmlinuz-$k" \
		--timeout $((1200 * slow)) --log "$vmlog" -- selftests/pkg/guest.sh $pcp >"$vmlog.out" 2>&1 || rc=$?
	pcp=
	# The guest's TAP lines, renumbered after ours.
	# (a console's escape sequences may lead a line: systemd's, at boot)
	awk -v n="$n" -v k="$k" '{ gsub(/\033(\[[?!0-9;]*[a-zA-Z]|\][^\007]*\007)/, "") }
	/^(not )?ok [0-9]+ / {
		r = ($1 == "not") ? "not ok" : "ok"
		sub(/^(not )?ok [0-9]+ (- )?/, "")
		print r " " ++n " - [" k "] " $0
	}' "$vmlog" 2>/dev/null | tee -a "$log" || true # no log: the next check fails
	n=$(grep -c -E '^(not )?ok ' "$log" || true)
	ok "the VM with $k ran guest.sh to its end, kernel log clean" test "$rc" = 0
	[ "$rc" = 0 ] || grep '^run-vm: ' "$vmlog.out" | sed 's/^/# /' | tee -a "$log"
	note "VM with $k: $(($(date +%s) - t0)) s (log $vmlog)"
done

# The first kernel boots the root's systemd: what the packages do at
# boot, and meas-exporter.service as systemd runs it.
# shellcheck disable=SC2086 # one kernel per word
k=$(printf "%s\n" $kernels | head -n 1)
if [ -n "$k" ]; then
	vmlog=$out/vm-systemd-$k.log
	t0=$(date +%s)
	rc=0
	KVER=$k "$repo/selftests/vm/run-vm.sh" "${vm[@]}" --root "$R" --kernel "$R/boot/vmlinuz-$k" \
		--systemd --timeout $((600 * slow)) \
		--log "$vmlog" -- selftests/pkg/systemd-guest.sh >"$vmlog.out" 2>&1 || rc=$?
	# (a console's escape sequences may lead a line: systemd's, at boot)
	awk -v n="$n" -v k="$k" '{ gsub(/\033(\[[?!0-9;]*[a-zA-Z]|\][^\007]*\007)/, "") }
	/^(not )?ok [0-9]+ / {
		r = ($1 == "not") ? "not ok" : "ok"
		sub(/^(not )?ok [0-9]+ (- )?/, "")
		print r " " ++n " - [" k ", systemd] " $0
	} /^# systemd-analyze/ { print }' "$vmlog" 2>/dev/null | tee -a "$log" || true
	n=$(grep -c -E '^(not )?ok ' "$log" || true)
	ok "the VM with $k and systemd ran systemd-guest.sh to its end, kernel log clean" \
		test "$rc" = 0
	[ "$rc" = 0 ] || grep '^run-vm: ' "$vmlog.out" | sed 's/^/# /' | tee -a "$log"
	note "VM with $k and systemd: $(($(date +%s) - t0)) s (log $vmlog)"
fi

# --- purge: nothing of meas is left ---------------------------------------------

in_root userdel meas-user >>"$out/detail.log" 2>&1
in_root userdel meas-other >>"$out/detail.log" 2>&1
rm -rf "${R:?}$cache"
# shellcheck disable=SC2086 # one package per word
ok "apt-get purge of the five packages" \
	in_root apt-get purge -y -o DPkg::Lock::Timeout=900 $pkgs
ok "no package of meas left in dpkg's database" \
	sh -c "! chroot '$R' dpkg-query -W -f='\${db:Status-Abbrev} \${Package}\n' 2>/dev/null | grep -E '^.[^n].* (meas-dkms|measctl|libmeas-dev|meas-exporter|meas-pcp)\$'"
ok "no DKMS tree of meas left" \
	sh -c "[ ! -e '$R/var/lib/dkms/meas' ] && ! chroot '$R' dkms status -m meas | grep -q ."
ok "no meas.ko left under /lib/modules" \
	sh -c "[ -z \"\$(find '$R/lib/modules' -name 'meas.ko*')\" ]"
ok "no udev rule, modules-load.d or modprobe.d file left" \
	sh -c "! ls '$R'/lib/udev/rules.d/*meas* '$R'/usr/lib/udev/rules.d/*meas* \
		'$R'/etc/udev/rules.d/*meas* '$R'/usr/lib/modules-load.d/meas.conf \
		'$R'/etc/modprobe.d/meas.conf 2>/dev/null | grep -q ."
ok "no group meas left" sh -c "! chroot '$R' getent group meas"
ok "no PCP agent, pmlogconf group or pmdameas(1) left" \
	sh -c "! ls -d '$R'/var/lib/pcp/pmdas/meas '$R'/var/lib/pcp/config/pmlogconf/meas \
		'$R'/usr/share/man/man1/pmdameas.1* 2>/dev/null | grep -q ."
# The upper layer holds every file the test changed in the root: after the
# purge, no name in it may mention meas.
left() {
	meas_names | LC_ALL=C comm -13 "$out/names-before.txt" - | tee "$out/left.txt"
	[ ! -s "$out/left.txt" ]
}
ok "no file or directory named after meas left in the root" left
