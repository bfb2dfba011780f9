#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check who includes whom, against the rules of scripts/includes.rules.

  scripts/includes.py [--rules FILE] [--top DIR] [SECTION...]

Each section of the rules names a folder of the tree and sorts its files
into groups (a folder, or one file), the groups into levels, lowest
first.  Every '#include "..."' of a .c or .h file is resolved (the
including file's folder first, then the section's search folders) and
checked:

- it resolves to a file of the section;
- a group includes only its own headers and those of lower levels;
- two groups of one level include each other's headers only where the
  section's allow list names the include (FILE -> HEADER), and every
  entry of that list is still used;
- no include circle between units: a unit is a .c file and the .h of the
  same name, or a header without a .c of its own; unit A depends on unit
  B when a file of A includes B's header;
- each header declares only the functions and variables its own unit
  defines, unless the section lists it as shared.  With one header per
  unit the includes show the calls: a circle of includes is a circle of
  calls, and a circle of calls cannot hide behind a shared header.

Prints what it found and TAP; exits 1 on any failure.  The rules are
data: another tree (tools/) is one more section, no code.
"""
import argparse
import configparser
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# What a file defines and a header declares, at file scope (column 0, as
# kernel style writes it): a regular-expression reading, which may miss a
# name, never invent one, so that check 5 fails only on a real finding.
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
PREPROC = re.compile(r'^#(?:[^\n]*\\\n)*[^\n]*', re.M)
FUNC_DEF = re.compile(r'^(?!static\b)[A-Za-z_][^;{}()=]*?\b(\w+)\s*\([^;{}]*\)\s*\{', re.M)
VAR_DEF = re.compile(r'^(?!static\b|extern\b|typedef\b|struct \w+ \{|enum\b|union\b)'
                     r'[A-Za-z_][\w \t*]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)*(?:=|;)', re.M)
MACRO_DEF = re.compile(r'^(?:DEFINE_\w+|EXPORT_\w+)\((\w+)', re.M)
FUNC_DECL = re.compile(r'^(?!static\b)[A-Za-z_][^;{}()=]*?\b(\w+)\s*\([^;{}]*\)\s*;', re.M)
VAR_DECL = re.compile(r'^extern\b[^;(]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)*;', re.M)


class Section:
    """One folder of the tree and its rules."""

    def __init__(self, name, cfg, top):
        self.name = name
        self.root = os.path.normpath(os.path.join(top, cfg['root']))
        self.search = cfg.get('search', '.').split()
        self.levels = []  # [[group, ...], ...] lowest first
        self.level_of = {}
        for n, line in enumerate(cfg['levels'].strip().splitlines()):
            groups = [g.rstrip('/') or '.' for g in line.split()]
            self.levels.append(groups)
            for g in groups:
                self.level_of[g] = n
        self.shared = set(cfg.get('shared', '').split())
        self.allow = {}
        for line in cfg.get('allow', '').strip().splitlines():
            if not line.strip():
                continue
            m = re.fullmatch(r'\s*(\S+)\s*->\s*(\S+)\s*', line)
            if not m:
                raise ValueError(f'{name}: allow: "{line}" is not FILE -> HEADER')
            self.allow[(m.group(1), m.group(2))] = False

    def group(self, rel):
        """The group of a file: a file group, else its longest folder."""
        if rel in self.level_of:
            return rel
        d = os.path.dirname(rel)
        while d:
            if d in self.level_of:
                return d
            d = os.path.dirname(d)
        return '.' if '.' in self.level_of and '/' not in rel else None

    def files(self):
        out = []
        for d, dirs, fnames in os.walk(self.root):
            dirs.sort()
            for f in sorted(fnames):
                if f.endswith(('.c', '.h')) and not f.endswith('.mod.c'):
                    out.append(os.path.relpath(os.path.join(d, f), self.root))
        return out

    def resolve(self, rel, inc):
        for base in [os.path.dirname(rel)] + self.search:
            cand = os.path.normpath(os.path.join(base, inc))
            if os.path.isfile(os.path.join(self.root, cand)) and \
               not cand.startswith('..'):
                return cand
        return None


def shown(group):
    """A group as the rules write it: folders end in /."""
    if group == '.':
        return './'
    return group if group.endswith(('.c', '.h')) else group + '/'


def unit_of(rel, files):
    """A .c and its .h are one unit; a header without a .c is its own."""
    stem = rel[:-2]
    return stem if stem + '.c' in files else rel


def names(text, header):
    """The names a header declares, or a .c file defines."""
    text = PREPROC.sub('', COMMENT.sub('', text))
    if header:
        return set(FUNC_DECL.findall(text)) | set(VAR_DECL.findall(text))
    return set(FUNC_DEF.findall(text)) | set(VAR_DEF.findall(text)) | \
        set(MACRO_DEF.findall(text))


def circles(edges):
    """The strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = sorted(set(edges) | {b for v in edges.values() for b in v})

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def one_cycle(comp, edges):
    """A path through a circle, for the message: a -> b -> ... -> a."""
    start = comp[0]
    members = set(comp)
    prev = {start: None}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, what, why):
        self.n += 1
        print(f'{"ok" if ok else "not ok"} {self.n} - {what}')
        for line in why:
            print(f'#   {line}')
        if not ok:
            self.failed += 1


