#!/bin/sh
# query.sh - `tracetty query` (src/sql/db.c, vtab.c, srcset.c,
# src/cli/cmd_query.c): SQL over real traces compared with an independent
# python3 computation (json and sqlite3 modules); the rank column and
# table over a generated job; csv/json/text; -o atomic; several
# statements; positioned SQL errors; writes refused; `rank = N` loads one
# trace; Ctrl-C stops a long query.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces"
T="$traces/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$T" ] || skip_all "no resnet50 trace"

# process: the same rows as the python oracle of sql_tables.sh
"$TRACETTY" query "$T" 'SELECT upid, pid, name FROM process ORDER BY upid' \
    >"$TMPD/p.csv" 2>"$TMPD/err"
ok $? "query process"
is "$(head -n 1 "$TMPD/p.csv" | tr -d '\r')" '"upid","pid","name"' "CSV header: the result's columns"
# rows through python's csv module: text quoted, numbers bare, NULL empty
csvcols() {   # csvcols FILE COL... : those columns of the rows, comma-joined
    python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))[1:]
for r in rows:
    print(",".join(r[int(c)] for c in sys.argv[2:]))
PY
}
csvcols "$TMPD/p.csv" 1 2 | sort >"$TMPD/got"
python3 "$srcdir/tests/cli/sql_process_oracle.py" "$T" > "$TMPD/want"
sort "$TMPD/want" >"$TMPD/want.s"
same_file "$TMPD/got" "$TMPD/want.s" "process: pid and name as python reads them"
# the upids are 0..n-1 and a lone trace without a rank has rank NULL
"$TRACETTY" query "$T" 'SELECT count(*), min(upid), max(upid), count(rank) FROM process' \
    >"$TMPD/c.csv"
n=$(wc -l <"$TMPD/want.s" | tr -d ' ')
is "$(tail -n 1 "$TMPD/c.csv" | tr -d '\r')" "$n,0,$((n - 1)),0" "upids 0..n-1, rank NULL"
# upid = N reaches the table (EQ on an id column) and SQLite checks again
"$TRACETTY" query "$T" 'SELECT pid FROM process WHERE upid = 1' >"$TMPD/one.csv"
is "$(csvcols "$TMPD/one.csv" 0)" "$(csvcols "$TMPD/p.csv" 0 1 | awk -F, '$1 == 1 { print $2 }')" \
    "upid = 1"
"$TRACETTY" query "$T" 'SELECT count(*) FROM process WHERE upid > 0 AND upid <= 1' >"$TMPD/one.csv"
is "$(tail -n 1 "$TMPD/one.csv" | tr -d '\r')" 1 "a range on upid"

# formats: json keeps integers as numbers and NULL as null; text aligns
"$TRACETTY" query --format json "$T" \
    'SELECT upid, name, NULL AS nul, 1.5 AS half FROM process WHERE upid = 0' >"$TMPD/q.json"
ok $? "--format json"
python3 - "$TMPD/q.json" >"$TMPD/jv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["traces"][0]["rows"][0]
print(d["kind"], type(r["upid"]).__name__, r["nul"], r["half"])
PY
is "$(cat "$TMPD/jv")" "query int None 1.5" "JSON: kind, an integer, null, a real"
"$TRACETTY" query --format text "$T" 'SELECT upid, pid FROM process ORDER BY upid LIMIT 2' \
    >"$TMPD/q.txt"
ok $? "--format text"
matches "$TMPD/q.txt" '^upid +pid' "text: the column titles"
"$TRACETTY" query "$T" "SELECT '=1+2' AS f, -3 AS neg" >"$TMPD/g.csv"
is "$(tail -n 1 "$TMPD/g.csv" | tr -d '\r')" "\"'=1+2\",-3" "CSV: formula guard on text, numbers bare"

# several statements: the last one's rows
printf 'SELECT 1;\n-- a comment\nSELECT 2 AS two;\n' >"$TMPD/q.sql"
"$TRACETTY" query "$T" -f "$TMPD/q.sql" >"$TMPD/m.csv"
is "$(tr -d '\r' <"$TMPD/m.csv" | tr '\n' ' ')" '"two" 2 ' "-f FILE: several statements, the last one's rows"
echo 'SELECT count(*) AS n FROM process' | "$TRACETTY" query "$T" >"$TMPD/s.csv"
is "$(tail -n 1 "$TMPD/s.csv" | tr -d '\r')" "$n" "SQL on stdin"

