# SPDX-License-Identifier: GPL-2.0
#
# pcp-guest.sh - sourced by selftests/pkg/guest.sh (guest.sh pcp), in the
# test VM booted on the root where the packages were installed, meas
# loaded: meas-pcp's agent in Debian's pmcd, the way an administrator
# installs it. Debian's pcp is the root's own; its state (/etc/pcp,
# /var/lib/pcp, /var/log/pcp) gets writable copies on the guest's tmpfs,
# as the root is read-only (selftests/pcp/pcp_guest.sh does the same).
#   - pmcd starts, the package has not added meas to it;
#   - the package's Install adds it: meas.version is the package's
#     version, meas.sched.launches a count from the module, served by the
#     package's /var/lib/pcp/pmdas/meas/pmdameas;
#   - its Remove takes it out: no meas metric, pmcd serves hinv.ncpu;
#   - installed again, the package's prerm (remove, as dpkg runs it)
#     takes it out of pmcd too, and with the agent not installed it does
#     nothing.
# Uses guest.sh's ok (tap.sh).
# shellcheck shell=bash disable=SC1091,SC2153,SC2154 # pcp.env is Debian's and sets PCP_*

set +u
. /etc/pcp.env
set -u
pmdadir=$PCP_PMDAS_DIR/meas
prerm=/var/lib/dpkg/info/meas-pcp.prerm

pcp_state() {
	local d w=/tmp/pcp-state
	for d in "$PCP_SYSCONF_DIR" "$PCP_VAR_DIR" "$PCP_LOG_DIR"; do
		mkdir -p "$w$d" && cp -a "$d/." "$w$d/" && mount --bind "$w$d" "$d" || return 1
	done
	mkdir -p "$PCP_RUN_DIR" "$PCP_TMP_DIR" &&
		chown pcp:pcp "$PCP_RUN_DIR" "$PCP_TMP_DIR"
}
# judged by pmcd_wait: the init script's status says little in a chroot
# without systemd
pmcd_start() {
	"$PCP_RC_DIR/pmcd" start
	"$PCP_BINADM_DIR/pmcd_wait" -t 60
}
# pmcd answers hinv.ncpu from its linux agent, within 30 s (pmcd_wait
# returns when pmcd listens, its agents may still be starting)
ncpu=$(nproc)
serves_ncpu() {
	local i=0
	until [ "$(pmprobe -v hinv.ncpu 2>/dev/null | awk '{ print $3 }')" = "$ncpu" ]; do
		i=$((i + 1))
		[ $i -lt 30 ] || return 1
		sleep 1
	done
}
# meas is in pmcd.conf, or in the PMNS pmcd serves
in_pmcd_conf() { awk '$1 == "meas" { f = 1 } END { exit !f }' "$PCP_PMCDCONF_PATH"; }
in_pmns() { pminfo meas >/dev/null 2>&1; }
not_in_pmcd() { ! in_pmcd_conf && ! in_pmns && ! pgrep -x pmdameas >/dev/null; }
# Install and Remove are run as the administrator runs them, in their
# directory, with their output in the log
pmda_script() { (cd "$pmdadir" && "./$1" </dev/null); }

ok "PCP's state on the guest's tmpfs" pcp_state
ok "pmcd starts (Debian's pcp, its init script)" pmcd_start
ok "pmcd serves hinv.ncpu = $ncpu" serves_ncpu
ok "the package did not add meas to pmcd (pmcd.conf, PMNS, no pmdameas)" not_in_pmcd

ok "Install, in $pmdadir" pmda_script Install
version=$(dpkg-query -W -f='${Version}' meas-pcp)
has_version() {
	local v
	v=$(pminfo -f meas.version) && echo "$v" &&
		[ "$(echo "$v" | sed -n 's/^ *value "\(.*\)"$/\1/p')" = "$version" ]
}
ok "pminfo -f meas.version: \"$version\", meas-pcp's version" has_version
# one value, a count of the module's class 0, above 0
launches() {
	local v
	v=$(pmprobe -v meas.sched.launches) && echo "$v" &&
		[ "$(echo "$v" | awk '{ print $2 }')" = 1 ] &&
		[ "$(echo "$v" | awk '{ print $3 }')" -gt 0 ]
}
ok "pmprobe -v meas.sched.launches: a count from the module" launches
agent_exe() {
	local pid
	pid=$(pgrep -x pmdameas) && [ "$(readlink "/proc/$pid/exe")" = "$pmdadir/pmdameas" ]
}
ok "pmcd runs the package's $pmdadir/pmdameas" agent_exe

ok "Remove" pmda_script Remove
ok "after Remove, no meas metric, no pmdameas, nothing in pmcd.conf" not_in_pmcd
ok "after Remove, pmcd serves hinv.ncpu" serves_ncpu

# The package's prerm, as dpkg runs it on remove and purge, with the
# agent installed in pmcd
ok "Install again" pmda_script Install
installed() { in_pmcd_conf && in_pmns; }
ok "meas is in pmcd (pmcd.conf and PMNS)" installed
prerm_removes() {
	local out
	out=$("$prerm" remove) && echo "$out" && echo "$out" | grep -q 'removing the meas agent'
}
ok "meas-pcp's prerm remove runs Remove" prerm_removes
ok "after prerm, no meas metric, no pmdameas, nothing in pmcd.conf" not_in_pmcd
ok "after prerm, pmcd serves hinv.ncpu" serves_ncpu
no_op_prerm() {
	local out
	out=$("$prerm" remove) && [ -z "$out" ]
}
ok "meas-pcp's prerm remove with the agent not installed does nothing" no_op_prerm

# pmcd goes, so that nothing holds /dev/meas when guest.sh unloads meas
ok "pmcd stops" "$PCP_RC_DIR/pmcd" stop
