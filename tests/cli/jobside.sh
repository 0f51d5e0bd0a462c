#!/bin/sh
# jobside.sh - the loose ends of issue 16 around an Ascend job's side files
# and options:
#   - a malformed communication_matrix.json (or step_trace_time.csv) is one
#     positioned error and exit 2 in `check`, `summary` and `report`, as
#     every side file that feeds a result is (kernel_details.csv,
#     profiler_info_*.json): a rule's input is not skipped silently;
#   - `report --kind overview --format text` shows durations in human
#     units; CSV keeps exact ns;
#   - overview honours --window (timeline rows cut at its edges, checked to
#     the ns against tests/cli/overview_oracle.py; file rows kept when their
#     step meets it; the legacy MindSpore steps meeting it) and --lanes
#     (the timeline source over those lanes, against the oracle; an error
#     with the file source forced or a legacy step trace);
#   - `diff --metrics` is refused with a clear message.
# Real files: ../shared/traces-next/ascend (skipped when absent).
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
oracle="$srcdir/tests/cli/overview_oracle.py"
next="$srcdir/../shared/traces-next/ascend"

# ------------------------------------------------------------ diff --metrics
"$TRACETTY" diff --metrics "$srcdir/tests/data/ncujoin/resnet50_first16.csv" \
    "$srcdir/samples/demo.json" "$srcdir/samples/demo.json" >"$TMPD/out" 2>"$TMPD/err"
is $? 2 "diff --metrics: exit 2"
matches "$TMPD/err" '^tracetty: diff: --metrics does not apply: diff compares timelines' \
    "diff --metrics: says it does not apply"
is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "diff --metrics: nothing on stdout"

[ -d "$next/job_level1" ] || { tap_done; exit $?; }

# ------------------------------------------------ malformed side files
job="$TMPD/job"
cp -r "$next/job_level1" "$job"
chmod -R u+w "$job"
out1="$job/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT"
head -c 300 "$next/job_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication_matrix.json" \
    >"$out1/communication_matrix.json"
for cmd in check summary "report --kind comm-matrix"; do
    # shellcheck disable=SC2086
    "$TRACETTY" $cmd "$job" >/dev/null 2>"$TMPD/err"
    is $? 2 "$cmd, a cut-off communication_matrix.json: exit 2"
    matches "$TMPD/err" 'rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication_matrix\.json: line 1, column 301 \(byte 300\): the file ends inside the JSON document: it is cut off' \
        "$cmd, a cut-off communication_matrix.json: the file, line and column"
    is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "$cmd, a cut-off communication_matrix.json: one error"
done
printf '{"step1": {"collective": {"a@1": {"0-1": {"Transport Type": "HCCS"}}}}}' \
    >"$out1/communication_matrix.json"
"$TRACETTY" check "$job" >/dev/null 2>"$TMPD/err"
is $? 2 "check, a link without its size: exit 2"
matches "$TMPD/err" 'communication_matrix\.json: at step1\.collective\.a@1\.0-1: no "Transit Size\(MB\)" member' \
    "check, a link without its size: its JSON path"
cp "$next/job_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication_matrix.json" "$out1/"
"$TRACETTY" check "$job" >/dev/null 2>"$TMPD/err"
ok $(($? > 1)) "check, the matrix restored: no error"
sed 's/^50,8/50,x8/' "$next/job_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv" \
    >"$out1/step_trace_time.csv"
"$TRACETTY" check "$job" >/dev/null 2>"$TMPD/err"
is $? 2 "check, a bad step_trace_time.csv: exit 2"
matches "$TMPD/err" 'rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time\.csv: row 2, column 2: Computing: expected a number, got "x8878' \
    "check, a bad step_trace_time.csv: its row and column"

# ------------------------------------------------------- overview, text
r0="$next/job_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
"$TRACETTY" report --kind overview --format text "$r0" >"$TMPD/ov.txt"
ok $? "overview --format text: exit 0"
matches "$TMPD/ov.txt" '^Rank +Step +Source +Computing +Communication \(Not Overlapped\) +Overlapped +Communication +Free +Stage +Bubble +Preparing$' \
    "overview text: titles without (ns)"
# 8873756 ns, 101963203 ns, ... of the file, in human units
matches "$TMPD/ov.txt" '^ +0 +50 +file +8\.874 ms +101\.963 ms +4\.029 ms +105\.992 ms +25\.744 ms +136\.581 ms +0 ns +17\.903 ms$' \
    "overview text: durations in human units"
