#!/bin/sh
# markers.sh - `tracetty markers`: add, list, rename, remove, export, the
# sidecar file, sets saved in the view of a job (a copy per rank), corrupt
# sidecars and traces that changed.
. "$srcdir/tests/lib.sh"
t="$TMPD/run.json"
cp "$srcdir/samples/demo.json" "$t"

"$TRACETTY" markers add "$t" --set iter --at 12.5ms --name fwd_start; ok $? "add"
"$TRACETTY" markers add "$t" --set iter --at 1.25ms --name load --note "data loader"; ok $? "add with a note"
"$TRACETTY" markers add "$t" --set iter --at 80ms --name step_end; ok $? "add a third"
ok "$(test -f "$t.markers.json"; echo $?)" "sidecar written beside the trace"
"$TRACETTY" markers list "$t" >"$TMPD/list"
cat >"$TMPD/want" <<'TXT'
iter: 3 markers
         1.25 ms  load  -- data loader
         12.5 ms  fwd_start  (+11.25 ms)
           80 ms  step_end  (+67.5 ms)
TXT
same_file "$TMPD/list" "$TMPD/want" "list: sorted by time, notes, distances"

"$TRACETTY" markers export "$t" --set iter >"$TMPD/csv"
printf '"Set","Marker","Time (ns)","Note"\r\n"iter","load",1250000,"data loader"\r\n"iter","fwd_start",12500000,""\r\n"iter","step_end",80000000,""\r\n' >"$TMPD/want"
same_file "$TMPD/csv" "$TMPD/want" "export as CSV, times in ns"
"$TRACETTY" markers export "$t" --set iter -o "$TMPD/out.csv"; ok $? "export -o"
same_file "$TMPD/out.csv" "$TMPD/want" "export -o writes the same"
"$TRACETTY" markers export "$t" --set iter --format json >"$TMPD/ej"; ok $? "export as JSON"
matches "$TMPD/ej" '^\{"kind":"markers","traces":\[$' "a markers document"
is "$(grep -c '"trace":' "$TMPD/ej")" 1 "one trace"
grep -F "{\"trace\":\"$t\",\"rows\":[" "$TMPD/ej" >/dev/null; ok $? "whose \"trace\" is the trace file, not the set"
matches "$TMPD/ej" '^\{"set":"iter","marker":"fwd_start","t_ns":12500000,"note":""\},$' "rows say their set"
# without --set: every set, in name order, in one table
"$TRACETTY" markers add "$t" --set aaa --at 2ms --name first
"$TRACETTY" markers export "$t" >"$TMPD/all.csv"; ok $? "export without --set"
printf '"Set","Marker","Time (ns)","Note"\r\n"aaa","first",2000000,""\r\n"iter","load",1250000,"data loader"\r\n"iter","fwd_start",12500000,""\r\n"iter","step_end",80000000,""\r\n' >"$TMPD/want"
same_file "$TMPD/all.csv" "$TMPD/want" "every set, with the Set column"
"$TRACETTY" markers export "$t" --format json >"$TMPD/all.json"
is "$(grep -c '"trace":' "$TMPD/all.json"):$(grep -c '"set":"aaa"' "$TMPD/all.json"):$(grep -c '"set":"iter"' "$TMPD/all.json")" \
    "1:1:3" "as JSON: one document, one trace, the rows of both sets"
"$TRACETTY" markers remove "$t" --set aaa
"$TRACETTY" markers export "$t" --set nope >"$TMPD/out" 2>"$TMPD/err"
is "$?:$(wc -c <"$TMPD/out" | tr -d ' ')" "2:0" "export of an unknown set: exit 2, nothing on stdout"
cp "$srcdir/samples/demo.json" "$TMPD/bare.json"
"$TRACETTY" markers export "$TMPD/bare.json" >"$TMPD/out"; ok $? "export of a trace without sets"
printf '"Set","Marker","Time (ns)","Note"\r\n' >"$TMPD/want"
same_file "$TMPD/out" "$TMPD/want" "is the header alone"
"$TRACETTY" markers list "$t" --format json >"$TMPD/json"; ok $? "list as JSON"
matches "$TMPD/json" '"t_ns":[[:space:]]*12500000' "JSON has exact ns"

