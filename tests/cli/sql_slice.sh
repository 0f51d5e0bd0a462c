#!/bin/sh
# sql_slice.sh - the SQL event and track tables (src/sql/tab_slice.c,
# tab_instant.c, tab_track.c, tab_thread_track.c, tab_thread.c) walked
# without SQLite (tests/unit/sqltab_dump), compared with an independent
# python3 computation over the same real traces (tests/cli/
# sql_slice_oracle.py: json module; nsys exports through sqlite3).
#
# slice: every event per lane with ts, dur, name, category, depth, parent,
#   self_dur, bytes, corr and whether it has arguments (two Kineto traces,
#   Catapult B/E nesting and async b/e, S/F), and on the nsys exports
#   runtime calls, NVTX ranges and GPU work.
# instant: the instant events with their scope.
# track, thread_track, thread: one row per lane, then per counter series
#   (named as the JSON's C events), ids matching slice.track_id, tids and
#   thread names from the JSON.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
dump="$builddir/tests/unit/sqltab_dump"
oracle="$srcdir/tests/cli/sql_slice_oracle.py"
traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces"

tables() {   # tables TRACE: dump every table this test reads into $TMPD
    for t in slice track process instant thread thread_track; do
        "$dump" "$1" $t > "$TMPD/$t.csv" 2> "$TMPD/err" || return 1
    done
}

for f in "$traces/pytorch/resnet50_workers0.pt.trace.json.gz" \
         "$traces/pytorch/nccl_data.json.gz" \
         "$traces/chrome-edge/catapult_simple_trace.json" \
         "$traces/chrome-edge/catapult_tall_trace.json" \
         "$traces/chrome-edge/catapult_async_begin_end.json" \
         "$traces/chrome-edge/catapult_nestable_async.json" \
         "$traces/chrome-edge/catapult_instant_events.json" \
         "$traces/chrome-edge/catapult_instance_counters.json"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    tables "$f"
    ok $? "the tables of $b dump"
    python3 "$oracle" "$f" "$TMPD/slice.csv" "$TMPD/track.csv" "$TMPD/process.csv" \
        > "$TMPD/out" 2>&1
    matches "$TMPD/out" '^rows [1-9][0-9]* mismatches 0$' \
        "slice of $b: every event's lane, ts, dur, name, category, depth, parent, self_dur, args as python computes them"
    python3 "$oracle" "$f" "$TMPD/slice.csv" "$TMPD/track.csv" "$TMPD/process.csv" \
        "$TMPD/instant.csv" > "$TMPD/out" 2>&1
    matches "$TMPD/out" '^rows [0-9]+ mismatches 0$' "instant of $b: lane, ts, name, args, scope as python computes them"

    # every instant is the dur-0 slice of its slice_id, with its ts and name
    python3 - "$TMPD/slice.csv" "$TMPD/instant.csv" > "$TMPD/out" <<'PY'
import csv, sys
sl = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
bad = 0
for r in csv.DictReader(open(sys.argv[2])):
    s = sl.get(r["slice_id"])
    if not s or s["dur"] != "0" or s["ts"] != r["ts"] or s["name"] != r["name"] \
            or s["track_id"] != r["track_id"] or s["arg_set_id"] != r["arg_set_id"]:
        bad += 1
print("bad", bad)
PY
    matches "$TMPD/out" '^bad 0$' "instant of $b: each row is its slice"

    # track: one row per lane, then per counter series; thread_track and
    # thread: the thread lanes, with the same ids; slice.track_id in track
    python3 - "$f" "$TMPD" > "$TMPD/out" <<'PY'
import csv, gzip, json, sys
f, d = sys.argv[1], sys.argv[2]
rd = lambda t: list(csv.DictReader(open("%s/%s.csv" % (d, t))))
track, tt, th, sl, pr = rd("track"), rd("thread_track"), rd("thread"), rd("slice"), rd("process")
op = gzip.open if f.endswith(".gz") else open
js = json.load(op(f, "rt"))
evs = js["traceEvents"] if isinstance(js, dict) else js
names = {}
for e in evs:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        names[(str(e.get("pid")), str(e.get("tid")))] = (e.get("args") or {}).get("name", "")
pid_of = {p["upid"]: p["pid"] for p in pr}
bad = []
ids = [int(t["id"]) for t in track]
if ids != list(range(len(ids))):
    bad.append("track ids not 0..n-1")
lanes = [t for t in track if t["type"] != "counter"]
if [t["type"] for t in track] != [t["type"] for t in lanes] + ["counter"] * (len(track) - len(lanes)):
    bad.append("counter tracks not after the lanes")
threads = [t for t in lanes if t["type"] == "thread"]
if [(r["id"], r["upid"]) for r in tt] != [(t["id"], t["upid"]) for t in threads]:
    bad.append("thread_track is not the thread lanes of track")
if [(r["utid"], r["upid"], r["name"]) for r in th] != [(r["utid"], r["upid"], r["name"]) for r in tt]:
    bad.append("thread differs from thread_track")
for r, t in zip(th, threads):
    if r["tid"] != (t["key"] if t["key"].lstrip("-").isdigit() else ""):
        bad.append("tid of %s" % r)
    want = names.get((pid_of[r["upid"]], t["key"]), "")
    if r["name"] != want:
        bad.append("thread name of %s: want %r" % (r, want))
if {s["track_id"] for s in sl} - {t["id"] for t in lanes}:
    bad.append("slice.track_id outside the lanes")
# counter tracks: one per (pid, C event name and id, args key), named
# "name key" ("name id: ID key" with an id, as Perfetto names them)
want = set()
for e in evs:
    if e.get("ph") == "C":
        n = e.get("name", "") + (" id: %s" % e["id"] if "id" in e else "")
        for k in e.get("args") or {}:
            want.add((str(e.get("pid")), n + " " + k, k))
got = {(pid_of[t["upid"]], t["name"], t["key"]) for t in track if t["type"] == "counter"}
if got != want:
    bad.append("counter tracks %s, python %s" % (sorted(got), sorted(want)))
print("\n".join(bad) or "ok")
PY
    matches "$TMPD/out" '^ok$' "track, thread_track, thread of $b agree with the lanes and thread_name metadata"
done

# the Nsight Systems exports: host calls, NVTX ranges and GPU work, against
# the exports' own tables
for f in "$traces/nsys/"*.sqlite; do
    [ -f "$f" ] || continue
    "$dump" "$f" slice > "$TMPD/slice.csv" 2> "$TMPD/err" &&
        "$dump" "$f" track > "$TMPD/track.csv" && "$dump" "$f" process > "$TMPD/process.csv"
    ok $? "the tables of $(basename "$f") dump"
    python3 "$oracle" "$f" "$TMPD/slice.csv" "$TMPD/track.csv" "$TMPD/process.csv" \
        > "$TMPD/out" 2>&1
    matches "$TMPD/out" '^rows [1-9][0-9]* mismatches 0$' \
        "slice of $(basename "$f"): runtime calls, NVTX ranges, kernels, copies (ts, dur, name, bytes, depth, parent, self_dur) as the export's tables hold them"
done

tap_done
