#!/bin/sh
# report_errors.sh - `tracetty report` on bad usage and failing runs: one
# clear line and exit 2 for an unknown kind, key or format, a bad window, a
# key that does not apply; a lane pattern that matches nothing is a warning
# with exit 0 and an empty table; -o writes atomically: a run that fails
# half way, or is killed, leaves no file (and no temporary file) behind and
# an existing file untouched.
. "$srcdir/tests/lib.sh"

data="$srcdir/tests/data/report"
small="$data/small.json"

# fails NAME ARGS...: exit 2, exactly one line on stderr, nothing on stdout
fails() {
    name=$1
    shift
    "$TRACETTY" report "$@" >"$TMPD/out" 2>"$TMPD/err"
    is "$?" 2 "$name: exit status 2"
    is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "$name: one line on stderr"
    is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "$name: nothing on stdout"
}

fails "unknown kind" --kind bogus "$small"
matches "$TMPD/err" "unknown kind 'bogus' \(ops, lanes, transfers, gpu, events, annotations, ranks, collectives, operators, kernels, steps, launch, overview, op-statistic, api-statistic, comm or comm-matrix\)" \
    "unknown kind: the message lists the kinds"
fails "unknown key" --by colour "$small"
matches "$TMPD/err" "unknown key 'colour'" "unknown key: named"
fails "arg: without a name" --by arg: "$small"
fails "unknown format" --format xml "$small"
fails "window ending before it starts" --window 5ms:1ms "$small"
matches "$TMPD/err" "ends before it starts" "window: says why"
fails "window without a colon" --window 5ms "$small"
fails "window with a bad unit" --window 1min: "$small"
fails "--by with lanes" --kind lanes --by name "$small"
fails "--by twice with ops" --by name --by cat "$small"
fails "empty lane pattern item" --lanes 'a,,b' "$small"
fails "no trace" --kind ops
fails "missing trace" "$TMPD/nonexistent.json"
fails "unknown option" --bogus "$small"
printf 'not json at all' >"$TMPD/bad.json"
fails "malformed trace" "$TMPD/bad.json"

# a lane pattern that matches nothing: warning, exit 0, empty table
"$TRACETTY" report --lanes 'no such lane*' "$small" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 0 "pattern matching nothing: exit 0"
matches "$TMPD/err" "warning: .*small.json: lane pattern 'no such lane\*' matches no lane" \
    "pattern matching nothing: warning on stderr"
is "$(wc -l <"$TMPD/out" | tr -d ' ')" 1 "pattern matching nothing: header only"
(cd "$data" && "$TRACETTY" report --kind gpu --lanes '*stream 13' small.json rank-1.json) \
    >"$TMPD/out" 2>"$TMPD/err"
is "$?" 0 "over several ranks the report goes on"
is "$(tr -d '\r' <"$TMPD/out" | cut -d, -f1 | tr '\n' ' ')" '"Trace" "small.json" ' \
    "only the matching trace has a row"

# -o: atomic output
out="$TMPD/dir/report.csv"
mkdir "$TMPD/dir"
"$TRACETTY" report -o "$out" "$small" >"$TMPD/stdout" 2>"$TMPD/err"
is "$?" 0 "-o: exit 0"
"$TRACETTY" report "$small" >"$TMPD/expect"
same_file "$out" "$TMPD/expect" "-o writes the same bytes as stdout"
is "$(wc -c <"$TMPD/stdout" | tr -d ' ')" 0 "-o: nothing on stdout"
is "$(ls -A "$TMPD/dir" | tr '\n' ' ')" "report.csv " "-o: no temporary file left"

# a failure half way (the second trace is malformed): no new file, the old
# one untouched, no temporary file
cp "$out" "$TMPD/before"
"$TRACETTY" report --kind lanes -o "$out" "$small" "$TMPD/bad.json" 2>"$TMPD/err"
is "$?" 2 "-o with a bad second trace: exit 2"
same_file "$out" "$TMPD/before" "-o: the existing file is untouched"
is "$(ls -A "$TMPD/dir" | tr '\n' ' ')" "report.csv " "-o failing: no temporary file left"
rm -f "$out"
"$TRACETTY" report -o "$out" "$small" "$TMPD/nonexistent.json" 2>"$TMPD/err"
is "$?" 2 "-o with a missing second trace: exit 2"
is "$(ls -A "$TMPD/dir" | wc -l | tr -d ' ')" 0 "-o failing: no file at all"

"$TRACETTY" report -o "$TMPD/missing/dir/r.csv" "$small" 2>"$TMPD/err"
is "$?" 2 "-o into a missing directory: exit 2"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "-o into a missing directory: one line"
"$TRACETTY" report -o "$TMPD/dir" "$small" 2>"$TMPD/err"
is "$?" 2 "-o naming a directory: exit 2"

# killed while running: the trace comes from a FIFO that never ends, so the
# run is certainly in progress (its temporary file exists) when the signal
# comes; nothing may be left behind.
if mkfifo "$TMPD/fifo" 2>/dev/null; then
    for sig in TERM HUP; do
        # a signal ignored by whoever started the tests (nohup) stays ignored
        # in tracetty, as it should: start it with default dispositions
        env --default-signal=TERM,HUP "$TRACETTY" report -o "$TMPD/dir/killed.csv" "$TMPD/fifo" 2>/dev/null &
        pid=$!
        exec 7>"$TMPD/fifo"          # open the writer end: the load starts
        printf '{"traceEvents": [' >&7
        i=0
        while [ "$i" -lt 100 ] && [ -z "$(ls -A "$TMPD/dir")" ]; do
            sleep 0.05
            i=$((i + 1))
        done
        ok "$([ -n "$(ls -A "$TMPD/dir")" ]; echo $?)" "SIG$sig: the temporary file exists while running"
        kill -"$sig" "$pid"
        { wait "$pid"; } 2>/dev/null
        st=$?
        exec 7>&-
        ok "$([ "$st" -gt 128 ]; echo $?)" "SIG$sig: the run dies of the signal"
        is "$(ls -A "$TMPD/dir" | wc -l | tr -d ' ')" 0 "SIG$sig: no file and no temporary file left"
    done
else
    ok 0 "# SKIP mkfifo is not available"
fi

tap_done
