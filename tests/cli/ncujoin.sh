#!/bin/sh
# ncujoin.sh - `--metrics NCU.csv`: Nsight Compute metrics joined to a
# timeline's kernels (src/analysis/ncu_join.h) on a real Kineto trace from
# ../shared/traces and ncu-style CSVs of its kernels built from real ncu
# files (tests/data/ncujoin, see its README):
#   - match counts in the stderr note and `summary` (text, JSON), against
#     tests/cli/ncujoin_oracle.py, which does the join on its own (json
#     and csv modules, regular expressions for the names);
#   - every joined cell of `report --kind kernels --metrics` (and a
#     --metric column) equals the oracle's;
#   - a name ncu has and the timeline lacks (unmatched names), more
#     profiled launches of a name than the timeline has, a launch whose
#     block size differs;
#   - the ncu-underused rule in `check`, the details panel in `render`;
#   - bad --metrics input: not an ncu file, a missing file, a malformed
#     one: one clear error, exit 2.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
trace="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$trace" ] || skip_all "no shared resnet50 trace"
oracle="$srcdir/tests/cli/ncujoin_oracle.py"
data="$srcdir/tests/data/ncujoin"
first="$data/resnet50_first16.csv"
extra="$data/resnet50_extra.csv"

# every profiled launch found: the note on stderr, the summary line
"$TRACETTY" summary --metrics "$first" "$trace" >"$TMPD/s.txt" 2>"$TMPD/err"
ok $? "summary --metrics exits 0"
matches "$TMPD/err" 'resnet50_workers0.pt.trace.json.gz: ncu metrics: 16 of 16 profiled launches matched, 0 names unmatched' \
    "stderr: how many matched"
matches "$TMPD/s.txt" '^Metrics   ncu metrics: 16 of 16 profiled launches matched, 0 names unmatched$' \
    "summary: the ncu metrics line"
matches "$TMPD/s.txt" '^  ncu-underused ' "summary: the ncu rule is listed with --metrics"
"$TRACETTY" summary "$trace" >"$TMPD/s0.txt" 2>/dev/null
ok "$(grep -q ncu-underused "$TMPD/s0.txt"; [ $? -ne 0 ]; echo $?)" "... and not without"
"$TRACETTY" summary --format json --metrics "$first" "$trace" >"$TMPD/s.json" 2>/dev/null
matches "$TMPD/s.json" '"matched":[[:space:]]*16,' "summary JSON: matched"
matches "$TMPD/s.json" '"profiled":[[:space:]]*16,' "summary JSON: profiled"

# the joined columns against the oracle
"$TRACETTY" report --kind kernels --metrics "$first" "$trace" >"$TMPD/r.csv" 2>/dev/null
ok $? "report --kind kernels --metrics exits 0"
python3 "$oracle" "$trace" "$first" "$TMPD/r.csv" >"$TMPD/o.txt"
ok $? "every joined cell equals the oracle's"
matches "$TMPD/o.txt" '^16 of 16 profiled launches matched, 0 names unmatched$' \
    "the oracle's join matches as many"
head -1 "$TMPD/r.csv" >"$TMPD/h"
matches "$TMPD/h" '"Tensor Cores Used","Profiled Calls","Mean Duration \(ns\)",.*"Bound","Name"' \
    "the ncu columns sit before Name"
"$TRACETTY" report --kind kernels --metrics "$first" --metric "Elapsed Cycles" \
    --metric dram__bytes_read.sum "$trace" >"$TMPD/r.csv" 2>/dev/null
ok $? "--metric with --metrics exits 0"
python3 "$oracle" "$trace" "$first" "$TMPD/r.csv" "Elapsed Cycles" dram__bytes_read.sum \
    >/dev/null
ok $? "--metric columns equal the oracle's"
# without --metrics the kernels table is what it was
"$TRACETTY" report --kind kernels "$trace" >"$TMPD/plain.csv" 2>/dev/null
ok "$(grep -q 'Profiled Calls' "$TMPD/plain.csv"; [ $? -ne 0 ]; echo $?)" \
    "no ncu columns without --metrics"

# a name the timeline lacks, and one launch more than the timeline has
"$TRACETTY" summary --metrics "$extra" "$trace" >"$TMPD/s.txt" 2>"$TMPD/err"
ok $? "extra launches: summary exits 0"
"$TRACETTY" report --kind kernels --metrics "$extra" "$trace" >"$TMPD/r.csv" 2>/dev/null
python3 "$oracle" "$trace" "$extra" "$TMPD/r.csv" >"$TMPD/o.txt"
ok $? "extra launches: every joined cell equals the oracle's"
want=$(head -1 "$TMPD/o.txt")
is "$want" "22 of 24 profiled launches matched, 1 names unmatched" "the oracle: 22 of 24, 1 name"
matches "$TMPD/s.txt" "^Metrics   ncu metrics: $want\$" "summary agrees with the oracle"
matches "$TMPD/err" '2 past the timeline.s launches of their name' "stderr: the launches beyond"

