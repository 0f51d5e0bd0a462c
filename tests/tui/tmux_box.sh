#!/bin/sh
# tmux_box.sh - box select in the real TUI, by keyboard and by mouse, on
# the demo and on a Kineto trace from ../shared/traces (skipped when
# absent), at 80x24 and 200x50:
#   - every screen equals what `tracetty render` prints for the same input;
#   - the breakdown rows the statistics panel shows (name, count, total;
#     its share is of self time, tmux_boxself.sh checks it) are rows of
#     `tracetty report` run with the command the panel gives for its
#     window and lanes (--window FROM:TO --lanes ...);
#   - `e` writes a CSV file whose tables are byte for byte those of
#     `report --kind ops|lanes|transfers|gpu` for that window and lanes;
#   - a double click selects every event of a name; its count and total
#     are those of `report --kind ops --by name` for the whole trace.
# Comparing the panel's rows needs python3 (skipped without it); the CSV
# comparisons do not.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

have_py=0
command -v python3 > /dev/null 2>&1 && have_py=1

shared=$(shared_traces)
traces="$srcdir/samples/demo.json"
[ -f "$shared/pytorch/resnet50_workers0.pt.trace.json.gz" ] &&
    traces="$traces $shared/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$srcdir/samples/demo.json" ] || skip_all "no samples/demo.json"

# panel_rows CAPTURE REPORT_CSV: every breakdown row the panel shows is a
# row of the report: prints "ok N" (N rows checked) or what differs.
panel_rows() {
    PYTHONPATH="$srcdir/tests/tui" python3 - "$1" "$2" <<'EOF'
import csv, re, sys
screen = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
rows = list(csv.reader(open(sys.argv[2], newline='', encoding='utf-8')))[1:]
from ttfmt import fmt   # tt_fmt_dur(ns, 3)
inside = False
checked = 0
bad = []
for line in screen:
    body = line[1:-1].strip() if len(line) > 2 else ''
    if re.match(r'^(Name|Opcode|Category|Layer) +Count +Total', body):
        inside = True
        continue
    if not inside:
        continue
    D = r'[0-9.]+ [num]?s'
    m = re.match(r'^(.*?) +([0-9,]+) +(' + D + r') +' + D + r'((?: +' + D + r')*)(?: +([0-9.]+)%)?$',
                 body)
    if not m:
        break
    name, count, total, share = m.group(1), int(m.group(2).replace(',', '')), m.group(3), m.group(5)
    cut = name.endswith('~') or name.endswith('\u2026')
    if cut:
        name = name[:-1]
    if name.startswith('(no '):
        cands = [r for r in rows if r[8] == '']
    else:
        cands = [r for r in rows if (r[8].startswith(name) if cut else r[8] == name)]
    hit = [r for r in cands if int(r[2]) == count and fmt(int(r[1])) == total]
    if not hit:
        bad.append('%r %d %s %s%%: no such report row' % (name, count, total, share))
    checked += 1
print('ok %d' % checked if not bad and checked else 'bad %d: %s' % (checked, '; '.join(bad[:3])))
EOF
}

# batch_cmd CAPTURE: the report command the panel shows (after <End>).
batch_cmd() {
    awk 'index($0, "The same numbers in batch") { on = 1; next }
         on && /^[+\342]/ { exit }
         on { sub(/^[|\342][^ ]* /, ""); sub(/ *[|\342][^ ]*$/, ""); printf "%s ", $0 }' "$1"
}

