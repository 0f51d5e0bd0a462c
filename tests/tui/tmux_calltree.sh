#!/bin/sh
# tmux_calltree.sh - the call tree panel in the real TUI (`c` in a box's
# statistics), driven as a person would: a box over the whole trace
# (Home 0 g v End G Enter), then c, at 80x24 and 200x50, on a Kineto trace
# from ../shared/traces (skipped when absent; the numbers need python3):
#   - every screen equals what `tracetty render` prints for the same keys;
#   - the box's statistics by name: each row's Self (a device event's: its
#     duration) and Dev self are the sums over the tree's nodes of that
#     name;
#   - every node line the panel shows (its name path from the indents,
#     calls, host total/self, device total/self) is a node of the tree
#     tests/unit/test_calltree prints for the whole trace, which
#     calltree_real.sh checks against a python computation from the JSON;
#   - t (bottom-up): each root's calls and host self are the sums over
#     the top-down nodes of its name;
#   - i (icicle): its last line gives the cursor node's numbers, those of
#     the dump; Enter highlights the node's instances (as many as its
#     calls), Esc goes back to the statistics.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "no python3"
trace="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$trace" ] || skip_all "no shared resnet50 trace"
trace="$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")"   # the TUI runs in $TMPD
dump="$builddir/tests/unit/test_calltree"
[ -x "$dump" ] || skip_all "tests/unit/test_calltree is not built"
"$dump" "$trace" > "$TMPD/dump.csv" || skip_all "the call tree does not build"

# check SCREEN MODE: MODE tree: every node line is a dump node with its
# numbers; bu: every bottom-up root line has the sums of its name;
# ice: the icicle's info line is a dump node's. Prints "ok N" or what
# differs.
check() {
    PYTHONPATH="$srcdir/tests/tui" python3 - "$1" "$TMPD/dump.csv" "$2" <<'PY'
import csv, re, sys
screen = open(sys.argv[1], encoding='utf-8').read().splitlines()
mode = sys.argv[3]
rows = list(csv.reader(open(sys.argv[2], newline='', encoding='utf-8')))[1:]
from ttfmt import fmt   # tt_fmt_dur(ns, 3)
def count(n):
    return '{:,}'.format(n)
nodes = [(r[0].split(' > '), [int(x) for x in r[1:6]]) for r in rows]
def name_ok(want, got):   # a name cut to its column ends with ~
    return want.startswith(got[:-1]) if got.endswith('~') else want == got
bad, checked = [], 0
if mode == 'ice':
    info = [l[2:-1].strip() for l in screen if re.match(r'^\| .*: [0-9,]+ calls?, ', l)]
    if not info:
        print('bad: no info line'); sys.exit()
    # the line may be cut (~) at a narrow width: check what it holds
    m = re.match(r'^(.*): ([0-9,]+) calls?, host ([0-9.]+ [num]?s) total, ([0-9.]+ [num]?s) self',
                 info[0])
    m2 = m or re.match(r'^(.*): ([0-9,]+) calls?, ', info[0])
    hit = [p for p, v in nodes if name_ok(p[-1], m2.group(1)) and count(v[0]) == m2.group(2) and
           (not m or (fmt(v[1]) == m.group(3) and fmt(v[2]) == m.group(4)))]
    print('ok 1' if hit else 'bad: %s' % info[0]); sys.exit()
box = [l for l in screen if l.startswith('|')]
if mode == 'stats':
    # the statistics' breakdown by name: Self is the names' self time
    # (a device event's: its duration), Dev self what they launched
    head = [i for i, l in enumerate(box) if re.match(r'^\| Name +Count +Total +Self +Dev self', l)]
    if not head:
        print('bad: no Self columns'); sys.exit()
    lw = len(box[head[0]]) - 4
    kw = box[head[0]].index('Count') + 5 - 9 - 2   # Count is right-aligned in 9 columns
    for l in box[head[0] + 1:]:
        body = l[2:2 + lw]
        m = re.match(r'^(.*?) *$', body[:kw])
        name = m.group(1)
        f = [body[kw:kw + 9].strip(), body[kw + 9:kw + 21].strip(), body[kw + 21:kw + 33].strip(),
             body[kw + 33:kw + 45].strip()]
        if not re.match(r'^[0-9,]+$', f[0]):
            break
        cand = [(p, v) for p, v in nodes if name_ok(p[-1].replace('[d] ', '', 1), name)]
        self = sum(v[4] if p[-1].startswith('[d] ') else v[2] for p, v in cand)
        dself = sum(0 if p[-1].startswith('[d] ') else v[4] for p, v in cand)
        checked += 1
        if f[2] != fmt(self) or f[3] != fmt(dself):
            bad.append('%s: %s %s, want %s %s' % (name, f[2], f[3], fmt(self), fmt(dself)))
    print('ok %d' % checked if not bad and checked else 'bad %d: %s' % (checked, '; '.join(bad[:3])))
    sys.exit()
head = [i for i, l in enumerate(box) if re.match(r'^\| Name', l)]
if not head:
    print('bad: no header'); sys.exit()
hl = box[head[0]]
lw = len(hl) - 4
wide = 'Host self' in hl
namew = lw - 9 - (4 if wide else 2) * 11
stack = []
for l in box[head[0] + 1:]:
    body = l[2:2 + lw]
    if len(body) < lw:
        break
    namecol, calls = body[:namew], body[namew:namew + 9].strip()
    times = [body[namew + 9 + 11 * i:namew + 20 + 11 * i].strip() for i in range(4 if wide else 2)]
    m = re.match(r'^( *)([+-]) (.*?) *$', namecol)
    if m:
        depth, name = len(m.group(1)), m.group(3)
    else:
        m = re.match(r'^( *)(.*?) *$', namecol)
        depth, name = len(m.group(1)) - 2, m.group(2)
    stack = stack[:depth] + [name]
    checked += 1
    if mode == 'tree':
        cand = [v for p, v in nodes if len(p) == len(stack) and all(name_ok(a, b) for a, b in zip(p, stack))]
        want = lambda v: [count(v[0])] + ([('' if stack[-1].startswith('[d] ') else fmt(v[1]))] +
               ([('' if stack[-1].startswith('[d] ') else fmt(v[2]))] if wide else []) +
               [fmt(v[3])] + ([fmt(v[4])] if wide else []))
        if not any(want(v) == [calls] + times for v in cand):
            bad.append('%s: %s %s' % (' > '.join(stack), calls, times))
    elif depth == 0:
        # bottom-up root: sums over the top-down nodes of its name
        cand = [v for p, v in nodes if name_ok(p[-1], name)]
        c = sum(v[0] for v in cand)
        hs = sum(v[2] for v in cand)
        if calls != count(c) or (not name.startswith('[d] ') and wide and times[1] != fmt(hs)):
            bad.append('%s: %s %s, want %s %s' % (name, calls, times, count(c), fmt(hs)))
print('ok %d' % checked if not bad and checked else 'bad %d: %s' % (checked, '; '.join(bad[:3])))
PY
}