# a launch whose block size differs is not matched
python3 - "$first" "$TMPD/shape.csv" <<'PY'
import sys
src = open(sys.argv[1], encoding="utf-8", newline="").read()
out = []
for line in src.split("\r\n"):
    if line.startswith('"1","'):
        line = line.replace('"(128, 1, 1)"', '"(999, 1, 1)"', 1)
    out.append(line)
open(sys.argv[2], "w", encoding="utf-8", newline="").write("\r\n".join(out))
PY
"$TRACETTY" report --kind kernels --metrics "$TMPD/shape.csv" "$trace" >"$TMPD/r.csv" 2>"$TMPD/err"
matches "$TMPD/err" '15 of 16 profiled launches matched.*1 with another grid/block size' \
    "another block size: not matched, said"
python3 "$oracle" "$trace" "$TMPD/shape.csv" "$TMPD/r.csv" >"$TMPD/o.txt"
ok $? "another block size: the cells equal the oracle's"

# the rule: heavy, latency-bound or low-occupancy kernels
"$TRACETTY" check --metrics "$first" --set ncu-underused.min_share=1 "$trace" >"$TMPD/c.txt" 2>/dev/null
"$TRACETTY" report --kind kernels --metrics "$first" "$trace" >"$TMPD/r.csv" 2>/dev/null
n=$(NCUJOIN_MIN_SHARE=1 python3 "$oracle" "$trace" "$first" "$TMPD/r.csv" | sed -n 's/^underused //p')
[ "$n" -gt 0 ]; ok $? "the oracle flags some kernels ($n)"
matches "$TMPD/c.txt" "ncu-underused: $n findings" "check: as many ncu-underused findings"
matches "$TMPD/c.txt" 'kernel volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1: .*latency-bound' \
    "a finding names the kernel and why"
"$TRACETTY" check --metrics "$first" "$trace" >"$TMPD/c.txt" 2>/dev/null
ok "$(grep -q 'ncu-underused' "$TMPD/c.txt"; [ $? -ne 0 ]; echo $?)" \
    "no finding at the default share (5%): the profiled launches are small kernels"

# the details panel of a matched kernel (ncu ID 1: the first launch of it)
"$TRACETTY" render --size 200x100 --disable all --metrics "$first" \
    --keys 'g/volta_scudnn_128x64_relu_medium<Enter><Enter>' "$trace" >"$TMPD/v.txt" 2>/dev/null
ok $? "render with --metrics exits 0"
matches "$TMPD/v.txt" 'Nsight Compute metrics' "details: the ncu section"
matches "$TMPD/v.txt" 'ncu ID +1 ' "details: the profiled launch"
matches "$TMPD/v.txt" 'Compute \(SM\) Throughput +41\.49 %' "details: SM throughput"
matches "$TMPD/v.txt" 'Achieved Occupancy +15\.18 %' "details: occupancy"
matches "$TMPD/v.txt" 'Registers Per Thread +128 ' "details: registers"
matches "$TMPD/v.txt" 'DRAM Bytes +3350000 bytes' "details: DRAM bytes"
matches "$TMPD/v.txt" 'Elapsed Cycles +46970 cycle' "details: a metric of the file with its unit"

# bad --metrics input
"$TRACETTY" summary --metrics "$trace" "$trace" >/dev/null 2>"$TMPD/err"
is "$?" 2 "not an ncu file: exit 2"
matches "$TMPD/err" '^tracetty: --metrics: .*resnet50_workers0.pt.trace.json.gz: not an Nsight Compute table \(ncu --csv, details or raw page\) but chrome-json$' \
    "not an ncu file: says so"
is "$(wc -l <"$TMPD/err")" 1 "not an ncu file: one line"
"$TRACETTY" report --kind kernels --metrics "$TMPD/none.csv" "$trace" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 2 "a missing file: exit 2"
matches "$TMPD/err" '^tracetty: --metrics: .*none.csv: ' "a missing file: named"
[ ! -s "$TMPD/out" ]; ok $? "a missing file: nothing on stdout"
"$TRACETTY" summary --metrics "$srcdir/tests/data/ncu/bad_value.csv" "$trace" >/dev/null 2>"$TMPD/err"
is "$?" 2 "a malformed ncu file: exit 2"
matches "$TMPD/err" 'bad_value.csv: row 3, column 11: metric' "a malformed ncu file: positioned"
"$TRACETTY" convert --metrics "$first" "$trace" -o "$TMPD/x.ttz" >/dev/null 2>"$TMPD/err"
is "$?" 2 "convert refuses --metrics"

tap_done
