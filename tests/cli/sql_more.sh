#!/bin/sh
# sql_more.sh - the SQL tables counter_track, counter, flow, args, finding
# and marker (src/sql/tab_*.c) walked without SQLite (tests/unit/
# sqltab_dump), each compared with an independent computation over the
# same real trace: python3's json module (tests/cli/sql_more_oracle.py),
# `tracetty check --format csv`, `tracetty markers export`, `summary`.
#   - counter_track/counter: every sample of every series (pid, track name
#     as the timeline shows it, Perfetto's for a counter with an id, ts in
#     ns, value) of the Chrome C events;
#     track_id = v, ts ranges, id = v and a window narrow exactly to the
#     rows they allow;
#   - flow: Kineto's s/f pairs bound to their enclosing slices; a flow of
#     slice_out = v / slice_in = v; the count `summary` gives;
#   - args: every X event's args flattened as Perfetto's JSON importer
#     does ("args.a.b", "args.l[0]", nulls left out), display_value as
#     Perfetto's args view writes it (reals: SQLite's CAST AS TEXT);
#     arg_set_id = v;
#   - finding: check's CSV rows, in order (ts on the trace's clock);
#   - marker: a set made with `tracetty markers add`, ts = start + offset.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
dump="$builddir/tests/unit/sqltab_dump"
oracle="$srcdir/tests/cli/sql_more_oracle.py"
traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces"

# col FILE NAME: the values of column NAME of a dump (no quoted commas in
# the columns this script reads this way)
col() {
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$1"
}

# same_rows NAME FILTER-DESCRIPTION FULL.csv NARROW.csv PYEXPR: the rows
# of FULL for which PYEXPR (over the row r, a dict of ints where they
# parse) holds equal NARROW, in order
same_rows() {
    python3 - "$3" "$4" "$5" > "$TMPD/sr" <<'PY'
import csv, sys
def conv(r):
    o = {}
    for k, v in r.items():
        try:
            o[k] = int(v)
        except ValueError:
            o[k] = v
    return o
full = list(csv.DictReader(open(sys.argv[1], newline="")))
narrow = list(csv.DictReader(open(sys.argv[2], newline="")))
want = [r for r in full if eval(sys.argv[3], {}, {"r": conv(r)})]
print("ok" if want == narrow else "got %d rows, want %d" % (len(narrow), len(want)))
PY
    is "$(cat "$TMPD/sr")" ok "$1: $2"
}

# ---------------------------------------------------------------- counters
# (the Chrome traces with C events; the Kineto traces here have none)
for f in "$traces/chrome-edge/catapult_instance_counters.json" \
    "$traces/chrome-edge/catapult_simple_trace.json" "$traces/chrome-edge/catapult_x_event_trace.json"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$dump" "$f" counter_track > "$TMPD/ct.csv" && "$dump" "$f" counter > "$TMPD/c.csv" &&
        "$dump" "$f" process > "$TMPD/p.csv"
    ok $? "counter_track, counter, process of $b dump"
    is "$(python3 "$oracle" counters "$f" "$TMPD/ct.csv" "$TMPD/c.csv" "$TMPD/p.csv")" ok \
        "counters of $b: every series and sample as python reads them"
done

f="$traces/chrome-edge/catapult_instance_counters.json"
if [ -f "$f" ]; then
    "$dump" "$f" counter > "$TMPD/c.csv"
    "$dump" "$f" counter_track > "$TMPD/ct.csv"
    is "$(col "$TMPD/ct.csv" name | sort | tr '\n' '|')" "counter id: 123 value|counter id: b value|" \
        "instance counters: one track per id, named as Perfetto names them"
    is "$(col "$TMPD/c.csv" id | tr '\n' ' ')" "0 1 2 3 4 5 6 7 " "sample ids run 0.. in row order"
    t2=$(sed -n 2p "$TMPD/ct.csv" | cut -d, -f1)
    "$dump" --where track_id = "$t2" "$f" counter > "$TMPD/n.csv"
    same_rows counter "track_id = $t2" "$TMPD/c.csv" "$TMPD/n.csv" "r['track_id'] == $t2"
    "$dump" --where ts '>=' 9627000 --where ts '<' 9631000 "$f" counter > "$TMPD/n.csv"
    same_rows counter "9627000 <= ts < 9631000" "$TMPD/c.csv" "$TMPD/n.csv" \
        "9627000 <= r['ts'] < 9631000"
    "$dump" --where ts '>' 9627000 --where ts '<=' 9631000 "$f" counter > "$TMPD/n.csv"
    same_rows counter "9627000 < ts <= 9631000" "$TMPD/c.csv" "$TMPD/n.csv" \
        "9627000 < r['ts'] <= 9631000"
    "$dump" --where id = 6 "$f" counter > "$TMPD/n.csv"
    same_rows counter "id = 6" "$TMPD/c.csv" "$TMPD/n.csv" "r['id'] == 6"
    "$dump" --where id = 99 "$f" counter > "$TMPD/n.csv"
    same_rows counter "id = 99 (none)" "$TMPD/c.csv" "$TMPD/n.csv" "r['id'] == 99"
    "$dump" --window 9626000:9631000 "$f" counter > "$TMPD/n.csv"
    same_rows counter "a window keeps from <= ts < to" "$TMPD/c.csv" "$TMPD/n.csv" \
        "9626000 <= r['ts'] < 9631000"
    "$dump" --where id = "$t2" "$f" counter_track > "$TMPD/n.csv"
    same_rows counter_track "id = $t2" "$TMPD/ct.csv" "$TMPD/n.csv" "r['id'] == $t2"
