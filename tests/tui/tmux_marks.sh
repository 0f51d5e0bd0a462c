#!/bin/sh
# tmux_marks.sh - the issue's "done when" for markers, in the real TUI, on
# the demo and on a Kineto trace from ../shared/traces (skipped when
# absent), at 80x24 and 200x50, each screen equal to `tracetty render`'s:
#   1. select a box by keyboard, read its breakdown; put markers at its
#      edges (m in the panel) and a third one inside; quitting now asks
#      (the markers are not saved) and n stays;
#   2. rename the three (iter_start, mid, iter_end) and save them as set
#      `iter`; quit;
#   3. `tracetty markers list` shows the three markers the panel showed;
#   4. reopen, load `iter` from the markers panel; the status line says so;
#      box between iter_start and iter_end (b) and read its breakdown;
#   5. `tracetty report --markers iter --between iter_start:iter_end` gives
#      the same rows as that panel, and with the first box's --lanes the
#      same rows as the first box's panel;
#   6. a marker dropped and not saved: q asks, y quits, the set is intact.
# Then a generated 8-rank job: a set saved in the combined view is every
# rank's, each in its own times, and cuts reports where the view's box
# does. And marker names are sanitized: a set written by a script with
# escape sequences in its names is drawn with them made visible.
# Comparing the panels' rows needs python3 (skipped without it).
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

have_py=0
command -v python3 > /dev/null 2>&1 && have_py=1

shared=$(shared_traces)
traces="$srcdir/samples/demo.json"
[ -f "$shared/pytorch/resnet50_workers0.pt.trace.json.gz" ] &&
    traces="$traces $shared/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$srcdir/samples/demo.json" ] || skip_all "no samples/demo.json"

# panel_rows CAPTURE REPORT_CSV: "ok N" when every breakdown row the panel
# shows is a row of the report (name, count, total; the share is of self
# time, which tmux_boxself.sh checks).
panel_rows() {
    PYTHONPATH="$srcdir/tests/tui" python3 - "$1" "$2" <<'EOF'
import csv, re, sys
screen = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
rows = list(csv.reader(open(sys.argv[2], newline='', encoding='utf-8')))[1:]
from ttfmt import fmt   # tt_fmt_dur(ns, 3)
inside, checked, bad = False, 0, []
D = r'[0-9.]+ [num]?s'
for line in screen:
    body = line[1:-1].strip() if len(line) > 2 else ''
    if re.match(r'^(Name|Opcode|Category|Layer) +Count +Total', body):
        inside = True
        continue
    if not inside:
        continue
    m = re.match(r'^(.*?) +([0-9,]+) +(' + D + r') +' + D + r'((?: +' + D + r')*)(?: +([0-9.]+)%)?$',
                 body)
    if not m:
        break
    name, count, total, share = m.group(1), int(m.group(2).replace(',', '')), m.group(3), m.group(5)
    cut = name.endswith('~')
    if cut:
        name = name[:-1]
    cands = [r for r in rows if (r[8] == '' if name.startswith('(no ') else
                                 (r[8].startswith(name) if cut else r[8] == name))]
    if not [r for r in cands if int(r[2]) == count and fmt(int(r[1])) == total]:
        bad.append('%r %d %s %s%%' % (name, count, total, share))
    checked += 1
print('ok %d' % checked if not bad and checked else 'bad %d: %s' % (checked, '; '.join(bad[:3])))
EOF
}

check_rows() {   # capture csv description
    [ $have_py = 1 ] || return 0
    res=$(panel_rows "$1" "$2")
    case $res in
    "ok "*) ok 0 "$3 (${res#ok } rows)" ;;
    *) ok 1 "$3"; echo "#   $res" ;;
    esac
}

# the --lanes of the report command a box's panel gives (after <End>)
panel_lanes() {
    awk 'index($0, "The same numbers in batch") { on = 1; next }
         on && /^\+/ { exit }
         on { sub(/^\| /, ""); sub(/ *\|$/, ""); printf "%s ", $0 }' "$1" |
        sed -n "s/.* --lanes '\(.*\)' TRACE .*/\1/p"
}

view() {   # cols rows copy [options]
    tm_start "$1" "$2" "cd '$TMPD' && LC_ALL=C '$TRACETTY' view ${4:-} '$3'; echo \"status=\$?\"; \
        echo FINISHED; sleep 600"
    tm_wait '\? help' 60
}