"$TRACETTY" markers rename "$t" --set iter --name fwd_start --to forward; ok $? "rename a marker"
"$TRACETTY" markers rename "$t" --set iter --to step10; ok $? "rename the set"
"$TRACETTY" markers remove "$t" --set step10 --name load; ok $? "remove a marker"
"$TRACETTY" markers list "$t" >"$TMPD/list2"
matches "$TMPD/list2" '^step10: 2 markers$' "renamed set with two markers left"
matches "$TMPD/list2" 'forward' "renamed marker"
"$TRACETTY" markers remove "$t" --set nope 2>"$TMPD/err"; is "$?" 2 "removing an unknown set: exit 2"
matches "$TMPD/err" "no marker set named 'nope'" "says which set"
"$TRACETTY" markers add "$t" --set x --at soon --name a 2>"$TMPD/err"; is "$?" 2 "bad --at: exit 2"
matches "$TMPD/err" "markers add: --at 'soon' is not a time" "bad --at: says it is not a time"
"$TRACETTY" markers add "$t" --set x --at 1e300s --name a 2>"$TMPD/err"; is "$?" 2 "--at beyond int64: exit 2"
is "$(cat "$TMPD/err")" "tracetty: markers add: --at '1e300s' is out of range" \
    "--at beyond int64: out of range, not 'not a time'"
"$TRACETTY" markers add "$t" --set x --name a 2>/dev/null; is "$?" 2 "add without --at: exit 2"
"$TRACETTY" markers frobnicate "$t" 2>/dev/null; is "$?" 2 "unknown subcommand: exit 2"
"$TRACETTY" markers list - </dev/null 2>"$TMPD/err"; is "$?" 2 "stdin has no sidecar: exit 2"

# add reads the trace: a time before its start or after its end is kept,
# with a warning (demo.json spans 299.735 ms)
e="$TMPD/edge.json"
cp "$srcdir/samples/demo.json" "$e"
"$TRACETTY" markers add "$e" --set edge --at 5s --name late 2>"$TMPD/err"; is "$?" 0 "--at after the end: exit 0"
is "$(cat "$TMPD/err")" "tracetty: warning: 5s is after the end of the trace (299.735 ms); added anyway" \
    "with a warning that says where the trace ends"
"$TRACETTY" markers add "$e" --set edge --at -5ms --name early 2>"$TMPD/err"; is "$?" 0 "--at before the start: exit 0"
is "$(cat "$TMPD/err")" "tracetty: warning: -5ms is before the start of the trace; added anyway" "with a warning"
"$TRACETTY" markers add "$e" --set edge --at 299.735ms --name end 2>"$TMPD/err"; is "$?" 0 "--at the very end"
is "$(wc -c <"$TMPD/err" | tr -d ' ')" 0 "is inside: no warning"
"$TRACETTY" markers list "$e" >"$TMPD/list"
printf 'edge: 3 markers\n           -5 ms  early\n      299.735 ms  end  (+304.735 ms)\n             5 s  late  (+4.7 s)\n' >"$TMPD/want"
same_file "$TMPD/list" "$TMPD/want" "all three kept"
"$TRACETTY" markers add "$e" --set edge --at 6s --name late 2>"$TMPD/err"; is "$?" 2 "a taken name outside the trace: exit 2"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "one line, no warning"
printf '[{"ph":"X","name":"a","ts":1,"dur":2},{"ph":"X"' >"$TMPD/cut.json"
"$TRACETTY" markers add "$TMPD/cut.json" --set s --at 1us --name a 2>"$TMPD/err"; is "$?" 2 "a trace that does not load: exit 2"
matches "$TMPD/err" "cut.json: line 1, column .*--lenient" "with the loader's message"
"$TRACETTY" markers add "$TMPD/cut.json" --set s --at 1us --name a --lenient --quiet 2>/dev/null
is "$?" 0 "--lenient loads what is complete"
"$TRACETTY" markers list "$e" --lenient 2>/dev/null; is "$?" 2 "load options with list: exit 2"

# marker names are unique within a set (--between names them)
d="$TMPD/dup.json"
cp "$srcdir/samples/demo.json" "$d"
"$TRACETTY" markers add "$d" --set dup --at 10ms --name a; ok $? "dup: add a"
"$TRACETTY" markers add "$d" --set dup --at 50ms --name a 2>"$TMPD/err"; is "$?" 2 "a second 'a': exit 2"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "one line on stderr"
matches "$TMPD/err" "^tracetty: markers add: .*dup.json: set 'dup': there is a marker named 'a' already \(at 10 ms\)$" \
    "says the name is taken, and where"
