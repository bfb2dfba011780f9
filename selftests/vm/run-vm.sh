#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh - run a command as root inside a throw-away QEMU guest that boots
# the installed Debian kernel, for testing the meas kernel module.
#
# Usage:
#   selftests/vm/run-vm.sh [--kernel PATH] [--cpus N] [--mem MB]
#                          [--timeout SEC] [--kvm] [--append "CMDLINE"]
#                          [--log FILE] [--disk FILE] [--modules DIR]
#                          [--root DIR] [--hostfwd HOSTPORT:GUESTPORT]...
#                          [--copy PATH]... [--qemu-arg ARG]... [--systemd]
#                          [--arch arm64] -- CMD [ARGS...]
#
#   --kernel PATH   kernel image to boot (default: /boot/vmlinuz-$KVER; KVER
#                   defaults to the kernel the Makefile builds for,
#                   scripts/kver.sh: the running one if its headers are
#                   installed, else Debian's default).  The modules of that
#                   version must exist in /lib/modules/<ver> on the host.
#   --cpus N        number of vCPUs (default 2)
#   --mem MB        guest memory in MiB (default 1024)
#   --timeout SEC   wall-clock limit for the whole VM run (default 600)
#   --kvm           use KVM instead of TCG (the default)
#   --append STR    extra kernel command line arguments
#   --log FILE      also save the serial console to FILE, and the guest's
#                   full kernel log (dmesg at exit) to FILE.dmesg
#   --disk FILE     attach FILE, a raw image, as a virtio-blk disk (the
#                   guest's /dev/vda once virtio_blk is loaded); writable
#   --hostfwd H:G   a virtio-net card on QEMU's user-mode network (the
#                   guest's 10.0.2.15/24, set up by guest.sh), with the
#                   host's 127.0.0.1:H forwarded to the guest's port G
#                   (TCP); repeatable.  Without it the guest has no network.
#                   Nothing listens beyond 127.0.0.1 on the host.
#   --modules DIR   the modules of a kernel that is not installed on the
#                   host (a lib/modules/<ver> directory made by
#                   modules_install; <ver> is the kernel version): the
#                   virtio/9p modules are taken from there (none if the
#                   kernel has them built in), and DIR is exported read-only
#                   and mounted at /lib/modules/<ver> in the guest, on a
#                   tmpfs, so that modprobe works there.  Needs --kernel.
#   --root DIR      export DIR instead of the host root "/" as the guest's
#                   root (read-only, as "/" is): a system prepared for the
#                   test, such as the overlay in which selftests/pkg/pkgtest.sh
#                   installs the packages.  The virtio/9p modules are taken
#                   from DIR/lib/modules; DIR must have the repository's
#                   path as a directory (it is mounted there).
#   --copy PATH     for a kernel without 9p (Debian's cloud flavours): the
#                   guest cannot mount the host root, so its root is a
#                   tmpfs holding bash, busybox, guest.sh and each PATH
#                   (a file or directory of the repository, relative to
#                   it, or an absolute host path), with the libraries of
#                   every ELF program among them; /lib/modules is empty
#                   there.  Repeatable; ignored for kernels with 9p, so
#                   one command line serves every kernel.
#   --qemu-arg ARG  pass ARG on to qemu-system-x86_64 as it is (repeat for
#                   each word), e.g. --qemu-arg -plugin --qemu-arg FILE.so
#                   for the instruction-count benchmark (make bench).
#   --arch arm64    an arm64 kernel, booted in qemu-system-aarch64 (the
#                   virt machine, the "max" CPU with QEMU's quick pointer
#                   authentication), with --kernel and --root an arm64
#                   system (scripts/arm64-root.sh, or an overlay of it),
#                   whose static busybox the initramfs takes; the modules
#                   are --modules DIR or the root's own /lib/modules; the
#                   console is the PL011 (ttyAMA0) and the exit status
#                   comes back over a virtio serial port.  Default: x86-64.
#   --systemd       boot the root's systemd as PID 1 (to basic.target, not
#                   multi-user) instead of chrooting into it, and run CMD
#                   as the service meas-vm.service: for tests of what
#                   systemd does at boot (modules-load.d, udev rules) and
#                   of the packages' units.  The units are written to the
#                   guest's /run/systemd/system by /init; nothing is added
#                   to the root.  Not with --copy.
#
# Environment:
#   KVER            kernel version to boot (overrides auto-detection)
#   MEAS_VM_CACHE   initramfs/vmlinux cache directory (default /tmp/meas-vm)
#   MEAS_VM_PVH=0   boot the bzImage itself instead of the cached uncompressed
#                   vmlinux (PVH entry; saves ~3 s of xz decompression)
#   MEAS_VM_ACCEL   QEMU -accel value for TCG (default tcg,thread=single)
#   MEAS_VM_SLOTS   at most this many guests run at a time on the machine
#                   (default: one per CPU, as TCG runs a guest on one
#                   thread); a guest waits for a free slot before it boots,
#                   and the waiting guests take the slots in the order they
#                   came (selftests/vm/vm-slot.sh).  make check runs its
#                   stages side by side under this rule.
#   MEAS_VM_LOCKDIR where the slots' lock files are (default /run/lock/meas-vm)
#   MEAS_VM_RANDMAPS=1  randomized user mappings in the guest (default: off,
#                   norandmaps: TCG translates each exec's shared libraries
#                   again at new addresses, three times the cost of an exec)
#   MEAS_VM_OWN_REPORTS  an extended regular expression: kernel log lines
#                   that match it are not errors here, because the caller
#                   judges them itself (make check-kcsan counts KCSAN's
#                   reports by the code they are in)
#   MEAS_*          every other MEAS_* variable (not MEAS_VM_*) is exported
#                   into the guest
#
# How it works: the host root "/" is exported read-only to the guest over
# virtio-9p.  A small cached initramfs (busybox + the 9p/virtio modules)
# mounts it, puts tmpfs on /tmp, /run, /var/tmp and /dev/shm, mounts
# proc/sys/dev/devpts/debugfs/tracefs, and runs selftests/vm/guest.sh from
# this repository inside a chroot.  guest.sh cds to the repository, runs CMD
# (stdin is /dev/null; stdout/stderr go to the serial console ttyS0, which is
# streamed to this script's stdout), then writes "MEAS-VM-EXIT <status>"
# to a second serial port (ttyS1, a file on the host) and powers off.
# CMD and the repository path reach the guest in a small per-run cpio archive
# appended to the initramfs.  Host paths under /tmp, /run, /var/tmp are
# hidden in the guest by tmpfs, except the repository, which is exported
# on its own and mounted at its own path.
#
# Exit status:
#   CMD's exit status, if the guest reported one and the kernel log is clean;
#   1    CMD succeeded but the kernel log shows WARNING/BUG/Oops/lockdep/...
#   2    usage or setup error on the host
#   124  the wall-clock timeout expired
#   125  the guest never reported a status (kernel panic, crash, CMD killed)
#
# Examples:
#   selftests/vm/run-vm.sh -- true
#   selftests/vm/run-vm.sh --log /tmp/vm.log -- sh -c 'modprobe null_blk && ls /dev/nullb0'

