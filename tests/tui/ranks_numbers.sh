#!/bin/sh
# ranks_numbers.sh - the numbers the collectives view shows are those of
# `tracetty report --kind collectives`: for every collective of a job,
# its panel (X, the row, Enter, as `render` draws it) names the same
# collective and sequence, and gives every rank's start offset, duration
# and wait exactly (the panel prints them to the nanosecond) as the
# report's rows, with the same --align; the rank it marks "last to
# arrive" waits 0; and the rows come in the report's order. Jobs: the
# small one the goldens use (absolute and start alignment), a generated
# 8-rank job with a slow rank, and the two-rank set in ../shared/traces
# (skipped when absent). And the job's annotations panel: job times in
# its column, each message on its rank's clock as `tracetty check` prints
# it. Needs python3 to read both sides (skipped without it).
. "$srcdir/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "python3 is not installed"

jobs="$srcdir/tests/data/tui/ranks|absolute $srcdir/tests/data/tui/ranks|start"
gen="$builddir/samples/gen-trace"
if [ -x "$gen" ]; then
    mkdir "$TMPD/job8"
    r=0
    while [ $r -lt 8 ]; do
        "$gen" kineto --rank $r --world 8 --slow-rank 5 -o "$TMPD/job8/trace-$r-of-8.json"
        r=$((r + 1))
    done
    jobs="$jobs $TMPD/job8|absolute"
fi
two="$(shared_traces)/pytorch/two_ranks"
[ -d "$two" ] && jobs="$jobs $two|absolute $two|collective"

for j in $jobs; do
    dir=${j%|*} align=${j#*|}
    t="$(basename "$dir") --align $align"
    "$TRACETTY" report --kind collectives --align "$align" "$dir" > "$TMPD/report.csv" 2> "$TMPD/err"
    ok $? "$t: the report runs $(head -c 200 "$TMPD/err")"
    n=$(python3 - "$TMPD/report.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
print(len({(r['Collective'], r['Sequence']) for r in rows}))
EOF
)
    [ "$n" -gt 0 ]
    ok $? "$t: the job has collectives ($n)"
    i=0
    : > "$TMPD/panels"
    while [ "$i" -lt "$n" ]; do
        keys="X<Home>"
        k=0
        while [ $k -lt $i ]; do keys="${keys}j"; k=$((k + 1)); done
        "$TRACETTY" render --size 160x70 --disable all --align "$align" --keys "$keys<Enter>" \
            "$dir" > "$TMPD/screen" 2>&1
        printf '=== %s\n' "$i" >> "$TMPD/panels"
        cat "$TMPD/screen" >> "$TMPD/panels"
        i=$((i + 1))
    done
    res=$(python3 - "$TMPD/report.csv" "$TMPD/panels" <<'EOF'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
groups = []
for r in rows:
    key = (r['Collective'], int(r['Sequence']))
    if not groups or groups[-1][0] != key:
        groups.append((key, []))
    groups[-1][1].append(r)
UNITS = {'ns': 1, 'us': 10**3, 'ms': 10**6, 's': 10**9}
def ns(text):   # "6.989894 ms" exactly, in integer arithmetic
    num, unit = text.split()
    whole, _, frac = num.partition('.')
    scale = UNITS[unit]
    frac = (frac + '0' * 9)[:9]
    return int(whole) * scale + int(frac) * scale // 10**9
panels = open(sys.argv[2], encoding='utf-8').read().split('=== ')[1:]
bad, checked = [], 0
if len(panels) != len(groups):
    bad.append('%d panels for %d collectives' % (len(panels), len(groups)))
D = r'(-?[0-9.]+ (?:ns|us|ms|s))'
for (key, want), p in zip(groups, panels):
    lines = [l.strip('|').strip() for l in p.splitlines()]
    name_ok = any(l == key[0] for l in lines)
    seq = [int(m.group(1)) for l in lines for m in [re.match(r'sequence (\d+) ', l)] if m]
    got = {}
    last = None
    for l in lines:
        m = re.match(r'^(\d+) +' + D + ' +' + D + ' +' + D + ' +' + D + r'(.*)$', l)
        if m:
            rank = int(m.group(1))
            got[rank] = (ns(m.group(3)), ns(m.group(4)), ns(m.group(5)))
            if 'last to arrive' in m.group(6):
                last = rank
    exp = {int(r['Rank']): (int(r['Start Offset (ns)']), int(r['Duration (ns)']),
                            int(r['Wait (ns)'])) for r in want}
    if not name_ok or seq != [key[1]]:
        bad.append('%s #%d: the panel shows another collective' % key)
    elif got != exp:
        bad.append('%s #%d: %r != %r' % (key[0][:30], key[1], got, exp))
    elif len(exp) > 1 and (last is None or exp[last][2] != 0):
        bad.append('%s #%d: last to arrive %r does not wait 0' % (key[0][:30], key[1], last))
    checked += 1
print('ok %d' % checked if not bad else 'bad: ' + '; '.join(bad[:3]))
EOF
)
    case $res in
    "ok "*) ok 0 "$t: every collective's panel shows the report's offsets, durations and waits (${res#ok } collectives)" ;;
    *) ok 1 "$t: every collective's panel shows the report's numbers"; echo "#   $res" ;;
    esac
