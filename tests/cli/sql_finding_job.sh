#!/bin/sh
# sql_finding_job.sh - the SQL `finding` table over a job (a directory of
# ranks, several traces) gives exactly what `tracetty check` prints for
# the same traces, row for row in check's ranked order: per-rank findings
# and the ones across ranks, each on the rank it is about, with check's
# Rank as `position` (tests/cli/sql_finding_job_cmp.py compares them).
#   - straggler: gen-trace's 3 ranks with rank 1 slow; its cost (the
#     others' waits for it) equals python's over the JSON;
#   - slow-card: 4 constructed Ascend ranks with step_trace_time.csv; the
#     costs (excess over the median, times the steps) equal python's;
#   - slow-link: the real MindSpore 4-rank job (hccl_raw_N.csv), and the
#     real Ascend 2-rank job directory, when ../shared/traces-next has them;
#   - --lanes keeps the findings about no lane (the slow cards) only when
#     it matches no lane.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
cmp_py="$srcdir/tests/cli/sql_finding_job_cmp.py"
next="$srcdir/../shared/traces-next/ascend"
SQL='SELECT rank, rule, severity, ts, dur, events, cost, position, message FROM finding ORDER BY position'

# job NAME ARGS...: check and query over the same traces, compared
job() {
    name=$1
    shift
    "$TRACETTY" check --format csv --fail-on never "$@" >"$TMPD/check.csv"
    ok $? "$name: check runs"
    "$TRACETTY" query "$@" "$SQL" >"$TMPD/finding.csv"
    ok $? "$name: query of finding runs"
    "$TRACETTY" query "$@" 'SELECT rank, path, t0 FROM rank' >"$TMPD/ranks.csv"
    python3 "$cmp_py" "$TMPD/check.csv" "$TMPD/finding.csv" "$TMPD/ranks.csv" >"$TMPD/cmp"
    n=$(($(wc -l <"$TMPD/check.csv") - 1))
    is "$(head -n 1 "$TMPD/cmp")" "ok $n" "$name: check's $n findings, row for row"
    grep '^#' "$TMPD/cmp"
}

# ------------------------------------------------------------- straggler
gen="$builddir/samples/gen-trace"
if [ -x "$gen" ]; then
    mkdir "$TMPD/strag"
    for r in 0 1 2; do
        "$gen" kineto --rank $r --world 3 --slow-rank 1 --steps 2 -o "$TMPD/strag/rank$r.json" || break
    done
    job "straggler job" "$TMPD/strag"
    is "$(grep -c '^rule straggler ' "$TMPD/cmp")" 1 "straggler job: a straggler finding"
    # python: NCCL kernels matched by (name, occurrence); wait = duration -
    # the shortest; the last to arrive waits least (ties: later start);
    # the cost is the others' median wait summed over the collectives it
    # was last at
    python3 - "$TMPD"/strag/rank*.json >"$TMPD/lost" <<'PY'
import json, statistics, sys
occ = {}
for r, f in enumerate(sys.argv[1:]):
    seen = {}
    ks = [e for e in json.load(open(f))["traceEvents"] if e.get("cat") == "kernel"
          and e["name"].startswith(("ncclKernel_", "ncclDevKernel_"))]
    for e in sorted(ks, key=lambda e: float(e["ts"])):
        k = (e["name"], seen.get(e["name"], 0))
        seen[e["name"]] = k[1] + 1
        occ.setdefault(k, []).append((r, round(float(e["ts"]) * 1000), round(float(e["dur"]) * 1000)))
