#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pcp_guest.sh - the guest's half of pcp_test.sh, in the test VM with
# meas.ko loaded and a virtio-blk disk attached.  Debian's pcp (the
# host's packages, seen through the host root) gets writable state on
# the guest's tmpfs; pmcd starts; pmdameas is installed with its Install
# script; then, as TAP:
#   - every meas metric has a one-line and a long help text (pminfo -T);
#   - meas's disk instances are disk.dev's; vda's writes over a workload
#     equal /proc/diskstats's, and the busy CPU time agrees with
#     /proc/schedstat within 15% (not /proc/stat: under TCG a spinning
#     vCPU loses ticks, see Documentation/exporter.rst);
#   - pmlogconf enables the meas group; pmlogger records RECORD_S
#     seconds at 1 s; pmrep -a replays them and the writes recorded
#     equal /proc/diskstats's over the same workload; the disk cost per
#     day is printed;
#   - pmdameas stopped (SIGSTOP) or killed (SIGKILL) while pmcd runs:
#     pmcd goes on serving its other agents (hinv.ncpu);
#   - process groups: a bad -g file is refused with its line; installed
#     with MEAS_PMDA_ARGS="-g FILE", meas.group.* has help, a CPU-bound
#     process's group gains the CPU time /proc/PID/schedstat says (5%),
#     its instance number survives a restart of the agent (pmdaCache),
#     and its exit is counted;
#   - Remove: meas is gone from the PMNS and pmcd is healthy.
#   selftests/pcp/pcp_guest.sh [RECORD_S]
# shellcheck disable=SC1091,SC2034,SC2153,SC2154 # pcp.env is Debian's and sets PCP_*; tap.sh's n, status, TAP_PREFIX
set -u
RECORD=${1:-20}
TAP_PREFIX=pcp
# shellcheck source=../measctl/tap.sh
. selftests/measctl/tap.sh
top=$(pwd)
set +u
. /etc/pcp.env
set -u
W=/tmp/pcp-state
A=/tmp/pcp-archive

echo "TAP version 13"

# Writable copies of PCP's state over the read-only host root.
for d in "$PCP_SYSCONF_DIR" "$PCP_VAR_DIR" "$PCP_LOG_DIR"; do
	mkdir -p "$W$d" && cp -a "$d/." "$W$d/" && mount --bind "$W$d" "$d"
done
mkdir -p "$PCP_RUN_DIR" "$PCP_TMP_DIR" && chown pcp:pcp "$PCP_RUN_DIR" "$PCP_TMP_DIR" 2>/dev/null
modprobe virtio_blk
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

"$PCP_RC_DIR/pmcd" start >/tmp/pmcd.out 2>&1
sed 's/^/# /' /tmp/pmcd.out
"$PCP_BINADM_DIR/pmcd_wait" -t 60
ok $? "pmcd runs (pmcd_wait)"
ncpu=$(nproc)
# pmcd answers hinv.ncpu from its linux agent: within 30 s (pmcd_wait
# returns when pmcd listens, its agents may still be starting)
health() {
	i=0
	until [ "$(pmprobe -v hinv.ncpu 2>/dev/null | awk '{ print $3 }')" = "$ncpu" ]; do
		i=$((i + 1))
		[ $i -ge 30 ] && return 1
		sleep 1
	done
}
health
ok $? "pmcd serves its own agents: hinv.ncpu = $ncpu"