for trace in $traces; do
    for size in 80x24 200x50; do
        tn=$(basename "$trace")
        t="$tn $size"
        cols=${size%x*}
        rows=${size#*x}
        copy="$TMPD/$tn"
        rm -f "$copy" "$copy.markers.json" "$copy.markers.json.lock"
        cp "$trace" "$copy"

        # 1. a box by keyboard, markers at its edges and one inside
        if ! view "$cols" "$rows" "$copy"; then
            ok 1 "$t: the TUI opens"
            continue
        fi
        k1='vlllllllllllllllljjjjjjj<Enter>'
        tm_text vlllllllllllllllljjjjjjj; tm_keys Enter
        render_to "$TMPD/want" "$size" "$k1" "$copy"
        tm_same "$TMPD/want" "$t: a box by keyboard: its statistics = render"
        tm_capture > "$TMPD/box1"
        tm_keys End
        tm_capture > "$TMPD/box1.end"
        lanes=$(panel_lanes "$TMPD/box1.end")
        tm_keys Home
        tm_text m; tm_keys Escape; tm_text hhhhm
        keys="$k1<End><Home>m<Esc>hhhhm"
        render_to "$TMPD/want" "$size" "$keys" "$copy"
        tm_same "$TMPD/want" "$t: markers at the box's edges and one inside = render"
        tm_wait "' 3 markers\\*" 2
        ok $? "$t: the status line says 3 unsaved markers"
        tm_text q
        tm_wait 'quit without saving the markers' 3
        ok $? "$t: q asks, the markers are not saved"
        tm_text n
        tm_wait "' 3 markers\\*" 2
        ok $? "$t: n stays"

        # 2. rename them, save as set iter, quit
        tm_text "'r"; tm_keys C-u; tm_text iter_start; tm_keys Enter
        tm_text jr; tm_keys C-u; tm_text mid; tm_keys Enter
        tm_text jr; tm_keys C-u; tm_text iter_end; tm_keys Enter
        tm_text S; tm_text iter; tm_keys Enter
        keys="$keys'r<C-u>iter_start<Enter>jr<C-u>mid<Enter>jr<C-u>iter_end<Enter>Siter<Enter>"
        tm_wait "saved 3 markers as set 'iter'" 5
        ok $? "$t: saved as set iter"
        tm_capture > "$TMPD/marks"
        tm_wait "' set iter +\\?" 1
        ok $? "$t: the status line says set iter, saved"
        tm_keys Escape; tm_text q
        tm_wait FINISHED
        ok $? "$t: q quits at once when the markers are saved"
        tm_wait 'status=0' 1
        ok $? "$t: exit status 0"

        # 3. the CLI sees the same markers
        "$TRACETTY" markers list "$copy" > "$TMPD/list"
        grep -E '^ +[0-9.]+ [num]?s +(iter_start|mid|iter_end)' "$TMPD/list" |
            awk '{ print $1, $2, $3 }' > "$TMPD/list.cli"
        grep -E '^\| +[0-9.]+ [num]?s +(iter_start|mid|iter_end) ' "$TMPD/marks" |
            awk '{ print $2, $3, $4 }' > "$TMPD/list.tui"
        is "$(wc -l < "$TMPD/list.cli" | tr -d ' ')" 3 "$t: markers list shows the set's 3 markers"
        same_file "$TMPD/list.cli" "$TMPD/list.tui" \
            "$t: with the times and names the panel showed"

        # 4. reopen, load iter, box between iter_start and iter_end
        if ! view "$cols" "$rows" "$copy"; then
            ok 1 "$t: the TUI opens again"
            continue
        fi
        tm_text "'"; tm_keys End Enter
        render_to "$TMPD/want" "$size" "'<End><Enter>" "$copy"
        tm_same "$TMPD/want" "$t: reopened, set iter loaded from the panel = render"
        tm_wait "loaded set 'iter': 3 markers" 2
        ok $? "$t: the message says so"
        tm_wait "' set iter +\\?" 1
        ok $? "$t: the status line says set iter"
        tm_keys Space; tm_text jj; tm_keys Space; tm_text b
        render_to "$TMPD/want" "$size" "'<End><Enter><Space>jj<Space>b" "$copy"
        tm_same "$TMPD/want" "$t: b: statistics between iter_start and iter_end = render"
        tm_capture > "$TMPD/box2"
        grep -q 'Box .* lanes' "$TMPD/box2"
        ok $? "$t: a box over every lane"

        # 5. the report between the markers gives the same rows
        "$TRACETTY" report --markers iter --between iter_start:iter_end "$copy" \
            > "$TMPD/between.csv" 2> "$TMPD/err"
        ok $? "$t: report --markers iter --between iter_start:iter_end runs"
        check_rows "$TMPD/box2" "$TMPD/between.csv" \
            "$t: its rows are those of the box between the markers"
        if [ -n "$lanes" ]; then
            "$TRACETTY" report --markers iter --between iter_start:iter_end --lanes "$lanes" \
                "$copy" > "$TMPD/between1.csv" 2> "$TMPD/err"
            ok $? "$t: and with the first box's lanes"
            check_rows "$TMPD/box1" "$TMPD/between1.csv" \
                "$t: its rows are those of the first box (selected by keyboard)"
        fi

        # 6. an unsaved marker: q asks once, y quits, the set stays as saved
        tm_keys Escape; tm_text m
        tm_wait "' set iter\\*" 2
        ok $? "$t: a new marker: set iter*, unsaved"
        tm_text q
        tm_wait 'quit without saving the markers' 3
        ok $? "$t: q asks"
        tm_text y
        tm_wait FINISHED
        ok $? "$t: y quits"
        "$TRACETTY" markers list "$copy" --set iter > "$TMPD/list2"
        matches "$TMPD/list2" '^iter: 3 markers' "$t: the saved set is unchanged"
    done
done

# A job of 8 ranks (issue 8: marker sets apply to every rank): two markers
# dropped in the combined view and saved as set `job` are written beside
# every rank's trace, each in that trace's own times; boxing m1..m2 from
# the panel (b) gives each rank the window its copy names, so `report
# --markers job --between m1:m2` cuts every rank as the view does; the
# set loads back at the same job times; a set of one rank's file loads
# through that rank's start in the job.
gen="$builddir/samples/gen-trace"
if [ -x "$gen" ]; then
    job="$TMPD/jobm"
    mkdir "$job"
    r=0
    while [ $r -lt 8 ]; do
        "$gen" kineto --rank $r --world 8 --slow-rank 5 -o "$job/trace-$r-of-8.json"
        r=$((r + 1))
    done
    t="job8"
    view 200 50 "$job"
    i=0 k=m
    while [ $i -lt 40 ]; do k="${k}l"; i=$((i + 1)); done
    tm_text "${k}m'"
    tm_wait 'Markers \(not saved' 10
    ok $? "$t: m, 40 columns on, m: two markers in the panel"
    tm_capture | sed -n 's/^| *\([0-9.]* [mun]*s\)  m\([12]\) .*/m\2 \1/p' > "$TMPD/jobtimes"
    tm_text S
    tm_keys C-u
    tm_text job
    tm_keys Enter
    tm_wait "saved 2 markers as set 'job' in the 8 ranks' files" 10
    ok $? "$t: S saves set 'job' in the 8 ranks' files"
    n=0
    r=0
    while [ $r -lt 8 ]; do
        "$TRACETTY" markers list --format json --set job "$job/trace-$r-of-8.json" |
            tr -d ' \t\n' | grep -q "\"rank\":$r,\"ranks\":8," && n=$((n + 1))
        r=$((r + 1))
    done
    is "$n" 8 "$t: every rank's file holds 'job', recording its rank of 8"
    # b on m1: a box between the two over every lane
    tm_keys Home
    tm_text jb
    tm_wait 'statistics between markers m1 and m2|Box .* lanes of 8 ranks' 10
    ok $? "$t: b boxes m1..m2 over every rank"
    tm_keys End
    sleep 0.3
    tm_capture | awk '/tracetty report --kind ops / { sub(/^[|][^ ]* /, ""); sub(/ *[|]$/, "");
                                                      print }' > "$TMPD/jobcmds"
    is "$(wc -l < "$TMPD/jobcmds" | tr -d ' ')" 8 "$t: the panel gives a command per rank"
    same=0 win=0
    while read -r cmd; do
        args=${cmd#tracetty report --kind ops --by name }
        eval "set -- $args"
        w=$2
        shift 2
        # the last word is the rank's file (shell-quoted), before it the lanes
        eval "file=\${$#}"
        if [ $# -eq 3 ]; then set -- "$1" "$2"; else set --; fi
        # the box's window on this rank's clock is its copy of m1, m2
        "$TRACETTY" markers list --format json --set job "$file" |
            tr -d ' \t\n' | sed 's/.*"m1","t_ns":\([-0-9]*\).*"m2","t_ns":\([-0-9]*\).*/\1 \2/' \
            > "$TMPD/tns"
        awk -v w="$w" '{ split(w, p, ":"); for (i = 1; i <= 2; i++) { v = p[i]; sub(/ms$/, "", v)
                         if (sprintf("%.0f", v * 1e6) != $i) exit 1 } }' "$TMPD/tns" &&
            win=$((win + 1))
        "$TRACETTY" report --kind ops --by name --window "$w" "$@" "$file" > "$TMPD/a.csv"
        "$TRACETTY" report --kind ops --by name --markers job --between m1:m2 "$@" \
            "$file" > "$TMPD/b.csv" && cmp -s "$TMPD/a.csv" "$TMPD/b.csv" && same=$((same + 1))
    done < "$TMPD/jobcmds"
    is "$win" 8 "$t: each rank's window in the box is its copy's m1..m2, to the nanosecond"
    is "$same" 8 "$t: report --markers job --between m1:m2 = the box's report, rank by rank"
    "$TRACETTY" report --kind gpu --markers job --between m1:m2 "$job" > "$TMPD/gpu.csv"
    ok $? "$t: report --kind gpu --markers job over the directory runs"
    is "$(wc -l < "$TMPD/gpu.csv" | tr -d ' ')" 9 "$t: one row per rank"
    tm_text qq
    tm_wait FINISHED 10
    ok $? "$t: quits (the set is saved)"
    # a set in rank 3's file only, in its own times
    "$TRACETTY" markers add "$job/trace-3-of-8.json" --set own --at 50ms --name a
    "$TRACETTY" render --size 200x50 --keys '#' "$job" > "$TMPD/ranks"
    s3=$(sed -n 's/^| *3 trace-3-of-8\.json .* \([0-9.]* [mun]*s\) *\([0-9.]* [mun]*s\) *[0-9,]* |$/\1/p' \
         "$TMPD/ranks" | sed -n 's/ ms$//p')
    want=$(awk -v s="$s3" 'BEGIN { printf "%.3f ms", 50 + s }' | sed 's/\.\{0,1\}0* ms$/ ms/')
    view 200 50 "$job"
    tm_text "'"
    tm_wait "own +1 marker +\(rank 3's file\)" 10
    ok $? "$t: the panel lists rank 3's set"
    tm_wait "job +2 markers +\(every rank\)" 2
    ok $? "$t: and 'job', on every rank"
    tm_keys End
    tm_keys Enter
    tm_wait "loaded set 'own': 1 markers, from rank 3's file" 10
    ok $? "$t: Enter loads rank 3's set, saying whose it is"
    matches_screen() { tm_capture > "$TMPD/screen"; grep -Eq -- "$1" "$TMPD/screen"; }
    matches_screen "^\| +$want  a "
    ok $? "$t: its marker at 50 ms of rank 3 is at $want of the job (rank 3 starts at ${s3:-?} ms)"
    tm_keys End
    tm_keys Up
    tm_keys Enter
    tm_wait "loaded set 'job': 2 markers" 10
    ok $? "$t: 'job' loads back"
    tm_capture | sed -n 's/^| *\([0-9.]* [mun]*s\)  m\([12]\) .*/m\2 \1/p' > "$TMPD/jobtimes2"
    same_file "$TMPD/jobtimes2" "$TMPD/jobtimes" "$t: at the job times it was saved at"
    tm_text qq
    tm_wait FINISHED 10
    ok $? "$t: quits"
