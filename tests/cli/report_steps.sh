#!/bin/sh
# report_steps.sh - `tracetty report --kind steps` on the real Kineto traces
# in ../shared/traces (skipped when absent): every step's time and its
# Kernel/Memcpy/Memset/Runtime/DataLoader/CPU Exec/Other parts, in ns,
# equal an independent python3 computation (tests/cli/steps_oracle.py,
# json module only, elementary-segment arithmetic) and to numbers worked
# out by hand on a small trace, over the whole trace,
# a window, device lanes only and marker intervals; the parts add up to
# the step time; a trace without steps says so.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
oracle="$srcdir/tests/cli/steps_oracle.py"

# Step,Start..Other of a steps CSV (one trace: no Trace column).
ns_columns() {
    tr -d '\r' | awk -F, 'NR > 1 { gsub(/"/, "", $2)
        print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }'
}

# compare NAME TRACE [tracetty options] -- [oracle options]
compare() {
    name=$1 trace=$2
    shift 2
    topts=
    while [ $# -gt 0 ] && [ "$1" != -- ]; do topts="$topts $1"; shift; done
    [ $# -gt 0 ] && shift
    # shellcheck disable=SC2086
    "$TRACETTY" report --kind steps $topts "$trace" >"$TMPD/t.csv" 2>"$TMPD/err"
    st=$?
    ns_columns <"$TMPD/t.csv" >"$TMPD/t.txt"
    python3 "$oracle" "$trace" "$@" >"$TMPD/o.txt"
    ok "$([ "$st" -eq 0 ] && [ -s "$TMPD/o.txt" ]; echo $?)" "$name: exit 0, steps found"
    same_file "$TMPD/t.txt" "$TMPD/o.txt" "$name: every step's parts equal the python computation ($(grep -c . "$TMPD/o.txt") rows)"
}

# A small trace whose numbers are worked out by hand: step 1 starts when
# k0 (launched before any step) ends, 130 us, and ends with k1, 250 us;
# step 2 starts there and ends with k3 (315 us); step 3 launched nothing
# and is left out. Step 1: k1 90 us, the memset before it 20 us, aten::op
# 10 us; step 2: k3 20 us, the copy 30 us, and 15 us the
# gpu_user_annotation does not cover (it counts for nothing).
small="$srcdir/tests/data/report/steps_small.json"
cat >"$TMPD/small.want" <<'EOF'
1,80000,120000,90000,0,20000,0,0,10000,0
2,200000,65000,20000,30000,0,0,0,0,15000
Average,,92500,55000,15000,10000,0,0,5000,7500
EOF
"$TRACETTY" report --kind steps "$small" 2>"$TMPD/err" | ns_columns >"$TMPD/small.got"
same_file "$TMPD/small.got" "$TMPD/small.want" "small trace: the steps worked out by hand"
matches "$TMPD/err" 'left out the last 1 step: it launched no device work' "small trace: the dropped step is said"
python3 "$oracle" "$small" >"$TMPD/small.py"
same_file "$TMPD/small.py" "$TMPD/small.want" "small trace: the python computation agrees"

dir=$(shared_traces)/pytorch
if [ ! -d "$dir" ]; then
    tap_done
    exit $?
fi

for f in resnet50_workers0.pt.trace.json.gz resnet50_workers4.pt.trace.json.gz \
         nccl_data.json.gz memcpy_queue_rank0.json.gz two_ranks/rank-0.json.gz \
         two_ranks/rank-1.json.gz mi250_rocm.json.gz; do
    [ -f "$dir/$f" ] || continue
    compare "$f" "$dir/$f"
    # the parts add up to the step time, the shares to 100
    tr -d '\r' <"$TMPD/t.csv" | awk -F, 'NR > 1 {
        s = 0; for (i = 5; i <= 11; i++) s += $i
        p = 0; for (i = 12; i <= 18; i++) p += $i
        if ($2 != "\"Average\"" && s != $4) bad = bad " " $2 ":sum"
        if ($4 > 0 && (p < 99.6 || p > 100.4)) bad = bad " " $2 ":shares"
    } END { exit bad != "" }'
    ok $? "$f: parts add up to each step's time, shares to 100%"
done

w0=$dir/resnet50_workers0.pt.trace.json.gz
compare "window 200ms:700ms" "$w0" --window 200ms:700ms -- --window 200000000:700000000
compare "device lanes only" "$w0" --lanes '*stream*' -- --device-only
is "$(awk -F, 'NR > 1 { s += $8 + $9 + $10 } END { print s + 0 }' "$TMPD/t.csv")" 0 \
    "device lanes only: no Runtime, DataLoader or CPU Exec time"

# resnet50 with 0 workers: the data loader runs in the step (TensorBoard's
# sample shows it as the largest part after the kernels)
"$TRACETTY" report --kind steps "$w0" | tr -d '\r' >"$TMPD/w0.csv"
matches "$TMPD/w0.csv" '^0,"Average",,177592167,98588667,' "resnet50_workers0: average step and kernel time"
ok "$(awk -F, '$2 == "\"Average\"" { exit !($9 > 50000000) }' "$TMPD/w0.csv"; echo $?)" \
    "resnet50_workers0: DataLoader over 50 ms a step"

# marker intervals as steps
cp "$w0" "$TMPD/w0.json.gz"
"$TRACETTY" markers add "$TMPD/w0.json.gz" --set it --at 100ms --name a &&
    "$TRACETTY" markers add "$TMPD/w0.json.gz" --set it --at 400ms --name b &&
    "$TRACETTY" markers add "$TMPD/w0.json.gz" --set it --at 1s --name c
ok $? "a marker set of three markers"
compare "marker intervals" "$TMPD/w0.json.gz" --markers it --per-interval -- \
    --spans a..b:100000000:400000000,b..c:400000000:1000000000

# a directory of ranks: one table, Trace and Rank columns
"$TRACETTY" report --kind steps "$dir/two_ranks" >"$TMPD/ranks.csv" 2>"$TMPD/err"
ok $? "two_ranks directory: exit 0"
matches "$TMPD/ranks.csv" '^"Trace","Rank","Step",' "a Trace and a Rank column"
matches "$TMPD/ranks.csv" '^"two_ranks/rank-1.json.gz",1,"552",|rank-1.json.gz",1,"552",' "rank 1's step 552"

# JSON and text
"$TRACETTY" report --kind steps --format json "$w0" >"$TMPD/s.json"
python3 - "$TMPD/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["traces"][0]
assert d["kind"] == "steps" and t["steps_from"] == "ProfilerStep" and t["steps"] == 6
rows = t["rows"]
assert rows[-1]["step"] == "Average" and rows[-1]["start_ns"] is None
assert abs(t["average"]["kernel_ns"] - sum(r["kernel_ns"] for r in rows[:-1]) / 6) < 1e-6
PY
ok $? "JSON: steps_from, exact averages"
"$TRACETTY" report --kind steps --format text "$w0" >"$TMPD/s.txt"
matches "$TMPD/s.txt" '^ +0 +Average +- +177,592,167' "text: the average row"

# no steps: a note, not a silent empty table
old=$dir/resnet50_oldschema.pt.trace.json.gz
"$TRACETTY" report --kind steps "$old" >"$TMPD/o.csv" 2>"$TMPD/err"
ok $? "resnet50_oldschema: exit 0"
matches "$TMPD/err" 'no steps in this trace .*--markers SET --per-interval' "resnet50_oldschema: says there are no steps and what to do"
is "$(tr -d '\r' <"$TMPD/o.csv" | wc -l | tr -d ' ')" 1 "and writes the header only"
"$TRACETTY" report --kind steps --window 5s:6s "$w0" >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" 'none of the 6 steps lies in the window' "a window past every step says so"
"$TRACETTY" report --kind steps --by name "$w0" >/dev/null 2>"$TMPD/err"
ok "$([ $? -ne 0 ]; echo $?)" "--by does not apply to --kind steps"

# Ascend kernel_details.csv: the Step Id argument
asc=$(shared_traces)/ascend/kernel_details_old.csv
if [ -f "$asc" ]; then
    "$TRACETTY" report --kind steps "$asc" | tr -d '\r' >"$TMPD/asc.csv"
    want=$(python3 - "$asc" <<'PY'
import csv, sys
from decimal import Decimal, ROUND_HALF_UP
def ns(v):
    return int((Decimal(v.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["Step Id"].strip() == "1"]
iv = sorted((ns(r["Start Time(us)"]), ns(r["Start Time(us)"]) + ns(r["Duration(us)"])) for r in rows)
busy, end = 0, None
for s, t in iv:
    if end is None or s > end:
        busy, end = busy + t - s, t
    elif t > end:
        busy, end = busy + t - end, t
print("%d,%d" % (max(t for _, t in iv) - iv[0][0], busy))
PY
)
    is "$(awk -F, 'NR == 2 { print $4 "," $5 }' "$TMPD/asc.csv")" "$want" \
        "Ascend kernel_details.csv: step 1 by Step Id, its span and kernel time"
fi

# a snapshot gives the same table as its source
"$TRACETTY" convert "$dir/nccl_data.json.gz" -o "$TMPD/n.ttz" 2>/dev/null
"$TRACETTY" report --kind steps "$dir/nccl_data.json.gz" >"$TMPD/src.csv" 2>/dev/null
"$TRACETTY" report --kind steps "$TMPD/n.ttz" >"$TMPD/ttz.csv" 2>/dev/null
same_file "$TMPD/ttz.csv" "$TMPD/src.csv" "nccl_data: the same steps table from a .ttz snapshot"

tap_done
