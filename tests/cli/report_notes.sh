#!/bin/sh
# report_notes.sh - what `tracetty report` says beside its rows: the
# same-rank warning only for kinds with a Rank column, the note for a gpu
# report of a trace without GPU events (categories checked against an
# independent count in python3), windows (typed or from marker files)
# clamped to the time limits, and a text table's rule under a long last
# column.
. "$srcdir/tests/lib.sh"
cd "$TMPD" || exit 2
data="$srcdir/tests/data/report"

# ------------------------------------- "both have rank N" only with a Rank

# two copies of one rank-3 trace claim rank 3 twice
cp "$data/small.json" a.json
cp "$data/small.json" b.json
for kind in ops lanes transfers events; do
    "$TRACETTY" report --kind "$kind" a.json b.json >out 2>err
    ok $? "report --kind $kind over two files: exit 0"
    is "$(cat err)" "" "report --kind $kind (no Rank column): no same-rank warning"
done
"$TRACETTY" report --kind gpu a.json b.json >out 2>err
matches err "a\.json and b\.json both have rank 3 here" \
    "report --kind gpu (a Rank column): the same-rank warning"

# ------------------------------------------ gpu report without GPU events

printf '%s\n' '{"traceEvents": [' \
  '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 5},' \
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1},' \
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 3, "dur": 1},' \
  '{"ph": "i", "name": "mark", "pid": 1, "tid": 1, "ts": 4, "s": "t"}' ']}' >cpu.json
"$TRACETTY" report --kind gpu cpu.json >out 2>err
ok $? "gpu report of a CPU-only trace: exit 0"
is "$(cat err)" "tracetty: warning: cpu.json: no GPU kernels, memcpy or memset events: the trace's categories are cuda_runtime, cpu_op" \
    "gpu report of a CPU-only trace: says why it is zeros, with its categories"
"$TRACETTY" report --kind ops cpu.json >out 2>err
is "$(cat err)" "" "other kinds say nothing about GPU events"
"$TRACETTY" report --kind gpu "$data/small.json" >out 2>err
is "$(cat err)" "" "a trace with GPU events gets no note"

shared=$(shared_traces)
cupti="$shared/pytorch/cupti_counters.json.gz"
if [ -f "$cupti" ] && command -v python3 >/dev/null 2>&1; then
    # categories of the timeline events (not metadata or flows), most
    # events first
    want=$(python3 - "$cupti" <<'PY'
import collections, gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
c = collections.Counter(e["cat"] for e in ev
                        if e.get("ph") not in ("M", "s", "t", "f") and e.get("cat"))
print(", ".join(k for k, _ in sorted(c.items(), key=lambda kv: -kv[1])))
PY
)
    "$TRACETTY" report --kind gpu "$cupti" >out 2>err
    ok $? "gpu report of cupti_counters: exit 0"
    is "$(sed 's/^.*: no GPU/no GPU/' err)" \
        "no GPU kernels, memcpy or memset events: the trace's categories are $want" \
        "cupti_counters: the categories python3 counts"
else
    tap_n=$((tap_n + 2)); echo "ok $((tap_n - 1)) # SKIP no shared traces or python3"
    echo "ok $tap_n # SKIP no shared traces or python3"
fi

# -------------------------------------------------- clamped windows

"$TRACETTY" report --format json --window -9000000000000000000:9000000000000000000 \
    "$data/small.json" >out 2>err
ok $? "a window beyond the time limits: exit 0"
matches out '"from_ns": *-3000000000000000000' "the window start is clamped to -3e18 ns"
matches out '"to_ns": *3000000000000000000' "the window end is clamped to 3e18 ns"
matches out '"window_ns": *6000000000000000000' "the window length does not overflow"
"$TRACETTY" report --format json "$data/small.json" >whole 2>/dev/null
grep -v '"from_ns"' out >got_rows
grep -v '"from_ns"' whole >want_rows
same_file got_rows want_rows "a clamped window has the rows of the whole trace"
matches out '"busy_ns":20000,' "and its busy time"

# marker times from a (hand-edited) sidecar are clamped the same way
cp "$data/small.json" m.json
cat >m.json.markers.json <<'JSON'
{"format": "tracetty-markers", "version": 1, "sets": [{"name": "S", "markers": [
 {"name": "a", "t_ns": -9000000000000000000}, {"name": "b", "t_ns": 9000000000000000000}]}]}
JSON
"$TRACETTY" report --format json --markers S --between a:b m.json >out 2>err
ok $? "a marker window beyond the time limits: exit 0"
matches out '"from_ns": *-3000000000000000000,"to_ns": *3000000000000000000,"window_ns": *6000000000000000000,' \
    "marker times from the sidecar are clamped to +-3e18 ns and their distance does not overflow"
"$TRACETTY" markers list m.json >out 2>err
matches out '^ +3000000000 s  b  \(\+6000000000 s\)$' "markers list: the clamped time and distance"

# --------------------------------------- the rule under a long last column

long=$(printf 'k%.0s' $(seq 1 300))
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "%s", "pid": 1, "tid": 1, "ts": 0, "dur": 5}, {"ph": "X", "cat": "kernel", "name": "short", "pid": 1, "tid": 1, "ts": 6, "dur": 1}]}\n' \
    "$long" >long.json
"$TRACETTY" report --format text long.json >out 2>err
ok $? "text report of a 300-character name: exit 0"
rule=$(sed -n '3p' out)
title=$(sed -n '2p' out)
is "${#rule}" "$(( ${#title} - 4 + 40 ))" "the rule under Name is 40 columns, not the name's 300"
matches out "^ .*$long\$" "the long name itself is printed whole"

tap_done
