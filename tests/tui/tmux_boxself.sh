#!/bin/sh
# tmux_boxself.sh - the Self, Dev self and Share columns of the box
# statistics (issue 14) in the real TUI, driven as a person would: a box
# over the whole trace (Home 0 g v End G Enter), at 80x24 in the C locale
# (ASCII) and at 200x60 in UTF-8, then resized with the panel open, then a
# page further down; on real traces from ../shared/traces (skipped when
# absent; the numbers need python3):
#   - one Kineto trace: every breakdown row on screen has the Count,
#     Total, Self, Dev self and Share of tests/tui/calltree_oracle.py
#     --by-name, a computation from the JSON (self: the duration minus the
#     union of the direct children on the same thread; Share: of all the
#     rows' self time, the profiler's own span left out, its cell empty);
#     the ProfilerStep rows' shares are under their shares of totals;
#   - the two-rank set in the combined view (a box over both ranks'
#     device lanes, mstats.h): the same columns, each row the sum over the
#     ranks of the oracle with --device-lanes, by name;
#   - every screen before the resize equals what `tracetty render` prints
#     for the same keys.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "no python3"
dir="$(shared_traces)/pytorch"
[ -f "$dir/resnet50_workers0.pt.trace.json.gz" ] || skip_all "no shared resnet50 trace"
dir="$(cd "$dir" && pwd)"   # the TUI runs in $TMPD
one="$dir/resnet50_workers0.pt.trace.json.gz"
oracle="$srcdir/tests/tui/calltree_oracle.py"
python3 "$oracle" "$one" --by-name > "$TMPD/one.csv"
ok $? "the python computation of the trace runs"
ranks=
if [ -f "$dir/two_ranks/rank-0.json.gz" ] && [ -f "$dir/two_ranks/rank-1.json.gz" ]; then
    ranks="$dir/two_ranks"
    { python3 "$oracle" "$ranks/rank-0.json.gz" --by-name --device-lanes &&
      python3 "$oracle" "$ranks/rank-1.json.gz" --by-name --device-lanes; } > "$TMPD/ranks.csv"
    ok $? "the python computation of the two ranks runs"
fi

# check SCREEN CSV: the breakdown rows on screen against the oracle's rows
# (summed by name). Prints "ok N" (N rows checked) or what differs.
check() {
    PYTHONPATH="$srcdir/tests/tui" python3 - "$1" "$2" <<'PY'
import csv, re, sys
from collections import defaultdict
from ttfmt import fmt   # tt_fmt_dur(ns, 3)
screen = open(sys.argv[1], encoding='utf-8').read().splitlines()
by = defaultdict(lambda: [0] * 5)
for r in csv.reader(open(sys.argv[2], newline='', encoding='utf-8')):
    for i in range(5):
        by[r[0]][i] += int(r[i + 1])
counted = sum(v[4] for v in by.values())
def share(v):
    if v[4] == 0 and v[2] > 0:
        return ''
    return '%.1f%%' % (100.0 * v[4] / counted) if counted else '0.0%'
def name_ok(want, got):   # a name cut to its column ends with ~ (ASCII) or …
    return want.startswith(got[:-1]) if got[-1:] in ('~', '\u2026') else want == got
body = [l[2:-2] for l in screen if l[:1] in ('|', '\u2502')]
head = [i for i, l in enumerate(body) if re.match(r'^Name +Count +Total +Self +Dev self ', l)]
if not head:
    print('bad: no Self columns'); sys.exit()
h = body[head[0]]
titles = ['Count', 'Total', 'Self', 'Dev self', 'Share']
ends = [h.index(t) + len(t) for t in titles]
widths = [9, 12, 12, 12, 8]
kw = ends[0] - 9
bad, checked, steps = [], 0, []
for l in body[head[0] + 1:]:
    cells = [l[e - w:e].strip() for e, w in zip(ends, widths)]
    if not re.match(r'^[0-9,]+$', cells[0]):
        break
    name = l[:kw].rstrip()
    # a cut name may stand for several: one of them must have the cells
    cand = [n for n in by if name_ok(n, name)]
    wants = [['{:,}'.format(by[n][0]), fmt(by[n][1]), fmt(by[n][2]), fmt(by[n][3]),
              share(by[n])] for n in cand]
    checked += 1
    if cells not in wants:
        bad.append('%s: %s, want %s' % (name, cells, ' or '.join(map(str, wants)) or 'no name'))
        continue
    v = by[cand[wants.index(cells)]]
    if name.startswith('ProfilerStep#'):
        tot = sum(x[1] for x in by.values())
        steps.append((float(cells[4][:-1]), 100.0 * v[1] / tot))
if any(s >= t for s, t in steps):
    bad.append('a step\'s share of self time is not under its share of totals: %s' % steps)
print('ok %d' % checked if not bad and checked else 'bad %d: %s' % (checked, '; '.join(bad[:3])))
PY
}

