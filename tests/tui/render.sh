#!/bin/sh
# render.sh - golden screens of `tracetty render`: the timeline as the TUI
# draws it, after replaying keys, at several sizes and zooms, in an ASCII
# (LC_ALL=C) and a UTF-8 (C.UTF-8) locale.
#
# To rewrite the goldens after an intended change of the screen:
#   TT_GOLDEN_OUT=$srcdir/tests/golden/render make check TESTS=tests/tui/render.sh
# and review the diff.
. "$srcdir/tests/lib.sh"

gold="$srcdir/tests/golden/render"
data="$srcdir/tests/data/tui"
demo="$srcdir/samples/demo.json"

utf8_locale=
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-\?8'; then utf8_locale=$l; break; fi
done

# name | trace | size | options | keys (last: it may hold '|')
# The cases before the box/markers/annotations ones run with the warning
# rules off (--disable all), so each golden shows one feature; the later
# ones show the annotations as `view` draws them by default.
cases='
basic|basic.json|80x24|--disable all|
basic-zoom|basic.json|80x24|--disable all|wwwwlll
basic-details|basic.json|80x24|--disable all|jj<Tab><Enter>
basic-details-scroll|basic.json|80x24|--disable all|jj<Tab><Enter>jjjjjjjjjjjjjjjj
basic-flow|basic.json|100x30|--disable all|/gemm<Enter><Enter><Enter>
basic-parent|basic.json|100x30|--disable all|/gemm<Enter><Enter><Enter>j<Enter>
basic-help|basic.json|80x24|--disable all|?
basic-help-end|basic.json|80x24|--disable all|?<PgDn><PgDn><PgDn>
basic-fold|basic.json|80x24|--disable all|k<Space>
basic-fold-all|basic.json|80x24|--disable all|CjC
basic-depth0|basic.json|80x24|--disable all|D
basic-color-cat|basic.json|80x24|--disable all|c
basic-small|basic.json|40x12|--disable all|
basic-tiny|basic.json|20x6|--disable all|
basic-tiny-details|basic.json|20x6|--disable all|jj<Tab><Enter>
basic-wide|basic.json|200x50|--disable all|W
basic-goto|basic.json|80x24|--disable all|:1.2ms<Enter>
basic-goto-range|basic.json|80x24|--disable all|:0.05ms..0.25ms<Enter>
basic-ns|basic.json|80x24|--disable all|:60us..60.08us<Enter>
basic-pan|basic.json|80x24|--disable all|WWddddaj
basic-start-end|basic.json|80x24|--disable all|WWG
basic-mouse|basic.json|80x24|--disable all|<Click:40,5><WheelUp:40,5><WheelUp:40,5><S-WheelDown:40,5>
basic-drag|basic.json|80x24|--disable all|<Press:30,1><Drag:50,1><Release:50,1>
basic-longest|basic.json|80x24|--disable all|jjjjjjjjjLL
basic-search|basic.json|80x24|--disable all|/~^aten::(mm|addmm)$<Enter>nn
basic-search-none|basic.json|80x24|--disable all|/nothing-like-this<Enter>
basic-occurrence|basic.json|80x24|--disable all|/relu<Enter>]][
basic-resize|basic.json|80x24|--disable all|jj<Tab><Enter><Resize:120x30>
basic-prompt|basic.json|80x24|--disable all|/gem
evil|evil.json|100x20|--disable all|
evil-details|evil.json|100x30|--disable all|g<Enter><End>
evil-search|evil.json|100x24|--disable all|/RED<Enter><Enter>
demo|demo|80x24|--disable all|
demo-wide|demo|200x50|--disable all|
demo-kernel|demo|80x24|--disable all|/cat:kernel<Enter>T<Enter>
demo-launch|demo|80x24|--disable all|/cat:kernel<Enter>T<Enter><Enter>
demo-parent|demo|200x50|--disable all|/cat:kernel<Enter>T<Enter><Enter>jj<Enter>
demo-parent-80|demo|80x24|--disable all|/cat:kernel<Enter>T<Enter><Enter>jj<Enter>
basic-box-stretch|basic.json|80x24|--disable all|jjvllllllllllllljjjjjj
basic-box|basic.json|80x24|--disable all|jjvllllllllllllljjjjjj<Enter>
basic-box-end|basic.json|80x24|--disable all|jjvllllllllllllljjjjjj<Enter><End>
basic-box-kept|basic.json|80x24|--disable all|jjvllllllllllllljjjjjj<Enter><Esc>wwwa
basic-box-by|basic.json|120x30|--disable all|jjvllllllllllllljjjjjj<Enter>bo
basic-box-mouse|basic.json|100x30|--disable all|<Press:30,4><Drag:45,6><Drag:60,11><Release:60,11>
basic-box-hilite|basic.json|80x24|--disable all|jjvllllllllllllljjjjjj<Enter>jjjjj<Enter>n
basic-box-cancel|basic.json|80x24|--disable all|jjvlllllllll<Esc>
basic-name|basic.json|80x24|--disable all|<DClick:40,4>
demo-box|demo|200x50|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>
demo-calltree|demo|80x24|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>c
demo-calltree-open|demo|80x24|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>cjjjjl+
demo-calltree-bu|demo|200x50|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>ctl
demo-calltree-icicle|demo|80x24|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>cijjj
demo-calltree-icicle-wide|demo|200x50|--disable all|vlllllllllllllllljjjjjjjjjjjjjjj<Enter>cijl
basic-marks|basic.json|80x24|--disable all|mllllllllllmhhhhhhhhhhhhhhhhhhhhhhhhm
basic-marks-zoom|basic.json|80x24|--disable all|mllllllllllmWa
basic-marks-panel|basic.json|80x24|--disable all|mllllllllllm<RClick:30,5>'\''r<C-u>fwd<Enter>n<C-u>the forward pass<Enter>j<Space>j<Space>
basic-marks-rename|basic.json|80x24|--disable all|mllllllllllm'\''r
basic-marks-quit|basic.json|80x24|--disable all|mq
basic-annot|basic.json|80x24||
demo-annot|demo|80x24||
demo-annot-wide|demo|200x50||
demo-annot-panel|demo|80x24||!
demo-annot-goto|demo|80x24||!jjjjjj<Enter><Enter><Esc><Esc>
demo-annot-detail|demo|80x24||!jjjjjj<Enter>
demo-annot-off|demo|80x24||A
ranks-job|ranks|80x24||
ranks-job-fold|ranks|80x24||C
ranks-job-wide|ranks|200x50||W
ranks-job-rank|ranks|80x24|--disable all|jjj
ranks-job-next|ranks|80x24|--disable all|>>lll
ranks-tab|ranks|80x24||2
ranks-tab-step|ranks|80x24||1><lt>
ranks-tab-zero|ranks|80x24|--disable all|1`
ranks-tab-back|ranks|80x24|--disable all|2R
ranks-colls|ranks|80x24||X
ranks-colls-wide|ranks|200x50||X
ranks-coll-panel|ranks|100x30||Xj<Enter>
ranks-coll-kernel|ranks|100x30|--disable all|Xj<Enter>j<Enter>
ranks-colls-search|ranks|80x24|--disable all|X/broad<Enter>n
ranks-job-box|ranks|120x40|--disable all|vjjjjjjjllllllllllllllllllll<Enter>
ranks-job-box1|ranks|100x30|--disable all|jvjllllllllll<Enter>
ranks-colls-box|ranks|100x30|--disable all|Xkkkvjjjllllllllllllllllllllllllllll<Enter>
ranks-job-box-hilite|ranks|120x40|--disable all|vjjjjjjjllllllllllllllllllll<Enter>jjjjj<Enter>n
ranks-colls-box-hilite|ranks|100x30|--disable all|Xkkkvjjjllllllllllllllllllllllllllll<Enter>jjjjj<Enter>n
ranks-panel|ranks|100x30||#
ranks-align|ranks|100x30|--align start|#
ranks-annot|ranks|80x24||!
ranks-annot-go|ranks|80x24||!j<Enter><Enter>
ranks-annot-detail|ranks|80x24||!j<Enter>
ranks-marks|ranks|80x24|--disable all|mlllllllllllllm2
ranks-help|ranks|80x24||?<PgDn><PgDn><PgDn><PgDn><PgDn>
ranks-help-end|ranks|80x24||?<End>
ranks-tiny|ranks|40x12||
ranks-mouse|ranks|80x24|--disable all|<Click:11,1><Click:20,1><Click:5,3>
'

run_case() {   # locale name trace size keys options
    loc=$1 name=$2 trace=$3 size=$4 keys=$5 opts=$6
    case $trace in
    demo) dir=$(dirname "$demo") file=$(basename "$demo") ;;
    *) dir=$data file=$trace ;;
    esac
    # from the trace's directory: the batch commands the panels print name
    # the file as given, the same in every checkout
    # shellcheck disable=SC2086 # options are words
    (cd "$dir" && LC_ALL=$loc "$TRACETTY" render --size "$size" --keys "$keys" $opts "$file")
}

check_locale() {   # locale suffix
    loc=$1 sfx=$2
    echo "$cases" | while IFS='|' read -r name trace size opts keys; do
        [ -n "$name" ] || continue
        out="$TMPD/$name.$sfx.txt"
        if [ "$trace" = demo ] && [ ! -f "$demo" ]; then
            echo "ok - $name ($sfx) # SKIP no samples/demo.json"
            continue
        fi
        run_case "$loc" "$name" "$trace" "$size" "$keys" "$opts" > "$out" 2> "$TMPD/err"
        echo "rc=$? $(cat "$TMPD/err")" > "$TMPD/rc"
        if [ -n "${TT_GOLDEN_OUT:-}" ]; then cp "$out" "$TT_GOLDEN_OUT/$name.$sfx.txt"; fi
        if [ "$(cat "$TMPD/rc")" != "rc=0 " ]; then
            echo "not ok - $name ($sfx): $(cat "$TMPD/rc")"
        elif cmp -s "$out" "$gold/$name.$sfx.txt"; then
            echo "ok - $name ($sfx)"
        else
            echo "not ok - $name ($sfx) differs from $gold/$name.$sfx.txt"
            diff -u "$gold/$name.$sfx.txt" "$out" | head -30 | sed 's/^/#   /'
        fi
    done
}

{
    check_locale C ascii
    if [ -n "$utf8_locale" ]; then
        check_locale "$utf8_locale" utf8
    else
        echo "ok - UTF-8 goldens # SKIP no UTF-8 locale"
    fi
} > "$TMPD/results"

# renumber for TAP
n=0
failed=0
while IFS= read -r line; do
    case $line in
    "ok - "*) n=$((n + 1)); echo "ok $n ${line#ok }" ;;
    "not ok - "*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n ${line#not ok }" ;;
    *) echo "$line" ;;
    esac
done < "$TMPD/results"
tap_n=$n
tap_failed=$failed

# every screen has exactly the requested size: rows, and no line wider
# than the columns (display width, checked in the ASCII locale)
LC_ALL=C "$TRACETTY" render --size 37x11 --keys 'wwj<Enter>' "$data/basic.json" > "$TMPD/sz"
is "$(wc -l < "$TMPD/sz" | tr -d ' ')" 11 "37x11 gives 11 lines"
ok "$(awk 'length($0) > 37 { bad = 1 } END { exit bad }' "$TMPD/sz"; echo $?)" \
    "no line is wider than 37 columns"

# --ansi: styles as SGR sequences, and nothing else that is an escape
LC_ALL=C "$TRACETTY" render --ansi --keys 'j<Enter>' "$data/basic.json" > "$TMPD/ansi"
matches "$TMPD/ansi" "$(printf '\033')\\[0;38;5;" "--ansi writes 256-color SGR sequences"
sed 's/\x1b\[[0-9;]*m//g' "$TMPD/ansi" > "$TMPD/ansi.plain"
LC_ALL=C "$TRACETTY" render --keys 'j<Enter>' "$data/basic.json" > "$TMPD/plain"
ok "$(sed 's/ *$//' "$TMPD/ansi.plain" | cmp -s - "$TMPD/plain"; echo $?)" \
    "--ansi without its SGR sequences is the plain screen"
NO_COLOR=1 LC_ALL=C "$TRACETTY" render --ansi "$data/basic.json" > "$TMPD/nocolor"
ok "$(grep -c '38;5;' "$TMPD/nocolor" | grep -qx 0; echo $?)" \
    "NO_COLOR: --ansi uses attributes only, no colors"

tap_done
