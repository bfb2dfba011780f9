# SPDX-License-Identifier: GPL-2.0
"""Headless Chromium over the DevTools protocol on a pipe, for the picture
tests: no network, no websocket library, nothing but Debian's chromium.

    with Browser(profile_dir) as b:
        page = b.open("file:///abs/picture.svg")  # waits for the load event
        page.eval("document.querySelectorAll('rect').length")
        page.screenshot("build/pictures/x.png")
        page.errors                                # console errors, exceptions

Chromium speaks the protocol on file descriptors 3 (commands) and 4
(replies and events), one JSON message per NUL-terminated record.
"""
import base64
import json
import os
import select
import subprocess
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps",
         "--hide-scrollbars", "--remote-debugging-pipe"]


class Error(Exception):
    pass


class Browser:
    def __init__(self, profile_dir, binary="chromium", timeout=60):
        self.timeout = timeout
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # the child's fds 3 and 4, whatever numbers the pipes got here
        # (pass_fds keeps them open after preexec_fn put them there)
        def setup():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)
        self.proc = subprocess.Popen(
            [binary] + FLAGS + ["--user-data-dir=" + profile_dir,
                                "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile_dir, "chromium.log"), "w"),
            preexec_fn=setup, pass_fds=(3, 4))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.send("Browser.close", wait=False)
        except (Error, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Error("no reply from chromium in %d s" % self.timeout)
            r, _, _ = select.select([self.from_chrome], [], [], left)
            if not r:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise Error("chromium closed the pipe (exit %s)"
                            % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, wait=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise Error("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session, deadline):
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method and m.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def open(self, url, width=1280, height=900):
        t = self.send("Target.createTarget", {"url": "about:blank"})
        s = self.send("Target.attachToTarget",
                      {"targetId": t["targetId"], "flatten": True})
        page = Page(self, s["sessionId"])
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable", session=page.session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": False}, session=page.session)
        self.send("Page.navigate", {"url": url}, session=page.session)
        self.wait_event("Page.loadEventFired", page.session,
                        time.monotonic() + self.timeout)
        return page


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.session = session

    @property
    def requests(self):
        """Every URL the page asked for."""
        return [m["params"]["request"]["url"] for m in self.b.events
                if m.get("sessionId") == self.session and
                m.get("method") == "Network.requestWillBeSent"]

    @property
    def errors(self):
        """Console errors, uncaught exceptions and error log entries."""
        out = []
        for m in self.b.events:
            if m.get("sessionId") != self.session:
                continue
            p = m.get("params", {})
            if m.get("method") == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: %s %s" % (
                    d.get("text", ""),
                    d.get("exception", {}).get("description", "")))
            elif (m.get("method") == "Runtime.consoleAPICalled" and
                  p.get("type") in ("error", "assert")):
                out.append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description", "")))
                    for a in p.get("args", []))))
            elif (m.get("method") == "Log.entryAdded" and
                  p.get("entry", {}).get("level") == "error"):
                e = p["entry"]
                out.append("log: %s %s" % (e.get("text"), e.get("url", "")))
        return out

    def eval(self, expr):
        r = self.b.send("Runtime.evaluate",
                        {"expression": expr, "returnByValue": True},
                        session=self.session)
        if "exceptionDetails" in r:
            raise Error("%s: %s" % (expr, r["exceptionDetails"].get(
                "exception", {}).get("description", r["exceptionDetails"])))
        return r.get("result", {}).get("value")

    def screenshot(self, path, full=True):
        params = {"format": "png"}
        if full:
            m = self.b.send("Page.getLayoutMetrics", session=self.session)
            size = m.get("cssContentSize") or m.get("contentSize")
            params["clip"] = {"x": 0, "y": 0, "width": size["width"],
                              "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        r = self.b.send("Page.captureScreenshot", params,
                        session=self.session)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))