done
# The annotations panel of a job: its time column counts from the job's
# start, the message keeps its rank's clock and says so: for each line,
# the rank's finding as `tracetty check --format csv` gives it (same rule,
# a message that starts the same), its Start on the rank's clock plus the
# rank's start in the job (the ranks panel's "Starts at") = the column.
if [ -d "$TMPD/job8" ]; then
    t="job8 annotations"
    "$TRACETTY" check --format csv "$TMPD/job8" > "$TMPD/check.csv"
    "$TRACETTY" render --size 200x60 --keys '#' "$TMPD/job8" > "$TMPD/ranks"
    "$TRACETTY" render --size 200x60 --keys '!' "$TMPD/job8" > "$TMPD/annots"
    res=$(python3 - "$TMPD/check.csv" "$TMPD/ranks" "$TMPD/annots" <<'EOF2'
import csv, re, sys
UNITS = {'ns': 1, 'us': 10**3, 'ms': 10**6, 's': 10**9}
def ns(text):
    num, unit = text.split()
    return float(num) * UNITS[unit]
D = r'(-?[0-9.]+ (?:ns|us|ms|s))'
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
starts = {}
for l in open(sys.argv[2], encoding='utf-8'):
    m = re.match(r'^\S\s+(\d+) \S+\.json .* ' + D + ' +' + D + ' +' + D + r' +[0-9,]+ \S$', l)
    if m:
        starts[int(m.group(1))] = ns(m.group(3))
bad, checked = [], 0
text = open(sys.argv[3], encoding='utf-8').read()
if 'Time: from the job' not in text:
    bad.append('no line on the clocks')
for l in text.splitlines():
    m = re.match(r'^\S (\w+) +([\w-]+) +r(\d+) +' + D + r'  \[rank (\d+) clock\] (.*?)(\u2026|~)? \S$', l)
    if not m:
        continue
    rank, t, msg = int(m.group(3)), ns(m.group(4)), m.group(6).rstrip()
    if int(m.group(5)) != rank:
        bad.append('rank %d line says another clock' % rank)
        continue
    cand = [r for r in rows if r['Trace'].endswith('trace-%d-of-8.json' % rank) and
            r['Rule'] == m.group(2) and r['Message'].startswith(msg)]
    if not any(abs(int(r['Start (ns)']) + starts.get(rank, -1e18) - t) <= 1.5e3 for r in cand):
        bad.append('r%d %s at %s: no such finding on its clock' % (rank, m.group(2), m.group(4)))
    checked += 1
print('ok %d' % checked if not bad and checked > 0 else 'bad: ' + '; '.join(bad[:3]) + ' (%d)' % checked)
EOF2
)
    case $res in
    "ok "*) ok 0 "$t: the panel's times are job times, each message on its rank's clock as check says it (${res#ok } lines)" ;;
    *) ok 1 "$t: the panel's times and messages"; echo "#   $res" ;;
    esac
fi
tap_done