# checked MODE DESCRIPTION: check the screen now on screen
checked() {
    tm_capture > "$TMPD/s"
    r=$(check "$TMPD/s" "$1")
    case $r in ok*) ok 0 "$2 ($r)" ;; *) ok 1 "$2"; echo "#   $r" ;; esac
}

keys='<Home>0gv<End>G<Enter>c'
for size in 80x24 200x50; do
    t="$size"
    cols=${size%x*}
    rows=${size#*x}
    tm_start "$cols" "$rows" "cd '$TMPD' && LC_ALL=C '$TRACETTY' '$trace'; \
        echo \"status=\$?\"; echo FINISHED; sleep 600"
    if ! tm_wait '\? help' 60; then
        ok 1 "$t: the TUI opens"
        continue
    fi
    tm_keys Home; tm_text 0g; tm_text v; tm_keys End; tm_text G; tm_keys Enter
    tm_wait 'Box ' 30
    checked stats "$t: the statistics' Self and Dev self by name are the tree's"
    tm_text c
    render_to "$TMPD/want" "$size" "$keys" "$trace"
    tm_same "$TMPD/want" "$t: the call tree panel = render"
    tm_capture | grep -q 'Call tree of the box, top-down'
    ok $? "$t: c opens the box's call tree"
    checked tree "$t: its node lines are the tree's nodes"
    # open the heaviest step and look inside
    tm_text jl
    render_to "$TMPD/want" "$size" "${keys}jl" "$trace"
    tm_same "$TMPD/want" "$t: l opens a node = render"
    checked tree "$t: after l, the node lines are the tree's nodes"
    tm_text t
    render_to "$TMPD/want" "$size" "${keys}jlt" "$trace"
    tm_same "$TMPD/want" "$t: t turns it bottom-up = render"
    checked bu "$t: bottom-up roots: calls and self time summed by name"
    tm_text ti
    render_to "$TMPD/want" "$size" "${keys}jltti" "$trace"
    tm_same "$TMPD/want" "$t: i draws the icicle = render"
    checked ice "$t: the icicle's line gives the cursor node's numbers"
    tm_text j
    tm_keys Enter
    tm_wait 'instances? of .* highlighted' 20
    ok $? "$t: Enter highlights the node's instances"
    tm_keys Escape
    tm_wait 'Box .* lane' 20
    ok $? "$t: Esc goes back to the box's statistics"
    tm_keys Escape
    tm_text q
    tm_wait FINISHED 20
    tm_capture | grep -q 'status=0'
    ok $? "$t: exit status 0"
done
tap_done
