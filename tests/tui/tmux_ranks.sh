#!/bin/sh
# tmux_ranks.sh - several ranks in the real TUI (issue 8), at 80x24 and
# 200x50, every screen equal to what `tracetty render` prints for the same
# keys:
#   - a generated 8-rank job whose rank 5 is slow (samples/gen-trace): the
#     view opens on the combined view, where the ranks that wait for rank 5
#     show long runs of communication in their summary lanes and rank 5
#     almost none; 1 shows rank 1's tab (the header names its file), > and
#     < step through the tabs, R comes back; X opens the collectives view,
#     where rank 5 arrived last at most collectives, the status line of a
#     collective says so with the others' waits, and its panel marks rank
#     5 "last to arrive"; q quits with the terminal restored;
#   - the two-rank set in ../shared/traces/pytorch/two_ranks (skipped when
#     absent) loads as ranks 0 and 1: tabs, headers and the ranks panel.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

gen="$builddir/samples/gen-trace"
[ -x "$gen" ] || skip_all "no samples/gen-trace"
job="$TMPD/job"
mkdir "$job"
r=0
while [ $r -lt 8 ]; do
    "$gen" kineto --rank $r --world 8 --slow-rank 5 -o "$job/trace-$r-of-8.json" ||
        skip_all "gen-trace failed"
    r=$((r + 1))
done

# open SIZE LOCALE TRACE...: the TUI in a fresh session, waited for
open_view() {
    size=$1 loc=$2
    shift 2
    tm_start "${size%x*}" "${size#*x}" "cd '$TMPD' && LC_ALL=$loc '$TRACETTY' view $* ; \
        echo \"status=\$?\"; echo FINISHED; sleep 600"
    tm_wait '\? help' 60
}

# step KEYS_SO_FAR NEW_KEYS DESCRIPTION: type NEW_KEYS (render's --keys
# notation: <lt> is '<'), then the screen must be render's for every key
# so far
step() {
    all=$1 new=$2
    case $new in
    '<Enter>') tm_keys Enter ;;
    '<Home>') tm_keys Home ;;
    '<End>') tm_keys End ;;
    *) tm_text "$(printf '%s' "$new" | sed 's/<lt>/</g')" ;;
    esac
    render_to "$TMPD/want" "$size" "$all$new" "$trace" "$loc"
    tm_same "$TMPD/want" "$3"
    tm_capture > "$TMPD/screen"
}

# comm_glyphs SCREEN GLYPH: "RANK COUNT" for every summary lane on screen,
# COUNT the communication glyphs right of the label column
comm_glyphs() {
    awk -v g="$2" '/^.[-+\342][^ ]* rank [0-9]+ / {
        r = $0; sub(/^[^r]*rank /, "", r); sub(/ .*/, "", r)
        line = $0; sub(/^[^|\342]*(\||\342\224\202)/, "", line)
        print r, gsub(g, "", line) }' "$1"
}