fi

# ------------------------------------------------------------------- flows
# (memcpy_queue_rank0: one launch's `s` fans out to several kernels' `f`)
for f in "$traces/pytorch/memcpy_queue_rank0.json.gz" \
    "$traces/pytorch/resnet50_workers0.pt.trace.json.gz"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$dump" "$f" flow > "$TMPD/f.csv" && "$dump" "$f" :slices > "$TMPD/s-$b.csv"
    ok $? "flow of $b dumps"
    is "$(python3 "$oracle" flows "$f" "$TMPD/f.csv" "$TMPD/s-$b.csv")" ok \
        "flows of $b: s/f pairs bound to their slices as python binds them"
    is "$(($(wc -l < "$TMPD/f.csv") - 1))" \
        "$("$TRACETTY" summary --format json "$f" | sed -n 's/^[[:space:]]*"flows":[[:space:]]*\([0-9]*\),$/\1/p')" \
        "flows of $b: as many as summary counts"
done
# the last trace of the loop, resnet50_workers0: its flows are in f.csv
if [ -f "$f" ]; then
    out=$(sed -n 100p "$TMPD/f.csv" | cut -d, -f2)
    in=$(sed -n 100p "$TMPD/f.csv" | cut -d, -f3)
    "$dump" --where slice_out = "$out" "$f" flow > "$TMPD/n.csv"
    same_rows flow "slice_out = $out" "$TMPD/f.csv" "$TMPD/n.csv" "r['slice_out'] == $out"
    "$dump" --where slice_in = "$in" "$f" flow > "$TMPD/n.csv"
    same_rows flow "slice_in = $in" "$TMPD/f.csv" "$TMPD/n.csv" "r['slice_in'] == $in"
    "$dump" --where id = 42 "$f" flow > "$TMPD/n.csv"
    same_rows flow "id = 42" "$TMPD/f.csv" "$TMPD/n.csv" "r['id'] == 42"
    # a window keeps the flows whose both slices meet it
    from=$(sed -n 5000p "$TMPD/s-$(basename "$f").csv" | cut -d, -f4)
    to=$((from + 50000000))
    "$dump" --window "$from:$to" "$f" flow > "$TMPD/n.csv"
    python3 - "$TMPD/f.csv" "$TMPD/n.csv" "$TMPD/s-$(basename "$f").csv" "$from" "$to" > "$TMPD/w" <<'PY'
import csv, sys
rd = lambda p: list(csv.DictReader(open(p, newline="")))
lo, hi = int(sys.argv[4]), int(sys.argv[5])
sl = {r["id"]: (int(r["ts"]), int(r["dur"])) for r in rd(sys.argv[3])}
def meets(i):
    ts, dur = sl[i]
    return lo <= ts < hi if dur == 0 else ts < hi and ts + dur > lo
want = [r for r in rd(sys.argv[1]) if meets(r["slice_out"]) and meets(r["slice_in"])]
got = rd(sys.argv[2])
print("ok" if got == want and 0 < len(want) < len(rd(sys.argv[1])) else
      "got %d rows, want %d" % (len(got), len(want)))
PY
    is "$(cat "$TMPD/w")" ok "flow: a window keeps the flows whose both ends meet it"
fi
f="$traces/chrome-edge/catapult_flow_simple.json"
if [ -f "$f" ]; then
    "$dump" "$f" flow > "$TMPD/f.csv"; ok $? "flow of catapult_flow_simple dumps"
    is "$(($(wc -l < "$TMPD/f.csv") - 1))" \
        "$("$TRACETTY" summary --format json "$f" | sed -n 's/^[[:space:]]*"flows":[[:space:]]*\([0-9]*\),$/\1/p')" \
        "catapult_flow_simple: as many flows as summary counts"
