#!/bin/sh
# collectives_clocks.sh - the collectives of the two-rank job in
# ../shared/traces (pytorch/two_ranks) against an independent computation
# in python3 over the same two files (gzip + json): start offsets,
# durations and in-kernel waits per collective and rank; the last to
# arrive is the rank with the least in-kernel wait; where a rank starts
# after it (clocks not aligned) or the kernels never overlap, where the
# traces' world_size exceeds the ranks loaded and where the kernels are
# point-to-point (SendRecv), `report --kind collectives` says so on stderr
# and in its JSON header, the view's collective panel says so for that
# collective, and the straggler rule rests no finding on point-to-point
# kernels alone. Skipped without python3 or the shared traces.
. "$srcdir/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "python3 is not installed"
job="$(shared_traces)/pytorch/two_ranks"
[ -d "$job" ] || skip_all "no $job"

# The reference: one line per fact, "key<TAB>value"; "row" lines are
# rank,sequence,offset,duration,wait,last.
python3 - "$job" > "$TMPD/ref" <<'EOF'
import decimal, gzip, json, os, re, sys
job = sys.argv[1]
ranks, world = {}, 0
for f in sorted(os.listdir(job)):
    d = json.load(gzip.open(os.path.join(job, f), 'rt', encoding='utf-8'))
    info = d.get('distributedInfo', {})
    world = max(world, int(info.get('world_size', 0)))
    ns = lambda v: int(decimal.Decimal(str(v)) * 1000)
    ks = [(ns(e['ts']), ns(e['dur']), e['name']) for e in d['traceEvents']
          if e.get('ph') == 'X' and e.get('cat') == 'kernel' and e['name'].startswith('nccl')]
    ks.sort()
    seq, mine = {}, {}
    for s, du, name in ks:
        k = (name, seq.get(name, 0))
        seq[name] = k[1] + 1
        mine[k] = (s, du)
    ranks[int(info['rank'])] = mine
keys = sorted({k for r in ranks.values() for k in r},
              key=lambda k: (min(r[k][0] for r in ranks.values() if k in r), k))
p2p = re.compile(r'^nccl(Dev)?Kernel_(SendRecv|Send|Recv)([_(]|$)')
contradict = disjoint = matched = n_p2p = 0
for row, k in enumerate(keys):
    on = sorted(r for r in ranks if k in ranks[r])
    first = min(ranks[r][k][0] for r in on)
    short = min(ranks[r][k][1] for r in on)
    wait = {r: ranks[r][k][1] - short for r in on}
    # least wait; ties: the later start, then the lower rank
    last = sorted(on, key=lambda r: (wait[r], -ranks[r][k][0], r))[0]
    for r in on:
        print('row\t%d,%d,%d,%d,%d,%d' % (r, k[1], ranks[r][k][0] - first, ranks[r][k][1],
                                           wait[r], r == last and len(on) > 1))
    n_p2p += bool(p2p.match(k[0]))
    if len(on) < 2:
        continue
    matched += 1
    latest = max(on, key=lambda r: ranks[r][k][0])
    gap = ranks[latest][k][0] - ranks[last][k][0]
    if gap > 0:
        contradict += 1
        print('contradicts\t%d %d %d %d' % (row, latest, gap, last))
    else:
        print('consistent\t%d' % row)
    if max(ranks[r][k][0] for r in on) >= min(sum(ranks[r][k]) for r in on):
        disjoint += 1
print('note\tat %d of %d collectives' % (contradict, matched))
print('note\tat %d the ranks\' kernels do not even overlap in time' % disjoint)
print('note\tworld_size is %d but %d ranks are loaded' % (world, len(ranks)))
print('note\t%d of %d collectives are point-to-point' % (n_p2p, len(keys)))
EOF
ok $? "python3 reads the job"
grep -q '^contradicts' "$TMPD/ref" && grep -q '^consistent' "$TMPD/ref"
ok $? "the job has collectives whose start offsets contradict the waits, and others"

"$TRACETTY" report --kind collectives --align absolute "$job" > "$TMPD/colls.csv" 2> "$TMPD/err"
ok $? "report --kind collectives --align absolute"
python3 - "$TMPD/colls.csv" > "$TMPD/got" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')):
    print('%s,%s,%s,%s,%s' % (r['Rank'], r['Sequence'], r['Start Offset (ns)'],
                              r['Duration (ns)'], r['Wait (ns)']))
EOF
sed -n 's/^row\t\(.*\),[01]$/\1/p' "$TMPD/ref" > "$TMPD/want"
same_file "$TMPD/got" "$TMPD/want" "every row: start offset, duration and in-kernel wait as python computes them"

grep '^note' "$TMPD/ref" | cut -f2 > "$TMPD/notes"
while IFS= read -r n; do
    grep -qF -- "tracetty: report: note: " "$TMPD/err" && grep -F -- "$n" "$TMPD/err" | grep -q '^tracetty: report: note: '
    ok $? "stderr notes: $n"
