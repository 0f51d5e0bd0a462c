#!/bin/sh
# overview.sh - `report --kind overview`, the slow-card rule, `--kind
# op-statistic` / `api-statistic` and the summary's statistic sections.
#
# On the real Ascend job in ../shared/traces-next/ascend/job_level1
# (skipped when absent), every number is checked against an independent
# python3 computation (tests/cli/overview_oracle.py: csv/json/decimal):
#   - the profiler's step_trace_time.csv, read exactly (us -> ns);
#   - the overview computed from trace_view.json (forced with
#     TRACETTY_OVERVIEW_SOURCE=timeline) equals the python computation to
#     the ns, and agrees with the profiler's own file within 1% in every
#     column: Computing, Communication (Not Overlapped), Overlapped,
#     Communication, Free, Stage, Bubble and Preparing (all of them: the
#     timeline holds the same device tasks the profiler summed);
#   - op_statistic.csv / api_statistic.csv re-emitted cell for cell;
#   - the older MindSpore step_trace_raw_N_detail_time.csv of 4 ranks, a
#     directory of them opening as a job, equal the python mapping.
# Bad side files give one positioned error and a non-zero exit; the
# slow-card rule fires on a constructed job and on no other rank.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
oracle="$srcdir/tests/cli/overview_oracle.py"
next="$srcdir/../shared/traces-next/ascend"

# Step,Computing..Preparing of an overview CSV (one trace: no Trace column).
ov_columns() {
    tr -d '\r' | awk -F, 'NR > 1 { gsub(/"/, "")
        print $2 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }'
}

# ---------------------------------------------------- constructed cases

# A rank directory: a Chrome trace of one kernel with its rank, and a
# step_trace_time.csv with the given Computing and Free (us).
mkrank() {   # mkrank DIR RANK COMPUTING FREE
    mkdir -p "$1"
    cat >"$1/trace_view.json" <<JSON
{"distributedInfo": {"rank": $2}, "traceEvents": [
 {"ph": "X", "name": "k", "cat": "kernel", "pid": 1, "tid": 7, "ts": 10, "dur": 5}]}
JSON
    printf 'Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\r\n1,%s,200.5,10,210.5,%s,900,0\r\n2,%s,200.5,10,210.5,%s,900,0\r\n' \
        "$3" "$4" "$3" "$4" >"$1/step_trace_time.csv"
}
mkrank "$TMPD/job/r0" 0 1000 50
mkrank "$TMPD/job/r1" 1 1100 60
mkrank "$TMPD/job/r2" 2 9000 55
mkrank "$TMPD/job/r3" 3 1050 5000
set -- "$TMPD"/job/r?/trace_view.json
"$TRACETTY" check --format csv "$@" >"$TMPD/ck.csv" 2>"$TMPD/err"
is "$(grep -c 'slow-card' "$TMPD/ck.csv")" 2 "slow-card: two findings over 4 ranks"
matches "$TMPD/ck.csv" 'slow-card.*rank 2: Computing 9 ms per step, [0-9.]+x the median' "slow-card: rank 2's Computing"
matches "$TMPD/ck.csv" 'slow-card.*rank 3: Free 5 ms per step' "slow-card: rank 3's Free"
"$TRACETTY" check --format csv --set slow-card.min_excess=100000 "$@" >"$TMPD/ck2.csv" 2>&1
is "$(grep -c 'slow-card' "$TMPD/ck2.csv")" 0 "slow-card: min_excess set high, no finding"
"$TRACETTY" check --format csv "$1" >"$TMPD/ck1.csv" 2>&1
is "$(grep -c 'slow-card' "$TMPD/ck1.csv")" 0 "slow-card: one rank alone, no finding"

