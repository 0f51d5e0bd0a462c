#!/bin/sh
# diff_inputs.sh - what `tracetty diff` compares: windows (TRACE@FROM:TO),
# marker intervals (TRACE@markers:SET:A:B), steps (--step), ranks of a
# directory (DIR:N, --rank), snapshots and every sample format, checked
# against tests/cli/diff_oracle.py (Python's json and csv modules) where
# the rows are a window of a real trace; the GPU breakdown and the step
# times side by side (--kind gpu, --kind steps) against `report`; and bad
# input: a missing rank, set, marker or step (an error naming those that
# exist, nothing on stdout), an unreadable file, a region that does not
# parse.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
py=${PYTHON3:-python3}
oracle="$srcdir/tests/cli/diff_oracle.py"

# ------------------------------------------------ every sample format
for f in demo.json neuron.json kernel_details.csv cuda_gpu_trace.csv hugectr_prof.json; do
    "$TRACETTY" diff "$srcdir/samples/$f" "$srcdir/samples/$f" >same.csv 2>same.err
    ok $? "$f against itself"
    n=$(tr -d '\r' <same.csv | sed 1d | grep -vc ',"unchanged",\([0-9]*\),\1,\([0-9]*\),\2,0,')
    is "$n" 0 "$f: every row unchanged, delta 0"
done
"$TRACETTY" diff "$srcdir/samples/kernel_details.csv" "$srcdir/samples/cuda_gpu_trace.csv" \
    >cross.csv 2>cross.err
ok $? "two formats (Ascend CSV, nsys CSV) compare"

T=$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz
R=$(shared_traces)/pytorch/two_ranks
if [ ! -r "$T" ] || [ ! -d "$R" ]; then
    tap_done
    exit $?
fi
$py "$oracle" make "$T" B.json >changes.txt || exit 1

# ------------------------------------------------------------ windows
"$TRACETTY" diff "$T@100ms:200ms" "B.json@150ms:300ms" >w.csv
ok $? "two windows"
$py "$oracle" check ops "$T" B.json w.csv 100000000:200000000 150000000:300000000 >w.out
ok $? "windows: every row as python computes it ($(tail -1 w.out))"
head -5 w.out | sed 's/^/# /'

# ---------------------------------------------------------- snapshots
"$TRACETTY" convert "$T" -o a.ttz 2>/dev/null
"$TRACETTY" diff a.ttz B.json >ttz.csv && "$TRACETTY" diff "$T" B.json >json.csv &&
    cmp -s ttz.csv json.csv
ok $? "a .ttz gives the rows of its trace"
"$TRACETTY" diff --kind kernels a.ttz B.json >ttzk.csv
$py "$oracle" check kernels "$T" B.json ttzk.csv >ttzk.out
ok $? "kernels of a .ttz: every row as python computes it ($(tail -1 ttzk.out))"

# -------------------------------------------------------------- steps
"$TRACETTY" report --kind steps --format json "$T" >steps.json
eval "$($py - steps.json <<'PY'
import json, sys
rows = {r["step"]: r for r in json.load(open(sys.argv[1]))["traces"][0]["rows"]}
for n in ("5", "6"):
    r = rows[n]
    print("s%s=%d e%s=%d" % (n, r["start_ns"], n, r["start_ns"] + r["step_ns"]))
PY
)"
"$TRACETTY" diff "$T" --step 5 --step 6 >st.csv 2>st.err
ok $? "two steps of one trace"
"$TRACETTY" diff "$T@${s5}:${e5}" "$T@${s6}:${e6}" >stw.csv
same_file st.csv stw.csv "--step N is the window of step N as report --kind steps gives it"
$py "$oracle" check ops "$T" "$T" st.csv "$s5:$e5" "$s6:$e6" >st.out
ok $? "steps: every row as python computes it over the step windows ($(tail -1 st.out))"
"$TRACETTY" diff --format json "$T" B.json --step 6 >st6.json
$py - st6.json "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"] == sys.argv[2] + " --step 6" and d["b"] == "B.json --step 6", (d["a"], d["b"])
PY
ok $? "one --step with two inputs applies to both (the JSON head says so)"

# ------------------------------------------------------------ markers
cp "$T" t.json.gz
"$TRACETTY" markers add t.json.gz --set s --at 100ms --name m1 >/dev/null &&
    "$TRACETTY" markers add t.json.gz --set s --at 250ms --name m2 >/dev/null &&
    "$TRACETTY" markers add t.json.gz --set s --at 400ms --name m3 >/dev/null
ok $? "a marker set of three markers"
"$TRACETTY" diff "t.json.gz@markers:s:m1:m2" "t.json.gz@markers:s:m2:m3" >m.csv
ok $? "two marker intervals of one trace"
$py "$oracle" check ops t.json.gz t.json.gz m.csv 100000000:250000000 250000000:400000000 >m.out
ok $? "markers: every row as python computes it ($(tail -1 m.out))"

