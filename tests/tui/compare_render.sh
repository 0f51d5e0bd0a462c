#!/bin/sh
# compare_render.sh - `tracetty render --compare A B`: the compare view
# drawn headless.
#   - two small traces with fixed numbers: the compare panel's rows (counts,
#     exact ns totals, delta, delta %, the order by |delta|), at 200x50 and
#     at 80x24 (rounded durations), the headers naming both traces, one
#     time axis (the same ruler in both halves), Tab, Enter, P, Esc, ?;
#   - a real Kineto trace (../shared/traces, skipped when absent) and a
#     changed copy (a kernel name deleted, one's durations doubled, an op
#     repeated: tests/cli/diff_oracle.py make): every panel row against an
#     independent computation with Python's json module (the oracle's
#     table), to the ns, and the order; Enter on a row highlights as many
#     events in each half as the oracle counts; a box over A selects the
#     same window in B; two windows of one trace: every panel row is the
#     row `tracetty diff` prints for them, for ops, kernels and operators
#     (K); two ranks (DIR:0 DIR:1);
#   - a marker set of A drawn on both halves at the aligned time;
#   - bad input: one trace, three, a missing file.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
py=${PYTHON3:-python3}

cat >a.json <<'JSON'
{"traceEvents":[
{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","name":"a","pid":1,"tid":1,"ts":20,"dur":10},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":40,"dur":5},
{"ph":"X","name":"=x","pid":1,"tid":1,"ts":50,"dur":1}
]}
JSON
cat >b.json <<'JSON'
{"traceEvents":[
{"ph":"X","name":"a","pid":2,"tid":7,"ts":1000,"dur":10},
{"ph":"X","name":"a","pid":2,"tid":7,"ts":1020,"dur":10},
{"ph":"X","name":"a","pid":2,"tid":7,"ts":1035,"dur":10},
{"ph":"X","name":"b","pid":2,"tid":7,"ts":1050,"dur":10},
{"ph":"X","name":"c","pid":2,"tid":7,"ts":1070,"dur":2}
]}
JSON

# panel BODY-FILE: the compare panel's lines without the border
panel() { sed -n '/compare: /,/^+---/p' "$1" | sed -e '1d' -e '$d' -e 's/^| //' -e 's/ *|$//' -e 's/  *$//'; }

"$TRACETTY" render --compare a.json b.json --size 200x50 >wide.txt 2>wide.err
ok $? "render --compare at 200x50"
panel wide.txt | sed '/^$/d' | tr -s ' ' >wide.panel
cat >wide.want <<'EOF'
sum A 26,000 ns, B 42,000 ns, delta +16,000 ns (+61.5%); 1 added, 1 deleted, 1 increased, 0 decreased, 1 unchanged
Name Count A Count B Total A (ns) Total B (ns) Delta (ns) Delta %
a 2 3 20,000 30,000 +10,000 +50.0%
b 1 1 5,000 10,000 +5,000 +100.0%
c 0 1 0 2,000 +2,000 new
=x 1 0 1,000 0 -1,000 -100.0%
EOF
same_file wide.panel wide.want "the panel's rows: counts, totals, delta, delta %, by |delta|"
matches wide.txt '^ tracetty  A: a\.json ' "the top half is A, named"
matches wide.txt '^ tracetty  B: b\.json ' "the bottom half is B, named"
# B's clock starts 1 ms later: aligned on the starts, both rulers agree
is "$(grep -c '^ tick .*|0 us  *|5 us  *|10 us' wide.txt)" 2 "two rulers starting at 0"
is "$(grep '^ tick ' wide.txt | sort -u | wc -l | tr -d ' ')" 1 "one time axis: the same ruler above and below"
matches wide.txt '^ A  whole  Tab other half' "the status line: focus on A, the keys"

"$TRACETTY" render --compare a.json b.json --size 80x24 >small.txt 2>&1
ok $? "render --compare at 80x24"
panel small.txt | tr -s ' ' | sed -n '3,4p' >small.panel
printf '%s\n' 'a 2 3 20 us 30 us +10 us +50.0%' 'b 1 1 5 us 10 us +5 us +100.0%' >small.want
same_file small.panel small.want "80x24: rounded durations"
is "$(wc -l <small.txt | tr -d ' ')" 24 "80x24: 24 lines"

