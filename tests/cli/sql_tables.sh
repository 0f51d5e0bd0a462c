#!/bin/sh
# sql_tables.sh - the SQL tables (src/sql/sqltab.h) walked without SQLite
# (tests/unit/sqltab_dump), each compared with an independent python3
# computation over the same real trace (json module).
#
# process: one row per pid with its process_name metadata.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
dump="$builddir/tests/unit/sqltab_dump"
traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces"

for f in "$traces/pytorch/"*.json.gz "$traces/chrome-edge/catapult_simple_trace.json"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$dump" "$f" process > "$TMPD/p.csv" 2> "$TMPD/err"
    ok $? "process of $b dumps"
    # pid,name of every process, sorted: the groups come from the pids of
    # events and metadata, the name from process_name.
    tail -n +2 "$TMPD/p.csv" | awk -F, '{ print $2 "," $3 }' | sort > "$TMPD/got"
    python3 "$srcdir/tests/cli/sql_process_oracle.py" "$f" > "$TMPD/want"
    sort "$TMPD/want" > "$TMPD/want.s"
    same_file "$TMPD/got" "$TMPD/want.s" "process of $b: pid and name as python reads them"
done

tap_done