def check(sec, tap):
    files = sec.files()
    fileset = set(files)
    bad_group, unresolved, upward, across = [], [], [], []
    edges = {}
    between = {}
    nincl = 0
    texts = {}
    for rel in files:
        g = sec.group(rel)
        if g is None:
            bad_group.append(f'{rel}: in no group of the levels')
            continue
        with open(os.path.join(sec.root, rel), encoding='utf-8') as f:
            text = f.read()
        texts[rel] = text
        for inc in INCLUDE.findall(text):
            nincl += 1
            to = sec.resolve(rel, inc)
            if to is None:
                unresolved.append(f'{rel}: "{inc}" is no file of {sec.name}/')
                continue
            h = sec.group(to)
            if h is None:
                bad_group.append(f'{to}: in no group of the levels')
                continue
            a, b = unit_of(rel, fileset), unit_of(to, fileset)
            if a != b:
                edges.setdefault(a, set()).add(b)
            if g == h:
                continue
            between.setdefault((g, h), set()).add(f'{rel} -> {to}')
            la, lb = sec.level_of[g], sec.level_of[h]
            if lb > la:
                upward.append(f'{rel} includes {to}: {shown(g)} (level {la}) '
                              f'may not include {shown(h)} (level {lb}), '
                              f'above it')
            elif lb == la:
                if (rel, to) in sec.allow:
                    sec.allow[(rel, to)] = True
                else:
                    across.append(f'{rel} includes {to}: {shown(g)} and '
                                  f'{shown(h)} are of one level; not in '
                                  f'the allow list')

    units = len(set(unit_of(f, fileset) for f in files))
    print(f'# {sec.name}: {len(files)} files, {units} units, '
          f'{nincl} includes, {len(sec.levels)} levels')
    for n, groups in enumerate(sec.levels):
        print(f'# {sec.name}: level {n}: ' + ' '.join(map(shown, groups)))
    for (g, h), incs in sorted(between.items(), key=lambda x: (
            -sec.level_of[x[0][0]], x[0][0], x[0][1])):
        if sec.level_of[g] != sec.level_of[h]:
            print(f'# {sec.name}: {shown(g)} -> {shown(h)}: '
                  f'{len(incs)} includes')
            continue
        for i in sorted(incs):
            a, b = i.split(' -> ')
            tag = ' (allowed)' if (a, b) in sec.allow else ''
            print(f'# {sec.name}: across a level: {i}{tag}')

    tap.result(not bad_group and not unresolved,
               f'{sec.name}: every file is in a group, every include resolves',
               bad_group + unresolved)
    tap.result(not upward,
               f'{sec.name}: no group includes a group above it', upward)
    stale = [f'allow: {a} -> {b} is no include any more: remove it'
             for (a, b), used in sec.allow.items() if not used]
    tap.result(not across and not stale,
               f'{sec.name}: groups of one level include each other only as '
               f'allowed ({len(sec.allow)} allowed)', across + stale)
    found = circles(edges)
    tap.result(not found,
               f'{sec.name}: no include circle between units',
               [f'circle of {len(c)} units ({", ".join(c)}): ' +
                ' -> '.join(one_cycle(c, edges)) for c in found])
    tap.result(*own_headers(sec, files, fileset, texts))


def own_headers(sec, files, fileset, texts):
    """Check 5: each header declares only what its own unit defines."""
    defined = {}
    for rel in files:
        if rel.endswith('.c') and rel in texts:
            for n in names(texts[rel], False):
                defined.setdefault(n, rel)
    wrong, unused = [], set(sec.shared)
    for rel in files:
        if not rel.endswith('.h') or rel not in texts:
            continue
        unit = unit_of(rel, fileset)
        for n in sorted(names(texts[rel], True)):
            at = defined.get(n)
            if at is None or unit_of(at, fileset) == unit:
                continue
            if rel in sec.shared:
                unused.discard(rel)
                continue
            wrong.append(f'{rel} declares {n}, which {at} defines: '
                         f'declare it in {at[:-2]}.h')
    wrong += [f'shared: {h} declares nothing of another unit: remove it'
              for h in sorted(unused)]
    return (not wrong, f'{sec.name}: each header declares only its own '
            f'unit\'s names ({len(sec.shared)} shared)', wrong)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rules', default=os.path.join(TOP, 'scripts', 'includes.rules'))
    ap.add_argument('--top', default=TOP)
    ap.add_argument('sections', nargs='*')
    args = ap.parse_args()
    cfg = configparser.ConfigParser(inline_comment_prefixes=('#',),
                                    interpolation=None)
    if not cfg.read(args.rules):
        print(f'includes.py: no rules file {args.rules}', file=sys.stderr)
        return 1
    wanted = args.sections or cfg.sections()
    tap = Tap()
    print('TAP version 13')
    print(f'1..{5 * len(wanted)}')
    for name in wanted:
        if name not in cfg:
            print(f'includes.py: no section [{name}] in {args.rules}',
                  file=sys.stderr)
            return 1
        check(Section(name, cfg[name], args.top), tap)
    if tap.failed:
        print(f'# includes: {tap.failed} rule(s) broken; the rules and their '
              f'reasons: {os.path.relpath(args.rules, args.top)}, '
              f'Documentation/internals.rst')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
