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
    matches "$TMPD/screen" '^ (tracetty  )?8 ranks [^ ]+ job ' "$t: the header says 8 ranks"
    matches "$TMPD/screen" '^ Ranks  0  1  2  3  4  5  6  7 ' "$t: a tab per rank"
    comm_glyphs "$TMPD/screen" "$glyph" > "$TMPD/comm"
    is "$(wc -l < "$TMPD/comm" | tr -d ' ')" 8 "$t: eight summary lanes"
    # rank 5 does not wait: under a quarter of the least waiting other rank
    awk '$1 == 5 { slow = $2 } $1 != 5 { if (min == "" || $2 < min) min = $2 }
         END { exit !(min >= 8 && slow * 4 < min) }' "$TMPD/comm"
    ok $? "$t: rank 5 stands out: its summary lane shows almost no communication ($(tr '\n' ' ' < "$TMPD/comm"))"
    step "" 1 "$t: 1 = render"
    matches "$TMPD/screen" '^ (tracetty  )?rank 1 [^ ]+ trace-1-of-8\.json' "$t: 1 shows rank 1's tab and file"
    matches "$TMPD/screen" '^ Ranks  0 \[1\] 2 ' "$t: the tab bar marks it"
    step "1" ">" "$t: > = render"
    matches "$TMPD/screen" '^ (tracetty  )?rank 2 [^ ]+ trace-2-of-8\.json' "$t: > steps to rank 2"
    step "1>" "<lt><lt>" "$t: < < = render"
    matches "$TMPD/screen" '^ (tracetty  )?rank 0 [^ ]+ trace-0-of-8\.json' "$t: < < steps back to rank 0"
    step "1><lt><lt>" "R" "$t: R = render"
    matches "$TMPD/screen" '^ (tracetty  )?8 ranks' "$t: R is the combined view again"
    step "1><lt><lt>R" "X" "$t: X = render"
    matches "$TMPD/screen" '^ (tracetty  )?collectives of 8 ranks' "$t: X opens the collectives view"
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

