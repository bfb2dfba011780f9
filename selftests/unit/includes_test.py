#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test scripts/includes.py on small trees made here, so that it cannot
pass without looking: a clean tree passes, and each broken rule fails
the check that names it, with a message that names the include.

  selftests/unit/includes_test.py

Prints TAP; exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(TOP, 'scripts', 'includes.py')

RULES = """
[mod]
root = mod
search = .
levels =
	logic/
	core/
	a/ b/
	./
shared =
	# a header that declares another unit's function, on purpose
	core/d.h
allow =
	# the one meant include across a level
	a/a.c -> b/b.h
"""

# A tree that keeps every rule: the top includes everything, areas
# include the floor, a/ includes b/ once, as allowed.
CLEAN = {
    'logic/l.h': '',
    'logic/l.c': '#include "l.h"\n',
    'core/c.h': '#include "logic/l.h"\n',
    'core/c.c': '#include "c.h"\n#include "d.h"\n\nint cfun(void)\n{\n\treturn 0;\n}\n',
    'core/d.h': 'int cfun(void);\n',
    'a/a.h': '#include "core/c.h"\n',
    'a/a.c': '#include "a.h"\n#include "b/b.h"\n#include <linux/x.h>\n',
    'b/b.h': '',
    'b/b.c': '#include "b.h"\n#include "core/c.h"\n',
    'main.c': '#include "a/a.h"\n#include "b/b.h"\n',
}

# name, files changed or added, the failing check(s), words the output has
CASES = [
    ('an area includes another area outside the allow list',
     {'b/x.c': '#include "a/a.h"\n'},
     3, ['b/x.c includes a/a.h', 'not in the allow list']),
    ('the floor includes an area',
     {'core/e.c': '#include "b/b.h"\n'},
     2, ['core/e.c includes b/b.h', 'above it']),
    ('pure logic includes the floor',
     {'logic/m.c': '#include "core/d.h"\n'},
     2, ['logic/m.c includes core/d.h']),
    ('a circle of two units within a folder',
     {'b/x.c': '#include "x.h"\n#include "y.h"\n', 'b/x.h': '',
      'b/y.c': '#include "y.h"\n#include "x.h"\n', 'b/y.h': ''},
     4, ['circle of 2 units (b/x, b/y): b/x -> b/y -> b/x']),
    ('a circle of three headers',
     {'core/p.h': '#include "q.h"\n', 'core/q.h': '#include "r.h"\n',
      'core/r.h': '#include "p.h"\n'},
     4, ['circle of 3 units (core/p.h, core/q.h, core/r.h): '
         'core/p.h -> core/q.h -> core/r.h -> core/p.h']),
    ('a circle through the allowed include',
     {'b/b.c': '#include "b.h"\n#include "a/a.h"\n'},
     {3, 4}, ['b/b.c includes a/a.h', 'circle of 2 units (a/a, b/b): a/a -> b/b -> a/a']),
    ('an include that resolves to no file',
     {'a/a.c': '#include "a.h"\n#include "b/b.h"\n#include "gone.h"\n'},
     1, ['a/a.c: "gone.h" is no file']),
    ('a file in no group',
     {'other/o.c': ''},
     1, ['other/o.c: in no group']),
    ('a header that declares what another unit defines',
     {'b/b.h': 'int bfun(int x);\nextern int bvar[4];\n',
      'b/x.c': 'int bvar[4];\n\nint bfun(int x)\n{\n\treturn x;\n}\n'},
     5, ['b/b.h declares bfun, which b/x.c defines: declare it in b/x.h',
         'b/b.h declares bvar, which b/x.c defines']),
    ('a shared entry whose header declares nothing of another unit',
     {'core/d.h': ''},
     5, ['shared: core/d.h declares nothing of another unit']),
    ('an allow entry no include uses',
     {'a/a.c': '#include "a.h"\n'},
     3, ['a/a.c -> b/b.h is no include any more']),
]


def make_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, 'mod', rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    with open(os.path.join(root, 'rules'), 'w', encoding='utf-8') as f:
        f.write(RULES)


def run(files):
    with tempfile.TemporaryDirectory() as d:
        make_tree(d, files)
        p = subprocess.run([sys.executable, CHECK, '--rules',
                            os.path.join(d, 'rules'), '--top', d],
                           capture_output=True, text=True, check=False)
    return p.returncode, p.stdout + p.stderr


def failed_checks(out):
    """The numbers of the TAP lines that say not ok."""
    return {int(line.split()[2]) for line in out.splitlines()
            if line.startswith('not ok ')}


def main():
    n, bad = 0, 0
    print('TAP version 13')
    print(f'1..{2 + len(CASES)}')

    def result(ok, what, out):
        nonlocal n, bad
        n += 1
        print(f'{"ok" if ok else "not ok"} {n} - includes.py: {what}')
        if not ok:
            bad += 1
            for line in out.splitlines():
                print(f'#   {line}')

    rc, out = run(CLEAN)
    result(rc == 0 and not failed_checks(out) and 'ok 5 - mod' in out,
           'a tree that keeps the rules passes', out)
    result('across a level: a/a.c -> b/b.h (allowed)' in out and
           '# mod: a/ -> core/: 1 includes' in out,
           'it prints the includes it found between groups', out)
    for name, change, check, words in CASES:
        rc, out = run({**CLEAN, **change})
        want = check if isinstance(check, set) else {check}
        ok = rc == 1 and failed_checks(out) == want and \
            all(w in out for w in words)
        result(ok, f'{name}: check {", ".join(map(str, sorted(want)))} '
               f'fails and says so', out)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
