#!/bin/sh
# timings.sh - --timings: after the command, one line per phase (decode,
# finalize, the command's work) and the total, each with wall and CPU
# seconds, on stderr; standard output is exactly what it is without it.
# (Times are never compared: only the shape of the lines.)
. "$srcdir/tests/lib.sh"
demo="$srcdir/samples/demo.json"

num='[0-9]+\.[0-9]{3} s'
# phase_lines FILE WHAT: the four lines, in order, and nothing else
phase_lines() {
    is "$(grep -c '^tracetty: timings: ' "$1")" 4 "$2: four timing lines"
    is "$(wc -l < "$1" | tr -d ' ')" 4 "$2: nothing else on stderr"
    is "$(sed -n 's/^tracetty: timings: \([a-z]*\) .*/\1/p' "$1" | tr '\n' ' ')" \
        "decode finalize command total " "$2: decode, finalize, command, total"
    matches "$1" "^tracetty: timings: decode \\(read, decompress, parse\\) +wall +$num +CPU +$num\$" \
        "$2: the decode line has wall and CPU seconds"
    matches "$1" "^tracetty: timings: total +wall +$num +CPU +$num\$" "$2: the total line"
}

"$TRACETTY" summary "$demo" > "$TMPD/plain.out" 2> "$TMPD/plain.err"
"$TRACETTY" summary --timings "$demo" > "$TMPD/t.out" 2> "$TMPD/t.err"
ok $? "summary --timings exits 0"
same_file "$TMPD/t.out" "$TMPD/plain.out" "summary: stdout identical with --timings"
phase_lines "$TMPD/t.err" "summary"
is "$(wc -c < "$TMPD/plain.err" | tr -d ' ')" 0 "without --timings: nothing on stderr"

# after the operand, with another command, from a snapshot
"$TRACETTY" report --kind gpu "$demo" > "$TMPD/r.plain" 2>/dev/null
"$TRACETTY" report --kind gpu "$demo" --timings > "$TMPD/r.out" 2> "$TMPD/r.err"
ok $? "report --timings exits 0"
same_file "$TMPD/r.out" "$TMPD/r.plain" "report: stdout identical with --timings"
phase_lines "$TMPD/r.err" "report"
"$TRACETTY" convert --quiet "$demo" -o "$TMPD/demo.ttz"
"$TRACETTY" summary --timings "$TMPD/demo.ttz" > /dev/null 2> "$TMPD/z.err"
phase_lines "$TMPD/z.err" "summary of a .ttz"

# several traces: the phases say how many loads they sum
mkdir "$TMPD/ranks"
cp "$demo" "$TMPD/ranks/a.json"
cp "$demo" "$TMPD/ranks/b.json"
"$TRACETTY" report --quiet --timings "$TMPD/ranks" > /dev/null 2> "$TMPD/m.err"
matches "$TMPD/m.err" "^tracetty: timings: decode .*\\(2 loads, summed\\)\$" \
    "two traces: the decode line sums 2 loads"

# a load that fails prints its error, and the timings still come last
"$TRACETTY" summary --timings "$TMPD/missing.json" > /dev/null 2> "$TMPD/f.err"
is $? 2 "a missing trace: exit 2"
matches "$TMPD/f.err" "missing.json" "the error is printed"

# the load failed: no phase ran, the lines still come (zeros)
is "$(grep -c '^tracetty: timings: ' "$TMPD/f.err")" 4 "a failed load still gets the four lines"

"$TRACETTY" --help > "$TMPD/help"
matches "$TMPD/help" "^  --timings " "--help lists --timings"
tap_done