set -euo pipefail

PROG=run-vm
die() {
	echo "$PROG: $*" >&2
	exit 2
}
usage() {
	sed -n '/^# Usage:/,/^# Environment:/{/^# Environment:/d;s/^# \{0,1\}//;p}' "$0" >&2
	echo "(see the comment at the top of $0 for details)" >&2
	exit 2
}
help() {
	sed -n '4,/^$/{/^$/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
}

kernel=""
cpus=2
mem=1024
timeout_s=600
use_kvm=0
append=""
log=""
disk=""
moddir=""
rootdir=/
hostfwd=""
copies=()
extra_qemu=()
use_systemd=0
arch=x86_64

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--kernel=*) kernel=${1#*=}; shift ;;
	--cpus) [ $# -ge 2 ] || usage; cpus=$2; shift 2 ;;
	--cpus=*) cpus=${1#*=}; shift ;;
	--mem) [ $# -ge 2 ] || usage; mem=$2; shift 2 ;;
	--mem=*) mem=${1#*=}; shift ;;
	--timeout) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
	--timeout=*) timeout_s=${1#*=}; shift ;;
	--kvm) use_kvm=1; shift ;;
	--append) [ $# -ge 2 ] || usage; append=$2; shift 2 ;;
	--append=*) append=${1#*=}; shift ;;
	--log) [ $# -ge 2 ] || usage; log=$2; shift 2 ;;
	--log=*) log=${1#*=}; shift ;;
	--disk) [ $# -ge 2 ] || usage; disk=$2; shift 2 ;;
	--disk=*) disk=${1#*=}; shift ;;
	--hostfwd) [ $# -ge 2 ] || usage; hostfwd="$hostfwd $2"; shift 2 ;;
	--hostfwd=*) hostfwd="$hostfwd ${1#*=}"; shift ;;
	--modules) [ $# -ge 2 ] || usage; moddir=$2; shift 2 ;;
	--modules=*) moddir=${1#*=}; shift ;;
	--root) [ $# -ge 2 ] || usage; rootdir=$2; shift 2 ;;
	--root=*) rootdir=${1#*=}; shift ;;
	--copy) [ $# -ge 2 ] || usage; copies+=("$2"); shift 2 ;;
	--copy=*) copies+=("${1#*=}"); shift ;;
	--qemu-arg) [ $# -ge 2 ] || usage; extra_qemu+=("$2"); shift 2 ;;
	--qemu-arg=*) extra_qemu+=("${1#*=}"); shift ;;
	--systemd) use_systemd=1; shift ;;
	--arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
	--arch=*) arch=${1#*=}; shift ;;
	-h | --help) help ;;
	--) shift; break ;;
	*) echo "$PROG: unknown option: $1" >&2; usage ;;
	esac