# SQL errors: one line with the position, exit 1
printf 'SELECT 1;\nSELECT nosuch\n  FROM process' >"$TMPD/bad.sql"
"$TRACETTY" query "$T" -f "$TMPD/bad.sql" >"$TMPD/out" 2>"$TMPD/err"
is $? 1 "an unknown column: exit 1"
is "$(cat "$TMPD/err")" "tracetty: query:2:8: no such column: nosuch" "the message and where"
is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "nothing on stdout"
"$TRACETTY" query "$T" 'SELECT * FROM nosuch' >/dev/null 2>"$TMPD/err"
is $? 1 "an unknown table: exit 1"
matches "$TMPD/err" '^tracetty: query(:1:15)?: no such table: nosuch$' "unknown table: one line"

# writes are refused before anything runs
for q in "INSERT INTO process VALUES (1, 2, 'x', NULL, NULL)" \
         "ATTACH DATABASE '$TMPD/x.db' AS x" "PRAGMA user_version = 3" \
         "CREATE TABLE t(a)" "DELETE FROM process" "VACUUM INTO '$TMPD/v.db'"; do
    "$TRACETTY" query "$T" "SELECT 1; $q" >"$TMPD/out" 2>"$TMPD/err"
    rc=$?
    is "$rc" 1 "refused: $q"
    matches "$TMPD/err" 'refused: the traces are read-only' "refusal says why: $q"
done
[ ! -e "$TMPD/x.db" ] && [ ! -e "$TMPD/v.db" ]
ok $? "no file was created by SQL"
"$TRACETTY" query "$T" "PRAGMA table_info(process)" >"$TMPD/ti.csv"
ok $? "a pragma that reads is allowed"
matches "$TMPD/ti.csv" '^1,"pid","INTEGER"' "table_info lists the columns"

# -o: atomic; a failing query leaves no file and an existing one alone
"$TRACETTY" query -o "$TMPD/o.csv" "$T" 'SELECT upid FROM process'
ok $? "-o FILE"
is "$(head -n 1 "$TMPD/o.csv" | tr -d '\r')" '"upid"' "-o wrote the result"
"$TRACETTY" query -o "$TMPD/new.csv" "$T" 'SELECT nosuch FROM process' 2>/dev/null
[ ! -e "$TMPD/new.csv" ]
ok $? "a failing query creates no file"
cp "$TMPD/o.csv" "$TMPD/keep"
"$TRACETTY" query -o "$TMPD/o.csv" "$T" \
    'SELECT abs(-9223372036854775807 - 1) FROM process' 2>/dev/null
is $? 1 "a runtime error (integer overflow): exit 1"
same_file "$TMPD/o.csv" "$TMPD/keep" "the existing file is untouched"
[ -z "$(ls "$TMPD" | grep '\.tmp' )" ]
ok $? "no temporary file left"

# usage
"$TRACETTY" query "$TMPD/nothere.json" 'SELECT 1' >"$TMPD/out" 2>"$TMPD/err"
is $? 1 "a trace that does not exist: exit 1, also when no table is read"
matches "$TMPD/err" "nothere.json: cannot open: No such file" "it says so"
"$TRACETTY" query "$T" </dev/null >/dev/null 2>"$TMPD/err"
is $? 1 "empty SQL on stdin: exit 1"
"$TRACETTY" query --format xml "$T" 'SELECT 1' >/dev/null 2>&1
is $? 2 "a bad --format: exit 2"
"$TRACETTY" query --tables >"$TMPD/tables"
ok $? "--tables"
matches "$TMPD/tables" '^process: ' "--tables names process"
matches "$TMPD/tables" 'upid INTEGER,.* rank INTEGER$' "--tables: columns, rank last"
# the man page names every registered table
man="$srcdir/man/tracetty.1"
for t in $(sed -n 's/^\([a-z_]*\): .*/\1/p' "$TMPD/tables"); do
    grep -q "^\\\\fB$t\\\\fR" "$man"
    ok $? "the man page describes table $t"
done

# --window, --lanes and --markers SET --between A:B are checked as report's
cp "$T" "$TMPD/m.json.gz"
"$TRACETTY" markers add "$TMPD/m.json.gz" --set s --at 1ms --name a >/dev/null &&
    "$TRACETTY" markers add "$TMPD/m.json.gz" --set s --at 2ms --name b >/dev/null
ok $? "a marker set to cut by"
"$TRACETTY" query --quiet --markers s --between a:b "$TMPD/m.json.gz" 'SELECT count(*) FROM rank' \
    >"$TMPD/mk.csv"
is "$(tail -n 1 "$TMPD/mk.csv" | tr -d '\r')" 1 "--markers s --between a:b"
"$TRACETTY" query --quiet --markers s --between a:zz "$TMPD/m.json.gz" 'SELECT 1' \
    >/dev/null 2>"$TMPD/err"
is $? 2 "an unknown marker: exit 2"
matches "$TMPD/err" "zz" "the message names it"
"$TRACETTY" query --quiet --markers nosuch --between a:b "$TMPD/m.json.gz" 'SELECT 1' \
    >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" "no marker set named 'nosuch'" "an unknown set"