def median(w):   # the rules' median: the lower middle plus half the gap, in ns
    w = sorted(w)
    n = len(w)
    return w[n // 2] if n % 2 else w[n // 2 - 1] + (w[n // 2] - w[n // 2 - 1]) // 2
lost = {}
for (name, _), v in occ.items():
    if len(v) < 2 or name.split("_")[1] in ("SendRecv", "Send", "Recv"):
        continue
    short = min(d for _, _, d in v)
    last = min(v, key=lambda x: (x[2] - short, -x[1], x[0]))
    w = [d - short for r, _, d in v if r != last[0]]
    lost[last[0]] = lost.get(last[0], 0) + median(w)
print("cost straggler 1 %d" % lost.get(1, 0))
PY
    is "$(grep '^cost straggler 1 ' "$TMPD/cmp")" "$(cat "$TMPD/lost")" "straggler job: rank 1's cost is python's waits for it"
    # the straggler's rank, and a query of one rank reads its findings
    "$TRACETTY" query "$TMPD/strag" "SELECT rank FROM finding WHERE rule = 'straggler' AND message LIKE 'rank 1 arrived last%'" >"$TMPD/r"
    is "$(tail -n +2 "$TMPD/r" | tr -d '\r')" 1 "straggler job: the finding is a row of the slow rank"
fi

# ------------------------------------------------------------- slow-card
# a rank: one kernel, and a step_trace_time.csv of 2 steps with the given
# Computing and Free (us)
card() {   # card DIR RANK COMPUTING FREE
    mkdir -p "$1"
    printf '{"distributedInfo": {"rank": %s}, "traceEvents": [{"ph": "X", "name": "k", "cat": "kernel", "pid": 1, "tid": 7, "ts": 10, "dur": 5}]}\n' \
        "$2" >"$1/trace_view.json"
    printf 'Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\r\n' >"$1/step_trace_time.csv"
    for s in 1 2; do
        printf '%s,%s,200.5,10,210.5,%s,900,0\r\n' "$s" "$3" "$4" >>"$1/step_trace_time.csv"
    done
}
card "$TMPD/cards/r0" 0 1000 50
card "$TMPD/cards/r1" 1 1100 60
card "$TMPD/cards/r2" 2 9000 55
card "$TMPD/cards/r3" 3 1050 5000
set -- "$TMPD"/cards/r?/trace_view.json
job "slow-card job" "$@"
is "$(grep -c '^rule slow-card 2$' "$TMPD/cmp")" 1 "slow-card job: two slow-card findings"
python3 - "$@" >"$TMPD/want" <<'PY'
import csv, os, sys
rows = [list(csv.DictReader(open(os.path.join(os.path.dirname(f), "step_trace_time.csv"), newline="")))
        for f in sys.argv[1:]]
for col in ("Computing", "Free"):
    means = [round(sum(float(r[col]) * 1000 for r in rs)) // len(rs) for rs in rows]
    w = sorted(means)
    med = w[len(w) // 2] if len(w) % 2 else w[len(w) // 2 - 1] + (w[len(w) // 2] - w[len(w) // 2 - 1]) // 2
    for rank, m in enumerate(means):
        if m - med >= 1e6 and (m - med) * 100 >= 20 * med:
            print("cost slow-card %d %d" % (rank, (m - med) * len(rows[rank])))
PY
grep '^cost slow-card ' "$TMPD/cmp" | sort >"$TMPD/got"
sort -o "$TMPD/want" "$TMPD/want"
same_file "$TMPD/got" "$TMPD/want" "slow-card job: costs are python's excess over the median, times the steps"
# --lanes matching no lane: only the findings about no lane, the cards
"$TRACETTY" query --lanes 'no such lane' "$@" 'SELECT rank, rule FROM finding ORDER BY position' |
    tr -d '\r"' >"$TMPD/l.csv"
printf 'rank,rule\n2,slow-card\n3,slow-card\n' >"$TMPD/want"
same_file "$TMPD/l.csv" "$TMPD/want" "slow-card job: --lanes keeps the findings about no lane"

# ------------------------------------------------------------- slow-link
if [ -d "$next/mindspore_legacy_4rank" ]; then
    job "MindSpore 4-rank job" "$next/mindspore_legacy_4rank"
    matches "$TMPD/cmp" '^rule slow-link [1-9]' "MindSpore 4-rank job: slow-link findings"
fi
if [ -d "$next/job_level1" ]; then
    job "Ascend 2-rank job" "$next/job_level1"
fi

tap_done
