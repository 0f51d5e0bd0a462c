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
    python3 - "$f" > "$TMPD/want" <<'PY'
import json, sys
import gzip
op = gzip.open if sys.argv[1].endswith(".gz") else open
d = json.load(op(sys.argv[1], "rt"))
evs = d["traceEvents"] if isinstance(d, dict) else d
names, pids = {}, set()
for e in evs:
    if e.get("ph") == "M":
        if e.get("name") == "process_name":
            names[e.get("pid")] = e.get("args", {}).get("name", "")
        continue
    # global instants (s "g") share one group of their own
    glob = e.get("ph") in ("i", "I") and e.get("s") == "g"
    pids.add(None if glob else e.get("pid"))
for p in sorted(pids, key=str):
    pid = p if isinstance(p, int) else (int(p) if str(p).lstrip("-").isdigit() else "")
    if p is None:
        pid = ""
    print("%s,%s" % (pid, names.get(p, "")))
PY
    sort "$TMPD/want" > "$TMPD/want.s"
    same_file "$TMPD/got" "$TMPD/want.s" "process of $b: pid and name as python reads them"
done

tap_done
