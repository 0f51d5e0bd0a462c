#!/bin/sh
# formats_errors.sh - malformed device profiles: one positioned line on
# stderr and exit 2 (row/column for CSV, line/column for JSON); --lenient
# skips malformed CSV rows and keeps the complete part of a cut-off JSON
# file, saying so; bad --csv-map and --input-format values; compressed
# input works like plain input.
. "$srcdir/tests/lib.sh"

# one_line FILE DESCRIPTION: exactly one line
one_line() { is "$(wc -l <"$1" | tr -d ' ')" 1 "$2"; }

cd "$TMPD" || exit 1
printf 'Name,Type,Start Time(us),Duration(us)\na,X,1,2\nb,X,x3,2\nc,X,5,1,9\n' >rows.csv
"$TRACETTY" summary rows.csv >out 2>err
is "$?" 2 "malformed CSV row: exit 2"
one_line err "one line"
is "$(cat err)" \
  'tracetty: rows.csv: row 3, column 3: invalid start time in "Start Time(us)": expected a number (--lenient skips malformed rows)' \
  "the row and column of the bad cell"
"$TRACETTY" summary --lenient rows.csv >out 2>err
is "$?" 0 "--lenient: exit 0"
matches out '^Events +1 in the timeline' "the good row is kept"
matches out 'skipped event +2 +e\.g\. row 3, column 3: invalid start time' "the bad rows are counted"
is "$(cat err)" \
  'tracetty: warning: rows.csv: --lenient: skipped 2 malformed rows (first: row 3, column 3: invalid start time in "Start Time(us)": expected a number)' \
  "--lenient: one note on stderr with the count and the first bad row"
cp rows.csv rows2.csv
"$TRACETTY" summary --lenient rows.csv rows2.csv >out 2>err
is "$(grep -c 'lenient: skipped 2 malformed rows' err)" 2 "--lenient on several tables: a note for each"
"$TRACETTY" summary --lenient --quiet rows.csv >out 2>err
is "$(grep -c 'lenient: skipped 2 malformed rows' err)" 1 "--quiet: the note still"

printf 'Name,Start Time(us),Duration(us)\na,"1\n' >quote.csv
"$TRACETTY" summary quote.csv >out 2>err
is "$?" 2 "unterminated quote: exit 2"
is "$(cat err)" 'tracetty: quote.csv: row 2, column 2: the file ends inside a quoted field: it looks cut off (--lenient loads the complete rows)' \
  "positioned at the open field, and says the file looks cut off"

# CSV tables cut off mid-write: nsys kernel names and Ascend shapes are
# quoted, so the cut is most often inside a quoted field
head -c 2000 "$srcdir/samples/cuda_gpu_trace.csv" >cut_nsys.csv
head -c 815 "$srcdir/samples/kernel_details.csv" >cut_ascend.csv
for f in cut_nsys.csv cut_ascend.csv; do
    "$TRACETTY" summary "$f" >out 2>err
    is "$?" 2 "$f: exit 2"
    matches err "^tracetty: $f: row [0-9]+, column [0-9]+: the file ends inside a quoted field: it looks cut off \\(--lenient loads the complete rows\\)\$" \
      "$f: positioned, looks cut off"
    "$TRACETTY" summary --lenient "$f" >out 2>err
    is "$?" 0 "$f --lenient: exit 0"
    matches out 'dropped incomplete data +1 +e\.g\. the file ends inside a quoted field at row [0-9]+, column [0-9]+: dropped [0-9]+ bytes \(1 partial row\)' \
      "$f --lenient: the partial row is the dropped tail"
    matches err "warning: $f: incomplete trace: dropped [0-9]+ bytes" "$f --lenient: said on stderr"
done
"$TRACETTY" summary --lenient --format json cut_nsys.csv >out 2>err
tail -c +1700 cut_nsys.csv >tail.csv
matches out '"events":[[:space:]]+6,' "cut_nsys.csv: the six complete rows are loaded"
matches err "dropped $(wc -c <tail.csv | tr -d ' ') bytes" "cut_nsys.csv: exactly the bytes of the partial row"
printf 'Name,Start Time(us),Duration(us),Block Dim\na,1,2,3\nb,5,1' >short.csv
"$TRACETTY" summary short.csv >out 2>err
is "$(cat err)" 'tracetty: short.csv: row 3, column 3: the file ends in the middle of a row (3 of 4 columns): it looks cut off (--lenient loads the complete rows)' \
  "a last row short of columns without a line end is cut off too"
