#!/bin/sh
# check.sh - `tracetty check`: findings on the demo, exit status by
# severity, output formats, rules files and settings, every real trace.
. "$srcdir/tests/lib.sh"
demo="$srcdir/samples/demo.json"

"$TRACETTY" check --all "$demo" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
is "$rc" 1 "findings: exit 1 with the default --fail-on warning"
count() { grep -c "^[a-z]* *$1 " "$TMPD/out"; }
is "$(count device-idle)" 3 "--all: 3 idle GPU stretches while the host is busy"
is "$(count pageable-memcpy)" 4 "--all: 4 pageable input copies (one per step)"
is "$(count host-sync)" 8 "--all: 8 long synchronize calls"
is "$(count tiny-kernels)" 8 "--all: 8 runs of tiny kernels"
for r in tensor-reload throttle low-utilization sync-memcpy straggler; do
    is "$(count $r)" 0 "demo: nothing spurious from $r"
done
matches "$TMPD/out" '^23 findings: 12 errors, 11 warnings, 0 info$' "summary line"
is "$(head -n 1 "$TMPD/out" | cut -c1-7)" "error  " "--all: worst severity first"

# default: one block per rule, costliest first, its 3 worst findings
"$TRACETTY" check --fail-on never "$demo" >"$TMPD/ranked"
is "$(grep -c '^[a-z]' "$TMPD/ranked")" 4 "ranked: 4 headlines"
is "$(grep '^[a-z]* *[a-z-]*: [0-9]* finding' "$TMPD/ranked" | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" \
    "error host-sync: 8 error pageable-memcpy: 4 warning device-idle: 3 warning tiny-kernels: 8 " \
    "ranked: rules by time affected (python below checks each number)"
is "$(grep -c '^    [ 0-9]' "$TMPD/ranked")" 12 "ranked: 3 findings under each rule"
matches "$TMPD/ranked" '^error   host-sync: 8 findings, 160\.134 ms affected, 56\.1% of the step time$' "headline: count, time affected, share of the step time"
is "$(sed -n 2p "$TMPD/ranked" | grep -o 'for [0-9.]* ms')" "for 25.374 ms" "the longest sync first"
matches "$TMPD/ranked" '^    \.\.\. and 5 more$' "the rest counted"
matches "$TMPD/ranked" '^11 not shown: --all lists every finding$' "and how to see them"
"$TRACETTY" check --all --format csv --fail-on never "$demo" >"$TMPD/csv-all"
"$TRACETTY" check --format csv --fail-on never "$demo" >"$TMPD/csv-def"
same_file "$TMPD/csv-all" "$TMPD/csv-def" "--all changes the text output only"

"$TRACETTY" check --fail-on error "$demo" >/dev/null; is "$?" 1 "--fail-on error: syncs block 56% of the steps"
"$TRACETTY" check --set impact.error_share=60 --fail-on error "$demo" >/dev/null
is "$?" 0 "impact.error_share=60: no rule costs that much, exit 0"
"$TRACETTY" check --set host-sync.severity=info --set pageable-memcpy.severity=warning --fail-on error "$demo" >/dev/null
is "$?" 0 "an explicit severity wins over the impact"
"$TRACETTY" check --fail-on info "$demo" >/dev/null; is "$?" 1 "--fail-on info: exit 1"
"$TRACETTY" check --fail-on never "$demo" >/dev/null; is "$?" 0 "--fail-on never: exit 0"
"$TRACETTY" check "$demo" --fail-on never >/dev/null 2>"$TMPD/err"; is "$?" 0 "options after the trace apply too"
is "$(cat "$TMPD/err")" "" "and are not taken for traces"
"$TRACETTY" check "$demo" --disable all --format csv >"$TMPD/late"; is "$?" 0 "several options after the trace"
is "$(wc -l <"$TMPD/late")" 1 "and each applies (CSV header only)"
"$TRACETTY" check --disable all "$demo" >"$TMPD/none"; is "$?" 0 "every rule disabled: exit 0"
matches "$TMPD/none" '^0 findings' "and no findings"
"$TRACETTY" check --set device-idle.severity=error --fail-on error "$demo" >/dev/null
is "$?" 1 "severity raised from the command line"
"$TRACETTY" check --set device-idle.min_gap=20ms "$demo" >"$TMPD/o2"
is "$(grep -c device-idle "$TMPD/o2")" 0 "min_gap 20ms: no idle finding"

# CSV: the documented header, one record per finding, times in ns
"$TRACETTY" check --format csv --fail-on never "$demo" >"$TMPD/csv"
is "$(head -n 1 "$TMPD/csv" | tr -d '\r')" '"Severity","Rule","Start (ns)","End (ns)","Lanes","Events","Message","Rank"' "CSV header"
is "$(($(wc -l <"$TMPD/csv") - 1))" 23 "one CSV record per finding"
"$TRACETTY" check --format json --fail-on never "$demo" >"$TMPD/json"; ok $? "JSON output"