run_case() {   # trace size how keys
    trace=$1 size=$2 how=$3 keys=$4
    tn=$(basename "$trace")
    t="$tn $size $how"
    cols=${size%x*}
    rows=${size#*x}
    tm_start "$cols" "$rows" "cd '$TMPD' && LC_ALL=C '$TRACETTY' '$trace'; echo \"status=\$?\"; \
        echo FINISHED; sleep 600"
    if ! tm_wait '\? help' 60; then
        ok 1 "$t: the TUI opens"
        return
    fi
    if [ "$how" = mouse ]; then
        # the same drag as an SGR report sequence: press, two moves, release
        printf '%s' "$keys" | sed 's/<\([A-Za-z]*\):\([0-9]*\),\([0-9]*\)>/\1 \2 \3\n/g' |
            while read -r ev x y; do
                [ -n "$ev" ] || continue
                x=$((x + 1)); y=$((y + 1))
                case $ev in
                Press) printf '\033[<0;%d;%dM' "$x" "$y" ;;
                Drag) printf '\033[<32;%d;%dM' "$x" "$y" ;;
                Release) printf '\033[<0;%d;%dm' "$x" "$y" ;;
                esac
            done > "$TMPD/mouse"
        $TT_TMUX send-keys -t tt -H $(od -An -tx1 "$TMPD/mouse")
    else
        tm_text "$(printf '%s' "$keys" | sed 's/<Enter>$//')"
        tm_keys Enter
    fi
    render_to "$TMPD/want" "$size" "$keys" "$trace"
    tm_same "$TMPD/want" "$t: the box's statistics panel = render"
    tm_capture > "$TMPD/panel"
    grep -q 'Box .* lanes\?' "$TMPD/panel"
    ok $? "$t: the panel is the box's statistics"
    tm_keys End
    render_to "$TMPD/want" "$size" "$keys<End>" "$trace"
    tm_same "$TMPD/want" "$t: its last lines = render"
    tm_capture > "$TMPD/end"
    cmd=$(batch_cmd "$TMPD/end")
    # a path that fills its line pushes the closing quote onto the next
    # one, which the join above turned into " '": glue it back
    cmd=${cmd%"${cmd##*[! ]}"}
    case $cmd in *" '") cmd="${cmd% \'}'" ;; esac
    # it ends with the trace's file, shell-quoted (wrapped lines may have
    # split it: compare without spaces; the trace's path has none)
    file=${cmd##* \'}
    file="'$(printf '%s' "$file" | tr -d ' ')"
    case $cmd in
    "tracetty report --kind ops --by "*" --window "*)
        is "$file" "'$trace'" "$t: the panel gives the report command, naming the file" ;;
    *) ok 1 "$t: the panel gives the report command"; echo "#   got: $cmd" ;;
    esac
    args=${cmd#tracetty report }
    args=${args% \'*}
    eval "set -- $args"
    # "--kind ops --by KEY", then the window and lanes
    key=$4
    shift 4
    "$TRACETTY" report --kind ops --by "$key" "$@" "$trace" > "$TMPD/ops.csv" 2> "$TMPD/err"
    ok $? "$t: the report runs: $(head -c 200 "$TMPD/err")"
    if [ $have_py = 1 ]; then
        res=$(panel_rows "$TMPD/panel" "$TMPD/ops.csv")
        case $res in
        "ok "*) ok 0 "$t: the panel's rows are the report's (${res#ok } rows)" ;;
        *) ok 1 "$t: the panel's rows are the report's"; echo "#   $res" ;;
        esac
    fi
    # e: the tables to a CSV file, named in the prompt
    tm_text e
    tm_wait 'write the tables to: ' 5
    ok $? "$t: e asks for a file name"
    tm_keys C-u
    tm_text "$TMPD/box.csv"
    tm_keys Enter
    tm_wait_file "$TMPD/box.csv" 10
    ok $? "$t: e writes the file"
    tm_wait 'box.csv: written' 5
    ok $? "$t: and says where"
    : > "$TMPD/want.csv"
    n=0
    for kind in ops lanes transfers gpu; do
        if [ $kind = ops ]; then
            cp "$TMPD/ops.csv" "$TMPD/k.csv"
        else
            "$TRACETTY" report --kind "$kind" "$@" "$trace" > "$TMPD/k.csv"
        fi
        # transfers and gpu are there when the box has any (as the panel
        # shows them): a transfer row, a kernel, copy or memset
        case $kind in
        transfers) [ "$(wc -l < "$TMPD/k.csv")" -gt 1 ] || continue ;;
        gpu) "$TRACETTY" report --kind gpu --format json "$@" "$trace" |
                 grep -q '"kernels":0,"memcpys":0,"memsets":0' && continue ;;
        esac
        [ $n -gt 0 ] && printf '\r\n' >> "$TMPD/want.csv"
        cat "$TMPD/k.csv" >> "$TMPD/want.csv"
        n=$((n + 1))
    done
    # the ops table is by the panel's key; the report above had it too
    same_file "$TMPD/box.csv" "$TMPD/want.csv" \
        "$t: the file holds the report's tables for that window and lanes"
    # the same name again: asked before replacing; n keeps the file, y replaces
    echo keep > "$TMPD/box.csv"
    for answer in n y; do
        tm_text e
        tm_wait 'write the tables to: ' 5
        tm_keys C-u
        tm_text "$TMPD/box.csv"
        tm_keys Enter
        tm_wait 'box\.csv exists: replace it\? y/n' 5
        ok $? "$t: an existing file: asked before replacing ($answer)"
        tm_text $answer
        if [ $answer = n ]; then
            tm_wait 'nothing written: .*box\.csv is kept' 5
            ok $? "$t: n says nothing was written"
            is "$(cat "$TMPD/box.csv")" keep "$t: n keeps the file"
        else
            tm_wait 'box.csv: written' 5
            same_file "$TMPD/box.csv" "$TMPD/want.csv" "$t: y replaces it"
        fi
    done
    rm -f "$TMPD/box.csv"
    tm_text q
    tm_text q
    tm_wait FINISHED
    ok $? "$t: quits"
    tm_wait 'status=0' 1
    ok $? "$t: exit status 0"
}

