#!/bin/sh
# report_names_guard.sh - names a spreadsheet or a C string would get wrong:
#   - CSV cells starting with any character of OWASP's CSV-injection list
#     (=, +, -, @, TAB, CR) get the guard quote; others are written as is;
#     the expected cells are computed by Python's json and csv modules from
#     the trace itself;
#   - a name holding \u0000 is not cut at the NUL: it keeps the visible
#     six characters \u0000 in CSV, JSON, summary and the view.
. "$srcdir/tests/lib.sh"

py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || skip_all "python3 not installed"
cd "$TMPD" || exit 1

"$py" - >names.json <<'PY'
import json
names = ["plain", "=1+1", "+cmd", "-x", "@SUM(A1)", "\tcmd", "\r=1+1",
         " =spaced", "a\u0000b", "\u0000lead", "tail\u0000"]
print(json.dumps([{"ph": "X", "name": n, "pid": 1, "tid": 1, "ts": 10 * i, "dur": 5}
                  for i, n in enumerate(names)]))
PY

"$TRACETTY" report --kind ops --format csv names.json >ops.csv
ok $? "report --kind ops --format csv"
want=$("$py" -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    n = e["name"].replace("\0", "\\u0000")
    print(repr("\x27" + n if n[:1] in ("=", "+", "-", "@", "\t", "\r") else n))' names.json | sort)
got=$("$py" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    print(repr(r["Name"]))' ops.csv | sort)
is "$got" "$want" "CSV Name cells: guarded exactly where a spreadsheet would evaluate them"

"$TRACETTY" report --kind ops --format json names.json >ops.json
ok $? "report --kind ops --format json"
got=$("$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(r["name"] for t in d["traces"] for r in t["rows"] if "0000" in r["name"]))' ops.json)
is "$got" "['\\\\u0000lead', 'a\\\\u0000b', 'tail\\\\u0000']" "JSON: the NUL stays a visible escape"

"$TRACETTY" summary names.json >summary.txt
matches summary.txt '^  a\\u0000b ' "summary: a\\u0000b whole"
matches summary.txt '^  \\u0000lead ' "summary: \\u0000lead whole"

"$TRACETTY" render --size 100x30 --keys '/u0000b<Enter><Enter>' names.json >view.txt
matches view.txt '^. Name +a\\u0000b +.$' "view: the details name a\\u0000b whole"
tap_done
