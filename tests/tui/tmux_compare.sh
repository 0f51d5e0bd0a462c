#!/bin/sh
# tmux_compare.sh - the compare view in the real TUI (`tracetty view
# --compare A B`, what `tracetty diff A B` opens on a terminal), in tmux at
# 80x24 and 200x50: after every step (panel moves, Enter, Tab, a box, P,
# the help, a resize) the screen must be exactly what `tracetty render
# --compare` prints for the same keys and size; q quits and gives the
# terminal back. On two small traces, and on a real Kineto trace against
# a later one from ../shared/traces (skipped when absent).
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

cd "$TMPD" || exit 1
cat >a.json <<'JSON'
{"traceEvents":[
{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":20,"dur":10},
{"ph":"X","name":"relu","pid":1,"tid":1,"ts":40,"dur":5},
{"ph":"X","name":"copy\u001b[31m","pid":1,"tid":2,"ts":50,"dur":1}
]}
JSON
cat >b.json <<'JSON'
{"traceEvents":[
{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":500,"dur":10},
{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":520,"dur":10},
{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":535,"dur":10},
{"ph":"X","name":"relu","pid":1,"tid":1,"ts":550,"dur":10}
]}
JSON

# want SIZE KEYS A B: what the TUI must show
want() {
    "$TRACETTY" render --compare --size "$1" --keys "$2" "$3" "$4" | sed 's/ *$//' >"$TMPD/want"
}

# session COLS ROWS A B LABEL
session() {
    cols=$1 rows=$2 a=$3 b=$4 label=$5 keys=
    tm_start "$cols" "$rows" "'$TRACETTY' ${SESSION_CMD:-view --compare} '$a' '$b'; echo \"status=\$?\"; \
        echo FINISHED; sleep 600"
    if ! tm_wait 'compare: the whole traces' 60; then
        ok 1 "$label: the compare view opens"
        tm_capture | sed 's/^/#   /'
        return
    fi
    ok 0 "$label: the compare view opens"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: first screen = render"
    tm_text jj; keys="${keys}jj"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: panel moves (jj) = render"
    tm_keys Enter; keys="${keys}<Enter>"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: Enter highlights in both halves = render"
    tm_keys Tab; keys="${keys}<Tab>"
    tm_text wwn; keys="${keys}wwn"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: Tab, zoom in B, n = render"
    tm_text vll; tm_keys Enter; keys="${keys}vll<Enter>"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: a box over B = render"
    tm_wait 'compare: the box' 2
    ok $? "$label: the panel compares the box"
    tm_text P; keys="${keys}P"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: P closes the panel = render"
    tm_text '?'; keys="${keys}?"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: the help = render"
    tm_keys Escape; keys="${keys}<Esc>"
    $TT_TMUX resize-window -t tt -x 100 -y 30; keys="${keys}<Resize:100x30>"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: resized to 100x30 = render"
    $TT_TMUX resize-window -t tt -x "$cols" -y "$rows"; keys="${keys}<Resize:${cols}x$rows>"
    want "${cols}x$rows" "$keys" "$a" "$b"
    tm_same "$TMPD/want" "$label: resized back = render"
    tm_text q
    tm_wait FINISHED 10
    ok $? "$label: q quits"
    tm_wait 'status=0' 2
    ok $? "$label: exit status 0"
    if tm_capture | grep -q '\[31m'; then ok 1 "$label: no raw escape from a name"; else
        ok 0 "$label: no raw escape from a name"; fi
}

session 80 24 a.json b.json "small, 80x24"
session 200 50 a.json b.json "small, 200x50"
real=$(shared_traces)/pytorch
if [ -f "$real/resnet50_workers0.pt.trace.json.gz" ]; then
    session 200 50 "$real/resnet50_workers0.pt.trace.json.gz" \
        "$real/resnet50_workers4.pt.trace.json.gz" "resnet50, 200x50"
    session 80 24 "$real/resnet50_workers0.pt.trace.json.gz" \
        "$real/resnet50_workers4.pt.trace.json.gz" "resnet50, 80x24"
else
    echo "# skipping the real traces: no ../shared/traces"
fi
# `tracetty diff A B` at a terminal is the same view
SESSION_CMD=diff session 80 24 a.json b.json "tracetty diff, 80x24"
# ... unless a table is asked for: then the table, as on a pipe
tm_start 100 30 "'$TRACETTY' diff --format text a.json b.json; echo \"status=\$?\"; \
    echo FINISHED; sleep 600"
tm_wait FINISHED 30
ok $? "diff --format text at a terminal: the table, no view"
if tm_capture | grep -q 'compare: '; then ok 1 "... and no compare panel"; else
    ok 0 "... and no compare panel"; fi
tm_capture | grep -q '^ *Name  *Status '
ok $? "... the text table's header"
tap_done
