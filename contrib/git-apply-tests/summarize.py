#!/usr/bin/env python3
"""summarize.py <out> [<script>...] -- the table of a run.sh run.

Reads <out>/logs/<script>.tap (git's TAP output) and <out>/logs/<script>.log
(the wrapper's log of `git apply` calls), joins the classification of
each failure from classes.tsv next to this file (script, test number,
class, note; a failure without a line there is "unclassified"), and
writes <out>/results.tsv and <out>/results.md, then prints the counts.
A test is applicable when at least one of its `git apply` calls was
routed to git ai-apply; a test whose calls all went to the real git
apply is listed as not applicable with the reasons.
"""
import os
import re
import sys
from collections import defaultdict, Counter

TAP = re.compile(r'^(not ok|ok) (\d+) - (.*?)( # TODO .*)?$')
SKIP = re.compile(r'^ok (\d+) # skip (.*)$')


def read_tap(path):
    tests = {}
    if not os.path.exists(path):
        return tests
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = SKIP.match(line)
        if m:
            tests[int(m.group(1))] = ('skip', m.group(2))
            continue
        m = TAP.match(line)
        if m:
            ok, num, title, todo = m.groups()
            res = 'pass' if ok == 'ok' else 'fail'
            if todo:
                res = 'todo-' + res
            tests[int(num)] = (res, title)
    return tests


def read_log(path):
    calls = defaultdict(lambda: {'routed': 0, 'na': Counter(), 'err': []})
    if not os.path.exists(path):
        return calls
    cur = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('\t'):
            if cur is not None and len(cur['err']) < 6:
                cur['err'].append(line.strip())
            continue
        parts = line.split('\t', 2)
        if len(parts) < 2:
            continue
        num = int(parts[0]) if parts[0].isdigit() else 0
        cur = calls[num]
        if parts[1] == 'routed':
            cur['routed'] += 1
        else:
            cur['na'][parts[1][3:]] += 1
            cur = None
    return calls


def read_classes(path):
    classes = {}
    if not os.path.exists(path):
        return classes
    for line in open(path):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.rstrip('\n').split('\t')
        if len(f) >= 3:
            classes[(f[0], int(f[1]))] = (f[2], f[3] if len(f) > 3 else '')
    return classes


def main():
    out = sys.argv[1]
    scripts = [s[:-3] if s.endswith('.sh') else s for s in sys.argv[2:]]
    if not scripts:
        scripts = sorted(f[:-4] for f in os.listdir(os.path.join(out, 'logs'))
                         if f.endswith('.tap'))
    here = os.path.dirname(os.path.abspath(__file__))
    classes = read_classes(os.path.join(here, 'classes.tsv'))
    rows = []
    na_rows = []
    for s in scripts:
        tap = read_tap(os.path.join(out, 'logs', s + '.tap'))
        log = read_log(os.path.join(out, 'logs', s + '.log'))
        for num in sorted(set(tap) | set(k for k in log if k)):
            res, title = tap.get(num, ('missing', ''))
            c = log.get(num)
            if not c:
                continue
            if c['routed'] == 0:
                na_rows.append((s, num, title, res,
                                ','.join(sorted(c['na']))))
                continue
            cls, note = ('', '')
            if res == 'fail':
                cls, note = classes.get((s, num), ('unclassified', ''))
            rows.append((s, num, title, res, c['routed'],
                         ','.join(sorted(c['na'])), cls, note,
                         ' | '.join(c['err'][:3])))
    with open(os.path.join(out, 'results.tsv'), 'w') as f:
        for r in rows:
            f.write('\t'.join(str(x) for x in r) + '\n')
        for r in na_rows:
            f.write('\t'.join(str(x) for x in r[:4]) + '\t0\t' + r[4] + '\tna\t\t\n')
    res = Counter(r[3] for r in rows)
    cls = Counter(r[6] for r in rows if r[3] == 'fail')
    with open(os.path.join(out, 'results.md'), 'w') as f:
        f.write('| script | test | title | result | class | note |\n')
        f.write('|---|---|---|---|---|---|\n')
        for r in rows:
            title = r[2].replace('|', '\\|')
            note = r[7].replace('|', '\\|')
            f.write(f'| {r[0]} | {r[1]} | {title} | {r[3]} | {r[6]} | {note} |\n')
        f.write('\nNot applicable (every `git apply` call went to the real git):\n\n')
        f.write('| script | test | title | result | why |\n|---|---|---|---|---|\n')
        for r in na_rows:
            title = r[2].replace('|', '\\|')
            f.write(f'| {r[0]} | {r[1]} | {title} | {r[3]} | {r[4]} |\n')
    print(f'applicable tests: {len(rows)}; pass {res["pass"]}, fail {res["fail"]}'
          f', other {len(rows) - res["pass"] - res["fail"]}')
    print('failures by class: ' + ', '.join(f'{k} {v}' for k, v in sorted(cls.items())))
    print(f'not applicable tests: {len(na_rows)}')


if __name__ == '__main__':
    main()