"$TRACETTY" markers add "$d" --set other --at 50ms --name a; ok $? "the same name in another set is fine"
"$TRACETTY" markers add "$d" --set dup --at 30ms --name b; ok $? "dup: add b"
"$TRACETTY" markers rename "$d" --set dup --name b --to a 2>"$TMPD/err"; is "$?" 2 "renaming b to a: exit 2"
matches "$TMPD/err" "set 'dup': there is a marker named 'a' already \(at 10 ms\)$" "says the name is taken"
"$TRACETTY" markers list "$d" --set dup >"$TMPD/list"
# a ':' would split --between A:B
"$TRACETTY" markers add "$d" --set dup --at 40ms --name 'x:y' 2>"$TMPD/err"; is "$?" 2 "a name with ':': exit 2"
matches "$TMPD/err" "a marker name cannot hold ':'" "says why"
"$TRACETTY" markers rename "$d" --set dup --name b --to 'b:c' 2>"$TMPD/err"; is "$?" 2 "renaming to a name with ':': exit 2"
printf 'dup: 2 markers\n           10 ms  a\n           30 ms  b  (+20 ms)\n' >"$TMPD/want"
"$TRACETTY" markers list "$d" --set dup >"$TMPD/list"
same_file "$TMPD/list" "$TMPD/want" "the refused edits changed nothing"
# a sidecar an older version wrote with a name twice: it loads, --between
# names the ambiguity, and remove/rename take the first with a warning
cat >"$d.markers.json" <<'JSON'
{"format": "tracetty-markers", "version": 1, "sets": [
 {"name": "dup", "trace": {"size": 0, "hash": "0"},
  "markers": [{"name": "a", "t_ns": 10000000, "note": ""},
              {"name": "a", "t_ns": 50000000, "note": ""},
              {"name": "b", "t_ns": 30000000, "note": ""}]}]}
JSON
"$TRACETTY" markers list "$d" --set dup >"$TMPD/list" 2>/dev/null; ok $? "an old sidecar with a name twice loads"
matches "$TMPD/list" '^dup: 3 markers \(saved for another trace\)$' "with all its markers"
"$TRACETTY" report --markers dup --between b:a "$d" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 2 "--between an ambiguous name: exit 2"
matches "$TMPD/err" "^tracetty: report: .*marker name 'a' is ambiguous: 2 markers of set 'dup' have it" \
    "says the name is ambiguous"
"$TRACETTY" markers rename "$d" --set dup --name a --to a0 2>"$TMPD/err"; ok $? "rename an ambiguous name"
matches "$TMPD/err" "warning: 2 markers of set 'dup' are named 'a' .*: renaming the first, at 10 ms" \
    "says which one it renamed"
"$TRACETTY" report --kind gpu --markers dup --between b:a "$d" >"$TMPD/m.ba"; ok $? "then --between b:a works"
"$TRACETTY" report --kind gpu --window 30ms:50ms "$d" >"$TMPD/w.ba"
same_file "$TMPD/m.ba" "$TMPD/w.ba" "and cuts 30ms:50ms"

# reports cut by markers are the same as reports over the same window
"$TRACETTY" markers add "$t" --set cut --at 12.5ms --name a && \
"$TRACETTY" markers add "$t" --set cut --at 80ms --name b && \
"$TRACETTY" markers add "$t" --set cut --at 150ms --name c; ok $? "set 'cut' with three markers"
for kind in ops lanes transfers gpu events; do
    "$TRACETTY" report --kind $kind --markers cut --between a:b "$t" >"$TMPD/m.$kind"
    "$TRACETTY" report --kind $kind --window 12.5ms:80ms "$t" >"$TMPD/w.$kind"
    same_file "$TMPD/m.$kind" "$TMPD/w.$kind" "report --kind $kind --between a:b equals --window 12.5ms:80ms"
