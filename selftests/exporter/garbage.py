#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Garbage and half-open requests against meas-exporter, bounded in count
and time, then one proper scrape that must still succeed.

  garbage.py HOST PORT MAX_CONNECTIONS TIMEOUT_S

Prints TAP lines "ok N - PREFIX: ..." / "not ok N - ..." (numbered from
TAP_FIRST, default 1; PREFIX from TAP_PREFIX) and exits 1 if one fails.
"""
import os
import random
import socket
import sys
import time

host, port = sys.argv[1], int(sys.argv[2])
max_conns, timeout_s = int(sys.argv[3]), int(sys.argv[4])
n = int(os.environ.get("TAP_FIRST", "1")) - 1
prefix = os.environ.get("TAP_PREFIX", "exporter")
failed = 0
rng = random.Random(14)


def ok(cond, desc):
    global n, failed
    n += 1
    print(("ok %d - %s: %s" if cond else "not ok %d - %s: %s") % (n, prefix, desc))
    if not cond:
        failed += 1


def connect():
    s = socket.create_connection((host, port), timeout=5)
    s.settimeout(5)
    return s


def exchange(data, half_close=False):
    """Send data (then end our side: the server sees the end at once),
    return what comes back until close (b'' on errors), None if refused."""
    try:
        s = connect()
    except OSError:
        return None
    got = b""
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        while len(got) < 1 << 20:
            b = s.recv(65536)
            if not b:
                break
            got += b
    except OSError:
        pass
    finally:
        s.close()
    return got


def scrape():
    return exchange(b"GET /metrics HTTP/1.0\r\nHost: t\r\n\r\n")


def good(r):
    return bool(r) and r.startswith(b"HTTP/1.") and b" 200 " in r[:16] \
        and r.rstrip().endswith(b"# EOF")


ok(good(scrape()), "a proper scrape first")

# 1. random bytes, 200 connections
answers = 0
for i in range(200):
    r = exchange(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2048))),
                 True)
    if r is not None and (r == b"" or r.startswith(b"HTTP/1.")):
        answers += 1
ok(answers == 200, "200 connections of random bytes: closed or answered with HTTP")

# 2. request lines and headers beyond the memory bound
r = exchange(b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: t\r\n\r\n", True)
ok(r is not None and b" 200 " not in (r or b"")[:16], "a 64 KiB request line is refused")
r = exchange(b"GET /metrics HTTP/1.1\r\nHost: t\r\nX: " + b"b" * 65536 + b"\r\n\r\n", True)
ok(r is not None and b" 200 " not in (r or b"")[:16], "a 64 KiB header is refused")

# 3. methods other than GET, and a body
for m in (b"POST", b"PUT", b"DELETE", b"HEAD", b"OPTIONS"):
    r = exchange(m + b" /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nabcd", True)
    ok(r is not None and r[:16].find(b" 405 ") > 0, "%s is refused with 405" % m.decode())

# 4. half-open connections, more than the server takes at once
held = []
for i in range(max_conns + 4):
    try:
        s = connect()
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: t\r\n")    # no end of headers
        held.append(s)
    except OSError:
        pass
ok(len(held) >= 1, "%d half-open connections made" % len(held))

# the server closes them after its timeout; then a scrape succeeds
deadline = time.monotonic() + timeout_s + 30
closed = 0
for s in held:
    s.settimeout(max(1, deadline - time.monotonic()))
    try:
        if s.recv(1) == b"":
            closed += 1
    except OSError:
        closed += 1
    s.close()
ok(closed == len(held), "the server closed every half-open connection (%d of %d)"
   % (closed, len(held)))
r = None
for i in range(30):
    r = scrape()
    if good(r):
        break
    time.sleep(1)
ok(good(r), "a proper scrape after the garbage")
sys.exit(1 if failed else 0)
