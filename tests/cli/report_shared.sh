#!/bin/sh
# report_shared.sh - `tracetty report` on the real third-party traces in
# ../shared/traces (skipped when absent): the GPU breakdown of every Kineto
# trace is printed and its identities checked row by row (busy + idle =
# total, exposed parts within their class, classes within busy, Idle (%)
# consistent), and every kind runs on every trace with output that parses
# (CSV with the same field count on every record; JSON through python3 when
# it is installed).
. "$srcdir/tests/lib.sh"

dir=$(shared_traces)/pytorch
[ -d "$dir" ] || skip_all "../shared/traces is absent"
cd "$dir" || exit 1
set -- *.json.gz two_ranks/*.json.gz

"$TRACETTY" report --kind gpu "$@" >"$TMPD/gpu.csv" 2>"$TMPD/err"
is "$?" 0 "gpu report of $# Kineto traces exits 0"
tr -d '\r' <"$TMPD/gpu.csv" | sed 's/^/# /'
tr -d '\r' <"$TMPD/gpu.csv" | awk -F, 'NR > 1 {
    # Trace,Rank,Total,Busy,Idle,Computation,Communication,ExpComm,Memcpy,ExpMemcpy,Idle%
    bad = 0
    if ($4 + $5 != $3) bad = bad " busy+idle!=total"
    if ($8 > $7) bad = bad " exposed-comm>comm"
    if ($10 > $9) bad = bad " exposed-memcpy>memcpy"
    if ($6 > $4 || $7 > $4 || $9 > $4) bad = bad " class>busy"
    if ($4 > $6 + $7 + $9) bad = bad " busy>sum-of-classes"
    if ($3 > 0 && (100 * $5 / $3 - $11 > 0.051 || $11 - 100 * $5 / $3 > 0.051)) bad = bad " idle%"
    printf "%s %s%s\n", (bad == 0 ? "ok" : "bad"), $1, (bad == 0 ? "" : bad)
}' >"$TMPD/checks"
while read -r verdict name rest; do
    ok "$([ "$verdict" = ok ]; echo $?)" "gpu identities hold for $name${rest:+ ($rest)}"
done <"$TMPD/checks"
is "$(wc -l <"$TMPD/checks" | tr -d ' ')" "$#" "one gpu row per trace"
matches "$TMPD/gpu.csv" '^"two_ranks/rank-1.json.gz",1,' "rank from distributedInfo"

# Ascend's trace_view.json: the NPU tasks (process "Ascend Hardware", no
# category) are the device work of the GPU breakdown; busy is checked
# against the union of their intervals computed here.
asc=$(shared_traces)/ascend/trace_view.json
if [ -f "$asc" ] && command -v python3 >/dev/null 2>&1; then
    "$TRACETTY" report --kind gpu "$asc" | tr -d '\r' >"$TMPD/asc.csv"
    want=$(python3 - "$asc" <<'PY'
import json, sys
from decimal import Decimal, ROUND_HALF_UP
ev = json.load(open(sys.argv[1]))
ev = ev if isinstance(ev, list) else ev["traceEvents"]
npu = {e["pid"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"
       and str(e["args"]["name"]).startswith("Ascend Hardware")}
def ns(us):   # microseconds to ns, rounded half away from zero (all >= 0 here)
    return int((Decimal(str(us)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
iv = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]))
            for e in ev if e.get("ph") == "X" and e["pid"] in npu)
busy, end = 0, None
for s, t in iv:
    if end is None or s > end:
        busy += t - s
        end = t
    elif t > end:
        busy += t - end
        end = t
print(busy)
PY
)
    is "$(awk -F, 'NR == 2 { print $3 }' "$TMPD/asc.csv")" "$want" \
        "Ascend trace_view.json: NPU busy time is the union of its tasks ($want ns)"
    ok "$(awk -F, 'NR == 2 { exit !($5 > 0 && $5 <= $3 && $3 <= $5 + $6 + $8) }' "$TMPD/asc.csv"; echo $?)" \
        "and its tasks are computation (or copies)"
fi

for f in "$@"; do
    for kind in ops lanes transfers events; do
        "$TRACETTY" report --kind "$kind" "$f" >"$TMPD/o.csv" 2>"$TMPD/err"
        st=$?
        # fields per record, counted by a quote-aware scan
        n=$(tr -d '\r' <"$TMPD/o.csv" | awk '
            { line = line $0 }
            { q = gsub(/"/, "\"", line) }
            q % 2 == 1 { line = line "\n"; next }
            { f = 1; inq = 0
              for (i = 1; i <= length(line); i++) {
                  c = substr(line, i, 1)
                  if (c == "\"") inq = !inq
                  else if (c == "," && !inq) f++
              }
              print f; line = "" }' | sort -u | wc -l | tr -d ' ')
        ok "$([ "$st" -eq 0 ] && [ "$n" -eq 1 ]; echo $?)" "$kind CSV of $f: exit 0, same field count on every record"
    done
    "$TRACETTY" report --format json --kind transfers "$f" >"$TMPD/o.json" 2>"$TMPD/err"
    st=$?
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMPD/o.json"
        py=$?
        ok "$([ "$st" -eq 0 ] && [ "$py" -eq 0 ]; echo $?)" "transfers JSON of $f parses"
    else
        ok "$st" "transfers JSON of $f: exit 0 (python3 absent: not parsed)"
    fi
    "$TRACETTY" report --format text --kind ops --by cat "$f" >/dev/null 2>"$TMPD/err"
    ok $? "text ops by category of $f"
done

tap_done
