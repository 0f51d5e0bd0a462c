#!/bin/sh
# chrome_unterminated.sh - the Trace Event Format makes the closing ']' of
# the bare array form optional (a profiler appends events and may never
# close it), and Perfetto reads a "ph" longer than one character by its
# first letter:
#   - a bare array ending after a complete event, after a trailing comma,
#     or after whitespace loads without --lenient, every event kept and no
#     problem reported; the same gzip-compressed;
#   - an event cut in the middle is still the positioned cut-off error;
#   - the object form still needs its ']' and '}';
#   - "Xcomplete" is read as X (a slice with its duration), "Zz" stays an
#     unknown phase.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
ev1='{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 5}'
ev2='{"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 10, "dur": 5}'

printf '[%s,\n%s' "$ev1" "$ev2" >plain.json
printf '[%s,\n%s,' "$ev1" "$ev2" >comma.json
printf '[\n%s,\n%s,\n\n  \t\n' "$ev1" "$ev2" >space.json
gzip -c space.json >space.json.gz
printf '[' >empty.json
for f in plain.json comma.json space.json space.json.gz; do
    "$TRACETTY" summary "$f" >out 2>err
    is "$?" 0 "$f: bare array without ']': loads without --lenient"
    is "$(cat err)" "" "$f: nothing on stderr"
    matches out '^Events    2 in the timeline; by phase: X 2$' "$f: both events kept"
    is "$(sed -n '/^Problems/{n;p;}' out)" "  none" "$f: no problem reported"
done
"$TRACETTY" summary empty.json >out 2>err
is "$?" 0 "a lone '[' is an empty trace"

# the second event is cut after its 23 bytes: line 2, column 24
printf '[%s,\n{"ph": "X", "name": "b"' "$ev1" >cut.json
"$TRACETTY" summary cut.json >out 2>err
is "$?" 2 "an event cut in the middle: exit status 2"
is "$(cat err)" \
    "tracetty: cut.json: line 2, column 24: unexpected end of data inside an event: the trace is cut off or damaged after 1 complete events (--lenient loads them)" \
    "an event cut in the middle: the positioned cut-off error"

printf '{"traceEvents": [%s,\n%s' "$ev1" "$ev2" >object.json
"$TRACETTY" summary object.json >out 2>err
is "$?" 2 "the object form without ']}' is still cut off"
matches err "^tracetty: object.json: line 2, column [0-9]+: unexpected end of data inside the events array \\(missing '\\]'\\)" \
    "the object form: the missing ']' is named"

printf '[{"ph": "Xcomplete", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 5},\n%s,\n%s]\n' \
    '{"ph": "Zz", "name": "z", "pid": 1, "tid": 1, "ts": 1}' "$ev2" >phases.json
"$TRACETTY" summary --format json phases.json >out.json 2>err
is "$?" 0 "multi-character phases load"
got=$("${PYTHON3:-python3}" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["events"], sorted(d["phases"].items()), [p["example"] for p in d["problems"]])' out.json 2>&1)
is "$got" "2 [('?', 1), ('X', 2)] ['unknown phase \"Zz\"']" \
    "\"Xcomplete\" is an X slice; \"Zz\" stays unknown"
"$TRACETTY" report --kind events --format csv phases.json >events.csv 2>err
matches events.csv '^0,5000,"pid 1 / tid 1","a",' "the \"Xcomplete\" slice is in the events report with its duration"
tap_done