# the file's numbers, exact to the ns (200.5 us = 200500 ns), the Average
"$TRACETTY" report --kind overview "$3" | ov_columns >"$TMPD/r2.got"
cat >"$TMPD/r2.want" <<'W'
1,9000000,200500,10000,210500,55000,900000,0,
2,9000000,200500,10000,210500,55000,900000,0,
Average,9000000,200500,10000,210500,55000,900000,0,
W
same_file "$TMPD/r2.got" "$TMPD/r2.want" "file: exact ns, no Preparing column in this file"
python3 "$oracle" file "$TMPD/job/r2/step_trace_time.csv" >"$TMPD/r2.py"
same_file "$TMPD/r2.py" "$TMPD/r2.want" "file: the python reading agrees"
"$TRACETTY" report --kind overview --format csv "$@" | tr -d '\r' | awk -F, 'NR > 1 { print $4 }' | sort -u | tr '\n' ' ' >"$TMPD/src"
is "$(cat "$TMPD/src")" '"file" ' "file: the Source column says so"

# the timeline with no steps: one row for the whole trace
TRACETTY_OVERVIEW_SOURCE=timeline "$TRACETTY" report --kind overview "$1" | ov_columns >"$TMPD/tl.got"
printf 'trace,5000,0,0,0,0,5000,,\nAverage,5000,0,0,0,0,5000,,\n' >"$TMPD/tl.want"
same_file "$TMPD/tl.got" "$TMPD/tl.want" "timeline: a trace without steps is one step, its kernel is Computing"
TRACETTY_OVERVIEW_SOURCE=bogus "$TRACETTY" report --kind overview "$1" >/dev/null 2>"$TMPD/err"
ok "$([ $? -ne 0 ]; echo $?)" "TRACETTY_OVERVIEW_SOURCE=bogus: non-zero exit"
matches "$TMPD/err" 'TRACETTY_OVERVIEW_SOURCE=bogus: expected file, timeline or auto' "... and says what it takes"
rm "$TMPD/job/r0/step_trace_time.csv"
TRACETTY_OVERVIEW_SOURCE=file "$TRACETTY" report --kind overview "$1" >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" 'no step_trace_time.csv beside' "TRACETTY_OVERVIEW_SOURCE=file without the file: an error"

