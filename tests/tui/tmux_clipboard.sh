#!/bin/sh
# tmux_clipboard.sh - y copies the selected event's name, whole and byte
# for byte, to the terminal's clipboard with OSC 52: tmux with
# set-clipboard on turns the sequence into a paste buffer.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

# longer than any screen, non-ASCII (UTF-8 é), and 2 bytes past a
# multiple of 3, so that the base64 ends with padding
name="kernel_é_$(printf '%150s' '' | tr ' ' x)_end"
printf '{"traceEvents":[{"ph":"X","name":"%s","pid":1,"tid":1,"ts":0,"dur":5}]}\n' "$name" > "$TMPD/t.json"
printf '%s' "$name" > "$TMPD/want"
is "$(( $(wc -c < "$TMPD/want") % 3 ))" 2 "the name's size leaves base64 padding"

tm_start 80 24 "'$TRACETTY' view '$TMPD/t.json'"
$TT_TMUX set -g set-clipboard on
if tm_wait '\? help'; then
    tm_keys Tab
    tm_text y
    tm_wait 'copied with OSC 52'
    ok $? "y: the status line says the name was sent"
    n=50
    while [ $n -gt 0 ] && ! $TT_TMUX show-buffer > /dev/null 2>&1; do sleep 0.1; n=$((n - 1)); done
    $TT_TMUX show-buffer > "$TMPD/got" 2>/dev/null
    same_file "$TMPD/got" "$TMPD/want" "the clipboard holds the whole name, byte for byte"
else
    ok 1 "the TUI starts"
fi

tap_done