fi

# marker names from a file are drawn sanitized
copy="$TMPD/evil.json"
cp "$srcdir/tests/data/tui/basic.json" "$copy"
"$TRACETTY" markers add "$copy" --set evil --at 0.5ms --name "$(printf 'x\033]2;pwned\007y')" \
    --note "$(printf 'n\033[31mred')"
ok $? "a script writes a set with escape sequences in a marker's name and note"
for loc in C ${UTF8_LOCALE:-}; do
    LC_ALL=$loc "$TRACETTY" render --markers evil --keys "'j" "$copy" > "$TMPD/evil"
    ok "$(LC_ALL=C tr -d '\n' < "$TMPD/evil" | LC_ALL=C grep -c "$(printf '[\001-\037\177]')" |
          grep -qx 0; echo $?)" "$loc: no control character is drawn"
    matches "$TMPD/evil" 'x\\e\]2;pwned\\x07y' "$loc: the name shows its escapes"
    matches "$TMPD/evil" 'n\\e\[31mred' "$loc: so does the note"
done
view 80 24 "$copy" "--markers evil"
$TT_TMUX select-pane -t tt -T clean-title
tm_text "'"
tm_wait 'pwned' 5
ok $? "tmux: the panel lists the marker"
is "$(tm_flag pane_title)" clean-title "tmux: the pane title is untouched"
tm_text q
tm_text q
tm_wait FINISHED
ok $? "tmux: quits"
tap_done
