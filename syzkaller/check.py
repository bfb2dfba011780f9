#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check syzkaller/dev_meas.txt without syzkaller, against the uapi headers.

  syzkaller/check.py [--const OUT]

- syntax: every line is a comment, an include, a resource, a type alias,
  a flags list, a call, or part of a struct or union; brackets balance;
- names: every type used is defined here, is a syzkaller builtin, or is
  one of the sys/linux templates the file relies on (listed below);
- constants: every upper-case name is compiled against
  uapi/linux/meas*.h (a name the headers lack fails), and
  with --const the values are written as syzkaller's .const file;
- layout: the size of each struct, computed as syzkaller lays it out
  (natural alignment, no packing), equals sizeof() of the C struct of
  the same name.

Prints TAP; exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESC = os.path.join(TOP, 'syzkaller', 'dev_meas.txt')

BUILTIN = {'int8', 'int16', 'int32', 'int64', 'intptr', 'const', 'flags',
           'array', 'ptr', 'ptr64', 'buffer', 'string', 'stringnoz',
           'filename', 'len', 'bytesize', 'bitsize', 'vma', 'proc', 'void',
           'fd', 'pid', 'parent', 'opt', 'in', 'out', 'inout', 'varlen'}
# from sys/linux: sockets, netlink templates, open/mmap/send flags
SYS_LINUX = {'sock_nl_generic', 'msghdr_netlink', 'netlink_msg_t',
             'genlmsghdr_t', 'nlattr', 'open_flags', 'mmap_prot',
             'mmap_flags', 'send_flags', 'AT_FDCWD'}
# constants the headers do not define (syzkaller's own or C's)
NOT_MEAS = {'AT_FDCWD'}

SIZES = {'int8': 1, 'int16': 2, 'int32': 4, 'int64': 8, 'intptr': 8,
         'ptr64': 8, 'ptr': 8, 'fd': 4, 'pid': 4, 'filename': 8}

results = []


def tap(ok, what, detail=''):
    results.append((ok, what, detail))


def split_args(s):
    """Split 'a, b[c, d], e' at top-level commas."""
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '[(':
            depth += 1
        elif ch in '])':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(text):
    """The file as (structs, unions, flags, resources, aliases, calls)."""
    structs, unions, flags, resources, aliases, calls = {}, {}, {}, {}, {}, []
    errors = []
    block, kind, body = None, None, []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split('#', 1)[0].rstrip() if not raw.lstrip().startswith('#') else ''
        if not line.strip():
            continue
        if block:
            if line.startswith('}') or line.startswith(']'):
                (structs if kind == 'struct' else unions)[block] = body
                block = None
                continue
            m = re.match(r'^\t(\w+)\t+(.+?)(\t+\((in|out|inout)\))?$', line)
            if not m:
                errors.append('%d: bad field: %r' % (no, raw))
                continue
            body.append((m.group(1), m.group(2).strip()))
            continue
        if line.startswith('include <') and line.endswith('>'):
            continue
        m = re.match(r'^resource (\w+)\[(\w+)\]$', line)
        if m:
            resources[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^type (\w+)(\[[\w, ]+\])? (.+)$', line)
        if m:
            # a template's parameters are not names of their own
            params = set(type_names(m.group(2) or ''))
            aliases[m.group(1)] = ' '.join(n for n in type_names(m.group(3))
                                           if n not in params)
            continue
        m = re.match(r'^(\w+) = (.+)$', line)
        if m:
            flags[m.group(1)] = split_args(m.group(2))
            continue
        m = re.match(r'^(\w+) ([{\[])$', line)
        if m:
            block, kind, body = m.group(1), 'struct' if m.group(2) == '{' else 'union', []
            continue
        m = re.match(r'^([\w$]+)\((.*)\)( \w+)?$', line)
        if m:
            calls.append((m.group(1), split_args(m.group(2)), (m.group(3) or '').strip()))
            continue
        errors.append('%d: not understood: %r' % (no, raw))
    if block:
        errors.append('struct or union %s not closed' % block)
    return structs, unions, flags, resources, aliases, calls, errors


def type_names(t):
    """Every identifier in a type expression."""
    return re.findall(r'[A-Za-z_]\w*', re.sub(r'"[^"]*"', '', t))


def c_consts(names):
    """Compile the constants against the headers: {name: value} or None."""
    src = ['#include <stdio.h>', '#include <linux/meas.h>',
           '#include <linux/meas_task.h>', 'int main(void) {']
    for n in sorted(names):
        src.append('\tprintf("%s = %%llu\\n", (unsigned long long)(%s));' % (n, n))
    src.append('\treturn 0;\n}')
    return compile_run('\n'.join(src))


def compile_run(src):
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, 'x.c'), os.path.join(d, 'x')
        with open(c, 'w') as f:
            f.write(src)
        r = subprocess.run(['cc', '-w', '-I', os.path.join(TOP, 'uapi'), '-o', exe, c],
                           capture_output=True, text=True)
        if r.returncode:
            return None, r.stderr
        out = subprocess.run([exe], capture_output=True, text=True).stdout
    return out, ''