# built on the host: -o, nothing is remade in the read-only tree
make -s -C tools/pmda -o pmdameas -o pmns -o domain.h install >/dev/null
ok $? "pmdameas, Install, Remove, pmns and the pmlogconf group installed"
(cd "$PCP_PMDAS_DIR/meas" && ./Install </dev/null) >/tmp/install.out 2>&1
rc=$?
sed 's/^/# /' /tmp/install.out
ok $rc "Install"
nm=$(grep -c ':[0-9]*:[0-9]*$' tools/pmda/pmns 2>/dev/null || grep -c 'MEAS:' tools/pmda/pmns)
got=$(pminfo meas 2>/dev/null | wc -l)
[ "$got" -eq "$nm" ]
ok $? "pminfo meas: $got metrics, the PMNS has $nm"
pminfo -fT meas >/tmp/pminfo.out 2>&1
bad=$(grep -c -i "no help\|error" /tmp/pminfo.out)
helps=$(grep -c '^Help:' /tmp/pminfo.out)
[ "$bad" -eq 0 ] && [ "$helps" -eq "$nm" ]
ok $? "pminfo -fT meas: $helps long help texts, $bad errors"
pminfo -t meas | grep -v -c '\[.\+\]' | grep -qx 0
ok $? "pminfo -t meas: every metric has a one-line help"
pgrep -x pmdameas >/dev/null
ok $? "pmcd started pmdameas"

# instances: meas's disks are among disk.dev's
insts() { pminfo -f "$1" | sed -n 's/.*inst \[[0-9]* or "\([^"]*\)"\].*/\1/p' | sort; }
dd if=/dev/zero of=/dev/vda bs=4k count=16 oflag=direct 2>/dev/null
insts meas.disk.dev.reads_completed >/tmp/meas.inst
insts disk.dev.write >/tmp/disk.inst
grep -qx vda /tmp/meas.inst && [ -z "$(comm -23 /tmp/meas.inst /tmp/disk.inst)" ]
ok $? "meas.disk.dev instances ($(tr '\n' ' ' </tmp/meas.inst)) are disk.dev's ($(tr '\n' ' ' </tmp/disk.inst))"

# values against the kernel's own accounting
vda_w() { awk '$3 == "vda" { print $8 }' /proc/diskstats; }
# the value of instance $2 of metric $1
inst() { pminfo -f "$1" | awk -v i="\"$2\"]" '$4 == i { print $NF }'; }
meas_w() { inst meas.disk.dev.requests_completed.write vda; }
busy() { inst meas.sched.cpu busy; }
sched() { awk '$1 ~ /^cpu/ { s += $8 } END { printf "%.0f", s }' /proc/schedstat; }
d0=$(vda_w) m0=$(meas_w) b0=$(busy) s0=$(sched)
timeout 5 sh -c 'while :; do :; done'
dd if=/dev/zero of=/dev/vda bs=4k count=256 oflag=direct 2>/dev/null
d1=$(vda_w) m1=$(meas_w) b1=$(busy) s1=$(sched)
[ $((d1 - d0)) -gt 0 ] && [ $((m1 - m0)) -eq $((d1 - d0)) ]
ok $? "vda writes: meas $((m1 - m0)) = /proc/diskstats $((d1 - d0))"
python3 -c "import sys; b, s = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if s > 0 and abs(b - s) <= 0.15 * s else 1)" \
	$((b1 - b0)) $((s1 - s0))
ok $? "busy CPU: meas.sched.cpu $((b1 - b0)) ns, /proc/schedstat $((s1 - s0)) ns (15%)"
for m in meas.sched.stops meas.disk.io_latency.write; do
	pmval -s 2 -t 0.5 "$m" >/tmp/pmval.out 2>&1
	ok $? "pmval reads $m"
done

