#!/bin/sh
# sql_group.sh - GROUP BY name over the slice table without SQLite's sort
# (sql/evgroup.c, tab_slice.c's first_grouped, vtab.c's group_col): the
# plan uses the grouped walk, and its result (groups, their order, every
# aggregate) is what python computes from the table's rows as a plain
# scan hands them (csv module; names ordered by their UTF-8 bytes, as
# SQLite's BINARY collation orders them). Also with --window, and where
# the walk must not be used (DESC, a constraint, several traces).
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
traces=$(shared_traces)
T="$traces/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$T" ] || skip_all "no resnet50 trace"
Q='SELECT name, count(*), sum(dur), min(ts), max(ts + dur) FROM slice GROUP BY name'

# oracle ROWS.csv: the groups of the plain scan's rows (name, ts, dur)
oracle() {
    python3 - "$1" <<'PY'
import csv, sys
g = {}
for r in list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))[1:]:
    name, ts, dur = r[0], int(r[1]), int(r[2])
    c = g.setdefault(name, [0, 0, ts, ts + dur])
    c[0] += 1
    c[1] += dur
    c[2] = min(c[2], ts)
    c[3] = max(c[3], ts + dur)
w = csv.writer(sys.stdout, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
w.writerow(["name", "count(*)", "sum(dur)", "min(ts)", "max(ts + dur)"])
for name in sorted(g, key=lambda s: s.encode("utf-8")):
    w.writerow([name] + g[name])
PY
}

# check WHAT OPTION...: the grouped plan and its result against the oracle
check() {
    what=$1
    shift
    "$TRACETTY" query "$@" "$T" "EXPLAIN QUERY PLAN $Q" >"$TMPD/plan" 2>&1
    grep -q 'TEMP B-TREE' "$TMPD/plan"
    is $? 1 "$what: GROUP BY name sorts nothing"
    "$TRACETTY" query "$@" "$T" "$Q" >"$TMPD/got.csv" 2>"$TMPD/err"
    ok $? "$what: the query runs"
    "$TRACETTY" query "$@" "$T" 'SELECT name, ts, dur FROM slice' >"$TMPD/rows.csv" 2>&1
    oracle "$TMPD/rows.csv" >"$TMPD/want.csv"
    same_file "$TMPD/got.csv" "$TMPD/want.csv" "$what: groups, order and sums as python computes them"
}
check "whole trace"
check "--window" --window 100ms:300ms

# where the rows must come sorted or ranged, SQLite sorts (and the
# result is still right): DESC, a constraint, a job of two traces
plan_sorts() {   # plan_sorts WHAT SQL TRACE...
    what=$1 sql=$2
    shift 2
    "$TRACETTY" query "$@" "EXPLAIN QUERY PLAN $sql" >"$TMPD/plan" 2>&1
    grep -q 'TEMP B-TREE' "$TMPD/plan"
    ok $? "$what: SQLite sorts"
}
plan_sorts "GROUP BY 1 ORDER BY 1 DESC" \
    'SELECT name, count(*) FROM slice GROUP BY 1 ORDER BY 1 DESC' "$T"
"$TRACETTY" query "$T" 'SELECT name, count(*) FROM slice GROUP BY 1 ORDER BY 1 DESC' \
    >"$TMPD/desc.csv"
"$TRACETTY" query "$T" 'SELECT name, count(*) FROM slice GROUP BY 1' >"$TMPD/asc.csv"
is "$(tail -n +2 "$TMPD/desc.csv" | head -n 1)" "$(tail -n 1 "$TMPD/asc.csv")" \
    "DESC: the last name first"
plan_sorts "a ts constraint" \
    'SELECT name, count(*) FROM slice WHERE ts > 0 GROUP BY name' "$T"
mkdir "$TMPD/job"
cp "$T" "$TMPD/job/a.json.gz"
cp "$T" "$TMPD/job/b.json.gz"
plan_sorts "two traces" 'SELECT name, count(*) FROM slice GROUP BY name' "$TMPD/job"

tap_done