# -------------------------------------------------------------- ranks
"$TRACETTY" diff "$R:0" "$R:1" >r.csv
ok $? "DIR:0 DIR:1"
"$TRACETTY" diff "$R" --rank 0 --rank 1 >r2.csv
same_file r2.csv r.csv "DIR --rank 0 --rank 1 is DIR:0 DIR:1"
$py "$oracle" check ops "$R/rank-0.json.gz" "$R/rank-1.json.gz" r.csv >r.out
ok $? "ranks: every row as python computes it ($(tail -1 r.out))"

# ---------------------------------------------------- gpu and steps kinds
"$TRACETTY" diff --kind gpu "$T" B.json >g.csv
ok $? "--kind gpu"
"$TRACETTY" report --kind gpu --format json "$T" B.json >g.json
$py - g.csv g.json "$(sed -n 1p changes.txt)" "$T" <<'PY'
import csv, gzip, json, sys
got = {r[0]: r[1:] for r in csv.reader(open(sys.argv[1], newline=""))}
rep = json.load(open(sys.argv[2]))["traces"]
keys = {"Total (ns)": "total_ns", "Busy (ns)": "busy_ns", "Idle (ns)": "idle_ns",
        "Computation (ns)": "computation_ns", "Communication (ns)": "communication_ns",
        "Exposed Communication (ns)": "exposed_communication_ns", "Memcpy (ns)": "memcpy_ns",
        "Exposed Memcpy (ns)": "exposed_memcpy_ns", "Kernels": "kernels"}
for k, j in keys.items():
    a, b = rep[0]["rows"][0][j], rep[1]["rows"][0][j]
    assert got[k][:3] == [str(a), str(b), str(b - a)], (k, got[k], a, b)
# the kernels deleted from B are exactly the Kernels delta
ev = json.load(gzip.open(sys.argv[4], "rt"))["traceEvents"]
gone = sum(1 for e in ev if e.get("ph") == "X" and e.get("name") == sys.argv[3]
           and (e.get("cat") or "").lower() == "kernel")
assert int(got["Kernels"][2]) == -gone, (got["Kernels"], gone)
PY
ok $? "gpu: A and B are report --kind gpu of each; Kernels delta = the deleted kernels"
"$TRACETTY" diff --kind steps "$R:0" "$R:1" >s.csv 2>s.err
ok $? "--kind steps of two ranks"
matches s.err 'steps matched by position' "steps: matched by position, said on stderr"
"$TRACETTY" report --kind steps --format json "$R" >s.json
$py - s.csv s.json <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))[1:]
t = json.load(open(sys.argv[2]))["traces"]
# the steps of each rank, without report's Average row
ra = [x for x in [r for r in t if r["rows"][0]["rank"] == 0][0]["rows"] if x["step"] != "Average"]
rb = [x for x in [r for r in t if r["rows"][0]["rank"] == 1][0]["rows"] if x["step"] != "Average"]
assert len(rows) == max(len(ra), len(rb))
for i, r in enumerate(rows):
    a, b = ra[i]["step_ns"], rb[i]["step_ns"]
    assert r[:6] == [str(i + 1), ra[i]["step"], rb[i]["step"], str(a), str(b), str(b - a)], r
PY
ok $? "steps: the step times of report --kind steps of each rank, with deltas"

# ---------------------------------------------------------- bad input
bad() {   # bad DESCRIPTION REGEX ARGS...: exit 2, the message, nothing on stdout
    what=$1 re=$2
    shift 2
    "$TRACETTY" diff "$@" >bad.out 2>bad.err
    rc=$?
    [ $rc -eq 2 ] && [ ! -s bad.out ] && grep -Eq -- "$re" bad.err
    ok $? "$what"
    [ $rc -eq 2 ] || echo "#   exit $rc"
    sed 's/^/#   /' bad.err | head -3
}
bad "a missing step names the steps" 'no step 3 in this trace \(steps: 5, 6, 7, 8, 9, 10\)' \
    "$T" --step 3 --step 5
bad "a missing marker names the markers" \
    "no marker named 'zz' in set 's' \(markers: m1, m2, m3\)" "t.json.gz@markers:s:m1:zz" B.json
bad "a missing marker set names the sets" "no marker set named 'q' \(sets: s\)" \
    "t.json.gz@markers:q:m1:m2" B.json
bad "a trace without marker sets says so" "this trace has no marker sets" \
    "B.json@markers:s:m1:m2" B.json
bad "a missing rank names the ranks" 'no rank 7 in this directory \(ranks: 0, 1\)' "$R:0" "$R:7"
bad "a directory needs a rank" 'a directory of 2 traces: name a rank' "$R" "$R:1"
bad "an unreadable file" 'nothere.json: cannot open' nothere.json B.json
bad "a window that does not parse" 'B.json@abc' "B.json@abc" B.json
bad "one input needs two --rank or --step" 'two inputs needed' B.json
"$TRACETTY" diff -o out.csv "$T" --step 3 --step 5 2>/dev/null
[ ! -e out.csv ]
ok $? "-o: no file after a missing step"
tap_done
