#!/bin/sh
# unsafe.sh - a trace whose names, categories, lanes, counters and
# arguments hold ESC sequences, BEL, CR, LF, C1 controls, bidi overrides and
# invalid UTF-8 renders safely: in `render` output (plain and --ansi) no
# control byte but the newline survives, and SGR sequences are the only
# escapes; in the real TUI (tmux) the trace cannot retitle, clear or
# recolor the terminal, and the screen equals render's.
. "$srcdir/tests/lib.sh"

trace="$srcdir/tests/data/tui/evil.json"
# every view that shows trace strings: timeline, legend, status, details
# (with the arguments), search, help
views='
g<Enter>
g<Enter><End>
<Tab><Tab><Tab><Enter><PgDn>
/RED<Enter>
/\e<Enter>
jL
c
cc
'

# od and tr do the byte checks: no compiler needed
check_bytes() {   # file description ansi(0|1)
    if [ "$3" = 1 ]; then
        # drop the SGR sequences tracetty writes, then nothing may be left
        sed 's/\x1b\[[0-9;]*m//g' "$1" > "$1.stripped"
    else
        cp "$1" "$1.stripped"
    fi
    # control bytes other than newline, and DEL
    n=$(tr -d '\n' < "$1.stripped" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c | tr -d ' ')
    is "$n" 0 "$2: no control bytes"
    # C1 controls: raw 0x80-0x9f alone (8-bit CSI) or UTF-8 encoded (c2 80-9f)
    if LC_ALL=C grep -q "$(printf '\302')[$(printf '\200')-$(printf '\237')]" "$1.stripped"; then
        ok 1 "$2: no C1 controls"
    else
        ok 0 "$2: no C1 controls"
    fi
}

for loc in C C.UTF-8; do
    LC_ALL=$loc locale charmap > /dev/null 2>&1 || continue
    echo "$views" | while IFS= read -r keys; do
        [ -n "$keys" ] || continue
        LC_ALL=$loc "$TRACETTY" render --size 100x30 --keys "$keys" "$trace" > "$TMPD/out" 2>&1
        echo "rc=$?" > "$TMPD/rc"
        check_bytes "$TMPD/out" "$loc '$keys' plain" 0
        LC_ALL=$loc "$TRACETTY" render --ansi --size 100x30 --keys "$keys" "$trace" > "$TMPD/ansi" 2>&1
        check_bytes "$TMPD/ansi" "$loc '$keys' --ansi" 1
        # the escapes are shown, visibly
        grep -q 'proc\\e\[2Jclear' "$TMPD/out"
        ok $? "$loc '$keys': the group name shows its ESC as \\e"
    done > "$TMPD/results"
    cat "$TMPD/results"
done > "$TMPD/all"
# renumber the subshell's TAP lines
while IFS= read -r line; do
    case $line in
    "ok "*) tap_n=$((tap_n + 1)); echo "ok $tap_n ${line#ok [0-9]* }" ;;
    "not ok "*) tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1))
                echo "not ok $tap_n ${line#not ok [0-9]* }" ;;
    *) echo "$line" ;;
    esac
done < "$TMPD/all"

LC_ALL=C "$TRACETTY" render --keys 'g<Enter>' "$trace" > "$TMPD/g"
matches "$TMPD/g" 'Name +\\e\[31mRED\\e\[0m\\e\]0;pwned\\x07' "the name's escapes are spelled out"
LC_ALL=C "$TRACETTY" render --keys '/RED<Enter>' "$trace" > "$TMPD/s"
matches "$TMPD/s" "match 1 of 1 for 'RED'" "search finds the name by its visible text"

# the real TUI: the OSC 0 in a name must not retitle the pane, the CSI 2J
# must not clear it; the screen is render's
if command -v tmux > /dev/null 2>&1; then
    . "$srcdir/tests/tui/tmux_lib.sh"
    for loc in C ${UTF8_LOCALE:-}; do
        tm_start 100 30 "LC_ALL=$loc '$TRACETTY' '$trace'; echo FINISHED; sleep 600"
        $TT_TMUX select-pane -t tt -T clean-title
        if tm_wait '\? help'; then
            tm_text g; tm_keys Enter; tm_keys End
            render_to "$TMPD/want" 100x30 'g<Enter><End>' "$trace" "$loc"
            tm_same "$TMPD/want" "$loc tmux: the details of the worst name = render"
            is "$(tm_flag pane_title)" clean-title "$loc tmux: the pane title is untouched"
            tm_text q; tm_text q
            tm_wait FINISHED
            ok $? "$loc tmux: quits"
        else
            ok 1 "$loc tmux: the TUI opens"
        fi
    done
fi
tap_done
