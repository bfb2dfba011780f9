#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The supported kernel series, stated once in dkms.conf (MEAS_KERNEL_MIN,
# MEAS_KERNEL_MAX): BUILD_EXCLUSIVE_KERNEL, which DKMS reads, takes
# exactly the series of that range, and meas-kernel (tools/system/
# meas-kernel.in, as make install writes it) speaks up for exactly the
# kernels outside it.  TAP; part of make unit.
#   selftests/unit/kernel_range_test.sh OUTDIR
set -u
out=${1:?usage: kernel_range_test.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
n=0
fails=0
ok() { # ok DESCRIPTION COMMAND...
	local d=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - kernel range: $d"
	else
		echo "not ok $n - kernel range: $d"
		fails=$((fails + 1))
	fi
}

conf() { sed -n "s/^$1=\"\\(.*\\)\"\$/\\1/p" "$top/dkms.conf"; }
min=$(conf MEAS_KERNEL_MIN)
max=$(conf MEAS_KERNEL_MAX)
re=$(conf BUILD_EXCLUSIVE_KERNEL)
ok "dkms.conf states MEAS_KERNEL_MIN, MEAS_KERNEL_MAX, BUILD_EXCLUSIVE_KERNEL" \
	test -n "$min" -a -n "$max" -a -n "$re"

num() { echo $((${1%%.*} * 1000 + ${1#*.})); }
# Every series from 5.0 to 9.99, each as Debian names a kernel of it.
mismatch=
for maj in 5 6 7 8 9; do
	for mi in $(seq 0 99); do
		k=$maj.$mi.4+deb13-amd64
		s=$((maj * 1000 + mi))
		want=no
		[ "$s" -ge "$(num "$min")" ] && [ "$s" -le "$(num "$max")" ] && want=yes
		got=no
		[[ $k =~ $re ]] && got=yes
		[ "$got" = "$want" ] || mismatch="$mismatch $maj.$mi"
	done
done
ok "BUILD_EXCLUSIVE_KERNEL takes exactly the series $min to $max${mismatch:+ (not:$mismatch)}" \
	test -z "$mismatch"

mkdir -p "$out"
make -s -C "$top" --no-print-directory DESTDIR="$out/root" PREFIX=/usr \
	LIBEXECDIR=/usr/lib/meas install >/dev/null 2>"$out/install.err"
mk=$out/root/usr/lib/meas/meas-kernel
ok "make install writes meas-kernel" test -x "$mk"
says() { # says VERSION: meas-kernel check has something to say of it
	[ -n "$("$mk" check "$1" 2>&1)" ]
}
below=$(( $(num "$min") / 1000 )).$(( $(num "$min") % 1000 - 1 ))
[ "${below#*.}" != -1 ] || below=$(( $(num "$min") / 1000 - 1 )).99
above=$(( $(num "$max") / 1000 )).$(( $(num "$max") % 1000 + 1 ))
for k in "$min.0-1-amd64" "$max.4+deb13-rt-amd64" "$max.99-cloud-amd64"; do
	ok "meas-kernel check is silent for $k" sh -c "! { \"$mk\" check '$k' 2>&1 | grep -q .; }"
done
for k in "$below.0-1-amd64" "$above.0-1-amd64" "$(( ${max%%.*} + 1 )).0.0-1-amd64" \
	"not-a-version"; do
	ok "meas-kernel check says $k is outside $min to $max" says "$k"
done
msg=$("$mk" check "$above.0-1-amd64" 2>&1)
ok "its message names the kernel and the range" \
	sh -c "echo '$msg' | grep -q '$above.0-1-amd64' && echo '$msg' | grep -q '$min to $max'"
ok "meas-kernel check exits 0 for a kernel outside the range (a hook never fails an install)" \
	"$mk" check "$above.0-1-amd64" 2>/dev/null
ok "meas-kernel without a command is a usage error (status 2)" \
	sh -c "\"$mk\" 2>/dev/null; [ \$? = 2 ]"
rm -rf "$out"
exit $((fails > 0))