# bad side files: one positioned error, non-zero exit, never a crash
bad() {   # bad NAME CONTENT KIND REGEX
    mkdir -p "$TMPD/bad"
    cp "$TMPD/job/r1/trace_view.json" "$TMPD/bad/"
    rm -f "$TMPD/bad"/*.csv
    printf "$2" >"$TMPD/bad/$1"
    "$TRACETTY" report --kind "$3" "$TMPD/bad/trace_view.json" >/dev/null 2>"$TMPD/err"
    st=$?
    ok "$([ "$st" -ne 0 ] && [ "$st" -lt 128 ]; echo $?)" "bad $1 ($5): non-zero exit, no crash"
    is "$(grep -c . "$TMPD/err")" 1 "bad $1 ($5): one line"
    matches "$TMPD/err" "$4" "bad $1 ($5): positioned"
}
hdr='Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n'
bad step_trace_time.csv "${hdr}1,10,20,3" overview 'step_trace_time.csv: row 2, column 4: the row ends after 4 of the header.s 6 cells' "truncated row"
bad step_trace_time.csv "${hdr}1,10,2x0,3,23,4\n" overview 'step_trace_time.csv: row 2, column 3: Communication\(Not Overlapped\): expected a number, got "2x0"' "non-numeric cell"
bad step_trace_time.csv "Step,Computing\n1,2\n" overview 'step_trace_time.csv: row 1, column 1: no Communication\(Not Overlapped\) column' "missing column"
bad step_trace_time.csv "${hdr}1,10,\"20,3,23,4\n" overview 'step_trace_time.csv: row 2' "open quote"
bad op_statistic.csv 'OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%%)\nMatMul,AI_CORE,three,1,1,1,1,1\n' op-statistic 'op_statistic.csv: row 2, column 3: Count: expected a number, got "three"' "non-numeric cell"
bad api_statistic.csv 'Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\nacl,x,1,1,1,1,1,1\nacl,y,1,1' api-statistic 'api_statistic.csv: row 3, column 4: the row ends' "truncated row"
printf 'step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n1,10,20,10,11,19,0,8,1\n2,20,3O,10,21,29,0,8,1\n' >"$TMPD/step_trace_raw_0_detail_time.csv"
"$TRACETTY" report --kind overview "$TMPD/step_trace_raw_0_detail_time.csv" >/dev/null 2>"$TMPD/err"
ok "$([ $? -ne 0 ]; echo $?)" "bad step_trace_raw (non-numeric): non-zero exit"
matches "$TMPD/err" 'row 3, column 3: "end_point": expected a number' "bad step_trace_raw: positioned"

# ------------------------------------------------------ the real files
if [ ! -d "$next" ]; then
    tap_done
    exit $?
fi

for r in 0 1; do
    d="$next/job_level1/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT"
    t="$d/trace_view.json"
    "$TRACETTY" report --kind overview "$t" >"$TMPD/f.csv" 2>"$TMPD/err"
    ok $? "rank $r: overview exits 0"
    ov_columns <"$TMPD/f.csv" >"$TMPD/f.got"
    python3 "$oracle" file "$d/step_trace_time.csv" >"$TMPD/f.want"
    same_file "$TMPD/f.got" "$TMPD/f.want" "rank $r: step_trace_time.csv read exactly (python csv)"
    TRACETTY_OVERVIEW_SOURCE=timeline "$TRACETTY" report --kind overview "$t" | ov_columns >"$TMPD/t.got"
    python3 "$oracle" timeline "$t" >"$TMPD/t.want"
    same_file "$TMPD/t.got" "$TMPD/t.want" "rank $r: computed from trace_view.json, equal to the python computation"
    python3 "$oracle" agree "$TMPD/t.got" "$TMPD/f.want" 1 >"$TMPD/agree" 2>&1
    ok $? "rank $r: the computed overview agrees with the profiler's within 1% in every column"
    sed 's/^/#   /' "$TMPD/agree"
    for k in op api; do
        "$TRACETTY" report --kind $k-statistic --format csv "$t" | tr -d '\r' >"$TMPD/s.csv"
        python3 "$oracle" stat "$TMPD/s.csv" "$d/${k}_statistic.csv"
        ok $? "rank $r: --kind $k-statistic holds ${k}_statistic.csv cell for cell"
    done
done
t0="$next/job_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
t1="$next/job_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
"$TRACETTY" report --kind overview --format csv "$t0" "$t1" | tr -d '\r' | awk -F, 'NR > 1 { print $2 }' | sort -u | tr '\n' ' ' >"$TMPD/ranks"
is "$(cat "$TMPD/ranks")" "0 1 " "two ranks in one table, ranks from the traces"
"$TRACETTY" summary "$t0" >"$TMPD/sum" 2>&1
matches "$TMPD/sum" '^Operators \(op_statistic.csv\): 33 rows, the top by Total Time\(us\)' "summary: the op_statistic section"
matches "$TMPD/sum" '^  ForeachAddList +AI_VECTOR_CORE +1959.079$' "summary: its top row"
matches "$TMPD/sum" '^CANN APIs \(api_statistic.csv\): 57 rows' "summary: the api_statistic section"
matches "$TMPD/sum" '^  aclrtSynchronizeStreamWithTimeout +acl +97887.24$' "summary: its top row"

# the older MindSpore folder as it is (flops_summary_N.json, hccl_raw_N.csv
# and more beside the step traces) is a 4-rank job
ms="$next/mindspore_legacy_4rank"
"$TRACETTY" report --kind overview --format csv "$ms" >"$TMPD/ms.csv" 2>"$TMPD/err"
ok $? "legacy: report --kind overview DIR exits 0"
for r in 0 1 2 3; do
    tr -d '\r' <"$TMPD/ms.csv" | awk -F, -v r=$r 'NR > 1 && $2 == r { gsub(/"/, "")
        print $3 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 "," $12 }' >"$TMPD/ms.got"
    python3 "$oracle" legacy "$ms/step_trace_raw_${r}_detail_time.csv" >"$TMPD/ms.want"
    same_file "$TMPD/ms.got" "$TMPD/ms.want" "legacy rank $r (from the file name): 5 steps equal the python mapping"
done
tap_done