# every device-idle span is a real gap: no kernel, copy or memset inside it
if command -v python3 >/dev/null 2>&1; then
    python3 - "$demo" "$TMPD/csv" >"$TMPD/py" 2>&1 <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
t0 = min(round(float(e["ts"]) * 1000) for e in ev)
dev = [(round(float(e["ts"]) * 1000) - t0, round(float(e["ts"]) * 1000 + float(e["dur"]) * 1000) - t0)
       for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
bad = 0
rows = list(csv.DictReader(open(sys.argv[2])))
for r in rows:
    if r["Rule"] != "device-idle":
        continue
    s, e = int(r["Start (ns)"]), int(r["End (ns)"])
    if any(a < e and b > s for a, b in dev) or not any(b == s for a, b in dev) or not any(a == e for a, b in dev):
        bad += 1
print("bad", bad, "of", sum(1 for r in rows if r["Rule"] == "device-idle"))
PY
    is "$(cat "$TMPD/py")" "bad 0 of 3" "idle spans are exactly the gaps between device work (python)"
fi

# report --kind annotations is the same table
"$TRACETTY" report --kind annotations "$demo" >"$TMPD/rep.csv"
same_file "$TMPD/rep.csv" "$TMPD/csv" "report --kind annotations equals check --format csv"
"$TRACETTY" report --kind annotations --window 70ms:100ms "$demo" >"$TMPD/rep2.csv"
is "$(($(wc -l <"$TMPD/rep2.csv") - 1))" 6 "a window keeps the 6 findings overlapping 70-100 ms"
"$TRACETTY" report --kind annotations --lanes '*stream 7*' "$demo" >"$TMPD/rep3.csv"
is "$(grep -c host-sync "$TMPD/rep3.csv")" 0 "a lane pattern keeps the findings on those lanes"

# rules files
printf '{"rules": {\n  "host-sync": {"min_duration": "30ms"},\n  "nosuch": {}\n}}\n' >"$TMPD/bad.json"
"$TRACETTY" check --rules "$TMPD/bad.json" "$demo" >/dev/null 2>"$TMPD/err"; is "$?" 2 "unknown rule in a rules file: exit 2"
matches "$TMPD/err" "bad.json: line 3, column 3: unknown rule 'nosuch'" "positioned message"
is "$(wc -l <"$TMPD/err")" 1 "one line"
printf '{"rules": {"host-sync": {"min_duration": "30ms"}}}\n' >"$TMPD/good.json"
"$TRACETTY" check --rules "$TMPD/good.json" "$demo" >"$TMPD/o3"
is "$(grep -c host-sync "$TMPD/o3")" 0 "rules file raises host-sync.min_duration above every sync"
printf '{"rules": ' >"$TMPD/trunc.json"
"$TRACETTY" check --rules "$TMPD/trunc.json" "$demo" >/dev/null 2>"$TMPD/err"; is "$?" 2 "truncated rules file: exit 2"
"$TRACETTY" check --set bogus "$demo" >/dev/null 2>&1; is "$?" 2 "malformed --set: exit 2"
"$TRACETTY" check --fail-on sometimes "$demo" >/dev/null 2>&1; is "$?" 2 "bad --fail-on: exit 2"
"$TRACETTY" check --list-rules >"$TMPD/rules"; ok $? "--list-rules"
is "$(grep -c '^[a-z-]* *impact ' "$TMPD/rules")" 12 "twelve rules listed, severity from the impact"
"$TRACETTY" check --list-rules --set host-sync.severity=error >"$TMPD/rules"
matches "$TMPD/rules" '^host-sync *error ' "an explicit severity is listed"
printf '{"impact": {"error_share": 60}}\n' >"$TMPD/impact.json"
"$TRACETTY" check --rules "$TMPD/impact.json" --fail-on error "$demo" >/dev/null
is "$?" 0 "rules file: impact thresholds"
printf '{"impact": {"error_share": "x"}}\n' >"$TMPD/impact.json"
"$TRACETTY" check --rules "$TMPD/impact.json" "$demo" >/dev/null 2>"$TMPD/err"
is "$?" 2 "rules file: a bad impact threshold is an error"
matches "$TMPD/err" 'impact.json: line 1, column 13: impact.error_share must be a number' "positioned"

# several ranks: summary counts the straggler as check reports it
gen="$builddir/samples/gen-trace"
if [ -x "$gen" ]; then
    for r in 0 1 2; do
        "$gen" kineto --rank $r --world 3 --slow-rank 1 --steps 2 -o "$TMPD/rank$r.json" || break
    done
    "$TRACETTY" check --all --quiet --fail-on never "$TMPD"/rank*.json >"$TMPD/ck"
    is "$(grep -c 'straggler' "$TMPD/ck")" 1 "check: one straggler finding over 3 ranks"
    matches "$TMPD/ck" '^.*rank1.json: [a-z]* *straggler .*rank 1 arrived last' "on the slow rank"
    "$TRACETTY" check --quiet --fail-on never "$TMPD"/rank*.json >"$TMPD/ck"
    matches "$TMPD/ck" '^[a-z]* *straggler on rank 1 \(.*rank1\.json\): 1 finding' "ranked: the straggler first, with its rank"
    is "$(head -n 1 "$TMPD/ck" | awk '{ print $2 }')" straggler "the straggler is the first block"
    # Its cost is what the job lost waiting for it, not the span from its
    # first to its last late arrival (mostly compute): python matches the
    # NCCL kernels by (name, occurrence), takes wait = duration - the
    # shortest, the last to arrive = least wait (ties: later start), and sums
    # the other ranks' median wait over the collectives rank 1 was last at.
    if command -v python3 >/dev/null 2>&1; then
        python3 - "$TMPD"/rank0.json "$TMPD"/rank1.json "$TMPD"/rank2.json >"$TMPD/lost" <<'PY'
import json, sys
occ, steps = {}, []
for r, f in enumerate(sys.argv[1:]):
    ev = json.load(open(f))["traceEvents"]
    seen = {}
    for e in sorted((e for e in ev if e.get("cat") == "kernel" and
                     e["name"].startswith(("ncclKernel_", "ncclDevKernel_"))),
                    key=lambda e: float(e["ts"])):
        k = (e["name"], seen.get(e["name"], 0))
        seen[e["name"]] = k[1] + 1
        occ.setdefault(k, []).append((r, round(float(e["ts"]) * 1000), round(float(e["dur"]) * 1000)))
    if r == 1:
        steps = sorted((float(e["ts"]), float(e["ts"]) + float(e["dur"])) for e in ev
                       if e.get("ph") == "X" and e["name"].startswith("ProfilerStep#"))
lost = 0
for (name, _), v in occ.items():
    if len(v) < 2 or name.split("_")[1] in ("SendRecv", "Send", "Recv"):
        continue
    short = min(d for _, _, d in v)
    last = min(v, key=lambda x: (x[2] - short, -x[1], x[0]))
    if last[0] == 1:
        w = sorted(d - short for r, _, d in v if r != 1)
        n = len(w)
        lost += w[n // 2] if n % 2 else w[n // 2 - 1] + (w[n // 2] - w[n // 2 - 1]) // 2
u = []
for s, e in steps:
    if u and s <= u[-1][1]: u[-1][1] = max(u[-1][1], e)
    else: u.append([s, e])
print("%.3f %.1f" % (lost / 1e6, 100 * lost / 1e3 / sum(e - s for s, e in u)))
PY
        read -r lost share <"$TMPD/lost"
        is "$(sed -n 's/^.*straggler on rank 1 ([^)]*): 1 finding, \([0-9.]*\) ms affected, \([0-9.]*\)% of the step time$/\1 \2/p' "$TMPD/ck")" \
            "$lost $share" "the straggler costs the others' waits for it (python: $lost ms, $share% of rank 1's steps)"
    fi
    "$TRACETTY" summary --quiet "$TMPD"/rank*.json >"$TMPD/sum"
    is "$(grep '^  straggler ' "$TMPD/sum" | awk '{ print $2 }' | tr '\n' ' ')" "0 1 0 " \
        "summary of 3 ranks: a straggler row per trace, 1 on the slow rank"
    "$TRACETTY" summary --quiet --format json "$TMPD"/rank*.json >"$TMPD/sum.json"
    if command -v python3 >/dev/null 2>&1; then
        is "$(python3 -c 'import json, sys; print(*[d["annotations"]["straggler"] for d in json.load(open(sys.argv[1]))])' "$TMPD/sum.json")" \
            "0 1 0" "summary --format json: annotations.straggler per rank"
    fi
    "$TRACETTY" summary --quiet "$TMPD/rank1.json" >"$TMPD/one"
    is "$(grep -c '^  straggler ' "$TMPD/one")" 0 "one trace: no straggler row (it needs ranks)"
fi

# it completes on every third-party trace (findings or not, never an error)
traces=$(shared_traces)
if [ -d "$traces" ]; then
    fails=""
    for f in $(find "$traces" -type f ! -name README.md | sort); do
        "$TRACETTY" check --quiet --fail-on never "$f" >/dev/null 2>"$TMPD/e"
        rc=$?
        [ $rc -eq 0 ] || fails="$fails $(basename "$f"):$rc"
    done
    is "$(echo $fails)" "" "check completes on every trace in ../shared/traces"
fi
tap_done
