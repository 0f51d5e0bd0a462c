#!/bin/sh
# formats_shared.sh - every real third-party trace of the device profile
# kinds loads (both Ascend kernel_details.csv layouts, the Nsight Systems
# SQLite exports, the neuron-profile summary), with counts and times
# checked against an independent reading of the same files by python3
# (csv and sqlite3 modules; that part is skipped without python3).
. "$srcdir/tests/lib.sh"

T=$(shared_traces)
[ -d "$T" ] || skip_all "no shared traces at $T"
PY=$(command -v python3 || true)

# total and count of (start, duration) over the events report
events_sum() {   # FILE -> "COUNT SUM_DUR_NS"
    "$TRACETTY" report --quiet --kind events --format csv "$1" |
        awk -F, 'NR > 1 { n++; s += $2 } END { printf "%d %.0f\n", n, s }'
}

for f in "$T"/ascend/kernel_details_v8.csv "$T"/ascend/kernel_details_old.csv; do
    b=$(basename "$f")
    "$TRACETTY" summary --format json "$f" >"$TMPD/s.json" 2>"$TMPD/err"
    ok $? "$b loads"
    matches "$TMPD/s.json" '"format":[[:space:]]*"ascend-csv"' "$b detected as Ascend"
    if [ -n "$PY" ]; then
        want=$("$PY" - "$f" <<'PYEOF'
import csv, sys
from decimal import Decimal
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8-sig')))
print(len(rows), sum(int((Decimal(r['Duration(us)'].strip()) * 1000).to_integral_value()) for r in rows))
PYEOF
)
        is "$(events_sum "$f")" "$want" "$b: event count and total duration match python's csv"
    fi
done
"$TRACETTY" summary "$T/ascend/kernel_details_old.csv" >"$TMPD/out" 2>&1
matches "$TMPD/out" 'NPU / HCCL' "old layout: HCCL rows without a stream get their own lane"
matches "$TMPD/out" 'NPU / Stream 16' "old layout: lanes by Stream ID"

"$TRACETTY" summary "$T/neuron/summary_json_partial.json" >"$TMPD/out" 2>&1
ok $? "neuron summary-json loads"
matches "$TMPD/out" '^Format +neuron-json' "detected as neuron JSON"
matches "$TMPD/out" '^Note +neuron-profile summary only: no events' "says it has no events"
matches "$TMPD/out" '^Span +none \(no events\)$' "no span rather than 0 ns"
"$TRACETTY" summary --format json "$T/neuron/summary_json_partial.json" >"$TMPD/s.json" 2>&1
matches "$TMPD/s.json" '"total_time":[[:space:]]*null,' "JSON: total_time null, not 0"
matches "$TMPD/out" 'total_time +0\.213808050051' "summary keys become metadata"
matches "$TMPD/out" 'instance_type +trn1\.2xlarge' "strings too"

for f in "$T"/nsys/*.sqlite; do
    b=$(basename "$f")
    if ! "$TRACETTY" summary --format json "$f" >"$TMPD/s.json" 2>"$TMPD/err"; then
        ok 1 "$b loads"; sed 's/^/#   /' "$TMPD/err"; continue
    fi
    ok 0 "$b loads"
    [ -n "$PY" ] || continue
    # kernels, copies, memsets, runtime calls and NVTX ranges/marks in the file
    want=$("$PY" - "$f" <<'PYEOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
def count(t, where=""):
    return db.execute("select count(*) from %s %s" % (t, where)).fetchone()[0] if t in tables else 0
n = count("CUPTI_ACTIVITY_KIND_KERNEL") + count("CUPTI_ACTIVITY_KIND_MEMCPY") \
    + count("CUPTI_ACTIVITY_KIND_MEMSET") + count("CUPTI_ACTIVITY_KIND_RUNTIME") \
    + count("NVTX_EVENTS", "where (eventType in (59, 60, 70, 71) and end is not null) or eventType in (34, 65)")
s = 0
for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
          "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME"):
    if t in tables:
        s += db.execute("select coalesce(sum(end - start), 0) from %s" % t).fetchone()[0]
if "NVTX_EVENTS" in tables:
    s += db.execute("select coalesce(sum(end - start), 0) from NVTX_EVENTS where eventType in (59, 60, 70, 71) and end is not null").fetchone()[0]
# correlated launches: GPU work whose correlation id a runtime call carries
flows = 0
if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
    ids = {r[0] for r in db.execute("select correlationId from CUPTI_ACTIVITY_KIND_RUNTIME")}
    for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        if t in tables:
            flows += sum(1 for r in db.execute("select correlationId from %s" % t) if r[0] in ids)
print(n, s, flows)
PYEOF
)
    got=$(events_sum "$f")
    flows=$(sed -n 's/^[[:space:]]*"flows":[[:space:]]*\([0-9]*\),*$/\1/p' "$TMPD/s.json")
    is "$got $flows" "$want" "$b: events, total time and launch flows match python's sqlite3"
done
if [ -f "$T/nsys/no_kernel_table.sqlite" ] && ! grep -q "built without SQLite" "$TMPD/err"; then
    "$TRACETTY" summary "$T/nsys/no_kernel_table.sqlite" >"$TMPD/out" 2>&1
    matches "$TMPD/out" '^Note +this export has no kernel table' "no kernel table: a valid, small trace"
    "$TRACETTY" summary "$T/nsys/saxpy_mpi.sqlite" >"$TMPD/out" 2>&1
    matches "$TMPD/out" '^Rank +0' "saxpy: rank from NVTX 'MPI Rank 0'"
    matches "$TMPD/out" 'Memcpy HtoD \(Pageable -> Device\) +10 ' "saxpy: pageable copies named as Kineto does"
    gzip -c "$T/nsys/saxpy_mpi.sqlite" >"$TMPD/x.sqlite.gz"
    "$TRACETTY" summary "$TMPD/x.sqlite.gz" >"$TMPD/out" 2>&1
    is "$?" 2 "a compressed SQLite export is an error"
    matches "$TMPD/out" 'plain file: decompress it first' "that says what to do"
fi
tap_done
