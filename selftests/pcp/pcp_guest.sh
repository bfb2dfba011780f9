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
#   - pmlogconf enables the meas groups; pmlogger records RECORD_S
#     seconds at 1 s while measctl watch and iostat run live; pmrep -a
#     -u and measctl iostat --archive replay them and the writes
#     recorded equal /proc/diskstats's over the same workload; measctl
#     watch --archive over the live window agrees with the live one; the
#     disk cost per day is printed;
#   - pmdameas -P serves meas.proc.*: pmlogger records them while
#     measctl top -x runs live, and top --archive agrees with it on a
#     spinning process's CPU time (-x: the interval of its exit counts
#     in both); a local client as nobody sees nobody's processes only,
#     one over TCP none, unless the agent runs with -A;
#   - pmdameas stopped (SIGSTOP) or killed (SIGKILL) while pmcd runs:
#     pmcd goes on serving its other agents (hinv.ncpu);
#   - process groups: a bad -g file is refused with its line; installed
#     with MEAS_PMDA_ARGS="-g FILE", meas.group.* has help, a CPU-bound
#     process's group gains the CPU time /proc/PID/schedstat says (5%),
#     its instance number survives a restart of the agent (pmdaCache),
#     and its exit is counted;
#   - cgroups: pmdameas -C serves meas.cgroup.*, a spinner's service
#     against cpu.stat; pmlogconf enables their group; pmlogger records
#     them and measctl cgroup --archive replays the service's CPU, equal
#     to the live delta; archives without meas.cgroup values refused;
#   - Remove: meas is gone from the PMNS and pmcd is healthy.
#   selftests/pcp/pcp_guest.sh [RECORD_S]
# shellcheck disable=SC1091,SC2034,SC2153,SC2154 # pcp.env is Debian's and sets PCP_*; tap.sh's n, status, TAP_PREFIX
set -u
RECORD=${1:-60}
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
# -P: class 15 too, for meas.proc.* and measctl top --archive
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS=-P ./Install </dev/null) >/tmp/install.out 2>&1
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
grep -q '^[[:space:]]*meas.sched$' /tmp/pmlogger.config &&
	grep -q '^[[:space:]]*meas.proc$' /tmp/pmlogger.config