# recording: the pmlogconf group, then a short archive at 1 s
"$PCP_BINADM_DIR/pmlogconf" -q /tmp/pmlogger.config >/dev/null 2>&1
grep -q '^[[:space:]]*meas$' /tmp/pmlogger.config
ok $? "pmlogconf enables the meas group by default"
printf 'log mandatory on 1 sec {\n\tmeas\n}\n' >/tmp/meas1s.config
"$PCP_BINADM_DIR/pmlogger" -c /tmp/meas1s.config -l /tmp/pmlogger.log "$A" &
lpid=$!
# samples in the archive so far
recorded() { pmdumplog "$A" meas.version 2>/dev/null | grep -c 'meas.version'; }
# wait, at most 60 s, for $1 samples
until_recorded() {
	i=0
	while [ "$(recorded)" -lt "$1" ] && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
}
start=$(date +%s)
until_recorded 2
d0=$(vda_w)
dd if=/dev/zero of=/dev/vda bs=4k count=512 oflag=direct 2>/dev/null
d1=$(vda_w)
until_recorded $(($(recorded) + 2))
left=$((RECORD - ($(date +%s) - start)))
[ $left -gt 0 ] && sleep $left
kill -INT "$lpid"
wait "$lpid"
pmdumplog -L "$A" >/tmp/label.out 2>&1
ok $? "pmlogger recorded an archive"
samples=$(pmdumplog "$A" meas.version 2>/dev/null | grep -c 'meas.version')
bytes=$(stat -c %s "$A.0")
[ "$samples" -gt 0 ] && echo "# archive: $samples samples of every meas metric, $bytes bytes of data: $((bytes / samples)) bytes a sample, $((bytes * 1440 / samples / 1024)) KiB a day at pmlogconf's 1 minute"
pmrep -a "$A" -r -o csv -i vda meas.disk.dev.requests_completed.write >/tmp/pmrep.csv 2>&1
rep=$(awk -F, 'NR > 1 && $2 != "" { if (first == "") first = $2; last = $2 } END { print last - first }' /tmp/pmrep.csv)
[ "$rep" -eq $((d1 - d0)) ]
ok $? "pmrep -a: vda writes recorded $rep = /proc/diskstats $((d1 - d0))"
pmrep -a "$A" -t 2 meas.sched.launches meas.disk.dev.read_bytes >/tmp/pmrep.out 2>&1
ok $? "pmrep -a replays rates ($(wc -l </tmp/pmrep.out) lines)"

# a stopped or dead PMDA does not take pmcd down
pid=$(pgrep -x pmdameas)
kill -STOP "$pid"
timeout 60 pminfo -f meas.version >/dev/null 2>&1
health
ok $? "pmdameas stopped (SIGSTOP): pmcd still serves hinv.ncpu"
kill -KILL "$pid"
sleep 1
health && pgrep -x pmcd >/dev/null
ok $? "pmdameas killed (SIGKILL): pmcd runs and serves hinv.ncpu"
# pmcd answers at once: no value while the agent is dead, or the value
# from the agent it restarted (a new process)
timeout 60 pminfo -f meas.version >/tmp/dead.out 2>&1
rc=$?
new=$(pgrep -x pmdameas)
[ $rc -ne 124 ] && { ! grep -q 'value "' /tmp/dead.out || [ -n "$new" ] && [ "$new" != "$pid" ]; }
ok $? "and meas answers, not hangs: $(grep -v '^$' /tmp/dead.out | tail -1 | sed 's/^ *//') (agent pid $pid, now ${new:-none})"

# ---- process groups: meas.group.* (pmdameas -g FILE) ------------------------
# A process named meas-spin is the group "spinners"; stopped (SIGSTOP)
# while it is read, so that its own CPU time and its group's are of the
# same moment.
printf 'group x\n' >/tmp/bad-groups.conf
"$PCP_PMDAS_DIR/meas/pmdameas" -g /tmp/bad-groups.conf 2>/tmp/bad-groups.err
rc=$?
[ $rc -eq 2 ] && grep -q 'bad-groups.conf:1: ' /tmp/bad-groups.err
ok $? "pmdameas -g: a bad file refused, exit $rc: $(cat /tmp/bad-groups.err)"
printf '# the test'"'"'s groups\ncgroup-depth 0\nmax-groups 8\ngroup spinners meas-spin\n' >/tmp/groups.conf
ln -sf /bin/sh /tmp/meas-spin
/tmp/meas-spin -c 'while :; do :; done' &
spid=$!
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS="-g /tmp/groups.conf" ./Install </dev/null) >/tmp/install-g.out 2>&1
rc=$?
sed 's/^/# /' /tmp/install-g.out
ok $rc "Install with MEAS_PMDA_ARGS=\"-g /tmp/groups.conf\""
gpid=$(pgrep -x pmdameas)
pminfo -T meas.group >/tmp/group-help.out 2>&1
[ "$(grep -c '^Help:' /tmp/group-help.out)" -eq 8 ] && ! pminfo -t meas.group | grep -v -q '\[.\+\]'
ok $? "pminfo -T meas.group: $(grep -c '^Help:' /tmp/group-help.out) metrics with a one-line and a long help"
# CPU time on the CPU, in ns: the first field of schedstat
pcpu() { awk '{ print $1 }' "/proc/$spid/schedstat"; }
gcpu() { inst meas.group.cpu spinners; }
kill -STOP $spid
p0=$(pcpu) g0=$(gcpu)
kill -CONT $spid
sleep 4
kill -STOP $spid
p1=$(pcpu) g1=$(gcpu)
python3 -c "import sys; g, p = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if p > 5e8 and abs(g - p) <= 0.05 * p else 1)" \
	$((${g1:-0} - ${g0:-0})) $((p1 - p0))
