#!/bin/sh
# tmux_matrix.sh - the communication matrix view in the real TUI (issue
# 16): the two ranks of ../shared/traces-next/ascend/job_level1 (their
# trace_view.json, the matrix files beside them; skipped when absent)
# open on the combined view; B opens the matrix (a line per source rank,
# a column per destination rank, the legend line), the arrows pick a link
# whose numbers the status line shows, a resize redraws it, Esc goes
# back and q quits with the terminal restored. After every step the
# screen must be exactly what `tracetty render` prints for the same keys.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

job="$srcdir/../shared/traces-next/ascend/job_level1"
[ -d "$job" ] || skip_all "no ../shared/traces-next/ascend/job_level1"
r0="$job/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
r1="$job/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"

for loc in C $UTF8_LOCALE; do
    tm_start 80 24 "LC_ALL=$loc '$TRACETTY' view '$r0' '$r1'; echo \"status=\$?\"; echo FINISHED; sleep 600"
    if ! tm_wait '\? help' 60; then
        ok 1 "$loc: the TUI opens"
        continue
    fi
    keys=""
    # same KEYS DESCRIPTION: the screen is render's for KEYS at 80x24
    same() {
        LC_ALL=$loc "$TRACETTY" render --size 80x24 --keys "$1" "$r0" "$r1" | sed 's/ *$//' \
            >"$TMPD/want"
        tm_same "$TMPD/want" "$2"
    }
    tm_text B; keys="B"
    same "$keys" "$loc: B opens the matrix = render"
    tm_wait '^src.dst +0 +1 +2 +3 +4 +5 +6 +7' 2
    ok $? "$loc: a column per destination rank"
    tm_wait 'slowest' 2
    ok $? "$loc: the legend line"
    tm_keys Down Right; keys="${keys}<Down><Right>"
    same "$keys" "$loc: the arrows pick a link = render"
    tm_wait 'rank 1 -> 1 .+ LOCAL 428\.6377 GB/s' 2
    ok $? "$loc: the status line shows the link"
    $TT_TMUX resize-window -t tt -x 120 -y 36; keys="${keys}<Resize:120x36>"
    same "$keys" "$loc: resized to 120x36 = render"
    $TT_TMUX resize-window -t tt -x 80 -y 24; keys="${keys}<Resize:80x24>"
    same "$keys" "$loc: back to 80x24 = render"
    tm_keys Escape; keys="${keys}<Esc>"
    same "$keys" "$loc: Esc goes back = render"
    tm_text q
    tm_wait FINISHED 10
    ok $? "$loc: q quits"
    tm_capture >"$TMPD/screen"
    matches "$TMPD/screen" '^status=0' "$loc: exit status 0"
    is "$(tm_flag alternate_on)" 0 "$loc: the terminal is restored"
done

tap_done
