#!/bin/sh
# check_impact.sh - `check` ranks findings by the time they cost and takes
# severities from that impact: python recomputes every group's time
# affected, share of the step time (or trace span), severity and the Rank
# column from the CSV and the trace itself; `--fail-on error` fails a real
# trace with a real problem and passes a healthy one.
. "$srcdir/tests/lib.sh"
demo="$srcdir/samples/demo.json"
traces=$(shared_traces)

command -v python3 >/dev/null 2>&1 || skip_all "no python3"

# verify TRACE... : the CSV's Severity and Rank against python's
verify() {
    "$TRACETTY" check --quiet --format csv --fail-on never "$@" >"$TMPD/v.csv" || return 1
    for f in "$@"; do
        "$TRACETTY" summary --quiet --format json "$f" >"$TMPD/v.$(basename "$f").sum" || return 1
    done
    python3 - "$TMPD/v.csv" "$TMPD" "$@" <<'PY'
import csv, gzip, json, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tmp, files = sys.argv[2], sys.argv[3:]
order = ["tensor-reload", "throttle", "device-idle", "pageable-memcpy", "sync-memcpy",
         "host-sync", "tiny-kernels", "low-utilization", "straggler"]
def union(iv):
    out = []
    for s, e in sorted(iv):
        if e <= s: continue
        if out and s <= out[-1][1]: out[-1][1] = max(out[-1][1], e)
        else: out.append([s, e])
    return out
def length(u): return sum(e - s for s, e in u)
def overlap(a, b):
    return sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in a for s2, e2 in b)
base = {}
for f in files:
    t0 = json.load(open(os.path.join(tmp, "v." + os.path.basename(f) + ".sum")))
    span = t0["end_ns"] - t0["start_ns"]
    op = gzip.open if f.endswith(".gz") else open
    d = json.load(op(f))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    steps = union([(round(float(e["ts"]) * 1000) - t0["start_ns"],
                    round((float(e["ts"]) + float(e["dur"])) * 1000) - t0["start_ns"])
                   for e in ev if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")])
    base[f] = (steps, length(steps)) if steps else ([[0, span]], span)
groups = {}
for i, r in enumerate(rows):
    key = (r.get("Trace", files[0]), r["Rule"])
    groups.setdefault(key, []).append(i)
bad, info = 0, []
ranked = []
for (f, rule), idx in groups.items():
    u = union([(int(rows[i]["Start (ns)"]), int(rows[i]["End (ns)"])) for i in idx])
    b, blen = base[f]
    share = 100.0 * overlap(u, b) / blen
    sev = "error" if share > 10 else "warning" if share > 1 else "info"
    sevn = {"info": 0, "warning": 1, "error": 2}[sev]
    for i in idx:
        if rows[i]["Severity"] != sev:
            bad += 1
    idx.sort(key=lambda i: (-(int(rows[i]["End (ns)"]) - int(rows[i]["Start (ns)"])), int(rows[i]["Start (ns)"]), i))
    ranked.append(((rule != "straggler", -length(u), -sevn, order.index(rule), files.index(f)), idx))
    info.append("%s %.1f%% %s" % (rule, share, sev))
pos = 0
for _, idx in sorted(ranked):
    for i in idx:
        pos += 1
        if int(rows[i]["Rank"]) != pos:
            bad += 1
print("bad", bad, "of", len(rows))
print("#", "; ".join(sorted(info)), file=sys.stderr)
PY
}

verify "$demo" >"$TMPD/out" 2>"$TMPD/err"
is "$(cat "$TMPD/out")" "bad 0 of 23" "demo: every severity and rank as python computes them"
cat "$TMPD/err"

if [ -d "$traces/pytorch" ]; then
    w0="$traces/pytorch/resnet50_workers0.pt.trace.json.gz"
    w4="$traces/pytorch/resnet50_workers4.pt.trace.json.gz"
    for f in "$w0" "$w4"; do
        verify "$f" >"$TMPD/out" 2>"$TMPD/err"
        matches "$TMPD/out" '^bad 0 of [1-9][0-9]*$' "$(basename "$f"): severities and ranks as python computes them"
        cat "$TMPD/err"
    done
    verify "$traces"/pytorch/two_ranks/rank-*.json.gz >"$TMPD/out" 2>"$TMPD/err"
    matches "$TMPD/out" '^bad 0 of [1-9][0-9]*$' "two_ranks: severities and ranks per rank as python computes them"
    cat "$TMPD/err"

    # The gate, both ways, on two real runs of one model: python finds the
    # GPU idle while the data loader runs on the host for over a quarter of
    # the step time with no loader workers, for none of it with 4.
    python3 - "$w0" "$w4" >"$TMPD/idle" <<'PY'
import gzip, json, sys
def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]: out[-1][1] = max(out[-1][1], e)
        elif e > s: out.append([s, e])
    return out
def inter(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if e > s: out.append([s, e])
        if a[i][1] < b[j][1]: i += 1
        else: j += 1
    return out
L = lambda u: sum(e - s for s, e in u)
for f in sys.argv[1:]:
    ev = [e for e in json.load(gzip.open(f))["traceEvents"] if e.get("ph") == "X"]
    sp = lambda p: union((float(e["ts"]), float(e["ts"]) + float(e["dur"])) for e in ev if p(e))
    steps = sp(lambda e: str(e.get("name", "")).startswith("ProfilerStep#"))
    gpu = sp(lambda e: e.get("cat") in ("Kernel", "Memcpy", "Memset", "kernel", "gpu_memcpy", "gpu_memset"))
    loader = sp(lambda e: str(e.get("name", "")).startswith("enumerate(DataLoader)"))
    idle = []
    for s, e in steps:
        cur = s
        for a, b in inter(gpu, [[s, e]]):
            if a > cur: idle.append([cur, a])
            cur = b
        if e > cur: idle.append([cur, e])
    print("%d" % round(100 * L(inter(idle, loader)) / L(steps)))
PY
    read -r idle0 idle4 <<EOT
$(tr '\n' ' ' <"$TMPD/idle")
EOT
    ok "$([ "${idle0:-0}" -gt 25 ] && [ "${idle4:-100}" -lt 1 ]; echo $?)" \
        "python: the GPU waits for the data loader ${idle0}% of the steps with 0 workers, ${idle4}% with 4"
    "$TRACETTY" check --quiet --fail-on error "$w0" >"$TMPD/g0"
    is "$?" 1 "--fail-on error fails resnet50_workers0 (GPU starved by the data loader)"
    matches "$TMPD/g0" '^error   device-idle: ' "because of device-idle"
    "$TRACETTY" check --quiet --fail-on error "$w4" >/dev/null
    is "$?" 0 "--fail-on error passes resnet50_workers4 (no rule above 10% of the steps)"
    "$TRACETTY" check --quiet --fail-on error "$traces"/pytorch/two_ranks >"$TMPD/g2"
    is "$?" 1 "--fail-on error fails the two-rank job"
    matches "$TMPD/g2" '^error   device-idle on rank 1 \(.*rank-1\.json\.gz\): ' \
        "its first block: rank 1's GPU waiting for its host, with the rank"
fi
tap_done
