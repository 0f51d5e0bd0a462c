# calltree_oracle.py TRACE - the call tree of a whole Kineto trace, computed
# from the JSON by the definitions of issue 14 (lane stacks, correlation
# ids, launch ops), not by tracetty's code; printed as sorted CSV rows
# (path, calls, host total, host self, device total, device self) as
# `test_calltree TRACE` prints them. Used by tests/tui/calltree_real.sh
# and tests/tui/tmux_calltree.sh.
#
# calltree_oracle.py TRACE --by-name [--device-lanes]: the box statistics'
# self columns of a box over the whole trace (every lane; with
# --device-lanes only the lanes that hold device work, as in the combined
# view of several ranks), by name, as CSV rows (name, count, total, self,
# device self, counted self): self is the duration minus the union of the
# direct children on the same lane, device self the durations of the
# device events (on a lane of the box) whose launch op is of that name and
# on a lane of the box, counted self the self time outside the lanes that
# hold only the profiler's own span (category Trace). tests/tui/
# tmux_boxself.sh.
#
# calltree_oracle.py TRACE --launch: the longest kernel's launch
# (tests/tui/details_launch.sh): lines "kernel NAME", "launcher NAME",
# "delay NS", "op NAME" and a "caller NAME" per enclosing host event.
import csv, gzip, json, re, sys
from decimal import Decimal, ROUND_HALF_EVEN
from collections import defaultdict
op = gzip.open if sys.argv[1].endswith('.gz') else open
doc = json.load(op(sys.argv[1], 'rt', encoding='utf-8'), parse_float=Decimal)
evs = doc['traceEvents'] if isinstance(doc, dict) else doc
DEV = {'kernel', 'gpu_kernel', 'cuda_kernel', 'gpu_memcpy', 'memcpy', 'cuda_memcpy',
       'gpu_memset', 'memset', 'cuda_memset'}
RT_CATS = {'cuda_runtime', 'cuda_driver', 'runtime', 'hip_runtime', 'hip_driver', 'cuda_api'}
RT_NAME = re.compile(r'^(cuda|cu|hip|aclrt)[A-Z]')
def ns(v):
    # exact: microsecond timestamps of 2021 need more than a double's 53 bits in ns
    return int((Decimal(v) * 1000).to_integral_value(ROUND_HALF_EVEN))
lanes = defaultdict(list)
for e in evs:
    ph = e.get('ph')
    if ph == 'X':
        d = ns(e.get('dur', 0))
    elif ph in ('i', 'I'):
        d = 0
    else:
        continue
    r = {'name': e.get('name', ''), 'cat': e.get('cat', '') or '', 's': ns(e['ts']), 'd': d,
         'corr': (e.get('args') or {}).get('correlation')}
    r['dev'] = r['cat'].lower() in DEV
    r['rt'] = r['cat'].lower() in RT_CATS or bool(RT_NAME.match(r['name']))
    r['py'] = r['cat'] == 'python_function'
    # process- and global-scoped instants have lanes of their own
    scope = e.get('s', 't') if ph in ('i', 'I') else 't'
    key = (str(e.get('pid')), str(e.get('tid'))) if scope == 't' else \
        (str(e.get('pid')), '(process)') if scope == 'p' else ('(global)',)
    lanes[key].append(r)
host_by_corr = {}
allev = []
for key, l in lanes.items():
    l.sort(key=lambda r: (r['s'], -r['d']))
    stack = []
    for r in l:
        while stack and stack[-1]['s'] + stack[-1]['d'] <= r['s'] and \
                not (stack[-1]['d'] == 0 and False):
            stack.pop()
        r['parent'] = stack[-1] if stack else None
        r['kids'] = []
        if r['parent'] is not None:
            r['parent']['kids'].append(r)
        stack.append(r)
        allev.append(r)
        if not r['dev'] and r['corr'] is not None:
            c = host_by_corr.get(r['corr'])
            if c is None or (r['rt'] and not c['rt']):
                host_by_corr[r['corr']] = r
def launch_op(r):
    h = host_by_corr.get(r['corr']) if r['corr'] is not None else None
    if h is None:
        return None
    p = h
    while p is not None and (p['rt'] or p['py']):
        p = p['parent']
    return p if p is not None else h
def tree_parent(r):
    if r['dev']:
        lo = launch_op(r)
        return lo if lo is not None else r['parent']
    p = r['parent']
    return p if p is not None and not p['dev'] else None
def path(r):
    names = []
    while r is not None:
        names.append(('[d] ' if r['dev'] else '') + r['name'])
        r = tree_parent(r)
    return ' > '.join(reversed(names))
def self_time(r):
    s, t = r['s'], r['s'] + r['d']
    cov, end = 0, s
    for k in sorted(r['kids'], key=lambda k: k['s']):
        a, b = max(k['s'], end), min(k['s'] + k['d'], t)
        if b > a:
            cov += b - a
            end = b
    return r['d'] - cov
if sys.argv[2:] == ['--launch']:
    k = max((r for r in allev if r['cat'].lower() == 'kernel'), key=lambda r: r['d'])
    h = host_by_corr.get(k['corr'])
    op = launch_op(k)
    print('kernel', k['name'])
    print('launcher', h['name'])
    print('delay', k['s'] - h['s'])
    print('op', op['name'])
    p = op['parent']
    while p is not None:
        print('caller', p['name'])
        p = p['parent']
    sys.exit(0)
if sys.argv[2:3] == ['--by-name']:
    keep = set(lanes)
    if '--device-lanes' in sys.argv[3:]:
        keep = {k for k, l in lanes.items() if any(r['dev'] for r in l)}
    env = {k for k in keep if all(r['cat'] == 'Trace' for r in lanes[k])}
    inbox = {id(r) for k in keep for r in lanes[k]}
    by = defaultdict(lambda: [0, 0, 0, 0, 0])
    for k in keep:
        for r in lanes[k]:
            b = by[r['name']]
            st = self_time(r)
            b[0] += 1
            b[1] += r['d']
            b[2] += st
            b[4] += 0 if k in env else st
            if r['dev']:
                lo = launch_op(r)
                if lo is not None and id(lo) in inbox:
                    by[lo['name']][3] += r['d']
    w = csv.writer(sys.stdout, lineterminator='\n')
    for n in sorted(by):
        w.writerow([n] + by[n])
    sys.exit(0)
nodes = defaultdict(lambda: [0, 0, 0, 0, 0])
for r in allev:
    n = nodes[path(r)]
    n[0] += 1
    if r['dev']:
        n[4] += r['d']
        a = r
        while a is not None:
            nodes[path(a)][3] += r['d']
            a = tree_parent(a)
        p = tree_parent(r)
        if p is not None and not p['dev']:
            nodes[path(p)][4] += r['d']
    else:
        n[1] += r['d']
        n[2] += self_time(r)
w = csv.writer(sys.stdout, lineterminator='\n')
for p in sorted(nodes):
    w.writerow([p] + nodes[p])
