#!/bin/sh
# progress.sh - the load progress line: shown on a terminal when a load
# takes a while, redrawn in place and erased when done; silent when stderr
# is not a terminal or with --quiet. A FIFO fed slowly keeps the load busy.
. "$srcdir/tests/lib.sh"
demo="$srcdir/samples/demo.json"
command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1 ||
    skip_all "script(1) is not available to give the program a terminal"
mkfifo "$TMPD/fifo" 2>/dev/null || skip_all "mkfifo is not available"

# feed FILE into the FIFO in pieces over about a second
feed() {
    {
        head -c 400000 "$demo"
        sleep 0.6
        tail -c +400001 "$demo" | head -c 1000000
        sleep 0.6
        tail -c +1400001 "$demo"
    } >"$TMPD/fifo"
}

# stderr on a terminal: the line appears, then is erased
feed &
script -qec "'$TRACETTY' summary '$TMPD/fifo' >'$TMPD/out1'" /dev/null >"$TMPD/tty1" 2>&1
wait
matches "$TMPD/tty1" 'loading .*fifo: [0-9.]+ of [0-9.]+ MB, [0-9]+ events, [0-9]+ MB/s, [0-9.]+ s' \
    "a terminal shows bytes read, events, MB/s and time"
is "$(tail -c 4 "$TMPD/tty1" | od -An -c | tr -s ' ')" ' \r 033 [ K' "the line is erased at the end"
"$TRACETTY" summary "$demo" | tail -n +2 >"$TMPD/want1"
tail -n +2 "$TMPD/out1" >"$TMPD/got1"
same_file "$TMPD/got1" "$TMPD/want1" "the summary read through the FIFO equals the file's"

# --quiet: nothing on the terminal
feed &
script -qec "'$TRACETTY' summary --quiet '$TMPD/fifo' >/dev/null" /dev/null >"$TMPD/tty2" 2>&1
wait
is "$(wc -c <"$TMPD/tty2" | tr -d ' ')" 0 "--quiet: nothing on stderr"

# a report over ranks loads them a batch (one per core) at a time: one line
# counts the whole job. More small traces than cores, then the slow FIFO,
# so that the FIFO's batch is not the first.
cores=$(nproc 2>/dev/null || echo 2)
set --
i=0
while [ $i -le "$cores" ]; do
    printf '[{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":%d,"dur":5}]' $i >"$TMPD/small$i.json"
    set -- "$@" "'$TMPD/small$i.json'"
    i=$((i + 1))
done
total=$((cores + 2))
feed &
script -qec "'$TRACETTY' report --kind ranks $* '$TMPD/fifo' >/dev/null" /dev/null >"$TMPD/tty4" 2>&1
wait
matches "$TMPD/tty4" "loading [0-9]+ of $total traces done, [0-9.]+ MB, [0-9]+ events" \
    "report over $total traces in batches of $cores: the progress line counts them all"

# stderr not a terminal: nothing either
feed &
"$TRACETTY" summary "$TMPD/fifo" >/dev/null 2>"$TMPD/err3"
wait
is "$(wc -c <"$TMPD/err3" | tr -d ' ')" 0 "stderr redirected: no progress line"
tap_done