def field_size(t, structs, consts):
    """(size, align) of a field type as syzkaller lays it out."""
    base = t.split('[', 1)[0]
    args = split_args(t[len(base) + 1:-1]) if '[' in t else []
    if base in SIZES:
        return SIZES[base], SIZES[base]
    if base in ('const', 'flags', 'len', 'bytesize'):
        s = SIZES[args[1]]
        return s, s
    if base == 'string':
        n = args[1]
        return int(consts.get(n, n), 0), 1
    if base == 'array':
        es, ea = field_size(args[0], structs, consts)
        n = args[1]
        return es * int(consts.get(n, n), 0), ea
    if base in structs:
        return struct_size(base, structs, consts)
    return SIZES.get(base, 4), SIZES.get(base, 4)   # a resource: fd, pid


def struct_size(name, structs, consts):
    off, align = 0, 1
    for _, t in structs[name]:
        s, a = field_size(t, structs, consts)
        off = (off + a - 1) // a * a + s
        align = max(align, a)
    return (off + align - 1) // align * align, align


def main():
    text = open(DESC).read()
    structs, unions, flags, resources, aliases, calls, errors = parse(text)
    tap(not errors, 'syntax: %d calls, %d structs, %d unions, %d flags'
        % (len(calls), len(structs), len(unions), len(flags)), '\n'.join(errors))
    tap(text.count('[') == text.count(']') and text.count('(') == text.count(')')
        and text.count('{') == text.count('}'), 'brackets balance')

    known = BUILTIN | SYS_LINUX | set(structs) | set(unions) | set(flags) \
        | set(resources) | set(aliases)
    used = set()
    for _, args, ret in calls:
        for a in args:
            used |= set(type_names(a.split(' ', 1)[1]))
        if ret:
            used.add(ret)
    for body in list(structs.values()) + list(unions.values()):
        for _, t in body:
            used |= set(type_names(t))
    for t in aliases.values():
        used |= set(type_names(t))
    consts = {n for n in used if n.isupper() or re.match(r'^[A-Z][A-Z0-9_]+$', n)}
    for vals in flags.values():
        consts |= {v for v in vals if re.match(r'^[A-Z][A-Z0-9_]+$', v)}
    argnames = {a.split(' ', 1)[0] for _, args, _ in calls for a in args}
    fields = {f for body in list(structs.values()) + list(unions.values()) for f, _ in body}
    unknown = sorted(used - known - consts - argnames - fields)
    tap(not unknown, 'every type is defined', 'unknown: ' + ', '.join(unknown))

    values = {}
    out, err = c_consts(consts - NOT_MEAS)
    tap(out is not None, '%d constants resolve in the uapi headers' % len(consts - NOT_MEAS), err)
    for line in (out or '').splitlines():
        n, v = line.split(' = ')
        values[n] = v
    ioctls = set(re.findall(r'#define (MEAS_IOC_\w+)\s+_IO', open(
        os.path.join(TOP, 'uapi/linux/meas_ioctl.h')).read())) - {'MEAS_IOC_TYPE'}
    described = {c.split('$', 1)[1] for c, _, _ in calls if c.startswith('ioctl$')}
    tap(ioctls <= described, 'every ioctl of the headers is described',
        'missing: ' + ', '.join(sorted(ioctls - described)))

    checks = [n for n in structs if n.startswith('meas_') and n not in
              ('meas_undefine', 'meas_describe')]
    src = ['#include <stdio.h>', '#include <linux/meas.h>',
           '#include <linux/meas_task.h>', 'int main(void) {']
    for n in checks:
        src.append('\tprintf("%s %%zu\\n", sizeof(struct %s));' % (n, n))
    src += ['\tprintf("meas_undefine %zu\\n", sizeof(struct meas_define));',
            '\tprintf("meas_describe %zu\\n", sizeof(struct meas_define));',
            '\treturn 0;\n}']
    out, err = compile_run('\n'.join(src)) if values else (None, 'no constants')
    bad = []
    for line in (out or '').splitlines():
        n, c_size = line.split()
        s, _ = struct_size(n, structs, values)
        if s != int(c_size):
            bad.append('%s: %d here, %s in C' % (n, s, c_size))
    tap(out is not None and not bad, 'struct sizes match the C structs (%d)'
        % (len(checks) + 2), err + '\n'.join(bad))

    if len(sys.argv) == 3 and sys.argv[1] == '--const':
        with open(sys.argv[2], 'w') as f:
            f.write('# Made by syzkaller/check.py --const from uapi/linux/meas*.h.\n')
            # _IO() is the same on these; mips and powerpc encode it apart
            f.write('arches = 386, amd64, arm, arm64, riscv64, s390x\n')
            for n in sorted(values):
                f.write('%s = %s\n' % (n, values[n]))

    print('TAP version 13')
    print('1..%d' % len(results))
    for i, (ok, what, detail) in enumerate(results, 1):
        if not ok and detail:
            for d in detail.splitlines():
                print('# ' + d)
        print('%s %d - syzkaller description: %s' % ('ok' if ok else 'not ok', i, what))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