for size in 80x24 200x50; do
    loc=C glyph='='
    [ $size = 200x50 ] && [ -n "$UTF8_LOCALE" ] && loc=$UTF8_LOCALE && glyph=$(printf '\342\225\220')
    trace=$job
    t="job8 $size $loc"
    if ! open_view "$size" "$loc" "'$job'"; then
        ok 1 "$t: the TUI opens"
        continue
    fi
    render_to "$TMPD/want" "$size" "" "$trace" "$loc"
    tm_same "$TMPD/want" "$t: the combined view = render"
    tm_capture > "$TMPD/screen"
    matches "$TMPD/screen" '^ tracetty  8 ranks [^ ]+ job ' "$t: the header says 8 ranks"
    matches "$TMPD/screen" '^ Ranks  0  1  2  3  4  5  6  7 ' "$t: a tab per rank"
    comm_glyphs "$TMPD/screen" "$glyph" > "$TMPD/comm"
    is "$(wc -l < "$TMPD/comm" | tr -d ' ')" 8 "$t: eight summary lanes"
    # rank 5 does not wait: under a quarter of the least waiting other rank
    awk '$1 == 5 { slow = $2 } $1 != 5 { if (min == "" || $2 < min) min = $2 }
         END { exit !(min >= 8 && slow * 4 < min) }' "$TMPD/comm"
    ok $? "$t: rank 5 stands out: its summary lane shows almost no communication ($(tr '\n' ' ' < "$TMPD/comm"))"
    step "" 1 "$t: 1 = render"
    matches "$TMPD/screen" '^ tracetty  rank 1 [^ ]+ trace-1-of-8\.json' "$t: 1 shows rank 1's tab and file"
    matches "$TMPD/screen" '^ Ranks  0 \[1\] 2 ' "$t: the tab bar marks it"
    step "1" ">" "$t: > = render"
    matches "$TMPD/screen" '^ tracetty  rank 2 [^ ]+ trace-2-of-8\.json' "$t: > steps to rank 2"
    step "1>" "<lt><lt>" "$t: < < = render"
    matches "$TMPD/screen" '^ tracetty  rank 0 [^ ]+ trace-0-of-8\.json' "$t: < < steps back to rank 0"
    step "1><lt><lt>" "R" "$t: R = render"
    matches "$TMPD/screen" '^ tracetty  8 ranks' "$t: R is the combined view again"
    step "1><lt><lt>R" "X" "$t: X = render"
    matches "$TMPD/screen" '^ tracetty  collectives of 8 ranks' "$t: X opens the collectives view"
    n5=$(grep -c 'last r5 *$' "$TMPD/screen")
    nall=$(grep -c 'last r[0-9]* *$' "$TMPD/screen")
    awk -v a="$n5" -v b="$nall" 'BEGIN { exit !(b >= 8 && a * 4 >= b * 3) }'
    ok $? "$t: rank 5 arrived last at most collectives on screen ($n5 of $nall)"
    step "1><lt><lt>RX" "<Home>" "$t: Home = render"
    step "1><lt><lt>RX<Home>" "j" "$t: j = render"
    if [ $size = 80x24 ]; then
        matches "$TMPD/screen" 'spread [0-9.]+ ms, last rank 5' "$t: the status line: rank 5 last"
    else
        matches "$TMPD/screen" 'spread [0-9.]+ ms, last rank 5 [^ ]+ duration .* waits r[0-9]' \
            "$t: the status line: rank 5 last, the others' waits"
    fi
    step "1><lt><lt>RX<Home>j" "<Enter>" "$t: Enter = render"
    step "1><lt><lt>RX<Home>j<Enter>" "<End>" "$t: End = render"
    matches "$TMPD/screen" '^[^ ]+ +5 .*last to arrive' "$t: the collective's panel: rank 5 last"
    tm_text q
    tm_text q
    tm_text q
    tm_wait FINISHED 10
    ok $? "$t: quits"
    tm_wait 'status=0' 1
    ok $? "$t: exit status 0"
    is "$(tm_flag alternate_on)" 0 "$t: the terminal is back to the normal screen"
done

two="$(shared_traces)/pytorch/two_ranks"
if [ -d "$two" ]; then
    for size in 80x24 200x50; do
        loc=C
        trace=$two
        t="two_ranks $size"
        if ! open_view "$size" "$loc" "'$two'"; then
            ok 1 "$t: the TUI opens"
            continue
        fi
        render_to "$TMPD/want" "$size" "" "$trace" "$loc"
        tm_same "$TMPD/want" "$t: the combined view = render"
        tm_capture > "$TMPD/screen"
        matches "$TMPD/screen" '^ Ranks  0  1  ' "$t: ranks 0 and 1"
        matches "$TMPD/screen" '^ tracetty  2 ranks [^ ]+ two_ranks' "$t: the header"
        step "" "1" "$t: 1 = render"
        matches "$TMPD/screen" '^ tracetty  rank 1 [^ ]+ rank-1\.json\.gz' "$t: rank 1 is rank-1.json.gz"
        step "1" "<lt>" "$t: < = render"
        matches "$TMPD/screen" '^ tracetty  rank 0 [^ ]+ rank-0\.json\.gz' "$t: rank 0 is rank-0.json.gz"
        step "1<lt>" "#" "$t: # = render"
        matches "$TMPD/screen" ' 0 rank-0\.json\.gz +metadata ' "$t: rank 0 from its metadata"
        matches "$TMPD/screen" ' 1 rank-1\.json\.gz +metadata ' "$t: rank 1 from its metadata"
        tm_text q
        tm_text q
        tm_wait FINISHED 10
        ok $? "$t: quits"
    done
else
    echo "ok $((tap_n + 1)) - two ranks # SKIP no $two"
    tap_n=$((tap_n + 1))
fi
tap_done