ok $? "pmlogconf enables the meas groups: summary by default, processes as the agent serves them"
# the summary group's metrics (tools/pmda/meas.pmlogconf), at 1 s
sed -n 's/^\t\(meas\..*\)/\t\1/p' tools/pmda/meas.pmlogconf >/tmp/summary.list
{ echo 'log mandatory on 1 sec {'; cat /tmp/summary.list; echo '}'; } >/tmp/meas1s.config
"$PCP_BINADM_DIR/pmlogger" -c /tmp/meas1s.config -l /tmp/pmlogger.log "$A" &
lpid=$!
# samples in the archive so far
recorded() { pmdumplog "${1:-$A}" "${2:-meas.version}" 2>/dev/null | grep -c "${2:-meas.version}"; }
# wait, at most 60 s, for $1 samples (of $3 in archive $2)
until_recorded() {
	i=0
	while [ "$(recorded "${2:-$A}" "${3:-meas.version}")" -lt "$1" ] && [ $i -lt 120 ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
start=$(date +%s)
until_recorded 2
# the live views during the recording, beside pmlogger: 2 s intervals
M=tools/measctl/measctl
$M --json watch -i 2 -n 10 >/tmp/live.watch 2>&1 &
wpid=$!
$M --json iostat -i 2 -n 10 >/tmp/live.iostat 2>&1 &
ipid=$!
# the workload in the middle of their 20 s, away from their edges
sleep 6
d0=$(vda_w)
dd if=/dev/zero of=/dev/vda bs=4k count=512 oflag=direct 2>/dev/null
d1=$(vda_w)
timeout 3 sh -c 'while :; do :; done'
i=0
while [ $i -lt 200 ]; do /bin/true; i=$((i + 1)); done
wait $wpid
wrc=$?
wait $ipid
ok $((wrc + $?)) "live measctl watch and iostat ran beside pmlogger"
# pmlogger's samples after the workload, then the rest of RECORD
sleep 3
left=$((RECORD - ($(date +%s) - start)))
[ $left -gt 0 ] && sleep $left
kill -INT "$lpid"
wait "$lpid"
pmdumplog -L "$A" >/tmp/label.out 2>&1
ok $? "pmlogger recorded an archive ($(sed -n 's/^ *commencing *//p' /tmp/label.out) to $(sed -n 's/^ *ending *//p' /tmp/label.out))"
samples=$(pmdumplog "$A" meas.version 2>/dev/null | grep -c 'meas.version')
bytes=$(stat -c %s "$A.0")
[ "$samples" -gt 0 ] && echo "# archive: $samples samples of every meas metric, $bytes bytes of data: $((bytes / samples)) bytes a sample, $((bytes * 1440 / samples / 1024)) KiB a day at pmlogconf's 1 minute"
# -u: the values recorded, not PCP's interpolation between them
pmrep -a "$A" -u -r -o csv -i vda meas.disk.dev.requests_completed.write >/tmp/pmrep.csv 2>&1
rep=$(awk -F, 'NR > 1 && $2 != "" { if (first == "") first = $2; last = $2 } END { print last - first }' /tmp/pmrep.csv)
[ "$rep" -eq $((d1 - d0)) ]
ok $? "pmrep -a: vda writes recorded $rep = /proc/diskstats $((d1 - d0))"

# replay: measctl's views read the archive back
sum_writes() { python3 selftests/pcp/views.py writes "$1"; }
$M --json iostat --archive "$A" >/tmp/rep.iostat 2>&1
ok $? "measctl iostat --archive ($(wc -l </tmp/rep.iostat) intervals)"
lw=$(sum_writes /tmp/live.iostat) rw=$(sum_writes /tmp/rep.iostat)
[ "$rw" -eq $((d1 - d0)) ] && [ "$lw" -eq "$rw" ]
ok $? "iostat: vda writes live $lw, replayed $rw, /proc/diskstats $((d1 - d0))"
$M iostat --archive "$A" -z >/tmp/rep.iostat.txt 2>&1 &&
	grep -q '^vda ' /tmp/rep.iostat.txt && grep -q '^--- .* interval 1 ' /tmp/rep.iostat.txt
ok $? "measctl iostat --archive prints the live view's table"
# the live watch's window, in PCP's time syntax, and its length
win=$(python3 selftests/pcp/views.py window /tmp/live.watch)
S=${win%%|*} rest=${win#*|}
T=${rest%%|*} nint=${rest#*|}
WT=$T
$M --json watch --archive "$A" --start "@$S" --finish "@$T" -i 2 >/tmp/rep.watch 2>&1
ok $? "measctl watch --archive --start @$S --finish @$T -i 2 ($(wc -l </tmp/rep.watch) intervals, live $nint)"
python3 selftests/pcp/views.py agree /tmp/live.watch /tmp/rep.watch >/tmp/agree.out 2>&1
ok $? "watch: live and replayed agree: $(cat /tmp/agree.out)"
$M watch --archive "$A" -n 3 >/tmp/rep.watch.txt 2>&1 &&
	[ "$(grep -c '^--- ' /tmp/rep.watch.txt)" -eq 3 ] && grep -q ' launches ' /tmp/rep.watch.txt
ok $? "measctl watch --archive -n 3: three tables of the recorded samples"
$M watch --archive /tmp/no-such-archive >/tmp/rep.err 2>&1
[ $? -eq 1 ] && grep -q 'cannot open the archive' /tmp/rep.err
ok $? "measctl watch --archive of no archive: exit 1, $(head -1 /tmp/rep.err)"
$M watch --archive "$A" --start "@$T" --finish "@$S" >/tmp/rep.err 2>&1
[ $? -ne 0 ]
ok $? "a time window that ends before it starts is refused: $(head -1 /tmp/rep.err)"
# processes: pmdameas -P serves meas.proc.*, pmlogger records them while
# top runs live, and top replays them
P=/tmp/pcp-proc
printf 'log mandatory on 1 sec {\n\tmeas.proc\n}\n' >/tmp/proc1s.config
"$PCP_BINADM_DIR/pmlogger" -c /tmp/proc1s.config -l /tmp/pmlogger2.log "$P" &
lpid=$!
until_recorded 2 "$P" meas.proc.table.live
pminfo -f meas.proc.cpu >/tmp/proc.out 2>&1
np=$(grep -c 'inst \[' /tmp/proc.out)
me=$(grep -o "\"$(printf '%06d' $$) [^\"]*\"" /tmp/proc.out | head -1)
[ "$np" -gt 5 ] && [ "$me" = "\"$(printf '%06d' $$) $(cat /proc/$$/comm)\"" ]
ok $? "meas.proc.cpu: $np processes, this shell's instance is named $me"
[ "$np" -gt 5 ] || tail -5 "$PCP_LOG_DIR/pmcd/meas.log" | sed 's/^/# /'

cp "$(command -v dash)" /tmp/measspin
# -x: the interval in which measspin exits is shown, live and replayed
$M --json top -i 2 -n 8 -N 0 -x >/tmp/live.top 2>&1 &
tpid=$!
sleep 5
timeout 4 /tmp/measspin -c 'while :; do :; done'
wait $tpid
ok $? "live measctl top ran beside pmlogger"
sleep 3
kill -INT "$lpid"
wait "$lpid"
samples=$(recorded "$P" meas.proc.table.live)
bytes=$(stat -c %s "$P.0")
[ "$samples" -gt 0 ] && echo "# processes: $samples samples of $np processes, $((bytes / samples)) bytes a sample, $((bytes * 1440 / samples / 1024)) KiB a day at 1 minute"
win=$(python3 selftests/pcp/views.py window /tmp/live.top)
S=${win%%|*} rest=${win#*|}
T=${rest%%|*}
$M --json top --archive "$P" --start "@$S" --finish "@$T" -i 2 -N 0 -x >/tmp/rep.top 2>&1
ok $? "measctl top --archive --start @$S --finish @$T -i 2 ($(wc -l </tmp/rep.top) intervals)"
python3 selftests/pcp/views.py topcpu /tmp/live.top /tmp/rep.top measspin >/tmp/agree.out 2>&1
ok $? "top: measspin's CPU live and replayed agree: $(cat /tmp/agree.out)"
$M top --archive "$P" -n 2 -N 5 >/tmp/rep.top.txt 2>&1 &&
	[ "$(grep -c '^measctl top  interval' /tmp/rep.top.txt)" -eq 2 ] &&
	grep -q '^ *PID USER' /tmp/rep.top.txt
ok $? "measctl top --archive -n 2 prints the live view's table"
$M top --archive "$A" >/tmp/rep.err 2>&1
[ $? -eq 1 ] && grep -q 'holds none of the meas metrics' /tmp/rep.err
ok $? "top --archive of an archive without processes: exit 1, $(head -1 /tmp/rep.err)"
$M --json iostat --archive "$A" --start "@$WT" --finish "@$WT" >/tmp/rep.err 2>&1
[ $? -eq 1 ] && grep -q '"ok":false.*fewer than two samples of meas.disk' /tmp/rep.err
ok $? "a window of one instant: exit 1 and a JSON error, $(head -1 /tmp/rep.err)"
pmrep -a "$A" -t 2 meas.sched.launches meas.disk.dev.read_bytes >/tmp/pmrep.out 2>&1
ok $? "pmrep -a replays rates ($(wc -l </tmp/pmrep.out) lines)"

# who sees which process: a client on pmcd's local socket as the user
# pmcd names, ptrace's rules; one over TCP, whom pmcd cannot name, none;
# every client every process only with -A, the administrator's switch
setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 &
npid=$!
# nobody's too, but it makes itself non-dumpable once running, as sshd
# and gpg-agent do: ptrace refuses it to nobody, so must the agent,
# whatever the flag was at its exec (issue 37, finding 5)
setpriv --reuid=65534 --regid=65534 --clear-groups python3 -c \
	'import ctypes, time; time.sleep(1); ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); time.sleep(600)' &
dpid=$!
sleep 3
inst_of() { grep -c "\"$(printf '%06d' "$1") " "$2"; }
setpriv --reuid=65534 --regid=65534 --clear-groups \
	pminfo -h local: -f meas.proc.cpu >/tmp/proc-nobody.out 2>&1
nn=$(grep -c 'inst \[' /tmp/proc-nobody.out)
[ "$(inst_of $npid /tmp/proc-nobody.out)" = 1 ] &&
	[ "$(inst_of $$ /tmp/proc-nobody.out)" = 0 ]
ok $? "a local client as nobody sees nobody's processes: $nn, root's shell not among them"
[ "$(awk '/^Uid:/ { print $2 }' /proc/$dpid/status)" = 65534 ] &&
	[ "$(inst_of $dpid /tmp/proc-nobody.out)" = 0 ]
ok $? "nor nobody's process that made itself non-dumpable after its exec ($dpid)"
pminfo -f meas.proc.cpu >/tmp/proc-root.out 2>&1
[ "$(inst_of $dpid /tmp/proc-root.out)" = 1 ]
ok $? "which root's local client sees"
pminfo -h localhost -f meas.proc.cpu >/tmp/proc-tcp.out 2>&1
nr=$(grep -c 'inst \[' /tmp/proc-tcp.out)
pminfo -h localhost -f meas.proc.table.live >/tmp/proc-tcp0.out 2>&1
[ "$nr" = 0 ] && grep -q 'value [0-9]' /tmp/proc-tcp0.out
ok $? "a client over TCP sees no process ($nr instances), the table's counts still"
# A network client that authenticated with SASL is named: pmcd passes
# the IDs of the local account of its user name (libpcp's
# __pmSetUserGroupAttributes()), so it sees what that user would.
# Debian's /etc/sasl2/pmcd.conf offers plain and its sasldb; SASL's
# realm is the host's domain, so the guest gets one.
SDB=$(sed -n 's/^sasldb_path: *//p' "$PCP_SASLCONF_DIR/pmcd.conf")
sasl_setup() {
	hostname meas-vm.localdomain &&
		echo meas-sasl | saslpasswd2 -p -a pmcd -f "$SDB" nobody &&
		chown root:pcp "$SDB" && chmod 640 "$SDB" &&
		"$PCP_RC_DIR/pmcd" restart >/tmp/pmcd-sasl.out 2>&1 &&
		"$PCP_BINADM_DIR/pmcd_wait" -t 60 && health
}
sasl_setup
ok $? "pmcd restarted with nobody in its SASL database ($SDB)"
sasl_url() { echo "pcp://localhost?method=plain&username=nobody&password=$1"; }
# the agent is up again once it answers the table's count
i=0
until pminfo -h localhost -f meas.proc.table.live 2>/dev/null | grep -q 'value [0-9]' ||
	[ $i -ge 30 ]; do
	sleep 1
	i=$((i + 1))
done
pminfo -h "$(sasl_url meas-sasl)" -f meas.proc.cpu >/tmp/proc-sasl.out 2>&1
rc=$?
ns=$(grep -c 'inst \[' /tmp/proc-sasl.out)
[ $rc = 0 ] && [ "$(inst_of $npid /tmp/proc-sasl.out)" = 1 ] &&
	[ "$(inst_of $$ /tmp/proc-sasl.out)" = 0 ] &&
	[ "$(inst_of $dpid /tmp/proc-sasl.out)" = 0 ]
ok $? "a TCP client authenticated as nobody sees nobody's processes ($ns), not root's shell nor the non-dumpable one"
pminfo -h "$(sasl_url wrong)" -f meas.proc.cpu >/tmp/proc-sasl-bad.out 2>&1
rc=$?
[ $rc != 0 ] && ! grep -q 'inst \[' /tmp/proc-sasl-bad.out
ok $? "a wrong SASL password is refused (exit $rc): $(grep -m1 -i 'auth' /tmp/proc-sasl-bad.out)"
kill "$dpid" 2>/dev/null
wait "$dpid" 2>/dev/null
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS="-P -A" ./Install </dev/null) >/tmp/install-a.out 2>&1
pminfo -h localhost -f meas.proc.cpu >/tmp/proc-tcp.out 2>&1
nr=$(grep -c 'inst \[' /tmp/proc-tcp.out)
[ "$nr" -gt 5 ] && [ "$(inst_of $$ /tmp/proc-tcp.out)" = 1 ]
ok $? "installed with -A, a client over TCP sees every process ($nr)"
kill "$npid" 2>/dev/null
wait "$npid" 2>/dev/null

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
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS="-g /tmp/groups.conf" ./Install </dev/null) >/tmp/install-g.out 2>&1
rc=$?
# the spinner after Install: under TCG one host thread runs both vCPUs,
# and a spinner beside it made Install take 40 s instead of 13
/tmp/meas-spin -c 'while :; do :; done' &
spid=$!
sed 's/^/# /' /tmp/install-g.out
ok $rc "Install with MEAS_PMDA_ARGS=\"-g /tmp/groups.conf\""
gpid=$(pgrep -x pmdameas)
pminfo -T meas.group >/tmp/group-help.out 2>&1
[ "$(grep -c '^Help:' /tmp/group-help.out)" -eq 8 ] && ! pminfo -t meas.group | grep -v -q '\[.\+\]'
ok $? "pminfo -T meas.group: $(grep -c '^Help:' /tmp/group-help.out) metrics with a one-line and a long help"
[ "$(grep -c '^Help:' /tmp/group-help.out)" -eq 8 ] ||
	{ head -3 /tmp/group-help.out; tail -5 "$PCP_LOG_DIR/pmcd/meas.log"; } | sed 's/^/# /'
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
"$PCP_BINADM_DIR/pmlogconf" -q /tmp/pmlogger-g.config >/dev/null 2>&1
grep -q '^[[:space:]]*meas.group$' /tmp/pmlogger-g.config
ok $? "pmlogconf enables the groups' group (tools/pmda/meas-group.pmlogconf)"
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

# ---- cgroups: meas.cgroup.* (pmdameas -C) ---------------------------------
# A spinner in a service cgroup of its own; stopped while read, so that
# the agent's CPU time of the cgroup and the kernel's cpu.stat are of the
# same moment; recorded by pmlogger and replayed by measctl cgroup.
CGS=/sys/fs/cgroup/meas-pcp.slice/spin.service
mkdir -p $CGS
# an archive of meas.cgroup from an agent without -C holds no value of
# it: measctl cgroup --archive refuses it (exit 1), as top does
N=/tmp/pcp-nocg
printf 'log mandatory on 1 sec {\n\tmeas.version\n\tmeas.cgroup\n}\n' >/tmp/nocg.config
"$PCP_BINADM_DIR/pmlogger" -c /tmp/nocg.config -l /tmp/pmlogger-n.log "$N" &
lpid=$!
until_recorded 3 "$N"
kill -INT "$lpid"
wait "$lpid"
$M cgroup --archive "$N" >/tmp/rep.err 2>&1
[ $? -eq 1 ] && grep -E -q 'fewer than two samples of meas.cgroup .*-C|holds none of the meas metrics' /tmp/rep.err
ok $? "cgroup --archive of an archive without meas.cgroup values: exit 1, $(head -1 /tmp/rep.err)"
$M cgroup --archive "$A" >/tmp/rep.err 2>&1
[ $? -eq 1 ] && grep -q 'holds none of the meas metrics' /tmp/rep.err
ok $? "cgroup --archive of an archive without meas.cgroup: exit 1, $(head -1 /tmp/rep.err)"
(cd "$PCP_PMDAS_DIR/meas" && MEAS_PMDA_ARGS="-C" ./Install </dev/null) >/tmp/install-c.out 2>&1
rc=$?
sed 's/^/# /' /tmp/install-c.out | tail -3
ok $rc "Install with MEAS_PMDA_ARGS=-C"
sh -c 'echo $$ >"$0/cgroup.procs" && exec sh -c "while :; do :; done"' $CGS &
cpid=$!
sleep 3
kill -STOP $cpid
sleep 0.5
ccpu() { inst meas.cgroup.cpu /meas-pcp.slice/spin.service; }
kcpu() { awk '$1 == "usage_usec" { print $2 * 1000 }' $CGS/cpu.stat; }
c0=$(ccpu) k0=$(kcpu)
python3 -c "import sys; c, k = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if k > 5e8 and abs(c - k) <= 0.1 * k else 1)" \
	"${c0:-0}" "${k0:-0}"
ok $? "meas.cgroup.cpu of the spinner's service ${c0:-none} ns, its cpu.stat ${k0:-none} ns (10%)"
nt=$(inst meas.cgroup.threads /meas-pcp.slice/spin.service)
[ "$nt" = 1 ]
ok $? "meas.cgroup.threads of the service = ${nt:-none}"
pminfo -T meas.cgroup >/tmp/cgroup-help.out 2>&1
[ "$(grep -c '^Help:' /tmp/cgroup-help.out)" -eq 22 ]
ok $? "pminfo -T meas.cgroup: $(grep -c '^Help:' /tmp/cgroup-help.out) metrics with a one-line and a long help"
"$PCP_BINADM_DIR/pmlogconf" -q /tmp/pmlogger-c.config >/dev/null 2>&1
grep -q '^[[:space:]]*meas.cgroup$' /tmp/pmlogger-c.config
ok $? "pmlogconf enables the cgroups' group (tools/pmda/meas-cgroup.pmlogconf)"
# Replay: pmlogger records meas.cgroup at 1 s, its first frames and its
# last while the service's one thread is stopped, at the values the live
# reads took then: the replayed CPU over every interval is the live
# meas.cgroup.cpu delta exactly, and cpu.stat's within 10% as above.
C=/tmp/pcp-cgroup
{ echo 'log mandatory on 1 sec {'; sed -n 's/^\t\(meas\..*\)/\t\1/p' tools/pmda/meas-cgroup.pmlogconf; echo '}'; } >/tmp/cgroup1s.config
"$PCP_BINADM_DIR/pmlogger" -c /tmp/cgroup1s.config -l /tmp/pmlogger-c.log "$C" &
lpid=$!
until_recorded 2 "$C" meas.cgroup.threads
kill -CONT $cpid
sleep 4
kill -STOP $cpid
sleep 0.5
c1=$(ccpu) k1=$(kcpu)
r1=$(recorded "$C" meas.cgroup.threads)
until_recorded $((r1 + 2)) "$C" meas.cgroup.threads
kill -INT "$lpid"
wait "$lpid"
python3 -c "import sys; c, k = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if k > 5e8 and abs(c - k) <= 0.1 * k else 1)" \
	$((${c1:-0} - ${c0:-0})) $((${k1:-0} - ${k0:-0}))
ok $? "while recorded: meas.cgroup.cpu +$((${c1:-0} - ${c0:-0})) ns, cpu.stat +$((${k1:-0} - ${k0:-0})) ns (10%)"
$M --json cgroup --archive "$C" >/tmp/rep.cgroup 2>&1
ok $? "measctl --json cgroup --archive ($(wc -l </tmp/rep.cgroup) intervals)"
python3 selftests/pcp/views.py cgcpu /tmp/rep.cgroup /meas-pcp.slice/spin.service \
	$((${c1:-0} - ${c0:-0})) >/tmp/agree.out 2>&1
ok $? "cgroup: the service's CPU replayed = the live delta: $(cat /tmp/agree.out)"
$M cgroup --archive "$C" -n 2 >/tmp/rep.cgroup.txt 2>&1 &&
	[ "$(grep -c '^measctl cgroup  interval .*paths cut to 3 levels' /tmp/rep.cgroup.txt)" -eq 2 ] &&
	grep -q '^ *%CPU ' /tmp/rep.cgroup.txt && grep -q ' spin.service' /tmp/rep.cgroup.txt
ok $? "measctl cgroup --archive -n 2 prints the live view's table"
kill -KILL $cpid
wait $cpid 2>/dev/null
rmdir $CGS /sys/fs/cgroup/meas-pcp.slice 2>/dev/null
# ---- end of cgroups -------------------------------------------------------

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
