#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The live and replayed views of measctl, compared (pcp_guest.sh).

  views.py writes FILE          vda's writes over every interval of an
                                iostat --json output
  views.py window FILE          a watch --json output's time window, in
                                PCP's syntax: START|FINISH|INTERVALS
  views.py agree LIVE REPLAY    watch's totals of forks, execs and busy
                                CPU time, live and replayed, agree
  views.py topcpu LIVE REPLAY COMMAND
                                top's CPU seconds of COMMAND, live and
                                replayed, agree (10%), and are over 1 s
  views.py cgcpu REPLAY PATH LIVE_NS
                                cgroup --archive's CPU ns of PATH over
                                every interval equal LIVE_NS (the live
                                meas.cgroup.cpu delta), over 0.5 s; the
                                header says the paths are cut to 3
                                levels; the series' 21 items, no other

Exit status 0 when the check holds; a line saying what was compared.
"""
import datetime
import json
import sys


def docs(path):
    """The JSON documents of a file, one per line; other lines skipped."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                out.append(json.loads(line))
    return out


def writes(path):
    print(sum(d["writes"] for doc in docs(path) for d in doc["disks"]
              if d["device"] == "vda"))
    return 0


def pcp_time(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


def window(path):
    """From the start of the first interval to the end of the last, whole
    seconds outward: PCP's absolute times take no fraction."""
    d = docs(path)
    first = datetime.datetime.fromisoformat(d[0]["time"])
    start = first - datetime.timedelta(seconds=d[0]["elapsed_s"])
    end = datetime.datetime.fromisoformat(d[-1]["time"])
    end = end.replace(microsecond=0) + datetime.timedelta(seconds=1)
    print(f"{pcp_time(start.replace(microsecond=0))}|{pcp_time(end)}|{len(d)}")
    return 0


def totals(path):
    t = {}
    for doc in docs(path):
        for it in doc["items"]:
            t[it["name"]] = t.get(it["name"], 0) + it["delta"]
    return t


def agree(live, replay):
    """Each total within its tolerance: the two windows differ by under a
    second at each edge (whole seconds, interpolation), where the test
    keeps its workload away; 200 forks and 3 s of CPU are in the middle."""
    lt, rt = totals(live), totals(replay)
    checks = [("forks", 0.05, 10), ("execs", 0.05, 10),
              ("time-cpu-ns", 0.10, 0)]
    ok = True
    msg = []
    for name, rel, slack in checks:
        lv, rv = lt.get(name, 0), rt.get(name, 0)
        good = lv > 0 and abs(lv - rv) <= rel * lv + slack
        ok = ok and good
        if name.endswith("-ns"):
            msg.append(f"{name} {lv / 1e9:.3f} s / {rv / 1e9:.3f} s")
        else:
            msg.append(f"{name} {lv} / {rv}")
    print(", ".join(msg) + ("" if ok else " (out of tolerance)"))
    return 0 if ok else 1


def cpu_secs(path, command):
    return sum(p["cpu_pct"] / 100 * doc["elapsed_s"] for doc in docs(path)
               for p in doc["processes"] if p["command"] == command)


def topcpu(live, replay, command):
    lv, rv = cpu_secs(live, command), cpu_secs(replay, command)
    ok = lv > 1 and abs(lv - rv) <= 0.10 * lv
    print(f"{lv:.3f} s live, {rv:.3f} s replayed" + ("" if ok else " (out of tolerance)"))
    return 0 if ok else 1


# The class 15 items meas.cgroup.* has series of (cpu, runnable wait,
# launches, 9 stop reasons, 5 pause reasons, disc reads, writes, bytes read
# and bytes): a replay gives these, and no other.
CG_SERIES_ITEMS = 21


def cgcpu(replay, path, live_ns):
    """Exact: the archive's first and last frames were recorded while the
    cgroup's one thread was stopped, at the live reads' values."""
    d = docs(replay)
    rv = sum(c.get("cpu_ns", 0) for doc in d for c in doc["cgroups"]
             if c["path"] == path)
    keys = {k for doc in d for c in doc["cgroups"] for k in c["items"]}
    lv = int(live_ns)
    cut = all(doc.get("path_depth") == 3 and "archive" in doc for doc in d)
    ok = lv > 5e8 and rv == lv and cut and len(keys) == CG_SERIES_ITEMS
    print(f"{len(d)} intervals, {path} {rv} ns replayed, {lv} ns live, "
          f"{len(keys)} items, paths cut to 3: {cut}"
          + ("" if ok else " (disagree)"))
    return 0 if ok else 1


def main(argv):
    cmds = {"writes": (writes, 1), "window": (window, 1), "agree": (agree, 2),
            "topcpu": (topcpu, 3), "cgcpu": (cgcpu, 3)}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) != 2 + cmds[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    fn, _ = cmds[argv[1]]
    try:
        return fn(*argv[2:])
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"views.py {argv[1]}: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