done
"$TRACETTY" report --kind gpu --markers cut --between a:100ms "$t" >"$TMPD/m.mixed"
"$TRACETTY" report --kind gpu --window 12.5ms:100ms "$t" >"$TMPD/w.mixed"
same_file "$TMPD/m.mixed" "$TMPD/w.mixed" "a marker and a time can be mixed"
"$TRACETTY" report --kind gpu --markers cut --per-interval "$t" >"$TMPD/per"
is "$(head -n 1 "$TMPD/per" | cut -d, -f1)" '"Interval"' "per-interval: an Interval column"
is "$(grep -c '^"a\.\.b",\|^"b\.\.c",' "$TMPD/per")" 2 "one row group per consecutive pair"
"$TRACETTY" report --kind gpu --window 80ms:150ms "$t" | tail -n 1 | cut -d, -f2- >"$TMPD/w.bc"
grep '^"b\.\.c",' "$TMPD/per" | cut -d, -f3- >"$TMPD/p.bc"
same_file "$TMPD/p.bc" "$TMPD/w.bc" "the b..c group equals the 80ms:150ms window"
"$TRACETTY" report --between a:b "$t" >/dev/null 2>&1; is "$?" 2 "--between without --markers: exit 2"
"$TRACETTY" report --markers cut "$t" >/dev/null 2>&1; is "$?" 2 "--markers alone: exit 2"
"$TRACETTY" report --markers cut --between b:a "$t" >/dev/null 2>"$TMPD/err"; is "$?" 2 "b before a: exit 2"
matches "$TMPD/err" "comes after" "says the window would be reversed"
"$TRACETTY" report --markers cut --between a:zz "$t" >"$TMPD/out" 2>"$TMPD/err"; is "$?" 2 "unknown marker: exit 2"
matches "$TMPD/err" "no marker named 'zz' in set 'cut'" "names the marker"
# the markers are checked before the report starts: nothing on stdout, no -o file
for fmt in csv json text; do
    "$TRACETTY" report --format $fmt --markers cut --between a:zz "$t" >"$TMPD/out" 2>"$TMPD/err"
    is "$?:$(wc -c <"$TMPD/out" | tr -d ' '):$(wc -l <"$TMPD/err" | tr -d ' ')" "2:0:1" \
        "unknown marker, --format $fmt: exit 2, nothing on stdout, one line on stderr"
done
"$TRACETTY" report --markers cut --between a:zz -o "$TMPD/cut.csv" "$t" 2>/dev/null
is "$?:$(test -e "$TMPD/cut.csv"; echo $?)" "2:1" "unknown marker with -o: exit 2, no file"
"$TRACETTY" report --kind annotations --markers cut --between b:a "$t" >"$TMPD/out" 2>/dev/null
is "$?:$(wc -c <"$TMPD/out" | tr -d ' ')" "2:0" "--kind annotations, reversed markers: nothing on stdout"
"$TRACETTY" report --markers nosuch --between a:b "$t" >"$TMPD/out" 2>"$TMPD/err"; is "$?" 2 "unknown set: exit 2"
is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "unknown set: nothing on stdout"
"$TRACETTY" markers add "$t" --set one --at 1ms --name a
"$TRACETTY" report --markers one --per-interval "$t" >"$TMPD/out" 2>"$TMPD/err"
is "$?:$(wc -c <"$TMPD/out" | tr -d ' ')" "2:0" "--per-interval over one marker: exit 2, nothing on stdout"
matches "$TMPD/err" "needs at least two markers in set 'one'" "says why"

# a set saved in the view of a job: each rank's copy, in its own times;
# list says so, JSON keeps the record, and a report over the ranks cuts
# each by its own copy (one without it is named, with a hint)
mkdir "$TMPD/job"
cp "$srcdir/tests/data/tui/ranks/rank-0.json" "$srcdir/tests/data/tui/ranks/rank-1.json" "$TMPD/job/"
for r in 0 1; do
    st=$((r * 100000 - 200000))
    cat > "$TMPD/job/rank-$r.json.markers.json" <<JSON
{"format": "tracetty-markers", "version": 1, "sets": [
 {"name": "job", "trace": {"size": 0, "hash": "0"},
  "job": {"align": "start", "rank": $r, "ranks": 2, "offset_ns": $((r * 7)), "job_start_ns": $st},
  "markers": [{"name": "a", "t_ns": $((300000 + st)), "note": ""},
              {"name": "b", "t_ns": $((900000 + st)), "note": ""}]}]}