# checked CSV DESCRIPTION: check the screen now on screen
checked() {
    tm_capture > "$TMPD/s"
    r=$(check "$TMPD/s" "$1")
    case $r in ok*) ok 0 "$2 ($r)" ;; *) ok 1 "$2"; echo "#   $r" ;; esac
}

# run NAME TRACE CSV: the box, its columns, a resize, a page down
run() {
    name=$1 trace=$2 csv=$3
    for size in 80x24 200x60; do
        loc=C
        [ $size = 200x60 ] && [ -n "$UTF8_LOCALE" ] && loc=$UTF8_LOCALE
        t="$name $size $loc"
        tm_start "${size%x*}" "${size#*x}" "cd '$TMPD' && LC_ALL=$loc '$TRACETTY' '$trace'; \
            echo \"status=\$?\"; echo FINISHED; sleep 600"
        if ! tm_wait '\? help' 60; then
            ok 1 "$t: the TUI opens"
            continue
        fi
        tm_keys Home; tm_text 0g; tm_text v; tm_keys End; tm_text G; tm_keys Enter
        keys='<Home>0gv<End>G<Enter>'
        render_to "$TMPD/want" "$size" "$keys" "$trace" "$loc"
        tm_same "$TMPD/want" "$t: the box's statistics = render"
        checked "$csv" "$t: Count, Total, Self, Dev self, Share are python's"
        tm_capture | grep -q 'share of self time'
        ok $? "$t: the table's title says what the share is of"
        tm_keys PgDn
        render_to "$TMPD/want" "$size" "$keys<PgDn>" "$trace" "$loc"
        tm_same "$TMPD/want" "$t: a page down = render"
        tm_keys Home
        # resized with the panel open: the other layout of the columns
        # (not compared with render: its resize keeps the cursor's time a
        # column off the real one's)
        if [ $size = 80x24 ]; then nsize=150x40; else nsize=100x30; fi
        $TT_TMUX resize-window -t tt -x "${nsize%x*}" -y "${nsize#*x}"
        tm_wait "^.{$(( ${nsize%x*} - 1 ))}" 20
        if [ $size = 80x24 ]; then want='Avg +Med'; else want='Dev self +Share'; fi
        tm_wait "$want" 20
        ok $? "$t: resized to $nsize, the panel takes the new width"
        checked "$csv" "$t: after the resize to $nsize, the columns are python's"
        tm_keys Escape
        tm_text q
        tm_wait FINISHED 20
        tm_capture | grep -q 'status=0'
        ok $? "$t: exit status 0"
    done
}

run one "$one" "$TMPD/one.csv"
grep -q '^PyTorch Profiler (0),1,[0-9]*,[0-9]*,0,0$' "$TMPD/one.csv"
ok $? "the profiler's own span counts for no share"
[ -n "$ranks" ] && run ranks "$ranks" "$TMPD/ranks.csv"
tap_done