"$TRACETTY" report --kind overview "$r0" | tr -d '\r' >"$TMPD/ov.csv"
matches "$TMPD/ov.csv" '^"Rank","Step","Source","Computing \(ns\)",' "overview CSV: titles keep (ns)"
matches "$TMPD/ov.csv" '^0,"50","file",8873756,101963203,4028675,105991878,25744050,136581000,0,17902500$' \
    "overview CSV: exact ns"

# ------------------------------------------------ overview, --window
ov_columns() {
    tr -d '\r' | awk -F, 'NR > 1 { gsub(/"/, "")
        print $2 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }'
}
# the window from 10 ms to 100 ms into step 50 (its start from --kind steps)
s=$("$TRACETTY" report --kind steps "$r0" | awk -F, 'NR == 2 { print $3 }')
lo=$((s + 10000000))
hi=$((s + 100000000))
TRACETTY_OVERVIEW_SOURCE=timeline "$TRACETTY" report --kind overview --window "$lo:$hi" "$r0" \
    >"$TMPD/w.csv"
ok $? "overview --window, timeline: exit 0"
ov_columns <"$TMPD/w.csv" >"$TMPD/w.got"
python3 "$oracle" timeline-window "$r0" 10000000 100000000 >"$TMPD/w.want"
same_file "$TMPD/w.got" "$TMPD/w.want" "overview --window, timeline: the step cut at the window, to the ns"
"$TRACETTY" report --kind overview --window "$lo:$hi" "$r0" | ov_columns >"$TMPD/wf.got"
python3 "$oracle" file "${r0%/*}/step_trace_time.csv" >"$TMPD/wf.want"
same_file "$TMPD/wf.got" "$TMPD/wf.want" "overview --window, file: a step meeting it is the profiler's whole step"
"$TRACETTY" report --kind overview --window 0:1ms "$r0" >"$TMPD/w0.csv" 2>"$TMPD/err"
ok $? "overview --window before the step: exit 0"
is "$(ov_columns <"$TMPD/w0.csv" | wc -l | tr -d ' ')" 0 "overview --window before the step: no rows"
matches "$TMPD/err" 'no step meets the window' "overview --window before the step: says so"
TRACETTY_OVERVIEW_SOURCE=timeline "$TRACETTY" report --kind overview --window 0:1ms "$r0" \
    >"$TMPD/w1.csv" 2>/dev/null
is "$(ov_columns <"$TMPD/w1.csv" | wc -l | tr -d ' ')" 0 \
    "overview --window before the step, timeline: no rows (not the window as a step)"

# ------------------------------------------------- overview, --lanes
"$TRACETTY" report --kind overview --lanes 'Ascend Hardware*' "$r0" >"$TMPD/l.csv"
ok $? "overview --lanes: exit 0"
matches "$TMPD/l.csv" '^0,"50","timeline",' "overview --lanes: the timeline source"
ov_columns <"$TMPD/l.csv" >"$TMPD/l.got"
python3 "$oracle" timeline-hw "$r0" >"$TMPD/l.want"
same_file "$TMPD/l.got" "$TMPD/l.want" "overview --lanes: only those lanes' events count, to the ns"
TRACETTY_OVERVIEW_SOURCE=file "$TRACETTY" report --kind overview --lanes 'Ascend*' "$r0" \
    >/dev/null 2>"$TMPD/err"
is $? 2 "overview --lanes with the file source: exit 2"
matches "$TMPD/err" '--lanes: the profiler.s step_trace_time\.csv sums every lane' \
    "overview --lanes with the file source: says why"

# ------------------------------------- the older MindSpore step trace
legacy="$next/mindspore_legacy_4rank/step_trace_raw_0_detail_time.csv"
if [ -f "$legacy" ]; then
    # step 2 spans [180814430, 361827120) after the trace start; the
    # window [180814430, 361827120) meets it alone (steps 1 and 3 touch it)
    "$TRACETTY" report --kind overview --window 180814430:361827120 "$legacy" | ov_columns \
        >"$TMPD/lg.got"
    python3 "$oracle" legacy "$legacy" | awk -F, '$1 == 2 { print; sub(/^2,/, "Average,"); print }' \
        >"$TMPD/lg.want"
    same_file "$TMPD/lg.got" "$TMPD/lg.want" "legacy overview --window: the step meeting it, whole"
    "$TRACETTY" report --kind overview --lanes 'Step*' "$legacy" >/dev/null 2>"$TMPD/err"
    is $? 2 "legacy overview --lanes: exit 2"
    matches "$TMPD/err" '--lanes: an older MindSpore step trace.s overview needs all of its lanes' \
        "legacy overview --lanes: says why"
fi

tap_done