done
[ $# -gt 0 ] || { echo "$PROG: no command given" >&2; usage; }

for n in "$cpus" "$mem" "$timeout_s"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "not a positive integer: $n"
done
netdev=""
for f in $hostfwd; do
	[[ $f =~ ^[1-9][0-9]*:[1-9][0-9]*$ ]] || die "--hostfwd wants HOSTPORT:GUESTPORT: $f"
	netdev="$netdev,hostfwd=tcp:127.0.0.1:${f%%:*}-:${f##*:}"
done

case "$arch" in
x86_64) qemu_bin='qemu-system-x86_64' ;;
arm64 | aarch64)
	arch=arm64 qemu_bin=qemu-system-aarch64
	if [ -z "$kernel" ] || [ "$rootdir" = / ]; then
		die "--arch arm64 needs --kernel and --root (an arm64 root)"
	fi ;;
*) die "unknown architecture: $arch (x86_64 or arm64)" ;;
esac
for tool in "$qemu_bin" busybox modprobe cpio timeout sha256sum od; do
	command -v "$tool" >/dev/null || die "required tool not found: $tool"
done
busybox_bin=$(command -v busybox)
if [ "$arch" = arm64 ]; then
	busybox_bin=$rootdir/bin/busybox
	[ -x "$busybox_bin" ] || die "no $busybox_bin in the arm64 root (busybox-static)"
fi
# A dynamically linked busybox cannot work in the initramfs.
if LC_ALL=C od -An -c -N 4000 "$busybox_bin" 2>/dev/null | tr -d ' \n' | grep -q 'ld-linux'; then
	die "$busybox_bin is dynamically linked; install busybox-static"
fi

# --- repository -----------------------------------------------------------

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
[ -f "$repo/selftests/vm/guest.sh" ] || die "missing $repo/selftests/vm/guest.sh"
case "$repo/" in
/dev/* | /proc/* | /sys/*)
	die "repository $repo is under a directory the guest replaces; move it elsewhere" ;;
esac

if [ "$rootdir" != / ]; then
	[ -d "$rootdir" ] || die "--root: not a directory: $rootdir"
	rootdir=$(cd "$rootdir" && pwd -P)
	[ -d "$rootdir$repo" ] ||
		die "--root $rootdir has no directory $repo to mount the repository on"
fi

# --- kernel version -------------------------------------------------------

# Print the version string embedded in an x86 bzImage (setup header).
bzimage_version() {
	local off
	off=$(od -An -tu2 -j 526 -N 2 "$1" 2>/dev/null | tr -d ' ') || return 1
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	dd if="$1" bs=1 skip=$((off + 512)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

kver=${KVER:-}
if [ -n "$moddir" ]; then
	[ -n "$kernel" ] || die "--modules needs --kernel"
	[ -f "$moddir/modules.dep" ] || die "not a modules directory (no modules.dep): $moddir"
	moddir=$(cd "$moddir" && pwd -P)
	# The version is the directory's name (KVER may be the host's).
	kver=$(basename "$moddir")
	# modprobe -d ROOT looks in ROOT/lib/modules/<ver>.
	modroot=$(cd "$moddir/../../.." && pwd -P)
	[ "$modroot/lib/modules/$kver" -ef "$moddir" ] ||
		die "--modules $moddir must be a <root>/lib/modules/<ver> directory"
fi
if [ -n "$kernel" ]; then
	[ -r "$kernel" ] || die "kernel image not readable: $kernel"
	if [ -z "$kver" ]; then
		case "$(basename "$kernel")" in
		vmlinuz-*) kver=$(basename "$kernel"); kver=${kver#vmlinuz-} ;;
		esac
		[ -n "$kver" ] && [ -d "${rootdir%/}/lib/modules/$kver" ] ||
			kver=$(bzimage_version "$kernel" || true)
	fi
	[ -n "$kver" ] || die "cannot determine the version of $kernel; set KVER"
elif [ -n "$kver" ]; then
	kernel=/boot/vmlinuz-$kver
else
	# The kernel the Makefile builds for by default.
	kver=$("$repo/scripts/kver.sh")
	[ -n "$kver" ] || die "no default kernel (scripts/kver.sh): set KVER"
	kernel=/boot/vmlinuz-$kver
fi
[ -r "$kernel" ] || die "kernel image not readable: $kernel"
[ -n "$moddir" ] || [ -d "${rootdir%/}/lib/modules/$kver" ] ||
	die "no modules for $kver in ${rootdir%/}/lib/modules/$kver"

# --- cached initramfs -----------------------------------------------------

# /init of the initramfs (busybox sh).  Part of the cache key.
read -r -d '' INIT_SCRIPT <<'EOF' || true
#!/bin/sh
# meas test VM /init (generated by selftests/vm/run-vm.sh)
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1

off() {
	# isa-debug-exit: QEMU exits at once; else power off.
	printf '\0' | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
	sleep 60
}
fail() {
	echo "meas-vm /init: $*"
	off
}

while read -r m; do
	insmod "/modules/$m" || fail "insmod $m failed"
done </modules/order

# Where no second serial port is (arm64's virt machine has one UART),
# the exit status goes over the virtio serial port meas.result.
if [ -e /meas/result-port ]; then
	i=0
	while [ ! -s /meas/result ] && [ $i -lt 50 ]; do
		for p in /sys/class/virtio-ports/*; do
			[ "$(cat "$p/name" 2>/dev/null)" = meas.result ] &&
				echo "/dev/${p##*/}" >/meas/result
		done
		[ -s /meas/result ] || sleep 0.1
		i=$((i + 1))
	done
	[ -s /meas/result ] || fail "no virtio port meas.result"