fi

# -------------------------------------------------------------------- args
for f in "$traces/chrome-edge/catapult_simple_trace.json" "$traces/pytorch/nccl_data.json.gz" \
    "$traces/pytorch/resnet50_workers0.pt.trace.json.gz"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    [ -f "$TMPD/s-$b.csv" ] || "$dump" "$f" :slices > "$TMPD/s-$b.csv"
    "$dump" "$f" args > "$TMPD/a.csv"
    ok $? "args of $b dumps"
    is "$(python3 "$oracle" args "$f" "$TMPD/a.csv" "$TMPD/s-$b.csv")" ok \
        "args of $b: every X event's args flattened as python flattens them"
done
# the last trace of the loop, resnet50_workers0: its args are in a.csv
if [ -f "$f" ]; then
    set_id=$(sed -n 500p "$TMPD/a.csv" | cut -d, -f1)
    "$dump" --where arg_set_id = "$set_id" "$f" args > "$TMPD/n.csv"
    same_rows args "arg_set_id = $set_id" "$TMPD/a.csv" "$TMPD/n.csv" "r['arg_set_id'] == $set_id"
    is "$(col "$TMPD/a.csv" value_type | sort -u | tr '\n' ' ')" "int real string " \
        "resnet50: ints, reals and strings"
fi

# ----------------------------------------------------------------- finding
for f in "$traces/pytorch/resnet50_workers0.pt.trace.json.gz"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$dump" "$f" finding > "$TMPD/fi.csv"; ok $? "finding of $b dumps"
    "$TRACETTY" check --format csv --fail-on never "$f" > "$TMPD/check.csv"
    t0=$("$TRACETTY" summary --format json "$f" | sed -n 's/^[[:space:]]*"start_ns":[[:space:]]*\([0-9-]*\),$/\1/p')
    python3 - "$TMPD/fi.csv" "$TMPD/check.csv" "$t0" > "$TMPD/cmp" <<'PY'
import csv, sys
got = list(csv.DictReader(open(sys.argv[1], newline="")))
want = list(csv.DictReader(open(sys.argv[2], newline="")))
t0 = int(sys.argv[3])
g = [(r["severity"], r["rule"], int(r["ts"]) - t0, int(r["ts"]) + int(r["dur"]) - t0,
      int(r["events"]), r["message"], int(r["position"])) for r in got]
w = [(r["Severity"], r["Rule"], int(r["Start (ns)"]), int(r["End (ns)"]), int(r["Events"]),
      r["Message"], int(r["Rank"])) for r in want]
print("ok %d" % len(w) if g == w else "differ: %d rows, want %d" % (len(g), len(w)))
PY
    n=$(($(wc -l < "$TMPD/check.csv") - 1))
    is "$(cat "$TMPD/cmp")" "ok $n" "finding of $b: check's rows in check's order"
done

# ------------------------------------------------------------------ marker
t="$TMPD/run.json"
cp "$traces/chrome-edge/catapult_simple_trace.json" "$t"
"$TRACETTY" markers add "$t" --set iter --at 25us --name load --note "data, loader" &&
    "$TRACETTY" markers add "$t" --set iter --at 10us --name start &&
    "$TRACETTY" markers add "$t" --set other --at 20us --name x
ok $? "markers made"
"$dump" --markers iter "$t" marker > "$TMPD/m.csv"; ok $? "marker of set iter dumps"
t0=$("$TRACETTY" summary --format json "$t" | sed -n 's/^[[:space:]]*"start_ns":[[:space:]]*\([0-9-]*\),$/\1/p')
{
    echo "id,set_name,name,ts,note,rank"
    echo "0,iter,start,$((t0 + 10000)),,"
    echo "1,iter,load,$((t0 + 25000)),\"data, loader\","
} > "$TMPD/want"
same_file "$TMPD/m.csv" "$TMPD/want" "marker: the set's markers in time order, ts = start + offset"
"$dump" --markers iter --window "$((t0 + 20000)):$((t0 + 30000))" "$t" marker > "$TMPD/m.csv"
is "$(col "$TMPD/m.csv" name | tr '\n' ' ')" "load " "marker: a window keeps the markers in it"
"$dump" "$t" marker > "$TMPD/m.csv"
is "$(wc -l < "$TMPD/m.csv" | tr -d ' ')" 1 "marker: no set, no rows"

tap_done
