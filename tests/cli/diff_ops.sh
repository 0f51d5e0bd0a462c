#!/bin/sh
# diff_ops.sh - `tracetty diff --kind ops|kernels|operators` against an
# independent computation (tests/cli/diff_oracle.py: Python's json and csv
# modules) over a real Kineto trace and a changed copy of it: every event
# of one kernel name deleted, one kernel name's durations doubled, one
# operator event repeated. Every row (status, counts, totals, delta,
# delta %, averages) and the order are checked to the ns; then the JSON and
# text forms, -o and two traces with nothing in common. A small pair of
# traces with fixed numbers runs without the shared traces.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
py=${PYTHON3:-python3}

# Small: A has a (2 x 10 us), b and =x; B has a (3 x 10 us), c, and b's
# duration doubled. A name that looks like a formula keeps its guard.
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
{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","name":"a","pid":1,"tid":1,"ts":20,"dur":10},
{"ph":"X","name":"a","pid":1,"tid":1,"ts":35,"dur":10},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":50,"dur":10},
{"ph":"X","name":"c","pid":1,"tid":1,"ts":70,"dur":2}
]}
JSON
"$TRACETTY" diff a.json b.json >small.csv 2>small.err
ok $? "diff of two small traces"
cat >small.want <<'EOF'
"Name","Status","Count A","Count B","Total A (ns)","Total B (ns)","Delta (ns)","Delta (%)","Avg A","Avg B"
"a","increased",2,3,20000,30000,10000,50.00,10000.0,10000.0
"b","unchanged",1,1,5000,10000,5000,100.00,5000.0,10000.0
"c","added",0,1,0,2000,2000,,,2000.0
"'=x","deleted",1,0,1000,0,-1000,-100.00,1000.0,
EOF
tr -d '\r' <small.csv >small.lf
same_file small.lf small.want "rows, statuses, empty cells, the order and the formula guard"
"$TRACETTY" diff --format json a.json b.json >small.json
$py - small.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["traces"][0]
r = {x["name"]: x for x in t["rows"]}
assert d["kind"] == "ops" and d["by"] == "name" and d["a"] == "a.json" and d["b"] == "b.json"
assert r["c"]["avg_a_ns"] is None and r["c"]["delta_percent"] is None
assert r["a"]["delta_ns"] == 10000 and r["a"]["status"] == "increased"
assert t["sum_a_ns"] == 26000 and t["sum_b_ns"] == 42000 and t["delta_ns"] == 16000
assert t["rows_by_status"] == {"added": 1, "deleted": 1, "increased": 1, "decreased": 0,
                               "unchanged": 1}
PY
ok $? "json: head, null cells, sums and rows per status"
"$TRACETTY" diff --format text a.json b.json >small.txt
matches small.txt '^Total: A 26 us, B 42 us, delta \+16 us \(\+61.54%\); 4 names: 1 added, 1 deleted, 1 increased, 0 decreased, 1 unchanged$' \
    "text: the one-line total"
"$TRACETTY" diff -o out.csv a.json b.json && cmp -s out.csv small.csv
ok $? "-o writes the same file"
"$TRACETTY" diff --by category a.json b.json | tr -d '\r' >bycat.csv
matches bycat.csv '^,"increased",4,5,26000,42000,16000,61.54,6500.0,8400.0$' \
    "--by category: events without a category are the (none) row, empty Name"
"$TRACETTY" diff --kind kernels --by name a.json b.json >/dev/null 2>by.err
[ $? -eq 2 ] && grep -q -- "--by applies to --kind ops only" by.err
ok $? "--by with kernels is a usage error"
"$TRACETTY" diff a.json >/dev/null 2>one.err
[ $? -eq 2 ] && grep -q "two inputs needed" one.err
ok $? "one input is a usage error"
"$TRACETTY" diff --kind operators --format json a.json b.json >hostops.json 2>hostops.err
$py - hostops.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["traces"][0]["rows"]}
assert d["total_a"] == "host" and d["total_b"] == "host"
assert r["a"]["count_b"] == 3 and r["a"]["total_b_ns"] == 30000 and r["b"]["delta_ns"] == 5000
PY
ok $? "operators without launch links: Host Total, said in the JSON head"
matches hostops.err 'Total is Host Total for A, Host Total for B' "... and on stderr"
printf '{"traceEvents":[{"ph":"X","name":"z","pid":1,"tid":1,"ts":0,"dur":1}]}' >z.json
"$TRACETTY" diff a.json z.json >/dev/null 2>none.err
ok $? "no common names: exit 0"
matches none.err 'A and B have no ops name in common' "no common names: said on stderr"

T=$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz
if [ ! -r "$T" ]; then
    tap_done
    exit $?
fi
$py "$srcdir/tests/cli/diff_oracle.py" make "$T" B.json >changes.txt
ok $? "B made: a kernel name deleted, one doubled, an op repeated"
"$TRACETTY" diff "$T" B.json >ops.csv
ok $? "diff --kind ops of the real trace and B"
$py "$srcdir/tests/cli/diff_oracle.py" check ops "$T" B.json ops.csv >ops.out
ok $? "ops: every row as python computes it ($(tail -1 ops.out))"
head -5 ops.out | sed 's/^/# /'
deleted=$(sed -n 1p changes.txt)
"$TRACETTY" diff --kind kernels "$T" B.json >kernels.csv
ok $? "diff --kind kernels of the real trace and B"
$py "$srcdir/tests/cli/diff_oracle.py" check kernels "$T" B.json kernels.csv >kernels.out
ok $? "kernels: every row as python computes it ($(tail -1 kernels.out))"
head -5 kernels.out | sed 's/^/# /'
tr -d '\r' <kernels.csv | sed -n 2p | grep -qF "\"$deleted\",\"deleted\","
ok $? "kernels: the deleted name is the biggest change"
"$TRACETTY" diff --kind operators "$T" B.json >operators.csv 2>operators.err
ok $? "diff --kind operators of the real trace and B"
$py "$srcdir/tests/cli/diff_oracle.py" check operators "$T" B.json operators.csv >operators.out
ok $? "operators: every row (calls, Device Total) as python computes it ($(tail -1 operators.out))"
head -5 operators.out | sed 's/^/# /'
matches operators.err 'Total is Device Total for A, Device Total for B' \
    "operators: stderr says the Total is Device Total"
tap_done