JSON
done
"$TRACETTY" markers list "$TMPD/job/rank-1.json" >"$TMPD/jl" 2>&1
matches "$TMPD/jl" "^  saved in the view of a job of 2 ranks as rank 1's copy, clocks aligned start \(offset 7 ns\); the job starts at -100 us on this trace$" \
    "list: a job set says whose copy it is and where the job starts"
matches "$TMPD/jl" '^ +800 us  b' "in this trace's own times"
"$TRACETTY" markers list --format json "$TMPD/job/rank-0.json" | tr -d ' \t\n' >"$TMPD/jj"
matches "$TMPD/jj" '"job":\{"align":"start","rank":0,"ranks":2,"offset_ns":0,"job_start_ns":-200000\}' \
    "list --format json keeps the record"
"$TRACETTY" markers add "$TMPD/job/rank-0.json" --set job --at 50us --name c 2>/dev/null
"$TRACETTY" markers list --format json "$TMPD/job/rank-0.json" | tr -d ' \t\n' >"$TMPD/jj"
matches "$TMPD/jj" '"job":\{"align":"start".*"name":"c"' "a marker added by a script keeps the record"
"$TRACETTY" report --kind gpu --markers job --between a:b "$TMPD/job" >"$TMPD/jm.csv"; ok $? "report over both ranks"
for r in 0 1; do
    "$TRACETTY" report --kind gpu --window "$((100 + r * 100))us:$((700 + r * 100))us" \
        "$TMPD/job/rank-$r.json" | tail -n 1 >"$TMPD/jw"
    grep "rank-$r.json\"," "$TMPD/jm.csv" | cut -d, -f2- >"$TMPD/jr"
    same_file "$TMPD/jr" "$TMPD/jw" "rank $r is cut by its own copy, in its own times"
done
"$TRACETTY" report --kind gpu --markers job --between a:zz "$TMPD/job" >"$TMPD/out" 2>/dev/null
is "$?:$(wc -c <"$TMPD/out" | tr -d ' ')" "2:0" "a marker neither rank has: nothing on stdout"
rm "$TMPD/job/rank-1.json.markers.json"
"$TRACETTY" report --kind gpu --markers job --between a:b "$TMPD/job" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 2 "a rank without the set: exit 2"
is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "nothing on stdout (not rank 0's table)"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "one line on stderr"
matches "$TMPD/err" "rank-1.json \(rank 1\): no marker set named 'job'; rank-0.json has one, saved in the view of a job of 2 ranks\. Each rank is cut by its own copy: save the set in the view of the job \(S in \`tracetty view DIR\`\) to write one beside every rank's trace$" \
    "names the rank, which rank has the set, and that a job's sets are saved from the job's view"
"$TRACETTY" report --kind gpu --markers nope --between a:b "$TMPD/job" >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" "^tracetty: report: none of the 2 traces has a marker set named 'nope'" \
    "a set no rank has: says so once"

# the trace changed: its sets are marked as made for another trace
printf ' ' >>"$t"
"$TRACETTY" markers list "$t" >"$TMPD/list3"
matches "$TMPD/list3" 'step10: 2 markers \(saved for another trace\)' "changed trace is noticed"
"$TRACETTY" markers add "$t" --set step10 --at 1ms --name m 2>"$TMPD/err"; is "$?" 0 "still loads and edits"
matches "$TMPD/err" "saved for another trace" "with a warning"

# a corrupt sidecar is reported and left untouched
printf '{"format": "tracetty-markers", "version": 1, "sets": [\n' >"$t.markers.json"
cp "$t.markers.json" "$TMPD/corrupt.copy"
"$TRACETTY" report --format json --markers a --between x:y "$t" >"$TMPD/out" 2>"$TMPD/err"
is "$?:$(wc -c <"$TMPD/out" | tr -d ' ')" "2:0" "report over a corrupt sidecar: exit 2, nothing on stdout"
matches "$TMPD/err" 'markers.json: line 2, column 1: marker file is not valid JSON' "says where"
"$TRACETTY" markers add "$t" --set a --at 1ms --name b 2>"$TMPD/err"; is "$?" 2 "corrupt sidecar: exit 2"
matches "$TMPD/err" 'markers.json: line 2, column 1: marker file is not valid JSON' "positioned message"
same_file "$t.markers.json" "$TMPD/corrupt.copy" "corrupt sidecar untouched"
tap_done