ok $? "group spinners: meas.group.cpu +$((${g1:-0} - ${g0:-0})) ns, /proc/$spid/schedstat +$((p1 - p0)) ns (5%)"
np=$(inst meas.group.processes spinners)
[ "$np" = 1 ]
ok $? "meas.group.processes spinners = ${np:-none}"
kill -KILL $spid
wait $spid 2>/dev/null
i=0
until [ "$(inst meas.group.exits spinners)" = 1 ] || [ $i -ge 20 ]; do sleep 1; i=$((i + 1)); done
ex=$(inst meas.group.exits spinners) g2=$(gcpu)
[ "$ex" = 1 ] && [ "${g2:-0}" -ge "${g1:-1}" ]
ok $? "its exit counted: meas.group.exits spinners = ${ex:-none}, cpu ${g1:-none} -> ${g2:-none} ns"
# The instance number of a group is kept in $PCP_VAR_DIR/config/pmda
# across restarts.  The new agent groups by cgroup too, so that the
# groups of the first processes it reads ("/" for init's) come before
# "spinners": numbered afresh, "spinners" would get another number.  A
# member alive, for the new agent to make the group again.
instno() { pminfo -f "$1" | awk -v i="\"$2\"]" '$4 == i { sub(/\[/, "", $2); print $2 }'; }
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
sed 's/^cgroup-depth 0/cgroup-depth 1/' /tmp/groups.conf >/tmp/groups-cg.conf
/tmp/meas-spin -c 'while :; do sleep 1; done' &
spid=$!
i0=$(instno meas.group.cpu spinners)
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS="-g /tmp/groups-cg.conf" ./Install </dev/null) >/tmp/install-g2.out 2>&1
i1=$(instno meas.group.cpu spinners)
gpid2=$(pgrep -x pmdameas)
kill $spid
echo "# instances after the restart: $(pminfo -f meas.group.processes | sed -n 's/.*inst \[\([0-9]*\) or "\([^"]*\)"\].*/\1=\2/p' | tr '\n' ' ')"
[ -n "$i0" ] && [ "$i0" = "$i1" ] && [ "$gpid2" != "$gpid" ] &&
	grep -q spinners "$PCP_VAR_DIR/config/pmda/400.64"
ok $? "instance \"spinners\" is ${i0:-none} before and ${i1:-none} after the agent's restart (pid $gpid, now $gpid2)"
# ---- end of process groups ------------------------------------------------

(cd "$PCP_PMDAS_DIR/meas" && ./Remove </dev/null) >/tmp/remove.out 2>&1
rc=$?
sed 's/^/# /' /tmp/remove.out
ok $rc "Remove"
! pminfo meas >/dev/null 2>&1
ok $? "meas is gone from the PMNS"
health && [ "$(pmprobe pmcd.agent.status | awk '{ print $2 }')" -gt 0 ]
ok $? "pmcd healthy after Remove: hinv.ncpu and its agents"

cd "$top" || exit 1
echo "1..$n"
exit "$status"
