#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh's rerun after an emulator fault, with real guests: a guest
# whose kernel log has an EFLAGS no CPU can hold and which then dies runs
# again, once, and the second run's result is the result; a guest that
# dies with a CPU's EFLAGS is not run again; and on the way, where user
# space is mapped (norandmaps, MEAS_VM_RANDMAPS).  TAP; three boots.
#   selftests/vm/emulator_fault_vm_test.sh OUTDIR
set -u
out=${1:?usage: emulator_fault_vm_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$top" || exit 1
# shellcheck source=selftests/pkg/tap.sh
. selftests/pkg/tap.sh
d=$out/emulator-fault-vm
rm -rf "$d"
mkdir -p "$d"
# the guest: the first run marks the disk, prints a register dump line
# with the EFLAGS of $MEAS_DUMP (run-vm.sh exports MEAS_* into the guest)
# and crashes; a run that finds the mark exits 0.  OUTDIR must be one the
# guest sees (the repository's build/, not /tmp).
cat >"$d/guest.sh" <<'GUEST'
#!/bin/sh
modprobe virtio_blk 2>/dev/null
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo "randomize_va_space $(cat /proc/sys/kernel/randomize_va_space)"
m=$(dd if=/dev/vda bs=512 count=1 iflag=direct 2>/dev/null | head -c 6)
if [ "$m" = marked ]; then echo "the second run"; exit 0; fi
printf marked | dd of=/dev/vda bs=512 count=1 conv=sync,fsync 2>/dev/null
echo "<3>RSP: 0018:ffffc9000055fa40 EFLAGS: $MEAS_DUMP" >/dev/kmsg
sleep 1
echo c >/proc/sysrq-trigger
GUEST
# boot NAME EFLAGS [RANDMAPS]: the guest on a fresh disk; status in rc
boot() {
	truncate -s 0 "$d/$1.img"
	truncate -s 1M "$d/$1.img"
	MEAS_VM_RANDMAPS=${3:-0} MEAS_DUMP=$2 \
		selftests/vm/run-vm.sh --timeout 300 --disk "$d/$1.img" \
		--log "$d/$1.log" -- sh "$d/guest.sh" \
		>"$d/$1.out" 2>&1
	rc=$?
}
boot qemu 1652b242
ok "emulator-fault-vm: QEMU's fault: the second run's status, 0" [ "$rc" = 0 ]
ok "emulator-fault-vm: said, with the line" \
	grep -q "^run-vm: EMULATOR FAULT: .*EFLAGS: 1652b242" "$d/qemu.out"
ok "emulator-fault-vm: the guest ran twice" grep -q "the second run" "$d/qemu.out"
ok "emulator-fault-vm: the first console kept apart" \
	sh -c "grep -q 'EFLAGS: 1652b242' '$d/qemu.log.emulator-fault' && ! grep -q 'EFLAGS' '$d/qemu.log'"
# and on the way, where user space is mapped (run-vm.sh's norandmaps):
# fixed addresses by default, randomized with MEAS_VM_RANDMAPS=1
ok "emulator-fault-vm: user space at fixed addresses (norandmaps), both runs" \
	[ "$(grep -c '^randomize_va_space 0' "$d/qemu.out")" = 2 ]
boot cpu 00010246 1
ok "emulator-fault-vm: MEAS_VM_RANDMAPS=1 keeps the randomization" \
	grep -q '^randomize_va_space 2' "$d/cpu.out"
ok "emulator-fault-vm: a crash with a CPU's EFLAGS fails, status 125" [ "$rc" = 125 ]
ok "emulator-fault-vm: and runs once" \
	sh -c "! grep -q 'EMULATOR FAULT' '$d/cpu.out' && [ ! -e '$d/cpu.log.emulator-fault' ]"
echo "1..$n"
exit $((fails > 0))
