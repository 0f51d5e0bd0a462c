#!/bin/sh
# errors.sh - bad input and bad usage: exactly one line on stderr,
# "tracetty: FILE: line L, column C: ..." for malformed traces (positions
# computed by hand below, columns in bytes from 1), nothing on stdout,
# exit status 2. Also: a cut-off file with --lenient exits 0 with the
# dropped bytes/events note, and a failed write of the output is an error.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1

# fails DESCRIPTION WANT_STDERR ARGS...: exit 2, exactly WANT_STDERR (one
# line) on stderr, nothing on stdout.
fails() {
    desc=$1 want=$2
    shift 2
    "$TRACETTY" "$@" >out 2>err
    is "$?" 2 "$desc: exit status 2"
    is "$(cat err)" "$want" "$desc: message"
    is "$(wc -l <err | tr -d ' ')" 1 "$desc: exactly one line on stderr"
    is "$(wc -c <out | tr -d ' ')" 0 "$desc: nothing on stdout"
}

# fails_like DESCRIPTION REGEX ARGS...: the same, with the message matched
# by an extended regular expression.
fails_like() {
    desc=$1 want=$2
    shift 2
    "$TRACETTY" "$@" >out 2>err
    is "$?" 2 "$desc: exit status 2"
    matches err "$want" "$desc: message"
    is "$(wc -l <err | tr -d ' ')" 1 "$desc: exactly one line on stderr"
    is "$(wc -c <out | tr -d ' ')" 0 "$desc: nothing on stdout"
}

# ------------------------------------------------------------ malformed

# Line 3: two spaces, then {"ph": "X" and a space (cols 3-13); the next
# key's quote is column 14 where ',' or '}' was expected.
printf '%s\n' '{"traceEvents": [' \
    '  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 1},' \
    '  {"ph": "X" "name": "b"}' ']}' >comma.json
fails "missing comma" \
    "tracetty: comma.json: line 3, column 14: expected ',' or '}' after an event member: the trace is cut off or damaged after 1 complete events (--lenient loads them)" \
    summary comma.json

# The same with CRLF line ends: the CR before each LF is not a column.
sed 's/$/\r/' comma.json >crlf.json
fails "missing comma, CRLF lines" \
    "tracetty: crlf.json: line 3, column 14: expected ',' or '}' after an event member: the trace is cut off or damaged after 1 complete events (--lenient loads them)" \
    summary crlf.json

# Line 2: {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": " is 52
# bytes; the timestamp text starts at column 53.
printf '%s\n' '[' '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "soon", "dur": 1}' ']' >ts.json
fails "timestamp that is not a number" \
    "tracetty: ts.json: line 2, column 53: invalid timestamp: expected a number of microseconds" \
    summary ts.json

# Line 1: [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": is
# 61 bytes, then a space; the number 1.2.3 starts at column 63.
printf '%s\n' '[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1.2.3}]' >dur.json
fails "malformed number" \
    "tracetty: dur.json: line 1, column 63: invalid duration: expected a number of microseconds" \
    summary dur.json

# Line 1: [{"ph": "X", "name": "bad  is 26 bytes; the backslash of \q is
# column 27.
printf '%s\n' '[{"ph": "X", "name": "bad \q", "pid": 1, "tid": 1, "ts": 1}]' >escape.json
fails "invalid escape in a name" \
    "tracetty: escape.json: line 1, column 27: invalid escape in string" \
    summary escape.json

# Line 1: {"traceEvents":  is 16 bytes; the '{' that should be '[' is 17.
printf '%s\n' '{"traceEvents": {}}' >notarray.json
fails "traceEvents not an array" \
    "tracetty: notarray.json: line 1, column 17: \"traceEvents\" must be an array" \
    summary notarray.json

# Lines: "[]", "", "  junk": the j is line 3, column 3.
printf '[]\n\n  junk\n' >junk.json
fails "data after the end" \
    "tracetty: junk.json: line 3, column 3: unexpected data after the end of the trace: the trace is cut off or damaged after 0 complete events (--lenient loads them)" \
    summary junk.json

# 1001 nested arrays in an unknown member: the prefix
# [{"ph": "X", "deep":  is 21 bytes, the 1001st '[' is column 1022.
{
    printf '[{"ph": "X", "deep": '
    i=0
    while [ $i -lt 1001 ]; do printf '['; i=$((i + 1)); done
    printf '\n'
} >deep.json
fails "nesting deeper than 1000" \
    "tracetty: deep.json: line 1, column 1022: nesting too deep: the trace is cut off or damaged after 0 complete events (--lenient loads them)" \
    summary deep.json

# Far into a big file (well past the first buffer of input): 200000 good
# events on lines 2..200001, then line 200002 has "ts": x: with the prefix
# {"ph": "X", "name": "e", "pid": 1, "tid": 1, "ts":  of 51 bytes, the x
# is column 52 (a bare word: not a number or a string).
awk 'BEGIN {
    print "["
    for (i = 0; i < 200000; i++)
        printf "{\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1},\n", i
    print "{\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": x}"
    print "]"
}' >big.json
fails "error on line 200002 of a 14 MB file" \
    "tracetty: big.json: line 200002, column 52: expected a number or a string: the trace is cut off or damaged after 200000 complete events (--lenient loads them)" \
    summary big.json