"$TRACETTY" summary --lenient short.csv >out 2>err
matches out '^Events +1 in the timeline' "--lenient keeps the complete row"
# but a table whose complete rows leave cells out too is not cut off there
printf 'Name,Start Time(us),Duration(us),Block Dim\na,1,2\nb,5,1' >sparse.csv
"$TRACETTY" summary sparse.csv >out 2>err
is "$?" 0 "short rows throughout, no final line end: loads"
matches out '^Events +2 in the timeline' "with both rows"

printf 'when,len,what\n1,2,x\n' >plain.csv
"$TRACETTY" summary plain.csv >out 2>err
is "$?" 2 "unknown CSV columns: exit 2"
matches err 'columns tracetty does not know \(when,len,what\).*--csv-map start=COL' "asks for a column map"
"$TRACETTY" summary --csv-map start=when,dur=len,name=what,unit=us plain.csv >out 2>err
is "$?" 0 "with a column map it loads"
matches out '^Format +csv ' "as generic CSV"
"$TRACETTY" summary --csv-map start=when,len=len plain.csv >out 2>err
is "$?" 2 "bad --csv-map key: exit 2"
matches err 'unknown key "len"' "names the key"
"$TRACETTY" summary --csv-map start=when,dur=nope,unit=us plain.csv >out 2>err
is "$?" 2 "--csv-map column not in the header: exit 2"
is "$(cat err)" 'tracetty: plain.csv: row 1: --csv-map: dur=nope names no column of the header' \
  "names the column"
"$TRACETTY" summary --input-format nosuch plain.csv >out 2>err
is "$?" 2 "unknown --input-format: exit 2"
matches err "unknown format 'nosuch'" "says so"

printf '{"summary": [{"total_time": 1e-6}],\n "instruction": [\n  {"timestamp": 10, "duration": 5, "label": "Vector", "opcode": "ADD"},\n  {"timestamp": 20, "dur' >cut.json
"$TRACETTY" summary cut.json >out 2>err
is "$?" 2 "cut-off neuron JSON: exit 2"
one_line err "one line"
matches err '^tracetty: cut\.json: line 4, column 3: the file ends inside an array element: the trace is cut off' \
  "line and column of the incomplete entry"
"$TRACETTY" summary --lenient cut.json >out 2>err
is "$?" 0 "--lenient: exit 0"
matches out '^Events +1 in the timeline' "the complete entry is kept"
matches err 'warning: cut\.json: incomplete trace: dropped [0-9]+ bytes' "and the dropped tail is reported"
gzip -c cut.json >cut.json.gz
"$TRACETTY" summary cut.json.gz >out 2>err
is "$?" 2 "gzip'd cut-off neuron JSON: exit 2 as well"

printf '[{"host_name": "h", "avg_iter_time_ms": 1,\n  "timeline": {"device_0": [}}]\n' >prof.json
"$TRACETTY" summary prof.json >out 2>err
is "$?" 2 "broken HugeCTR JSON: exit 2"
matches err '^tracetty: prof\.json: line 2, column [0-9]+: invalid JSON$' "positioned"

# a neuron summary-only file has no span: not "0 ns" beside its total_time
printf '{"total_time": 1.5, "nc_idx": 0, "profiler_version": "2.29"}\n' >summary.json
"$TRACETTY" summary summary.json >out 2>err
matches out '^Span +none \(no events\)$' "summary-json: the span is none"
matches out '^Note +neuron-profile summary only' "with the note"

# compressed inputs decode like plain ones
for f in neuron.json kernel_details.csv cuda_gpu_trace.csv hugectr_prof.json; do
    "$TRACETTY" summary --format json "$srcdir/samples/$f" | grep -v -e '"file"' -e '"compression"' >plain.out
    gzip -c "$srcdir/samples/$f" >"$f.gz"
    "$TRACETTY" summary --format json "$f.gz" | grep -v -e '"file"' -e '"compression"' >gz.out
    same_file gz.out plain.out "$f.gz summarises as $f"
done
tap_done