fi

mkdir -p /newroot
if [ -d /hostroot ]; then
	# No 9p in this kernel: run-vm.sh --copy put the root in /hostroot.
	mount -t tmpfs -o mode=0755 tmpfs /newroot || fail "tmpfs on /newroot"
	cp -a /hostroot/. /newroot/ || fail "cannot copy the root"
else
	mount -t 9p -o ro,trans=virtio,version=9p2000.L,cache=loose,msize=512000 \
		hostroot /newroot || fail "cannot mount the host root over 9p"
fi

R=/newroot
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $R/tmp || fail "tmpfs on /tmp"
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs $R/run || fail "tmpfs on /run"
[ -d $R/var/tmp ] && mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $R/var/tmp
mount -t proc proc $R/proc || fail "proc"
mount -t sysfs sysfs $R/sys || fail "sysfs"
mount -t devtmpfs devtmpfs $R/dev || fail "devtmpfs"
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $R/dev/shm
[ -d $R/sys/kernel/debug ] && mount -t debugfs debugfs $R/sys/kernel/debug
[ -d $R/sys/kernel/tracing ] && mount -t tracefs tracefs $R/sys/kernel/tracing
[ -d $R/sys/fs/cgroup ] && mount -t cgroup2 cgroup2 $R/sys/fs/cgroup

busybox ip link set lo up 2>/dev/null

# The repository has an export of its own, mounted at its own path: a
# clone under /tmp (as CI may make) would be hidden by the tmpfs otherwise.
# A copied root (--copy) has its copy of the repository's files at the
# same path, which that tmpfs hides as well: copied again above it.
read -r REPO </meas/repo
mkdir -p "$R$REPO" 2>/dev/null
if [ -d /hostroot ]; then
	[ ! -d "/hostroot$REPO" ] || cp -a "/hostroot$REPO/." "$R$REPO/" ||
		fail "cannot copy the repository's files"
else
	mount -t 9p -o ro,trans=virtio,version=9p2000.L,cache=loose,msize=512000 \
		repo "$R$REPO" || fail "cannot mount the repository over 9p"
fi

# run-vm.sh --modules: the kernel's modules, over a third export, on a
# tmpfs on /lib/modules (the host root is read-only); not for a kernel
# without 9p, whose copied root has none.
if [ -s /meas/modules ] && [ ! -d /hostroot ]; then
	read -r KVER </meas/modules
	mount -t tmpfs -o mode=0755 tmpfs $R/lib/modules || fail "tmpfs on /lib/modules"
	mkdir -p "$R/lib/modules/$KVER"
	mount -t 9p -o ro,trans=virtio,version=9p2000.L,cache=loose,msize=512000 \
		modules "$R/lib/modules/$KVER" || fail "cannot mount the modules over 9p"
fi

