#!/usr/bin/env python3
"""sql_process_oracle.py TRACE - the process table of a Chrome/Kineto JSON
trace as python's json module reads it: "pid,name" per process, sorted
(the groups come from the pids of non-metadata events, global instants
sharing one group of their own; the name from process_name metadata).
Shared by tests/cli/sql_tables.sh and tests/cli/query.sh."""
import gzip
import json
import sys

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
out = []
for p in pids:
    pid = p if isinstance(p, int) else (int(p) if str(p).lstrip("-").isdigit() else "")
    if p is None:
        pid = ""
    out.append("%s,%s" % (pid, names.get(p, "")))
for line in sorted(out):
    print(line)
