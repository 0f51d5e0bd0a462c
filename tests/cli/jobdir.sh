#!/bin/sh
# jobdir.sh - whole profiler output directories as jobs (multi/jobdir.h):
# a tensorboard_trace_handler directory (two workers x two captures) is two
# ranks holding both windows; an nsys rank set takes its ranks from the
# file names (or an NVTX thread name inside); the real two-rank Ascend job
# in ../shared/traces-next loads as ranks 0 and 1 from profiler_info, with
# kernel_details.csv joined to trace_view.json's device events (exactly,
# then a row left over to the one event of its name within 1 ns: all 191
# rows of each rank), every number checked by python3 over the same
# files; bad trees get one error
# naming the file.
. "$srcdir/tests/lib.sh"
data="$srcdir/tests/data/jobdir"
tb="$data/tb"
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# ---- tensorboard_trace_handler: 2 workers x 2 captures (one gzipped)
"$TRACETTY" report --kind ranks --quiet "$tb" >"$TMPD/tb_ranks.csv"; ok $? "report --kind ranks on a tensorboard directory"
is "$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $2 }' "$TMPD/tb_ranks.csv")" "0:2 1:2 " \
    "two ranks (distributedInfo), each with the steps of both windows"
is "$(grep -c 'pt.trace.json' "$TMPD/tb_ranks.csv")" 2 "one row per worker, named by its captures' pattern"
matches "$TMPD/tb_ranks.csv" 'node-a\.cluster_100\.\*\.pt\.trace\.json' "a worker name with a dot stays whole"
# query takes the directory as report does: a worker's captures are a
# pattern, not a file (it said "cannot open" before loading anything)
"$TRACETTY" query "$tb" "select count(*) from slice" >"$TMPD/tb_q.csv" 2>"$TMPD/tb_q.err"
ok $? "query on a tensorboard directory"
sum=0
for f in "$tb"/*.pt.trace.json*; do
    n=$("$TRACETTY" query "$f" "select count(*) from slice" | tail -n 1 | tr -d '\r')
    sum=$((sum + n))
done
is "$(tail -n 1 "$TMPD/tb_q.csv" | tr -d '\r')" "$sum" "its slices are its captures' slices, file by file"
"$TRACETTY" summary --format json "$tb" >"$TMPD/tb_sum.json" 2>"$TMPD/tb_sum.err"; ok $? "summary on a tensorboard directory"
if [ $have_py = 1 ]; then
    python3 - "$tb" "$TMPD/tb_sum.json" >"$TMPD/tb_check" <<'PY'
import gzip, json, os, re, sys
d, got = sys.argv[1], json.load(open(sys.argv[2]))
traces = got if isinstance(got, list) else got.get("traces", [got])
want = {}
for f in sorted(os.listdir(d)):
    m = re.match(r"(.+)\.(\d+)\.pt\.trace\.json(\.gz)?$", f)
    op = gzip.open if f.endswith(".gz") else open
    t = json.load(op(os.path.join(d, f), "rt"))
    evs = [e for e in t["traceEvents"] if e["ph"] in ("X", "i")]
    w = want.setdefault(m.group(1), {"events": 0, "t0": None, "t1": None, "windows": 0})
    w["events"] += len(evs)
    w["x"] = w.get("x", 0) + sum(1 for e in evs if e["ph"] == "X")
    w["windows"] += 1
    for e in evs:
        s, end = e["ts"] * 1000, (e["ts"] + e.get("dur", 0)) * 1000
        w["t0"] = s if w["t0"] is None else min(w["t0"], s)
        w["t1"] = end if w["t1"] is None else max(w["t1"], end)
bad = []
for t in traces:
    src = t.get("source") or t.get("file") or ""
    worker = os.path.basename(src).replace(".*.pt.trace.json", "")
    w = want.get(worker)
    if not w:
        bad.append("unknown " + src); continue
    if t.get("events") != w["events"]:
        bad.append("%s events %s want %s" % (worker, t.get("events"), w["events"]))
    span = t.get("duration_ns", t.get("span_ns"))
    if span is not None and round(span) != round(w["t1"] - w["t0"]):
        bad.append("%s span %s want %s" % (worker, span, w["t1"] - w["t0"]))
    if (t.get("phases") or {}).get("X") != w["x"]:
        bad.append("%s phases %s want X %d" % (worker, t.get("phases"), w["x"]))
    if (t.get("metadata") or {}).get("captures") != w["windows"]:
        bad.append("%s captures %s" % (worker, (t.get("metadata") or {}).get("captures")))
print("traces:%d bad:%s" % (len(traces), bad))
PY
    is "$(cat "$TMPD/tb_check")" "traces:2 bad:[]" "summary: each worker's events and span are both windows' (python)"
fi
# a worker with one capture is its file, as before
mkdir "$TMPD/one"
cp "$tb"/node-b_200.1700000005000.pt.trace.json "$TMPD/one/"
cp "$tb"/node-a.cluster_100.1700000000000.pt.trace.json "$TMPD/one/"
"$TRACETTY" report --kind ranks --quiet "$TMPD/one" >"$TMPD/one.csv"; ok $? "one capture per worker"
is "$(grep -c '\.\*\.' "$TMPD/one.csv")" 0 "single captures are named by their files"
# diff of two ranks of the directory
"$TRACETTY" diff --quiet "$tb:0" "$tb:1" >"$TMPD/tb_diff.csv"; ok $? "diff DIR:0 DIR:1 on a tensorboard directory"

# ---- nsys rank set: ranks from names, or from a "rank N" thread name
"$TRACETTY" report --kind ranks --quiet "$data/nsys" >"$TMPD/ns.csv"; ok $? "report --kind ranks on an nsys rank set"
is "$(awk -F, 'NR > 1 { n = $NF; sub(/.*\//, "", n); gsub(/"/, "", n); printf "%s=%s ", $1, n }' "$TMPD/ns.csv" | tr -d '\r')" \
    "0=train_0.sqlite 2=train_2.sqlite 5=other.sqlite " "ranks from name_N.sqlite and from the thread name 'rank 5'"
"$TRACETTY" report --kind operators --quiet "$data/nsys/train_2.sqlite" >"$TMPD/ns_ops.csv"; ok $? "report --kind operators on an nsys export"
if [ $have_py = 1 ]; then
    # a push/pop range's device time: the kernels, copies and sets its
    # runtime calls (same thread, inside the range) launched
    python3 - "$data/nsys/train_2.sqlite" "$TMPD/ns_ops.csv" >"$TMPD/ns_py" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
s = dict(db.execute("SELECT id, value FROM StringIds"))
dev = {}
for t in ("KERNEL", "MEMCPY", "MEMSET"):
    for st, en, corr in db.execute("SELECT start, end, correlationId FROM CUPTI_ACTIVITY_KIND_" + t):
        dev[corr] = dev.get(corr, 0) + en - st
rt = db.execute("SELECT start, end, globalTid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME").fetchall()
want = {}
for st, en, typ, text, tid_, gtid in db.execute(
        "SELECT start, end, eventType, text, textId, globalTid FROM NVTX_EVENTS WHERE eventType = 59"):
    name = text if text is not None else s[tid_]
    want[name] = sum(dev.get(c, 0) for a, b, g, c in rt if g == gtid and a >= st and b <= en)
got = {r["Name"]: int(r["Device Total (ns)"]) for r in csv.DictReader(open(sys.argv[2], newline=""))}
print(" ".join("%s=%d/%s" % (k, v, got.get(k)) for k, v in sorted(want.items())))
PY
    is "$(cat "$TMPD/ns_py")" "step 1=2100/2100" "NVTX push/pop ranges carry their launches' device time in --kind operators (python)"
fi

# ---- the real Ascend job
job="$srcdir/../shared/traces-next/ascend/job_level1"
if [ ! -d "$job" ]; then
    tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP ../shared/traces-next is absent"
    tap_done; exit $?
fi
"$TRACETTY" report --kind ranks --quiet "$job" >"$TMPD/as_ranks.csv"; ok $? "report --kind ranks on an Ascend job"
is "$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$TMPD/as_ranks.csv")" "0 1 " "ranks 0 and 1"
matches "$TMPD/as_ranks.csv" 'rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json' "a rank's file is its trace_view.json"
"$TRACETTY" report --kind ranks --quiet "$job/rank1_ascend_pt" >"$TMPD/as_one.csv"; ok $? "one rank tree"
is "$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$TMPD/as_one.csv")" "1 " "a single tree keeps its profiler_info rank"
"$TRACETTY" report --kind ranks --quiet "$job/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT" >"$TMPD/as_out.csv"; ok $? "a tree's ASCEND_PROFILER_OUTPUT"
same_file "$TMPD/as_out.csv" "$TMPD/as_one.csv" "the output directory opens as its tree"
(cd "$job/rank1_ascend_pt" && "$TRACETTY" report --kind ranks --quiet ASCEND_PROFILER_OUTPUT) >"$TMPD/as_rel.csv"
is "$(awk -F, 'NR > 1 { printf "%s %s", $1, $NF }' "$TMPD/as_rel.csv" | tr -d '\r')" '1 "./ASCEND_PROFILER_OUTPUT/trace_view.json"' \
    "ASCEND_PROFILER_OUTPUT named from inside its tree"
"$TRACETTY" summary --format json "$job" >"$TMPD/as_sum.json"; ok $? "summary on an Ascend job"
"$TRACETTY" check --quiet "$job" >"$TMPD/as_check.txt"; rc=$?; [ $rc -le 1 ]; ok $? "check on an Ascend job (exit $rc)"
"$TRACETTY" diff --quiet "$job:0" "$job:1" >"$TMPD/as_diff.csv"; ok $? "diff DIR:0 DIR:1 on an Ascend job"
matches "$TMPD/as_diff.csv" 'trans_TransData' "the diff compares the ranks' kernels"
"$TRACETTY" render --size 100x30 "$job" >"$TMPD/as_view.txt" 2>&1; ok $? "render (the view) of an Ascend job"
for r in 0 1; do
    "$TRACETTY" report --kind events --quiet --by 'arg:Block Dim' --by 'arg:Input Shapes' \
        --by 'arg:aiv_time(us)' --by 'arg:Task Id' "$job/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        >"$TMPD/as_ev$r.csv"; ok $? "rank $r: events with the joined columns"
done
if [ $have_py = 1 ]; then
    python3 - "$job" "$TMPD/as_sum.json" "$TMPD/as_ev0.csv" "$TMPD/as_ev1.csv" >"$TMPD/as_py" <<'PY'
import csv, json, os, sys
from decimal import Decimal
job, summ = sys.argv[1], json.load(open(sys.argv[2]))
traces = summ if isinstance(summ, list) else summ.get("traces", [summ])
out = []
for r in (0, 1):
    d = os.path.join(job, "rank%d_ascend_pt" % r, "ASCEND_PROFILER_OUTPUT")
    tv = json.load(open(os.path.join(d, "trace_view.json")))
    xs = [e for e in tv if e.get("ph") == "X"]
    ns = lambda s: int(Decimal(str(s).strip()) * 1000)
    evs = {}
    for e in xs:
        evs.setdefault((e["name"], ns(e["ts"])), []).append(e)
    rows = list(csv.DictReader(open(os.path.join(d, "kernel_details.csv"), newline="")))
    matched, left = [], []
    def take(row, ev):
        matched.append((row["Name"], row["Block Dim"], row["Input Shapes"],
                        row["aiv_time(us)"], str(ev["args"].get("Task Id", ""))))
    for row in rows:
        k = (row["Name"], ns(row["Start Time(us)"]))
        if evs.get(k):
            take(row, evs[k].pop(0))
        else:
            left.append(row)
    # then each row left joins the one event of its name within +-1 ns not
    # joined yet, when there is exactly one (the HCCL starts the table cuts)
    for row in sorted(left, key=lambda x: (ns(x["Start Time(us)"]), x["Name"])):
        t0 = ns(row["Start Time(us)"])
        near = [(t0 + d, ev) for d in (-1, 0, 1) for ev in evs.get((row["Name"], t0 + d), [])]
        if len(near) == 1:
            evs[(row["Name"], near[0][0])].remove(near[0][1])
            take(row, near[0][1])
    t = [t for t in traces if "rank%d_ascend_pt" % r in (t.get("source") or t.get("file") or "")][0]
    kd = t.get("metadata", {}).get("kernel_details.csv", {})
    def norm(v):   # tracetty prints the table's 0.0 as 0; N/A is no value
        if v == "N/A":
            return ""
        try:
            return repr(float(v))
        except ValueError:
            return v
    got_rows = []
    for g in csv.DictReader(open(sys.argv[3 + r], newline="")):
        if g["arg:Block Dim"] != "":
            got_rows.append((g["Name"], g["arg:Block Dim"], g["arg:Input Shapes"],
                             g["arg:aiv_time(us)"], g["arg:Task Id"]))
    nt = lambda v: sorted(tuple(norm(x) for x in t) for t in v)
    same = nt(got_rows) == nt(matched)
    out.append("rank%d rank:%s events:%s/%d matched:%s/%d unmatched:%s/%d joined-args-equal:%s" % (
        r, t.get("rank"), t.get("events"), len(xs), kd.get("matched"), len(matched),
        kd.get("unmatched"), len(rows) - len(matched), same))
print("\n".join(out))
PY
    python3 - "$TMPD/as_py" <<'PY' >"$TMPD/as_verdict"
import re, sys
bad = []
for line in open(sys.argv[1]):
    f = dict(x.split(":", 1) for x in line.split()[1:])
    for k in ("events", "matched", "unmatched"):
        a, b = f[k].split("/")
        if a != b: bad.append(line.split()[0] + " " + k)
    if f["joined-args-equal"] != "True": bad.append(line.split()[0] + " args")
    if f["rank"] != line.split()[0][4:]: bad.append(line.split()[0] + " rank")
print("bad:%s" % bad)
PY
    sed 's/^/# /' "$TMPD/as_py"
    is "$(cat "$TMPD/as_verdict")" "bad:[]" "Ascend: ranks, event counts, matched/unmatched rows and joined values as python computes them"
    is "$(awk '/^rank/ { printf "%s %s ", $1, $4 }' "$TMPD/as_py")" "rank0 matched:191/191 rank1 matched:191/191 " \
        "kernel_details.csv: every row joined (the HCCL rows within 1 ns)"
fi

# ---- bad trees: one error naming the file
bad="$TMPD/badjob"
mkdir -p "$bad"
cp -r "$job/rank0_ascend_pt" "$bad/"
chmod -R u+w "$bad"
cp -r "$bad/rank0_ascend_pt" "$bad/copy_ascend_pt"
"$TRACETTY" report --kind ranks --quiet "$bad" >/dev/null 2>"$TMPD/dup.err"; rc=$?
[ $rc -ne 0 ]; ok $? "two trees claiming one rank fail"
matches "$TMPD/dup.err" 'copy_ascend_pt/profiler_info_0.json and .*rank0_ascend_pt/profiler_info_0.json both claim rank 0|rank0_ascend_pt/profiler_info_0.json and .*copy_ascend_pt/profiler_info_0.json both claim rank 0' "the error names both profiler_info files"
is "$(wc -l <"$TMPD/dup.err")" 1 "one line"
rm -rf "$bad/copy_ascend_pt"
printf '{"rank_id": 0,\n  "config": [1, 2\n' >"$bad/rank0_ascend_pt/profiler_info_0.json"
"$TRACETTY" summary "$bad" >/dev/null 2>"$TMPD/info.err"; rc=$?
[ $rc -ne 0 ]; ok $? "a malformed profiler_info fails"
matches "$TMPD/info.err" 'rank0_ascend_pt/profiler_info_0.json: line [0-9]+, column [0-9]+: not valid JSON' "the error names the file and the position"
is "$(wc -l <"$TMPD/info.err")" 1 "one line"
cp "$job/rank0_ascend_pt/profiler_info_0.json" "$bad/rank0_ascend_pt/"
rm "$bad/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
"$TRACETTY" report --kind ranks --quiet "$bad" >/dev/null 2>"$TMPD/tv.err"; rc=$?
[ $rc -ne 0 ]; ok $? "a tree without trace_view.json fails"
matches "$TMPD/tv.err" 'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json: missing' "the error names the missing timeline"
is "$(wc -l <"$TMPD/tv.err")" 1 "one line"
cp "$job/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" "$bad/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
chmod u+w "$bad/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
printf 'Step Id,Name,Start Time(us),Duration(us)\n1,k,12x,1\n' >"$bad/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$TRACETTY" summary "$bad" >/dev/null 2>"$TMPD/kd.err"; rc=$?
[ $rc -ne 0 ]; ok $? "a malformed kernel_details.csv fails the rank's load"
matches "$TMPD/kd.err" 'kernel_details.csv: row 2, column 3' "the error names the table, row and column"
tap_done
