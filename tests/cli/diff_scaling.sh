#!/bin/sh
# diff_scaling.sh - `tracetty diff --scaling RUN...` against independent
# computations: the HugeCTR prof.json runs of tests/data/scaling (1, 2 and
# 4 hosts, made by gen_hugectr.py there) against scaling_oracle.py (json
# module only), every cell of every row, strong and weak efficiency; the
# JSON head and -o; two real Kineto traces as runs of another format
# (step rows from steps_oracle.py, totals by name summed in Python); bad
# uses with their exit codes and messages.
. "$srcdir/tests/lib.sh"

py=${PYTHON3:-python3}
D="$srcdir/tests/data/scaling"
cd "$TMPD" || exit 1

# CSV rows as '|'-joined cells, without the header
cells() { "$py" -c 'import csv,sys
for r in list(csv.reader(sys.stdin))[1:]: print("|".join(r))'; }

"$TRACETTY" diff --scaling "$D/run1" "$D/run2" "$D/run4" >strong.csv 2>strong.err
ok $? "diff --scaling over the 1, 2 and 4 host runs"
cells <strong.csv >strong.got
"$py" "$srcdir/tests/cli/scaling_oracle.py" "$D/run1" "$D/run2" "$D/run4" >strong.want
same_file strong.got strong.want "every cell as the oracle computes it (strong)"
is "$(head -1 strong.csv | tr -d '\r')" '"Name","Stat","run1 (ns)","run1 speedup","run1 efficiency","run2 (ns)","run2 speedup","run2 efficiency","run4 (ns)","run4 speedup","run4 efficiency"' \
    "the header: a column group per run"
is "$(sed -n 2p strong.csv | tr -d '\r')" '"iteration","avg",3811046.0,1.000,1.000,2871686.0,1.327,0.664,2665844.5,1.430,0.357' \
    "the iteration row first"
matches strong.csv '^"allreduce.embedding","avg",,,,,,,[0-9]' "a label only run4 has: empty cells before"
is "$(wc -l <strong.want | tr -d ' ')" "22" "2 iteration rows and 2 rows for each of 10 labels"
is "$(cat strong.err)" "" "nothing on stderr"

"$TRACETTY" diff --scaling --weak "$D/run1" "$D/run2" "$D/run4" | cells >weak.got
"$py" "$srcdir/tests/cli/scaling_oracle.py" --weak "$D/run1" "$D/run2" "$D/run4" >weak.want
same_file weak.got weak.want "every cell as the oracle computes it (--weak)"

"$TRACETTY" diff --scaling "$D/run1" "$D/run4" --format json -o s.json
ok $? "--format json -o FILE"
"$py" - s.json <<'PY' >json.got
import json, sys
d = json.load(open(sys.argv[1]))
print(d["measure"], d["efficiency"], [(r["run"].split("/")[-1], r["ranks"]) for r in d["runs"]])
rows = d["traces"][0]["rows"]
it = rows[0]
print(it["name"], it["stat"], it["r1_ns"], it["r2_ns"], round(it["r2_speedup"], 6), round(it["r2_efficiency"], 6))
PY
is "$(cat json.got)" "hugectr strong [('run1', 1), ('run4', 4)]
iteration avg 3811046 2665844.5 1.429583 0.357396" "the JSON head (ranks = hosts) and the iteration row"

# A snapshot of a run measures as its source does
"$TRACETTY" convert --quiet "$D/run1/prof.json" -o run1.ttz 2>/dev/null
"$TRACETTY" diff --scaling run1.ttz "$D/run2" "$D/run4" | cells >ttz.got
same_file ttz.got strong.want "a run given as a .ttz snapshot: the same cells"

# Another format: two Kineto traces, one rank each
T="$(shared_traces)/pytorch"
if [ -f "$T/resnet50_workers0.pt.trace.json.gz" ]; then
    A="$T/resnet50_workers0.pt.trace.json.gz" B="$T/resnet50_workers4.pt.trace.json.gz"
    "$TRACETTY" diff --scaling "$A" "$B" >k.csv 2>k.err
    ok $? "diff --scaling over two Kineto traces"
    for f in "$A" "$B"; do "$py" "$srcdir/tests/cli/steps_oracle.py" "$f" >"$(basename "$f").steps"; done
    "$py" - "$A" "$B" k.csv resnet50_workers0.pt.trace.json.gz.steps \
        resnet50_workers4.pt.trace.json.gz.steps <<'PY' >k.got
import csv, gzip, json, sys
from decimal import Decimal, ROUND_HALF_UP
def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
a, b, table, sa, sb = sys.argv[1:]
tot = []
for f in (a, b):
    t = {}
    for e in json.load(gzip.open(f, "rt"), parse_float=Decimal)["traceEvents"]:
        if e.get("ph") == "X":
            t[e["name"]] = t.get(e["name"], 0) + ns(e.get("dur", 0))
        elif e.get("ph") in ("i", "I"):
            t.setdefault(e["name"], 0)
    tot.append(t)
steps = []
for f in (sa, sb):
    v = [int(l.split(",")[2]) for l in open(f) if l[0].isdigit()]
    steps.append(sum(v) / len(v))
bad = n = 0
for r in list(csv.reader(open(table)))[1:]:
    n += 1
    want = steps if r[0] == "step" else [tot[0].get(r[0]), tot[1].get(r[0])]
    for i, col in ((0, 2), (1, 5)):
        w = "" if want[i] is None else "%.1f" % want[i]
        if r[col] != w:
            bad += 1
            print("row %s %s run %d: got %s want %s" % (r[0], r[1], i + 1, r[col], w))
    if want[0] and want[1] and r[6:8] != ["%.3f" % (want[0] / want[1])] * 2:
        bad += 1
        print("row %s: speedup %s want %.3f" % (r[0], r[6], want[0] / want[1]))
print("rows", n, "bad", bad)
PY
    is "$(tail -1 k.got)" "rows $(($(wc -l <k.csv) - 1)) bad 0" "step means and totals by name of both runs, speedups (Python)"
    matches k.csv '^"step","avg",177592166.7,' "the step row: mean step time of run 1"
else
    echo "ok $((tap_n + 1)) - # SKIP no shared traces"; tap_n=$((tap_n + 1))
fi

# Bad uses
"$TRACETTY" diff --scaling "$D/run1" >/dev/null 2>one.err
is $? 2 "one run: exit 2"
matches one.err "compares two runs or more" "  says why"
"$TRACETTY" diff --weak "$D/run1" "$D/run2" >/dev/null 2>weak.err
is $? 2 "--weak without --scaling: exit 2"
matches weak.err -- "--weak goes with --scaling" "  says why"
"$TRACETTY" diff --scaling --fail-if 'total>1%' "$D/run1" "$D/run2" >/dev/null 2>mix.err
is $? 2 "--scaling with --fail-if: exit 2"
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}]}' >k.json
"$TRACETTY" diff --scaling "$D/run1" k.json >/dev/null 2>mixed.err
is $? 2 "HugeCTR mixed with Chrome JSON: exit 2"
matches mixed.err "mix HugeCTR prof.json with other formats" "  says why"
"$TRACETTY" diff --scaling "$D/run1" nosuch.json >/dev/null 2>missing.err
is $? 2 "a run that does not exist: exit 2"
matches missing.err "nosuch.json" "  names it"
tap_done