# A box in the combined view over the lanes of two ranks, and one in the
# collectives view (issue 8: box select works in every view), at 200x50
# so the panel's batch commands fit on a line each:
#   - Enter on a breakdown row lights its events on both ranks; n steps
#     through all of them in job-time order, rank by rank, and wraps;
#   - e writes the panel's tables: each one, rank by rank, is what
#     `tracetty report --kind K --window W --lanes L FILE` prints for the
#     window and lanes the panel names for that rank, behind a Trace cell
#     with the rank's file;
#   - in the collectives view, e writes the rows `tracetty report --kind
#     collectives` prints for the collectives in the box, in its order;
#     Enter on a collective's name lights its kernels, n steps on.
size=200x50 loc=C trace=$job
t="job8 boxes"
if open_view "$size" "$loc" "'$job'"; then
    k=jvjjjllllllllllllllllllllllllllllll
    step "" "$k" "$t: a box from rank 0's lanes to rank 1's = render"
    step "$k" "<Enter>" "$t: Enter = render"
    matches "$TMPD/screen" 'Box .* 3 lanes of 2 ranks' "$t: its panel: 3 lanes of 2 ranks"
    k="$k<Enter>"
    step "$k" "jjjjj" "$t: to the second breakdown row = render"
    k="${k}jjjjj"
    step "$k" "<Enter>" "$t: Enter on it = render"
    k="$k<Enter>"
    msg=$(tail -1 "$TMPD/screen")
    n=$(printf '%s\n' "$msg" | sed -n 's/^\([0-9][0-9]*\) events\{0,1\} of .* lit on every rank.*/\1/p')
    [ -n "$n" ] && [ "$n" -gt 1 ]
    ok $? "$t: the row's events are lit on every rank ($msg)"
    step "$k" n "$t: n = render"
    k="${k}n"
    tail -1 "$TMPD/screen" > "$TMPD/steps"
    i=3
    while [ -n "$n" ] && [ $i -le $((n + 1)) ]; do
        tm_text n
        want=$i
        [ $i -gt "$n" ] && want=1
        tm_wait "match $want of $n " 5 || break
        tm_capture | tail -1 >> "$TMPD/steps"
        i=$((i + 1))
    done
    render_to "$TMPD/want" "$size" "$k$(printf 'n%.0s' $(seq 2 "$n"))" "$trace" "$loc"
    tm_same "$TMPD/want" "$t: after them all = render"
    k="$k$(printf 'n%.0s' $(seq 2 "$n"))"
    # "rank R at T ms: match K of N", K counting up, then wrapping to 1;
    # T never goes back before the wrap
    awk -v n="$n" '{
        w = index($0, "wrapped to the start: ") == 1
        sub(/^wrapped to the start: /, "")
        if (!match($0, /^rank [0-9]+ at [0-9.]+ [mun]*s: match [0-9]+ of [0-9]+ /)) { bad = 1; next }
        split(substr($0, 1, RLENGTH), f, " ")
        r = f[2]; t = f[4]; u = f[5]; k = f[7]; tot = f[9]
        sub(/:$/, "", u)
        ns = t * (u == "ms" ? 1e6 : u == "us" ? 1e3 : u == "s" ? 1e9 : 1)
        want = NR + 1 > n ? 1 : NR + 1
        if (k != want || tot != n || (NR + 1 > n) != w) bad = 1
        if (!w && NR > 1 && ns < last) bad = 1
        last = ns; seen[r] = 1
    } END { exit bad || !(0 in seen) || !(1 in seen) }' "$TMPD/steps"
    ok $? "$t: n steps through all $n in job-time order over ranks 0 and 1, then wraps"
    step "$k" "<End>" "$t: End = render"
    k="$k<End>"
    awk 'index($0, "The same numbers in batch") { on = 1; next }
         on && /tracetty report --kind ops / { sub(/^[|\342][^ ]* /, ""); sub(/ *[|\342][^ ]*$/, "");
                                               print }' "$TMPD/screen" > "$TMPD/cmds"
    is "$(wc -l < "$TMPD/cmds" | tr -d ' ')" 2 "$t: the panel gives a batch command per rank"
    tm_text e
    tm_wait 'write the tables to: .*trace-0-of-8\.json\.ranks-box-' 5
    ok $? "$t: e asks for a file name, beside rank 0's trace"
    tm_keys C-u
    tm_text "$TMPD/ranks-box.csv"
    tm_keys Enter
    tm_wait_file "$TMPD/ranks-box.csv" 10
    ok $? "$t: e writes the file"
    tm_wait 'ranks-box.csv: written, [0-9] tables .* of 2 ranks' 5
    ok $? "$t: and says what"
    : > "$TMPD/want.csv"
    nt=0
    for kind in ops lanes transfers gpu; do
        : > "$TMPD/rows"
        head=
        any=0
        while read -r cmd; do
            args=${cmd#tracetty report --kind ops }
            # the last word is the rank's file, shell-quoted (no quote or
            # space in these paths)
            file=${args##* \'}
            file=${file%\'}
            args=${args% \'*}
            eval "set -- $args"
            [ $kind = ops ] || shift 2   # --by KEY
            "$TRACETTY" report --kind $kind "$@" "$file" > "$TMPD/k.csv"
            head=$(head -1 "$TMPD/k.csv")
            sed 1d "$TMPD/k.csv" | sed "s|^|\"$file\",|" >> "$TMPD/rows"
            case $kind in
            transfers) [ "$(wc -l < "$TMPD/k.csv")" -gt 1 ] && any=1 ;;
            gpu) "$TRACETTY" report --kind gpu --format json "$@" "$file" |
                     grep -q '"kernels":0,"memcpys":0,"memsets":0' || any=1 ;;
            *) any=1 ;;
            esac
        done < "$TMPD/cmds"
        [ $any = 1 ] || continue
        [ $nt -gt 0 ] && printf '\r\n' >> "$TMPD/want.csv"
        printf '"Trace",%s\n' "$head" >> "$TMPD/want.csv"
        cat "$TMPD/rows" >> "$TMPD/want.csv"
        nt=$((nt + 1))
    done
    same_file "$TMPD/ranks-box.csv" "$TMPD/want.csv" \
        "$t: the file holds each rank's report tables for its window and lanes, behind its Trace"
    # the collectives view: a box from the first collective over the left
    # half of the window
    tm_keys Escape
    tm_text X
    tm_keys Home
    k=vjjjjjj
    i=0
    while [ $i -lt 100 ]; do k="${k}h"; i=$((i + 1)); done
    tm_text "$k"
    tm_keys Enter
    tm_wait 'box of .*: [0-9]+ collectives' 10
    ok $? "$t: a box in the collectives view"
    nc=$(tm_capture | sed -n 's/^box of [^:]*: \([0-9][0-9]*\) collectives.*/\1/p')
    tm_text e
    tm_wait 'write the tables to: .*collectives-box-' 5
    ok $? "$t: e asks for a file name"
    tm_keys C-u
    tm_text "$TMPD/colls-box.csv"
    tm_keys Enter
    tm_wait_file "$TMPD/colls-box.csv" 10
    ok $? "$t: e writes the collectives' rows"
    "$TRACETTY" report --kind collectives "$job" > "$TMPD/colls.csv"
    # every row is the report's, in its order; 8 rows per collective
    ln=0 inorder=0
    while IFS= read -r line; do
        at=$(grep -n -F -x -- "$line" "$TMPD/colls.csv" | head -1 | cut -d: -f1)
        if [ -z "$at" ] || [ "$at" -le "$ln" ]; then inorder=1; break; fi
        ln=$at
    done < "$TMPD/colls-box.csv"
    ok $inorder "$t: its rows are the report's rows (header too), in the report's order"
    is "$(($(wc -l < "$TMPD/colls-box.csv") - 1))" "$((${nc:-0} * 8))" \
        "$t: one row per rank of each of the $nc collectives in the box"
    tm_text jjjjjjjjjj
    tm_keys Enter
    tm_wait "[0-9]+ events of collective '.*' in the box lit on every rank" 5
    ok $? "$t: Enter on a collective's name lights its kernels"
    tm_text n
    tm_wait "^rank [0-9]+ at [0-9.]+ [mun]*s, collective #[0-9]+ .*: match 2 of " 5
    ok $? "$t: n goes to the next one, on its collective's row"
    tm_text q
    tm_text q
    tm_text q
    tm_wait FINISHED 10
    ok $? "$t: quits"
else
    ok 1 "$t: the TUI opens"
fi

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
        matches "$TMPD/screen" '^ (tracetty  )?2 ranks [^ ]+ two_ranks' "$t: the header"
        step "" "1" "$t: 1 = render"
        matches "$TMPD/screen" '^ (tracetty  )?rank 1 [^ ]+ rank-1\.json\.gz' "$t: rank 1 is rank-1.json.gz"
        step "1" "<lt>" "$t: < = render"
        matches "$TMPD/screen" '^ (tracetty  )?rank 0 [^ ]+ rank-0\.json\.gz' "$t: rank 0 is rank-0.json.gz"
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