done < "$TMPD/notes"
grep -q 'the last to arrive is the rank with the least in-kernel wait' "$TMPD/err"
ok $? "the clocks note says the last to arrive follows the in-kernel wait"

# the CSV (and text) table cannot say what its columns measure: stderr
# does, in the words of the JSON header
for col in 'Start Offset (ns): start time minus the earliest start among the ranks, on the aligned clock' \
           'Wait (ns): in-kernel wait: duration minus the shortest duration among the ranks' \
           'last to arrive: the rank with wait 0, the least in-kernel wait'; do
    grep -qF -- "tracetty: report: $col" "$TMPD/err"
    ok $? "stderr says what a column measures: ${col%%:*}"
done
"$TRACETTY" report --kind collectives --align absolute --format text "$job" 2> "$TMPD/err-t" > /dev/null
grep -qF -- 'tracetty: report: Wait (ns): in-kernel wait' "$TMPD/err-t"
ok $? "the text table's definitions too"
"$TRACETTY" report --kind collectives --align absolute --format json "$job" 2> "$TMPD/err-j" > /dev/null
grep -qF -- 'Wait (ns):' "$TMPD/err-j"
ok $((!$?)) "JSON: the definitions are in its header, not on stderr"

"$TRACETTY" report --kind collectives --align absolute --quiet "$job" 2> "$TMPD/err-q" > /dev/null
is "$(cat "$TMPD/err-q")" "" "--quiet: no notes"

"$TRACETTY" report --kind collectives --align absolute --format json "$job" > "$TMPD/colls.json" 2> /dev/null
python3 - "$TMPD/colls.json" "$TMPD/err" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
err = [l[len('tracetty: report: note: '):].rstrip('\n') for l in open(sys.argv[2], encoding='utf-8')
       if l.startswith('tracetty: report: note: ')]
defs = d.get('definitions', {})
sys.exit(0 if d.get('notes') == err and len(err) == 3 and 'in-kernel' in defs.get('wait_ns', '')
         and 'aligned clock' in defs.get('start_offset_ns', '') else 1)
EOF
ok $? "JSON: the same notes, and what wait_ns and start_offset_ns are measured from"

# The straggler rule: rank 1 waits least at most of these collectives, but
# they are all SendRecv: no finding rests on them.
"$TRACETTY" check --format csv "$job" > "$TMPD/check.csv" 2> /dev/null
python3 - "$TMPD/check.csv" "$TMPD/ref" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8'))
        if r['Rule'] == 'straggler' and 'arrived last' in r['Message']]
last = [l.split('\t')[1].split(',') for l in open(sys.argv[2]) if l.startswith('row\t')]
by = {}
for r in last:
    by[r[0]] = by.get(r[0], 0) + int(r[5])
# the reference's busiest "last" rank is last at half or more: the old rule
# would have flagged it
sys.exit(0 if not rows and max(by.values()) * 2 >= 10 else 1)
EOF
ok $? "check: no straggler finding from point-to-point collectives alone"

# The view: the panel of a contradicting collective says so with the
# numbers, a consistent one does not; both name world_size and
# point-to-point.
fmt_ms() { python3 -c "import sys; v=int(sys.argv[1]); print(('%.3f' % (v/1e6)).rstrip('0').rstrip('.') + ' ms')" "$1"; }
panel() {
    keys="X<Home>"
    k=0
    while [ $k -lt "$1" ]; do keys="${keys}j"; k=$((k + 1)); done
    "$TRACETTY" render --size 160x70 --disable all --align absolute --keys "$keys<Enter>" "$job"
}
set -- $(sed -n 's/^contradicts\t//p' "$TMPD/ref" | head -1)
row=$1 later=$2 gap=$3 last=$4
panel "$row" > "$TMPD/screen" 2>&1
matches "$TMPD/screen" "Clocks not aligned: rank $later starts $(fmt_ms "$gap") after rank $last, the last to arrive by its in-kernel wait" \
    "panel of collective row $row: the clocks contradict the waits, with the numbers"
matches "$TMPD/screen" "^. +$last +[0-9].* 0 ns +last to arrive" "panel: rank $last, waiting 0 ns, is marked last to arrive"
matches "$TMPD/screen" "2 of 128 ranks \\(world_size\\) loaded" "panel: 2 of 128 ranks loaded"
matches "$TMPD/screen" "Point-to-point \\(SendRecv, Send, Recv\\)" "panel: point-to-point"
row=$(sed -n 's/^consistent\t//p' "$TMPD/ref" | head -1)
panel "$row" > "$TMPD/screen2" 2>&1
! grep -q "Clocks not aligned" "$TMPD/screen2" && grep -q "Wait: in the kernel" "$TMPD/screen2"
ok $? "panel of a consistent collective (row $row): definitions, no clocks note"
tap_done
