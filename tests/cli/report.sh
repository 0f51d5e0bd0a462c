#!/bin/sh
# report.sh - golden outputs of `tracetty report`: every kind in every
# format on the handwritten fixtures in tests/data/report/ (small.json: a
# CPU thread and two GPU streams with kernels, an NCCL collective, copies
# and a memset; rank-1.json: a second rank; unsafe.json: names with control
# characters and formula-like text), several traces at once, windows, lane
# patterns, argument keys, and the bundled demo trace.
#
# The numbers of small.json were worked out by hand (see the GPU row check
# below and tests/data/report/README); test_stats checks the engine against
# brute force on random traces. To regenerate after an intended change:
#   TT_REGEN_GOLDEN=1 make check TESTS=tests/cli/report.sh
# and review the diff before committing.
. "$srcdir/tests/lib.sh"

data="$srcdir/tests/data/report"
golden="$srcdir/tests/golden/report"

# Run from the data directory so Trace cells and titles hold relative names.
cd "$data" || exit 1

# golden NAME ARGS...: run `tracetty report ARGS`, compare with golden/NAME
golden() {
    name=$1
    shift
    "$TRACETTY" report "$@" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "report $* exits 0"
    if [ "${TT_REGEN_GOLDEN:-}" = 1 ]; then
        cp "$TMPD/out" "$golden/$name"
    fi
    same_file "$TMPD/out" "$golden/$name" "report $*: matches $name"
    is "$(cat "$TMPD/err")" "" "report $*: nothing on stderr"
}

for kind in ops lanes transfers gpu events; do
    golden "small.$kind.csv" --kind "$kind" small.json
    golden "small.$kind.json" --kind "$kind" --format json small.json
    golden "small.$kind.txt" --kind "$kind" --format text small.json
done
golden small.default.csv small.json
golden small.by-cat.txt --format text --by cat small.json
golden small.by-lane.csv --by lane small.json
golden small.window.csv --window 4us:12us --lanes 'GPU*' --by category small.json
golden small.window-open.json --format json --kind lanes --window 10us: small.json
golden small.transfers-by-lane.csv --kind transfers --by lane small.json
golden small.events-args.csv --kind events --by 'arg:External id' --by arg:grid \
    --window 2us: --lanes '*main,*stream 7' small.json
golden multi.ops.csv small.json rank-1.json
golden multi.gpu.csv --kind gpu small.json rank-1.json
golden multi.gpu.txt --kind gpu --format text small.json rank-1.json
golden multi.lanes.txt --kind lanes --format text small.json rank-1.json
golden multi.transfers.json --kind transfers --format json small.json rank-1.json
golden unsafe.ops.csv unsafe.json
golden unsafe.ops.txt --format text unsafe.json
golden unsafe.events.json --kind events --format json unsafe.json

# Argument columns: a JSON number stays a number (no formula guard, so a
# negative Bytes of a [memory] event is still -1 in a spreadsheet); text
# that looks like a formula or a number is guarded.
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k":-1,"s":"-2","f":"=1+1","r":-0.5}}]' \
    >"$TMPD/args.json"
"$TRACETTY" report --kind events --by arg:k --by arg:s --by arg:f --by arg:r "$TMPD/args.json" \
    >"$TMPD/args.csv"
is "$(sed -n 2p "$TMPD/args.csv" | tr -d '\r' | cut -d, -f7-)" "-1,\"'-2\",\"'=1+1\",-0.5" \
    "argument cells: numbers plain, formula-like text guarded"

# The GPU row of small.json, worked out by hand from the fixture (us):
# computation = [3,7) u [8,9.5) u [13.5,14) u [15,18) = 9; communication =
# [5,11) = 6; memcpy = [11,13) u [16,20) = 6; busy = [3,13) u [13.5,14) u
# [15,20) = 15.5 of total [3,20) = 17; exposed communication = [7,8) u
# [9.5,11) = 2.5; exposed memcpy = [11,13) u [18,20) = 4; idle 1.5 = 8.8%.
row=$("$TRACETTY" report --kind gpu small.json | sed -n 2p | tr -d '\r')
is "$row" "3,17000,15500,1500,9000,6000,2500,6000,4000,8.8" "gpu row of small.json (by hand)"

# Several traces: every CSV row starts with the trace; ranks from the
# metadata (3) and from the file name (rank-1).
"$TRACETTY" report --kind gpu small.json rank-1.json | tr -d '\r' >"$TMPD/g"
is "$(cut -d, -f1-2 "$TMPD/g" | tr '\n' ' ')" '"Trace","Rank" "small.json",3 "rank-1.json",1 ' \
    "Trace column and ranks"

# To a terminal, CSV and JSON escape control characters too (util-linux
# script(1) gives the program a terminal); to a file they keep the bytes.
esc=$(printf '\033')
if command -v script >/dev/null 2>&1 &&
   script -qec true /dev/null >/dev/null 2>&1; then
    for fmt in csv json; do
        script -qec "'$TRACETTY' report --format $fmt unsafe.json" /dev/null >"$TMPD/tty" 2>&1
        ok "$(! grep -q "$esc" "$TMPD/tty"; echo $?)" "$fmt to a terminal: no raw ESC"
        matches "$TMPD/tty" 'esc\\+e\[31mred' "$fmt to a terminal: the escape is shown"
    done
else
    ok 0 "# SKIP script(1) is not available"
fi
"$TRACETTY" report unsafe.json >"$TMPD/file"
ok "$(grep -q "$esc" "$TMPD/file"; echo $?)" "CSV to a file keeps the real bytes"

# The bundled demo (written by samples/gen-trace; regenerate these goldens
# when it changes).
demo="$srcdir/samples/demo.json"
if [ -f "$demo" ]; then
    cd "$srcdir/samples" || exit 1
    for kind in ops lanes transfers gpu; do
        golden "demo.$kind.csv" --kind "$kind" demo.json
        golden "demo.$kind.json" --kind "$kind" --format json demo.json
        golden "demo.$kind.txt" --kind "$kind" --format text demo.json
    done
    # events: a short window, or the files would hold the whole trace
    for ext in csv json txt; do
        fmt=$ext
        [ "$ext" = txt ] && fmt=text
        golden "demo.events.$ext" --kind events --format "$fmt" --window 100ms:100.5ms \
            --lanes '*stream*' --by arg:correlation demo.json
    done
    golden demo.ops-window.json --format json --window 100ms:150ms --by cat demo.json
else
    ok 0 "# SKIP samples/demo.json is absent"
fi

tap_done