# A cut-off file (tests/data/cut.json): line 4 holds the 58 bytes
# {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 20, "du  and the data
# ends there, so the position is line 4, column 59.
cp "$srcdir/tests/data/cut.json" cut.json
fails "cut-off trace without --lenient" \
    "tracetty: cut.json: line 4, column 59: unexpected end of data inside an event: the trace is cut off or damaged after 2 complete events (--lenient loads them)" \
    summary cut.json

# With --lenient: lines 1-3 are 18 + 66 + 67 bytes and line 4 the 58
# bytes of the partial event. What is dropped is that partial event, 58
# bytes, one event (the ",\n" separating it from the last complete event
# at byte 149 is not counted: 149 + 2 + 58 = 209, the file size).
"$TRACETTY" summary --lenient cut.json >out 2>err
is "$?" 0 "cut-off trace with --lenient: exit status 0"
is "$(cat err)" \
    "tracetty: warning: cut.json: incomplete trace: dropped 58 bytes (about 1 event) after the last complete event; loaded 2 events" \
    "cut-off trace with --lenient: the dropped bytes/events note"
matches out '^Events    2 in the timeline; by phase: X 2$' "--lenient keeps the two complete events"
"$TRACETTY" summary --lenient --quiet cut.json >out 2>err
matches err "warning: cut.json: incomplete trace: dropped 58 bytes" \
    "--lenient --quiet: the note still (--quiet is about the progress line)"
"$TRACETTY" summary --lenient ts.json >out 2>err
is "$?" 2 "--lenient does not hide a bad value inside a complete event"

# ------------------------------------------------------- not a trace

: >empty.json
fails "empty file" "tracetty: empty.json: empty file" summary empty.json
printf ' \n\t\n' >blank.json
fails "whitespace only" "tracetty: blank.json: file holds only whitespace, no trace data" summary blank.json
printf '\177ELF\002\001\001\000\000\000' >binary.json
fails "binary data" "tracetty: binary.json: binary data, not a supported trace format" summary binary.json
# (the list of expected formats in the message grows with the decoders)
printf '<html><body>not a trace</body></html>\n' >text.json
fails_like "text that is no trace" \
    '^tracetty: text\.json: not a supported trace format' summary text.json
printf '{"foo": 1}\n' >object.json
fails "JSON object without traceEvents" \
    "tracetty: object.json: JSON object without a \"traceEvents\" array: not a Chrome trace" \
    summary object.json
mkdir dir.json
fails "a directory without traces" "tracetty: dir.json: no trace files in this directory" summary dir.json
fails "a missing file" "tracetty: missing.json: cannot open: No such file or directory" \
    summary missing.json
fails "a path through a regular file" \
    "tracetty: empty.json/x.json: cannot open: Not a directory" summary empty.json/x.json
cp comma.json noperm.json
chmod 000 noperm.json
if cat noperm.json >/dev/null 2>&1; then
    # root reads anything; the check above (ENOTDIR) covers open failures
    for i in 1 2 3 4; do
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP running as root: files are always readable"
    done
else
    fails "an unreadable file" "tracetty: noperm.json: cannot open: Permission denied" \
        summary noperm.json
fi
printf '' | "$TRACETTY" summary - >out 2>err
is "$?" 2 "empty stdin: exit status 2"
is "$(cat err)" "tracetty: -: empty file" "empty stdin: message names -"

# ------------------------------------------------------------- usage

fails "unknown option" "tracetty: unknown option '--bogus' (see 'tracetty --help')" --bogus
fails "unknown summary option" "tracetty: summary: unknown option '--bogus'; see 'tracetty help summary'" \
    summary --bogus comma.json
fails "missing option argument" "tracetty: summary: option '--format' needs a value; see 'tracetty help summary'" \
    summary --format
fails "bad option argument" "tracetty: summary: unknown format 'xml' (text or json)" \
    summary --format xml comma.json
fails "no trace given" \
    "tracetty: summary: no trace given (usage: tracetty summary [--format text|json] [--lenient] [--quiet] TRACE|DIR...)" \
    summary
fails "unknown input format" "tracetty: cut.json: unknown format 'nope'" \
    summary --input-format nope cut.json

# ------------------------------------------------- partial failures

# One good and one bad file: the good summary is printed, the bad one
# reported, and the exit status says something failed.
cp "$srcdir/tests/data/problems.json" good.json
"$TRACETTY" summary good.json missing.json >out 2>err
is "$?" 2 "one good and one missing file: exit status 2"
is "$(cat err)" "tracetty: missing.json: cannot open: No such file or directory" \
    "one good and one missing file: the missing one is reported"
matches out '^File      good\.json$' "one good and one missing file: the good one is summarized"

# Output that cannot be written is an error, not silent truncation.
if [ -w /dev/full ]; then
    "$TRACETTY" summary good.json >/dev/full 2>err
    is "$?" 2 "writing to a full device: exit status 2"
    is "$(cat err)" "tracetty: summary: cannot write the output: No space left on device" "writing to a full device: message"
    "$TRACETTY" render --size 80x24 good.json >/dev/full 2>err
    is "$?:$(cat err)" "2:tracetty: render: cannot write the output: No space left on device" \
        "render to a full device: one message with the reason"
    "$TRACETTY" markers list good.json >/dev/full 2>err
    is "$?:$(cat err)" "2:tracetty: markers list: cannot write the output: No space left on device" \
        "markers list to a full device: one message with the reason"
else
    for i in 1 2 3 4; do
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no /dev/full"
    done
fi

tap_done