for trace in $traces; do
    for size in 80x24 200x50; do
        run_case "$trace" "$size" keyboard 'vlllllllllllllllljjjjjjj<Enter>'
        # a drag from the first lane row down 8 rows and over 30 columns
        case $size in
        80x24) drag='<Press:30,3><Drag:45,6><Drag:60,11><Release:60,11>' ;;
        *) drag='<Press:50,3><Drag:90,10><Drag:130,20><Release:130,20>' ;;
        esac
        run_case "$trace" "$size" mouse "$drag"
    done
done

# a double click: every event of a name, trace-wide
trace="$srcdir/samples/demo.json"
tm_start 80 24 "LC_ALL=C '$TRACETTY' '$trace'; echo FINISHED; sleep 600"
if tm_wait '\? help' 30; then
    printf '\033[<0;31;4M\033[<0;31;4m\033[<0;31;4M\033[<0;31;4m' > "$TMPD/dclick"
    $TT_TMUX send-keys -t tt -H $(od -An -tx1 "$TMPD/dclick")
    render_to "$TMPD/want" 80x24 '<DClick:30,3>' "$trace"
    tm_same "$TMPD/want" "double click: the name's statistics = render"
    tm_capture > "$TMPD/name"
    name=$(sed -n "s/.*All '\(.*\)' in the trace.*/\1/p" "$TMPD/name")
    line=$(grep -E '[0-9,]+ events? [|] total' "$TMPD/name")
    count=$(printf '%s' "$line" | sed 's/^[|] \([0-9,]*\) event.*/\1/' | tr -d ,)
    "$TRACETTY" report --kind ops --by name "$trace" > "$TMPD/names.csv"
    want=$(grep -F ",\"$name\"" "$TMPD/names.csv" | head -1 | cut -d, -f3)
    is "$count" "$want" "double click on $name: its count is the report's"
    tm_text q
    tm_text q
    tm_wait FINISHED
    ok $? "double click: quits"
else
    ok 1 "double click: the TUI opens"
fi
tap_done
