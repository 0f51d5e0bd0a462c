#!/bin/sh
# query_sigint.sh - Ctrl-C in `tracetty query` (src/cli/cmd_query.c):
# SIGINT while the trace loads, while a statement runs, while the result
# is written to -o FILE, and twice in a row with -o. Each time the query
# ends with status 130, says "query: interrupted" (or dies of the second
# SIGINT), and leaves neither FILE nor the atomic writer's temporary file.
#
# The signal is sent once the command has installed its SIGINT handler
# (SigCgt in /proc/PID/status): before that a background job of this
# shell ignores SIGINT, and the command is not yet loading anything. The
# handler is installed just before the first statement runs, and the
# trace loads when the statement first reads a table, so a signal sent at
# once lands in the load of a trace this big (about a second of loading).
. "$srcdir/tests/lib.sh"

[ -r /proc/self/status ] || skip_all "no /proc/PID/status to see the handler"
gen="$builddir/samples/gen-trace"
"$gen" kineto --events 400000 --shuffle -o "$TMPD/big.json" >/dev/null 2>&1 ||
    skip_all "gen-trace failed"

# caught PID: has PID a handler for SIGINT (bit 2 of SigCgt)?
caught() {
    m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || return 1
    [ -n "$m" ] && [ $((0x$m & 2)) -ne 0 ]
}
# wait_caught PID: until it has the handler (at most 20 s); false if it ended
wait_caught() {
    t=0
    while ! caught "$1"; do
        kill -0 "$1" 2>/dev/null || return 1
        [ $t -ge 2000 ] && return 1
        sleep 0.01
        t=$((t + 1))
    done
}
# stop_within PID: wait at most 20 s for PID to end; its status in $st
stop_within() {
    t=0
    while kill -0 "$1" 2>/dev/null && [ $t -lt 200 ]; do sleep 0.1; t=$((t + 1)); done
    if kill -0 "$1" 2>/dev/null; then
        kill -KILL "$1"
        wait "$1"
        st=timeout
    else
        wait "$1"
        st=$?
    fi
}

# 1. during the load: no rows (the CSV header goes out before the first
# statement runs), status 130, the message
"$TRACETTY" query --quiet "$TMPD/big.json" 'SELECT name, sum(dur) FROM slice GROUP BY 1' \
    >"$TMPD/load.csv" 2>"$TMPD/load.err" &
pid=$!
wait_caught $pid
ok $? "the query installed its SIGINT handler"
kill -INT $pid
stop_within $pid
is "$st" 130 "SIGINT during the load: status 130"
matches "$TMPD/load.err" '^tracetty: query: interrupted' "it says it was interrupted"
is "$(tail -n +2 "$TMPD/load.csv" | wc -l | tr -d ' ')" 0 "no rows written (the header at most)"

# 2. during a statement (after the load): the progress handler stops it
"$TRACETTY" query --quiet "$TMPD/big.json" 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
    SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c, (SELECT count(*)
    FROM slice)' >"$TMPD/run.csv" 2>"$TMPD/run.err" &
pid=$!
wait_caught $pid
sleep 3   # the load is over, the recursion runs
kill -INT $pid
stop_within $pid
is "$st" 130 "SIGINT during a statement: status 130"
matches "$TMPD/run.err" '^tracetty: query: interrupted' "it says it was interrupted"

# 3. while rows go to -o: neither the file nor a temporary file stays
mkdir "$TMPD/o3"
"$TRACETTY" query --quiet -o "$TMPD/o3/out.csv" "$TMPD/big.json" \
    'SELECT s.name, x FROM slice s, (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
     SELECT x + 1 FROM c WHERE x < 1000) SELECT x FROM c)' 2>"$TMPD/o3.err" &
pid=$!
wait_caught $pid
sleep 3   # rows are being written
kill -INT $pid
stop_within $pid
is "$st" 130 "SIGINT while writing -o: status 130"
matches "$TMPD/o3.err" '^tracetty: query: interrupted' "it says it was interrupted"
is "$(ls -A "$TMPD/o3")" "" "no output file and no temporary file"

# 4. twice with -o during the load: the second ends the process at once,
# and the temporary file goes with it
mkdir "$TMPD/o4"
"$TRACETTY" query --quiet -o "$TMPD/o4/out.csv" "$TMPD/big.json" \
    'SELECT name, sum(dur) FROM slice GROUP BY 1' 2>"$TMPD/o4.err" &
pid=$!
wait_caught $pid
kill -INT $pid
sleep 0.05
kill -INT $pid 2>/dev/null
stop_within $pid
is "$st" 130 "a second SIGINT: status 130 (ended by SIGINT)"
is "$(ls -A "$TMPD/o4")" "" "no output file and no temporary file"

tap_done