"$TRACETTY" query --markers s "$T" 'SELECT 1' >/dev/null 2>&1
is $? 2 "--markers without --between: exit 2"
"$TRACETTY" query --window 5ms:1ms "$T" 'SELECT 1' >/dev/null 2>&1
is $? 2 "a window that ends before it starts: exit 2"
"$TRACETTY" query --quiet --window 1ms:2ms --lanes '*GPU*' "$T" 'SELECT count(*) FROM process' \
    >"$TMPD/w.csv"
is "$(tail -n 1 "$TMPD/w.csv" | tr -d '\r')" "$n" "--window and --lanes leave process whole"

# a job: the rank column, the rank table, rank = N loads one trace
gen="$builddir/samples/gen-trace"
job="$TMPD/job"
mkdir -p "$job"
for r in 0 1 2 3 4 5; do
    "$gen" kineto --rank $r --world 6 -o "$job/train-$r-of-6.json" || break
done
"$TRACETTY" query --quiet "$job" 'SELECT rank, path, events, t0, t1 FROM rank ORDER BY rank' \
    >"$TMPD/r.csv"
ok $? "query over a job directory"
# events: complete and instant events; t0, t1: first start, last end in ns
# (decimal microseconds parsed exactly)
python3 - "$job" >"$TMPD/rwant" <<'PY'
import json, os, sys
from decimal import Decimal
for r in range(6):
    p = os.path.join(sys.argv[1], "train-%d-of-6.json" % r)
    d = json.load(open(p), parse_float=Decimal)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    evs = [e for e in evs if e.get("ph") in ("X", "i", "I")]
    t0 = min(int(Decimal(e["ts"]) * 1000) for e in evs)
    t1 = max(int((Decimal(e["ts"]) + Decimal(e.get("dur", 0))) * 1000) for e in evs)
    print("%d,%s,%d,%d,%d" % (r, p, len(evs), t0, t1))
PY
csvcols "$TMPD/r.csv" 0 1 2 3 4 >"$TMPD/rgot"
same_file "$TMPD/rgot" "$TMPD/rwant" "rank table: rank, path, events, t0, t1 as python reads them"
"$TRACETTY" query --quiet "$job" 'SELECT rank, count(*) FROM process GROUP BY rank' >"$TMPD/pr.csv"
is "$(tail -n +2 "$TMPD/pr.csv" | tr -d '\r' | cut -d, -f1 | tr '\n' ' ')" "0 1 2 3 4 5 " \
    "process has a rank column over a job"
"$TRACETTY" query --quiet "$job" \
    'SELECT count(DISTINCT upid) = count(*) FROM process' >"$TMPD/u.csv"
is "$(tail -n 1 "$TMPD/u.csv" | tr -d '\r')" 1 "upids are unique across ranks"
"$TRACETTY" query --quiet --timings "$job" 'SELECT rank, name FROM process WHERE rank = 2' \
    >"$TMPD/r2.csv" 2>"$TMPD/t.err"
is "$(tail -n +2 "$TMPD/r2.csv" | tr -d '\r' | cut -d, -f1 | sort -u)" 2 "rank = 2: its rows"
matches "$TMPD/t.err" 'query: 1 loads of 6 traces' "rank = 2 loads only that trace"
"$TRACETTY" query --quiet --timings "$job" 'SELECT count(*) FROM process' \
    >/dev/null 2>"$TMPD/t.err"
matches "$TMPD/t.err" 'query: 6 loads of 6 traces' "a scan loads each trace once"
# a join on ids: the inner scan skips the other ranks without loading
# them (4 are kept loaded: reloading would show here)
"$TRACETTY" query --quiet --timings "$job" \
    'SELECT count(*) FROM process a JOIN process b ON a.upid = b.upid' >"$TMPD/j.csv" 2>"$TMPD/t.err"
matches "$TMPD/t.err" 'query: 6 loads of 6 traces' "a join on upid loads each trace once"
"$TRACETTY" query --quiet "$job" 'SELECT count(*) FROM process' >"$TMPD/all.csv"
same_file "$TMPD/j.csv" "$TMPD/all.csv" "the join pairs each process with itself"

# Ctrl-C stops a long query with a message and status 130
"$TRACETTY" query "$T" 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
    WHERE x < 1000000000) SELECT count(*) FROM c' >/dev/null 2>"$TMPD/int.err" &
pid=$!
sleep 2
kill -INT $pid
t=0
while kill -0 $pid 2>/dev/null && [ $t -lt 50 ]; do sleep 0.1; t=$((t + 1)); done
kill -0 $pid 2>/dev/null
is $? 1 "SIGINT stopped the query within 5 s"
wait $pid
is $? 130 "an interrupted query exits 130"
matches "$TMPD/int.err" '^tracetty: query: interrupted' "it says it was interrupted"

tap_done
