#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cgroup_named.py TREE.json CONTAINER_ID - the check of cgroup_real.sh's
"measctl cgroup names the service and the container": in the tree
measctl printed as JSON, the service meas-cgr-named.service is a row by
its unit, with stops for the disc (its direct reads) and their mean wait
(DISC-MS: greater than 0, the paused time over those stops), and the container
is a row by its ID (a prefix of podman's), with CPU time and stops.
Exits 0 if so, 1 otherwise, printing what it found as TAP comments."""
import json
import sys

UNIT = "meas-cgr-named.service"


def stops(row):
    return sum(v for k, v in row["items"].items() if k.startswith("stops-"))


def disc_stops(row):
    return (row["items"]["stops-disc-blocked"] +
            row["items"]["stops-disc-unblocked"])


def main():
    rows = json.load(open(sys.argv[1]))["cgroups"]
    cid = sys.argv[2]
    svc = [r for r in rows if r.get("unit") == UNIT]
    ct = [r for r in rows
          if r.get("container_id") and cid.startswith(r["container_id"])]
    for what, found in (("service", svc), ("container", ct)):
        for r in found:
            print(f"# {what}: {r['path']} named {r['name']}: "
                  f"cpu {r['cpu_ns']} ns, stops {stops(r)}, "
                  f"disc stops {disc_stops(r)}, mean disc wait "
                  f"{r['disc_wait_per_stop_ns']} ns")
    ok = (svc and disc_stops(svc[0]) > 0 and
          svc[0]["disc_wait_per_stop_ns"] ==
          svc[0]["items"]["paused-disc-ns"] // disc_stops(svc[0]) and
          svc[0]["disc_wait_per_stop_ns"] > 0 and
          ct and ct[0]["cpu_ns"] > 0 and stops(ct[0]) > 0)
    if not ok:
        print(f"# want {UNIT} with disc stops and their wait, "
              f"and container {cid[:12]} with CPU and stops")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
