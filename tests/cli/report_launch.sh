#!/bin/sh
# report_launch.sh - `tracetty report --kind launch` (HTA's kernel launch
# statistics) on the real Kineto traces in ../shared/traces (skipped when
# absent): every launched kernel, copy and memset, its launch delay, host
# and device durations and HTA's outlier flags equal an independent python3
# computation joining device and runtime events on their correlation id
# (json module); a window; the summary; a trace without launch links says
# so on stderr.
. "$srcdir/tests/lib.sh"

dir=$(shared_traces)/pytorch
[ -d "$dir" ] || skip_all "../shared/traces is absent"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"

# oracle TRACE [FROM_NS:TO_NS]: sorted "corr,start,delay,host_dur,dev_dur,
# flags,launcher,name" lines (start relative to the trace start)
oracle() {
    python3 - "$@" <<'PY'
import gzip, json, sys
from decimal import Decimal, ROUND_HALF_UP
def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
path = sys.argv[1]
with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
    d = json.load(f, parse_float=Decimal)
ev = d["traceEvents"] if isinstance(d, dict) else d
t0 = min(ns(e["ts"]) for e in ev if e.get("ph") in ("X", "i", "I", "B", "E") and "ts" in e)
lo, hi = (None, None)
if len(sys.argv) > 2:
    lo, hi = (t0 + int(x) for x in sys.argv[2].split(":"))
DEVICE = {"kernel", "memcpy", "gpu_memcpy", "memset", "gpu_memset"}
RUNTIME = {"runtime", "cuda_runtime", "cuda_driver"}
host = {}
for e in ev:
    if e.get("ph") == "X" and str(e.get("cat", "")).lower() in RUNTIME:
        c = (e.get("args") or {}).get("correlation")
        if c is not None:
            host[c] = e
out = []
for e in ev:
    if e.get("ph") != "X" or str(e.get("cat", "")).lower() not in DEVICE:
        continue
    c = (e.get("args") or {}).get("correlation")
    h = host.get(c)
    if h is None:
        continue
    s, dd = ns(e["ts"]), ns(e["dur"])
    if lo is not None and not (s < hi and s + dd > lo):
        continue
    hs, hd = ns(h["ts"]), ns(h["dur"])
    delay = s - hs
    flags = []
    if dd < hd: flags.append("short")
    if hd > 50000: flags.append("slow-call")
    if delay > 100000: flags.append("late")
    out.append("%s,%d,%d,%d,%d,%s,%s,%s" % (c, s - t0, delay, hd, dd, " ".join(flags), h["name"], e["name"]))
for line in sorted(out):
    print(line)
PY
}

# the same fields of a launch CSV (one trace), sorted
fields() {
    python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
for r in sorted("%s,%s,%s,%s,%s,%s,%s,%s" % (r["Correlation"], r["Start (ns)"], r["Launch Delay (ns)"],
                r["Host Duration (ns)"], r["Device Duration (ns)"], r["Flags"], r["Launcher"], r["Name"])
                for r in rows):
    print(r)'
}

for f in resnet50_workers0.pt.trace.json.gz nccl_data.json.gz memcpy_queue_rank0.json.gz \
         two_ranks/rank-0.json.gz mi250_rocm.json.gz; do
    [ -f "$dir/$f" ] || continue
    "$TRACETTY" report --kind launch "$dir/$f" >"$TMPD/t.csv" 2>"$TMPD/err"
    ok $? "$f: exit 0"
    fields <"$TMPD/t.csv" >"$TMPD/t.txt"
    oracle "$dir/$f" >"$TMPD/o.txt"
    same_file "$TMPD/t.txt" "$TMPD/o.txt" \
        "$f: every launch's delay, durations and flags equal the python join ($(grep -c . "$TMPD/o.txt") launches)"
    # rows in device start order
    tr -d '\r' <"$TMPD/t.csv" | awk -F, 'NR > 2 && $3 + 0 < prev { bad = 1 } NR > 1 { prev = $3 + 0 }
        END { exit bad }'
    ok $? "$f: rows in device start order"
done

w0=$dir/resnet50_workers0.pt.trace.json.gz
"$TRACETTY" report --kind launch --window 300ms:320ms "$w0" | fields >"$TMPD/t.txt"
oracle "$w0" 300000000:320000000 >"$TMPD/o.txt"
same_file "$TMPD/t.txt" "$TMPD/o.txt" "window 300ms:320ms: the launches overlapping it ($(grep -c . "$TMPD/o.txt"))"

# summary: JSON counts and delay statistics against the rows
"$TRACETTY" report --kind launch --format json "$w0" >"$TMPD/l.json"
python3 - "$TMPD/l.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
rows, s = t["rows"], t["summary"]
d = sorted(r["launch_delay_ns"] for r in rows)
n = len(d)
assert s["launches"] == n > 0
assert s["launch_delay_max_ns"] == d[-1]
assert abs(s["launch_delay_mean_ns"] - sum(d) / n) < 1e-6
assert s["launch_delay_median_ns"] == (d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2)
for k in ("short", "slow-call", "late"):
    assert s[k.replace("-", "_")] == sum(k in r["flags"].split() for r in rows), k
PY
ok $? "JSON summary: launches, delay mean/median/max and flag counts match the rows"
"$TRACETTY" report --kind launch --format text "$w0" >"$TMPD/l.txt"
matches "$TMPD/l.txt" '^[0-9,]+ launches; launch delay mean ' "text: the summary under the table"

# a directory of ranks
"$TRACETTY" report --kind launch "$dir/two_ranks" >"$TMPD/r.csv" 2>"$TMPD/err"
ok $? "two_ranks directory: exit 0"
matches "$TMPD/r.csv" '^"Trace","Rank","Correlation",' "a Trace and a Rank column"
matches "$TMPD/r.csv" 'rank-1.json.gz",1,' "rank 1's rows"

# no launch links: a note on stderr, no rows
asc=$(shared_traces)/ascend/kernel_details_old.csv
if [ -f "$asc" ]; then
    "$TRACETTY" report --kind launch "$asc" >"$TMPD/a.csv" 2>"$TMPD/err"
    ok $? "Ascend kernel_details.csv: exit 0"
    matches "$TMPD/err" 'no launch links in this trace \(591 device events' "says it has no launch links"
    is "$(tr -d '\r' <"$TMPD/a.csv" | wc -l | tr -d ' ')" 1 "and writes the header only"
fi
"$TRACETTY" report --kind launch --by name "$w0" >/dev/null 2>"$TMPD/err"
ok "$([ $? -ne 0 ]; echo $?)" "--by does not apply to --kind launch"

# a snapshot gives the same table as its source
"$TRACETTY" convert "$dir/nccl_data.json.gz" -o "$TMPD/n.ttz" 2>/dev/null
"$TRACETTY" report --kind launch "$dir/nccl_data.json.gz" >"$TMPD/src.csv" 2>/dev/null
"$TRACETTY" report --kind launch "$TMPD/n.ttz" >"$TMPD/ttz.csv" 2>/dev/null
same_file "$TMPD/ttz.csv" "$TMPD/src.csv" "nccl_data: the same launch table from a .ttz snapshot"

tap_done