"$TRACETTY" render --compare a.json b.json --size 80x24 --keys '<Tab>' >tab.txt 2>&1
matches tab.txt '^ B  whole ' "Tab: the focus moves to B"
"$TRACETTY" render --compare a.json b.json --size 80x24 --keys '<Enter>' >enter.txt 2>&1
matches enter.txt "^2 in A, 3 in B \\(n N step\\): 'a'" "Enter: the name's events highlighted in both"
"$TRACETTY" render --compare a.json b.json --size 80x24 --keys 'P' >closed.txt 2>&1
if grep -q 'compare: ' closed.txt; then ok 1 "P closes the panel"; else ok 0 "P closes the panel"; fi
"$TRACETTY" render --compare a.json b.json --size 80x24 --keys 'PP' >reopen.txt 2>&1
matches reopen.txt 'compare: the whole traces' "P again opens it"
"$TRACETTY" render --compare a.json b.json --size 80x24 --keys '?' >help.txt 2>&1
matches help.txt 'compare view keys' "?: the compare view's help"
"$TRACETTY" render --compare a.json b.json --size 80x24 --keys '?x' >nohelp.txt 2>&1
if grep -q 'compare view keys' nohelp.txt; then ok 1 "a key closes the help"; else
    ok 0 "a key closes the help"; fi
# a box over A: the same window in B, the panel over both windows
"$TRACETTY" render --compare a.json b.json --size 200x50 --keys ':0us..30us<Enter>0v<End><Enter>' \
    >box.txt 2>&1
ok $? "a box over A"
matches box.txt 'compare: the box ' "the panel compares the box"
is "$(grep -c '^box of ' box.txt)" 2 "the box shows in both halves"
"$TRACETTY" render --compare a.json b.json --size 200x50 \
    --keys ':0us..30us<Enter>0v<End><Enter><Esc>' >esc.txt 2>&1
matches esc.txt 'compare: the whole traces' "Esc: back from the box to the whole traces"
"$TRACETTY" render --compare a.json b.json --size 200x50 --keys '<Esc>' >esc2.txt 2>&1
if grep -q 'compare: ' esc2.txt; then ok 1 "Esc closes the panel"; else ok 0 "Esc closes the panel"; fi
# markers: a set of A's shown on both halves at the aligned time (B's
# clock starts 1 ms later)
"$TRACETTY" markers add a.json --set s1 --at 25us --name mid >/dev/null 2>&1
ok $? "a marker set of A"
"$TRACETTY" render --compare --markers s1 a.json b.json --size 80x24 >marks.txt 2>&1
is "$(grep -c '^ tick .*\*mid ' marks.txt)" 2 "A's marker is drawn on both halves"
is "$(grep '^ tick ' marks.txt | sort -u | wc -l | tr -d ' ')" 1 "... in the same column"
# --align marker:SET:M: each trace's own marker M meets on the axis (b
# starts 40 us into A and 50 us into B: markers there line the b's up)
"$TRACETTY" markers add a.json --set al --at 40us --name m >/dev/null 2>&1 &&
    "$TRACETTY" markers add b.json --set al --at 50us --name m >/dev/null 2>&1
ok $? "a marker set 'al' on each trace"
"$TRACETTY" render --compare --align marker:al:m a.json b.json --size 100x20 >al.txt 2>&1
ok $? "--align marker:al:m"
# the column where the run holding the label b starts, in each half
bcols() { $py - "$1" <<'PY'
import sys
bars = "|\u2502"   # the lanes' left edge, ASCII or UTF-8
for line in open(sys.argv[1], encoding="utf-8"):
    body = line.rstrip("\n")
    edge = min((body.find(c) for c in bars if c in body), default=-1)
    if line.startswith("> tid") and edge >= 0 and "b" in body[edge:]:
        i = body.index("b", edge)
        while i > 0 and body[i - 1] not in " " + bars:
            i -= 1
        print(i)
PY
}
set -- $(bcols al.txt)
is "$#:$1" "2:$2" "A's and B's b start in one column"
"$TRACETTY" render --compare a.json b.json --size 100x20 >noal.txt 2>&1
set -- $(bcols noal.txt)
[ "$#" -eq 2 ] && [ "$1" -lt "$2" ]
ok $? "... where aligned on the starts A's b comes first"
"$TRACETTY" render --compare --align step:3 a.json b.json >al.out 2>al.err
is $? 2 "--align step:N on traces without steps: an error"
matches al.err "A has no event named 'ProfilerStep#3'" "... naming the side and the step"
"$TRACETTY" render --compare --align marker:al:zz a.json b.json >al.out 2>al.err
is $? 2 "--align on a marker that does not exist: an error"
matches al.err "A has no marker 'zz' in a marker set 'al'" "... naming it"
for s in 1 2 10000; do
    "$TRACETTY" render --compare a.json b.json --size ${s}x${s} >/dev/null 2>&1
    ok $? "any size: ${s}x${s}"
