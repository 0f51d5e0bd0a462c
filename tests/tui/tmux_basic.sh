#!/bin/sh
# tmux_basic.sh - the real TUI in tmux: open, zoom, pan, search, details,
# help, resize, mouse, quit; after every step the screen must be exactly
# what `tracetty render` prints for the same keys and size, and after quit
# the terminal must be as it was (modes, no alternate screen, no mouse
# reporting, visible cursor).
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

trace="$srcdir/tests/data/tui/basic.json"

run_session() {   # locale
    loc=$1
    keys=
    tm_start 80 24 "stty -g > '$TMPD/stty.before'; \
        LC_ALL=$loc '$TRACETTY' '$trace'; echo \"status=\$?\"; \
        stty -g > '$TMPD/stty.after'; echo FINISHED; sleep 600"
    if ! tm_wait '\? help'; then
        ok 1 "$loc: the timeline opens"
        tm_capture | sed 's/^/#   /'
        return
    fi
    ok 0 "$loc: the timeline opens (tracetty TRACE on a terminal browses)"
    is "$(tm_flag alternate_on)" 1 "$loc: it uses the alternate screen"
    is "$(tm_flag mouse_sgr_flag)" 1 "$loc: it asks for SGR mouse reports"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: first screen = render"

    tm_text wwww; keys="${keys}wwww"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: zoom (wwww) = render"

    tm_text ddl; keys="${keys}ddl"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: pan and move (ddl) = render"

    tm_text /gemm; keys="${keys}/gemm"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: the search prompt = render"
    tm_keys Enter; keys="${keys}<Enter>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: search result = render"
    tm_text n; keys="${keys}n"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: next match = render"

    tm_keys Enter; keys="${keys}<Enter>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: details panel = render"
    tm_wait 'Flow in' 2
    ok $? "$loc: the panel shows the kernel's incoming flow"
    tm_keys Enter; keys="${keys}<Enter>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: following the flow = render"
    tm_wait 'Name +cudaLaunchKernel' 2
    ok $? "$loc: the flow leads to cudaLaunchKernel"

    $TT_TMUX resize-window -t tt -x 120 -y 36; keys="${keys}<Resize:120x36>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: resized to 120x36 = render"
    $TT_TMUX resize-window -t tt -x 20 -y 6; keys="${keys}<Resize:20x6>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: resized to 20x6 = render"
    $TT_TMUX resize-window -t tt -x 80 -y 24; keys="${keys}<Resize:80x24>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: back to 80x24 = render"

    tm_keys Escape; keys="${keys}<Esc>"
    tm_text '?'; keys="${keys}?"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: help = render"
    tm_keys Escape; keys="${keys}<Esc>"

    # mouse: tmux forwards SGR reports for the pane; a wheel-up zooms
    printf '\033[<64;41;6M' > "$TMPD/wheel"
    $TT_TMUX send-keys -t tt -H $(od -An -tx1 "$TMPD/wheel"); keys="${keys}<WheelUp:40,5>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: a wheel report zooms at the pointer = render"
    printf '\033[<0;31;2M\033[<32;51;2M\033[<0;51;2m' > "$TMPD/drag"
    $TT_TMUX send-keys -t tt -H $(od -An -tx1 "$TMPD/drag")
    keys="${keys}<Press:30,1><Drag:50,1><Release:50,1>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "$loc: a drag on the ruler zooms to the range = render"

    tm_text q
    tm_wait FINISHED
    ok $? "$loc: q quits"
    tm_wait 'status=0' 1
    ok $? "$loc: with status 0"
    ok "$(cmp -s "$TMPD/stty.before" "$TMPD/stty.after"; echo $?)" "$loc: terminal modes restored"
    is "$(tm_flag alternate_on)" 0 "$loc: alternate screen left"
    is "$(tm_flag mouse_any_flag)$(tm_flag mouse_sgr_flag)" 00 "$loc: mouse reporting off"
    is "$(tm_flag cursor_flag)" 1 "$loc: cursor visible"
    tm_capture | grep -q 'tracetty' && ok 1 "$loc: nothing of the TUI is left on screen" ||
        ok 0 "$loc: nothing of the TUI is left on screen"
}

run_session C
if [ -n "$UTF8_LOCALE" ]; then
    run_session "$UTF8_LOCALE"
fi
tap_done
