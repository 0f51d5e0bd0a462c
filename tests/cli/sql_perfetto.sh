#!/bin/sh
# sql_perfetto.sh - Perfetto-style queries (tests/cli/sql_perfetto.sql,
# in the shape of Perfetto's documentation and its own SQL tests) run
# unchanged by `tracetty query` over real traces, each result compared
# with the same query over an independent python model of the same file
# (tests/cli/sql_perfetto_oracle.py: json + sqlite3 modules). Numbers are
# compared as numbers (integers exactly, reals to 1e-9 relative), text
# exactly, rows in the order each query fixes.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces"
oracle="$srcdir/tests/cli/sql_perfetto_oracle.py"
queries="$srcdir/tests/cli/sql_perfetto.sql"

# same_csv GOT WANT: equal as tables of values
same_csv() {
    python3 - "$1" "$2" <<'PY'
import csv, sys
def rows(p):
    with open(p, newline="", encoding="utf-8") as f:
        return [r for r in csv.reader(f)]
def val(s):
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s
got, want = rows(sys.argv[1]), rows(sys.argv[2])
if len(got) != len(want):
    print("#   rows: got %d, want %d" % (len(got), len(want)))
    sys.exit(1)
for i, (g, w) in enumerate(zip(got, want)):
    if i == 0:
        if g != w:
            print("#   header: got %s, want %s" % (g, w)); sys.exit(1)
        continue
    if len(g) != len(w):
        print("#   row %d: got %s, want %s" % (i, g, w)); sys.exit(1)
    for a, b in zip(g, w):
        x, y = val(a), val(b)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if x == y or (isinstance(x, float) or isinstance(y, float)) and \
                    abs(x - y) <= 1e-9 * max(abs(x), abs(y)):
                continue
        elif x == y:
            continue
        print("#   row %d: got %s, want %s" % (i, g, w)); sys.exit(1)
PY
}

names=$(sed -n 's/^-- name: *//p' "$queries")
# Real Kineto traces (slices, instants of three scopes, flows, NCCL
# kernels) and Chrome ones: catapult's B/E over and under an X of the same
# span (the first read encloses), instants of every scope, "displayTimeUnit"
# ns, a tall stack, legacy (S/T/F) and nestable (b/e/n) async events with
# unmatched begins and ends, flow steps "t", counters with ids, X events
# among object (D/N) events; viztracer's fractional-us times (each rounded
# to the nearest ns, as Perfetto's importer does). Where tracetty differs
# from Perfetto on purpose, the model follows tracetty; each difference:
python3 "$oracle" --differences | sed 's/^/# differs from Perfetto on purpose: /'
for t in pytorch/resnet50_workers0.pt.trace.json.gz pytorch/nccl_data.json.gz \
    chrome-edge/catapult_simple_trace.json chrome-edge/catapult_instant_events.json \
    chrome-edge/catapult_nanoseconds.json chrome-edge/catapult_tall_trace.json \
    chrome-edge/catapult_trivial_trace.json chrome-edge/viztracer_multithread.json \
    chrome-edge/viztracer_old.json chrome-edge/catapult_async_begin_end.json \
    chrome-edge/catapult_nestable_async.json chrome-edge/catapult_flow_simple.json \
    chrome-edge/catapult_instance_counters.json chrome-edge/catapult_x_event_trace.json; do
    f="$traces/$t"
    [ -f "$f" ] || continue
    b=$(basename "$t")
    want="$TMPD/want-$b"
    python3 "$oracle" "$f" "$queries" "$want"
    ok $? "$b: the python model runs every query"
    for q in $names; do
        # the query text of block q, run as is
        awk -v q="$q" '/^-- name: / { on = ($3 == q); next } on' "$queries" > "$TMPD/q.sql"
        "$TRACETTY" query "$f" -f "$TMPD/q.sql" > "$TMPD/got.csv" 2> "$TMPD/err"
        rc=$?
        if [ $rc -ne 0 ]; then
            ok 1 "$b: $q runs"; sed 's/^/#   /' "$TMPD/err"; continue
        fi
        out=$(same_csv "$TMPD/got.csv" "$want/$q.csv")
        ok $? "$b: $q equals the python model"
        [ -n "$out" ] && echo "$out"
    done
done

tap_done