mkdir -p $R/run/meas
cp /meas/* $R/run/meas/ || fail "per-run data missing"
if [ -e /meas/systemd ]; then
	# run-vm.sh --systemd: the root's systemd runs guest.sh as a service
	# once basic.target is reached (the target named on the command line).
	U=$R/run/systemd/system
	mkdir -p $U
	printf '%s\n' '[Unit]' 'Description=meas test VM' \
		'Requires=basic.target meas-vm.service' 'After=basic.target' \
		'AllowIsolate=yes' >$U/meas-vm.target
	printf '%s\n' '[Unit]' 'Description=meas test VM command' \
		'After=basic.target' '[Service]' 'Type=simple' \
		"ExecStart=/bin/bash $REPO/selftests/vm/guest.sh" \
		'StandardInput=null' 'StandardOutput=tty' 'StandardError=tty' \
		"TTYPath=/dev/$(cat /meas/console)" >$U/meas-vm.service
	# Masked: the time synchronisation, which would retry a network the
	# guest does not have.  (Not systemd.mask= on the command line: the
	# generators read PID 1's arguments, not the kernel's, see below.)
	ln -s /dev/null $U/systemd-timesyncd.service
	# The host root may be a container's (/.dockerenv): an empty
	# $container tells systemd it is not in one, so that it reads the
	# kernel command line and runs udev as on a real machine.  Its other
	# programs still see "container-other" in PID 1's environment.
	export container=
	exec switch_root $R /lib/systemd/systemd
fi
chroot $R /bin/bash "$REPO/selftests/vm/guest.sh"
# guest.sh powers off itself; only get here if it was killed.
echo "meas-vm /init: guest.sh exited without powering off"
off
EOF

# Modules needed to mount the host root over virtio-9p, in dependency order.
# None if they are built in (modprobe prints "builtin NAME" for those).
modprobe_d=()
[ "$rootdir" = / ] || modprobe_d=(-d "$rootdir")
[ -z "$moddir" ] || modprobe_d=(-d "$modroot")
# Without 9p (Debian's cloud flavours) the root is copied (--copy).
# arm64's exit status comes over a virtio serial port (virtio_console).
result_port=
[ "$arch" != arm64 ] || result_port=1
self_contained=0
if ! modprobe "${modprobe_d[@]}" -S "$kver" --show-depends 9p >/dev/null 2>&1; then
	self_contained=1
	[ ${#copies[@]} -gt 0 ] ||
		die "kernel $kver has no 9p: the host root cannot be mounted; give --copy"
	[ "$use_systemd" = 0 ] || die "--systemd needs a kernel with 9p (the root's systemd)"
fi
if [ "$self_contained" = 0 ]; then
	modlist=$(for m in virtio_pci 9pnet_virtio 9p ${result_port:+virtio_console}; do
		modprobe "${modprobe_d[@]}" -S "$kver" --show-depends "$m" ||
			die "modprobe -S $kver cannot resolve $m"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }')
	[ -n "$modlist" ] || [ -n "$moddir" ] ||
		die "no modules found for virtio/9p in /lib/modules/$kver"
else
	modlist=""
fi

cache=${MEAS_VM_CACHE:-/tmp/meas-vm}
mkdir -p "$cache"
key=$({
	echo "format 1"
	printf '%s\n' "$INIT_SCRIPT"
	printf '%s\n' "$modlist"
	# shellcheck disable=SC2086 # one module path per word
	stat -L -c '%s %Y' "$busybox_bin" $modlist
} | sha256sum | cut -c1-16)
base_cpio=$cache/initramfs-$kver-$key.cpio

workdir=$(mktemp -d "$cache/run.XXXXXX")
qpid=""
# shellcheck disable=SC2317 # called via trap
cleanup() {
	# timeout(1) relays the signal to qemu.
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ ! -s "$base_cpio" ]; then
	st=$workdir/initramfs
	mkdir -p "$st"/{bin,dev,proc,sys,modules,newroot,meas}
	cp "$busybox_bin" "$st/bin/busybox"
	for a in sh mount umount mkdir insmod cp cat chroot poweroff reboot sleep echo dd ls; do
		ln -s busybox "$st/bin/$a"
	done
	mknod -m 600 "$st/dev/console" c 5 1 2>/dev/null || true
	printf '%s\n' "$INIT_SCRIPT" >"$st/init"
	chmod 755 "$st/init"
	: >"$st/modules/order"
	for m in $modlist; do
		name=$(basename "$m")
		case "$name" in
		*.ko) cp "$m" "$st/modules/$name" ;;
		*.ko.xz) xz -dc "$m" >"$st/modules/${name%.xz}"; name=${name%.xz} ;;
		*.ko.zst) zstd -qdc "$m" >"$st/modules/${name%.zst}"; name=${name%.zst} ;;
		*.ko.gz) gzip -dc "$m" >"$st/modules/${name%.gz}"; name=${name%.gz} ;;
		*) die "unsupported module file: $m" ;;
		esac
		echo "$name" >>"$st/modules/order"
	done
	(cd "$st" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) >"$workdir/base.cpio" ||
		die "cannot build the initramfs"
	mv -f "$workdir/base.cpio" "$base_cpio"
	rm -rf "$st"
fi

# --- cached uncompressed kernel (PVH boot) --------------------------------

# Decompressing an xz bzImage takes ~3 s under TCG.  If the kernel supports
# the PVH entry point, boot the uncompressed vmlinux ELF instead; it is
# extracted from the bzImage payload once and cached.
is_bzimage() {
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ]
}
le32() {
	od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '
}
# Write the decompressed bzImage payload (vmlinux) to $2.  The kernel build
# appends the uncompressed size to the payload, which is used as a check
# (decompressors complain about those trailing bytes, so ignore their status).
extract_vmlinux() {
	local img=$1 out=$2 setup_sects start off len magic size
	setup_sects=$(od -An -tu1 -j 497 -N 1 "$img" | tr -d ' ')
	[ "$setup_sects" != 0 ] || setup_sects=4
	start=$(((setup_sects + 1) * 512))
	off=$(le32 "$img" 584)
	len=$(le32 "$img" 588)
	[ -n "$off" ] && [ -n "$len" ] && [ "$len" -gt 0 ] || return 1
	magic=$(od -An -tx1 -j $((start + off)) -N 6 "$img" | tr -d ' \n')
	size=$(le32 "$img" $((start + off + len - 4)))
	tail -c +$((start + off + 1)) "$img" | head -c "$len" | case "$magic" in
		fd377a585a00) xz -dcq ;;
		1f8b*) gzip -dcq ;;
		28b52ffd*) zstd -dcq ;;
		02214c18*) lz4 -dcq ;;
		425a68*) bzip2 -dcq ;;
		5d0000*) xz -dcq --format=lzma ;;
		*) return 1 ;;
		esac >"$out" 2>/dev/null || true
	[ "$(stat -c %s "$out")" = "$size" ] &&
		[ "$(od -An -c -N 4 "$out" | tr -d ' ')" = '177ELF' ]
}
kernel_has_pvh() {
	if [ -r "/boot/config-$kver" ]; then
		grep -q '^CONFIG_PVH=y' "/boot/config-$kver"
	elif command -v readelf >/dev/null; then
		readelf -n "$1" 2>/dev/null | grep -Eq '(0x00000012|XEN_ELFNOTE_PHYS32_ENTRY)'
	else
		return 1
	fi
}

boot_image=$kernel
if [ "${MEAS_VM_PVH:-1}" != 0 ] && is_bzimage "$kernel"; then
	vmkey=$({
		echo "$kernel"
		stat -L -c '%s %Y' "$kernel"
	} | sha256sum | cut -c1-16)
	vmlinux=$cache/vmlinux-$kver-$vmkey
	if [ ! -s "$vmlinux" ] &&
		extract_vmlinux "$kernel" "$workdir/vmlinux" &&
		kernel_has_pvh "$workdir/vmlinux"; then
		mv -f "$workdir/vmlinux" "$vmlinux"
	fi
	rm -f "$workdir/vmlinux"
	[ -s "$vmlinux" ] && boot_image=$vmlinux
fi

# --- the root of a kernel without 9p (--copy) -----------------------------

# Copy host path $1 to the same path under $root, dereferencing symlinks.
stage_path() {
	local src=$1
	mkdir -p "$root$(dirname "$src")"
	cp -rL "$src" "$root$src"
}
# The shared libraries of ELF program $1 (ldd's absolute paths).
elf_libs() {
	ldd "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'
}
# $1: a minimal root for guest.sh and CMD: busybox (every applet), bash,
# the repository's guest.sh and the --copy paths with their libraries.
stage_root() {
	local root=$1 p f a
	local paths=("$(command -v bash)" "$repo/selftests/vm/guest.sh")
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,run,var/tmp,lib/modules}
	cp "$busybox_bin" "$root/bin/busybox"
	for a in $("$busybox_bin" --list); do
		[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
	done
	for p in "${copies[@]}"; do
		case "$p" in /*) ;; *) p=$repo/$p ;; esac
		[ -e "$p" ] || die "--copy: no such file: $p"
		paths+=("$(realpath -s "$p")")
	done
	for p in "${paths[@]}"; do
		stage_path "$p"
		while IFS= read -r f; do
			if [ "$(od -An -c -N 4 "$f" | tr -d ' ')" = '177ELF' ]; then
				for a in $(elf_libs "$f"); do
					[ -e "$root$a" ] || stage_path "$a"
				done
			fi
		done < <(find "$p" -type f)
	done
	# bash as /bin/bash and /bin/sh would be busybox: keep busybox sh.
	[ -e "$root/bin/bash" ] || ln -s "$(command -v bash)" "$root/bin/bash"
}

# --- per-run data ---------------------------------------------------------

rd=$workdir/rundata
mkdir -p "$rd/meas"
printf '%s\n' "$repo" >"$rd/meas/repo"
[ -z "$moddir" ] || printf '%s\n' "$kver" >"$rd/meas/modules"
[ -z "$hostfwd" ] || : >"$rd/meas/net"
[ "$use_systemd" = 0 ] || : >"$rd/meas/systemd"
[ -z "$result_port" ] || : >"$rd/meas/result-port"
# the serial console: x86-64's first 16550, arm64's PL011
console=ttyS0
[ "$arch" != arm64 ] || console=ttyAMA0
echo "$console" >"$rd/meas/console"
# Console loglevel while CMD runs, unless --append chose one.
case " $append " in
*" loglevel="* | *" quiet "* | *" debug "* | *" ignore_loglevel "*) : >"$rd/meas/loglevel" ;;
*) echo 5 >"$rd/meas/loglevel" ;;
esac
{
	printf 'set --'
	printf ' %q' "$@"
	printf '\n'
} >"$rd/meas/cmd"
{
	while IFS= read -r var; do
		case "$var" in MEAS_VM_*) continue ;; esac # harness settings
		printf 'export %s=%q\n' "$var" "${!var}"
	done < <(compgen -e | grep '^MEAS_' || true)
} >"$rd/meas/env"
[ "$self_contained" = 0 ] || stage_root "$rd/hostroot"
(cd "$rd" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0) >"$workdir/run.cpio"
cat "$base_cpio" "$workdir/run.cpio" >"$workdir/initrd"

# --- run ------------------------------------------------------------------

console_log=${log:-$workdir/console.log}
result=$workdir/result
[ -z "$log" ] || mkdir -p "$(dirname "$log")"
: >"$console_log"
: >"$result"

# Multi-threaded TCG (QEMU 7.2) can leave a vCPU spinning on stale code
# while another patches kernel text (text_poke_bp, as every tracepoint
# registration does): seen as an RCU stall in smp_call_function.  One TCG
# thread for all vCPUs keeps cross-modified code coherent.
if [ "$use_kvm" = 1 ]; then accel=kvm; else accel=${MEAS_VM_ACCEL:-tcg,thread=single}; fi
# Boot quietly (console loglevel 4: errors and worse); guest.sh raises it to
# 5 before running CMD so that WARNINGs and lockdep reports are shown live.
# The full kernel log is checked at the end anyway.
cmdline="console=$console printk.time=1 loglevel=4 panic_on_warn=1 panic=-1 oops=panic"
# A stalled CPU ends the run at once instead of at the wall-clock limit.
cmdline+=" sysctl.kernel.panic_on_rcu_stall=1 sysctl.kernel.hung_task_panic=1"
cmdline+=" rdinit=/init"
# User mappings at fixed addresses: TCG keys its translated code by the
# guest's virtual address, so with randomized mappings every exec
# translates ld.so and libc again.  Measured on 6.1 under TCG: /bin/true
# 67 ms an exec with randomized mappings, 17 ms without; grep 157 and 50,
# python3 394 and 219.  Nothing in meas or its tests depends on where user
# space is mapped; MEAS_VM_RANDMAPS=1 keeps the randomization.
[ "${MEAS_VM_RANDMAPS:-0}" = 1 ] || cmdline+=" norandmaps"
# Under TCG on a loaded host the IO-APIC timer check can fail, and 6.12
# then panics ("IO-APIC + timer doesn't work"); QEMU's timer is fine.
[ "$arch" != x86_64 ] || cmdline+=" no_timer_check"
# The bzImage real-mode setup code would print "Probing EDD..." otherwise.
[ "$boot_image" != "$kernel" ] || ! is_bzimage "$kernel" || cmdline+=" edd=off"
# --systemd: only what basic.target pulls in, quietly but for failures.
[ "$use_systemd" = 0 ] ||
	cmdline+=" systemd.unit=meas-vm.target systemd.show_status=error"
[ -n "$append" ] && cmdline+=" $append"

# qboot is much quicker than SeaBIOS and prints nothing.
firmware=()
for d in /usr/share/qemu /usr/share/seabios /usr/local/share/qemu; do
	if [ -f "$d/qboot.rom" ]; then firmware=(-bios qboot.rom); break; fi
done

# The machine: x86-64's q35 with a second serial port for the status
# and isa-debug-exit; arm64's virt, whose "max" CPU emulates pointer
# authentication with QEMU's own quick algorithm (pauth-impdef: the
# architected one made the boot twice as slow), and a virtio serial port
# for the status.
# shellcheck disable=SC2054 # commas are part of QEMU option values
case "$arch" in
x86_64)
	machine=(-machine q35 "${firmware[@]}" -accel "$accel" -cpu max
		-chardev stdio,id=con,signal=off -serial chardev:con
		-chardev "file,id=result,path=$result" -serial chardev:result
		-device isa-debug-exit,iobase=0xf4,iosize=0x04) ;;
arm64)
	machine=(-machine virt -accel "$accel" -cpu max,pauth-impdef=on
		-chardev stdio,id=con,signal=off -serial chardev:con
		-device virtio-serial-pci,id=vser
		-chardev "file,id=result,path=$result"
		-device virtserialport,bus=vser.0,chardev=result,name=meas.result) ;;
esac
# shellcheck disable=SC2054 # commas are part of QEMU option values
qemu=("$qemu_bin" "${machine[@]}" -smp "$cpus" -m "$mem"
	-nodefaults -nographic -no-reboot -monitor none
	-fsdev "local,id=hostroot,path=$rootdir,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=repo,path=$repo,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=repo,mount_tag=repo
	-kernel "$boot_image" -initrd "$workdir/initrd" -append "$cmdline")
# shellcheck disable=SC2054
if [ -n "$moddir" ]; then
	qemu+=(-fsdev "local,id=modules,path=$moddir,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=modules,mount_tag=modules)
fi
# shellcheck disable=SC2054
if [ -n "$hostfwd" ]; then
	qemu+=(-netdev "user,id=net0,restrict=on$netdev"
		-device virtio-net-pci,netdev=net0)
fi
if [ -n "$disk" ]; then
	[ -f "$disk" ] && [ -w "$disk" ] || die "disk image not a writable file: $disk"
	qemu+=(-drive "file=$disk,if=none,format=raw,id=disk0"
		-device virtio-blk-pci,drive=disk0)
fi
qemu+=("${extra_qemu[@]}")

# A slot: one of MEAS_VM_SLOTS lock files, held on fd 8 until this script
# and QEMU end, however they end; the waiters take them in the order they
# came (vm-slot.sh).
# shellcheck source=selftests/vm/vm-slot.sh
. "$repo/selftests/vm/vm-slot.sh"
vm_slot_take "${MEAS_VM_SLOTS:-$(nproc)}" "${MEAS_VM_LOCKDIR:-/run/lock/meas-vm}" "$PROG"

# One run of the guest.  The console goes to our stdout (CRs stripped)
# and to the log file.  QEMU runs in the background so that the traps can
# stop it.  Sets qrc, QEMU's status.
run_guest() {
	rm -f "$workdir/console"
	mkfifo "$workdir/console"
	sed -u 's/\r//g' <"$workdir/console" | tee -a "$console_log" &
	teepid=$!
	timeout --foreground --kill-after=10 "$timeout_s" "${qemu[@]}" \
		</dev/null >"$workdir/console" &
	qpid=$!
	set +e
	wait "$qpid"
	qrc=$?
	qpid=""
	wait "$teepid"
	set -e
}
run_guest

# A guest that died without an exit status, its CPU in a state no x86
# CPU can be in (emulator-fault.sh: QEMU 7.2's TCG once gave a guest a
# register's bits as its EFLAGS), runs again, once, and says so: the
# second run's result is the result.  The first run's console stays in
# LOG.emulator-fault.
if [ "$qrc" != 124 ] && [ "$qrc" != 137 ] &&
	! grep -q 'MEAS-VM-EXIT ' "$result" &&
	fault=$("$repo/selftests/vm/emulator-fault.sh" "$console_log"); then
	echo "$PROG: EMULATOR FAULT: the guest's CPU state is impossible ($fault);" \
		"QEMU's, not the guest's: the guest runs again, once" >&2
	mv "$console_log" "$console_log.emulator-fault"
	: >"$console_log"
	: >"$result"
	run_guest
	echo "$PROG: this is the second run, after an emulator fault in the first" >&2
fi

if [ -n "$log" ]; then
	sed -e 's/\r//g' -e '/^MEAS-VM-EXIT /d' "$result" >"$log.dmesg"
fi

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "$PROG: TIMEOUT: the VM did not finish within ${timeout_s}s" >&2
	exit 124
fi

# Kernel messages carry a "[ seconds.micros]" timestamp (printk.time=1), both
# on the console and in the dmesg dump; only such lines are checked, so test
# output that merely mentions "WARNING:" is not a failure.
ts='\[ *[0-9]+\.[0-9]+\] '
bad='WARNING:|BUG:|Oops|Kernel panic|general protection fault'
bad+='|possible circular locking|possible recursive locking|inconsistent lock state'
bad+='|KASAN:|UBSAN:|kmemleak: .*suspected memory leak|unreferenced object 0x'
bad+='|sleeping function called from invalid context|Call Trace:|rcu: .*stall|blocked for more than'
# an API this kernel deprecated, which a later one removes
bad+='|enqueued on deprecated workqueue'
splat=$(cat "$console_log" "$result" | tr -d '\r' |
	grep -E "$ts.*($bad)" | { if [ -n "${MEAS_VM_OWN_REPORTS:-}" ]; then
		grep -v -E "$MEAS_VM_OWN_REPORTS"; else cat; fi; } |
	awk '!seen[$0]++' | head -n 50 || true)

status=$(tr -d '\r' <"$result" | sed -n 's/^MEAS-VM-EXIT \([0-9][0-9]*\)$/\1/p' | tail -n 1)

rc=0
if [ -z "$status" ]; then
	if grep -q '^meas-vm /init: guest.sh exited' "$console_log"; then
		echo "$PROG: FAIL: guest.sh died before reporting an exit status (killed?)" >&2
	elif grep -q '^meas-vm /init: ' "$console_log"; then
		echo "$PROG: FAIL: the guest could not start (see the /init message above)" >&2
	elif [ "$qrc" != 0 ]; then
		echo "$PROG: FAIL: qemu exited with status $qrc" >&2
	else
		echo "$PROG: FAIL: the guest did not report an exit status (kernel panic, crash or killed command)" >&2
	fi
	rc=125
elif [ "$status" != 0 ]; then
	rc=$status
fi
if [ -n "$splat" ]; then
	echo "$PROG: FAIL: the guest kernel log contains errors:" >&2
	printf '%s\n' "$splat" | sed 's/^/  /' >&2
	[ "$rc" != 0 ] || rc=1
fi
exit "$rc"
