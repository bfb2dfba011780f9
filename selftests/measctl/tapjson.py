# SPDX-License-Identifier: GPL-2.0
"""TAP checks over measctl's JSON output, for the measctl shell tests.

    t = Tap(folder, first, prefix)   # numbering goes on after first
    d = t.load("out.json")           # {} (and a comment) if unreadable
    t.ok(cond, "what")               # "ok N - prefix: what" or "not ok ..."
    sys.exit(t.bad)
"""
import json
import os


class Tap:
    def __init__(self, folder, first, prefix):
        self.folder = folder
        self.n = first
        self.prefix = prefix
        self.bad = 0

    def ok(self, cond, what):
        self.n += 1
        print("%s %d - %s: %s" % ("ok" if cond else "not ok", self.n,
                                  self.prefix, what))
        self.bad |= not cond

    def load(self, name):
        try:
            with open(os.path.join(self.folder, name)) as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            print("# %s: %s" % (name, e))
            return {}