done

# bad input
"$TRACETTY" render --compare a.json >bad.out 2>bad.err
is $? 2 "one trace: usage error"
matches bad.err 'takes two traces' "... saying why"
"$TRACETTY" render --compare a.json b.json a.json >bad.out 2>bad.err
is $? 2 "three traces: usage error"
"$TRACETTY" render --compare a.json missing.json >bad.out 2>bad.err
[ $? -ne 0 ]
ok $? "a missing file: an error"
matches bad.err 'missing\.json' "... naming it"

# the real trace
real="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
oracle="$srcdir/tests/cli/diff_oracle.py"
if [ ! -f "$real" ] || ! command -v "$py" >/dev/null 2>&1; then
    echo "# skipping the real trace: no ../shared/traces or python3"
    tap_done
    exit
fi
"$py" "$oracle" make "$real" changed.json >names.txt
ok $? "B: the trace with a kernel deleted, one doubled, an op repeated"
# tall enough for every row in one panel
"$TRACETTY" render --compare "$real" changed.json --size 200x600 >real.txt 2>real.err
ok $? "render --compare of the real pair"
panel real.txt >real.panel
PYTHONPATH="$srcdir/tests/cli" "$py" - "$real" changed.json real.panel <<'EOF' >check.out
import sys, re
from diff_oracle import table, status
a, b, panel = sys.argv[1], sys.argv[2], sys.argv[3]
ta, tb = table(a, "ops"), table(b, "ops")
lines = [l for l in open(panel, encoding="utf-8").read().splitlines() if l.strip()]
bad, seen, order = 0, 0, []
def num(s):
    return int(s.replace(",", "").replace("+", ""))
want_sum_a = sum(v[1] for v in ta.values())
want_sum_b = sum(v[1] for v in tb.values())
m = re.match(r"sum A ([0-9,]+) ns, B ([0-9,]+) ns, delta ([-+0-9,]+) ns", lines[0])
if not m or (num(m.group(1)), num(m.group(2)), num(m.group(3))) != \
        (want_sum_a, want_sum_b, want_sum_b - want_sum_a):
    print("sum line", lines[0], want_sum_a, want_sum_b)
    bad += 1
for l in lines[2:]:
    # the last six columns are numbers; the name is what comes before them
    cols = l.rsplit(None, 6)
    name, ca, cb, sa, sb, d, p = cols[0].rstrip(), cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]
    cut = name.endswith("\u2026") or name.endswith("~")
    key = name[:-1] if cut else name
    cands = [n for n in set(ta) | set(tb) if (n.startswith(key) if cut else n == key)]
    ok = False
    for n in cands:
        wa, wb = ta.get(n, [0, 0]), tb.get(n, [0, 0])
        dd = wb[1] - wa[1]
        wp = "new" if wa[1] == 0 else "%+.1f%%" % (100.0 * dd / wa[1])
        if (num(ca), num(cb), num(sa), num(sb), num(d), p) == (wa[0], wb[0], wa[1], wb[1], dd, wp):
            ok = True
            order.append((-abs(dd), n.encode()))
            break
    if not ok:
        print("row", l)
        bad += 1
    seen += 1
if seen != len(set(ta) | set(tb)):
    print("rows", seen, "want", len(set(ta) | set(tb)))
    bad += 1
if order != sorted(order):
    print("not sorted by |delta| then name")
    bad += 1
print("rows %d mismatches %d" % (seen, bad))
EOF
matches check.out ' mismatches 0$' "every panel row and the sums equal the oracle's, in order"
sed 's/^/# /' check.out | tail -5
# Enter on the deleted kernel's row: its events in A, none in B
deleted=$(sed -n 1p names.txt)
# (its name is cut in the panel: its first 60 bytes find it)
row=$(awk -v n="$deleted" 'index($0, substr(n, 1, 60)) == 1 { print NR; exit }' real.panel)
if [ -n "$row" ]; then
    keys=""
    i=3
    while [ "$i" -lt "$row" ]; do keys="${keys}j"; i=$((i + 1)); done
    "$TRACETTY" render --compare "$real" changed.json --size 200x600 --keys "${keys}<Enter>" \
        >hl.txt 2>&1
    want=$(PYTHONPATH="$srcdir/tests/cli" "$py" -c "
import sys
from diff_oracle import table
print(table(sys.argv[1], 'ops')[sys.argv[2]][0])" "$real" "$deleted")
    matches hl.txt "^$want in A, 0 in B \\(n N step\\)" "Enter on the deleted kernel: $want events in A, none in B"
else
    ok 1 "the deleted kernel has a row"
fi
# agree RENDER CSV: every compare panel row of the render is the row of the
# diff CSV, in its order: prints "mismatches N"
agree() {
    panel "$1" >"$1.panel"
    "$py" - "$1.panel" "$2" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[2], newline="", encoding="utf-8")))[1:]
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if l.strip()][2:]
num = lambda s: int(s.replace(",", "").replace("+", ""))
bad = 0
if len(lines) != len(rows):
    print("rows", len(lines), "want", len(rows)); bad += 1
for l, r in zip(lines, rows):
    name, ca, cb, ta, tb, d, p = l.rsplit(None, 6)
    name = name.rstrip()
    rn = r[0][1:] if r[0][:1] == "'" else r[0]
    key = name[:-1] if name.endswith("~") else name
    if not rn.startswith(key) or [num(ca), num(cb), num(ta), num(tb), num(d)] != \
            [int(x) for x in r[2:7]]:
        print("panel", l, "diff", r); bad += 1
print("mismatches %d" % bad)
EOF2
}
# two regions of one trace: the panel says what `tracetty diff` says
"$TRACETTY" render --compare "$real@100ms:300ms" "$real@500ms:700ms" --size 200x600 \
    >reg.txt 2>&1
ok $? "render --compare of two windows of one trace"
matches reg.txt 'compare: the regions' "the panel compares the regions"
"$TRACETTY" diff "$real@100ms:300ms" "$real@500ms:700ms" >reg.csv 2>/dev/null
ok $? "diff of the same two windows"
agree reg.txt reg.csv >reg.out
matches reg.out '^mismatches 0$' "every panel row is diff's row, in diff's order"
# K: the kernels' and the operators' tables, as diff --kind says them
for k in kernels:K operators:KK; do
    "$TRACETTY" render --compare "$real@100ms:300ms" "$real@500ms:700ms" --size 200x600 \
        --keys "${k#*:}" >reg_k.txt 2>&1
    matches reg_k.txt "compare: the regions \\(${k%%:*} by" "${k#*:}: the panel lists ${k%%:*}"
    "$TRACETTY" diff --kind "${k%%:*}" "$real@100ms:300ms" "$real@500ms:700ms" >reg_k.csv 2>/dev/null
    agree reg_k.txt reg_k.csv >reg_k.out
    matches reg_k.out '^mismatches 0$' "${k%%:*}: every panel row is diff's row, in order"
done
two="$(shared_traces)/pytorch/two_ranks"
if [ -d "$two" ]; then
    "$TRACETTY" render --compare "$two:0" "$two:1" --size 100x30 >ranks.txt 2>&1
    ok $? "render --compare DIR:0 DIR:1: two ranks"
    matches ranks.txt '^ (tracetty  )?A: .*two_ranks:0 ' "A is rank 0"
    "$TRACETTY" render --compare "$two:0" "$two:7" >bad.out 2>bad.err
    [ $? -ne 0 ]
    ok $? "a rank that does not exist: an error"
fi
# a box over a window of A: the same window in B
"$TRACETTY" render --compare "$real" changed.json --size 200x50 \
    --keys ':100ms..200ms<Enter>v<End><Enter>' >rbox.txt 2>&1
is "$(grep -o '^box of [0-9.]* [mun]*s' rbox.txt | sort -u | wc -l | tr -d ' ')" 1 \
    "the box is the same window in both halves"
tap_done
