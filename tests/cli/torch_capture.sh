#!/bin/sh
# torch_capture.sh - tracetty's numbers against PyTorch's own, on a real
# capture kept in the project: tests/data/torch/ (a small transformer's
# training steps on an NVIDIA H200, made by tests/data/torch/capture.sh:
# the Kineto trace, key_averages() of the same profiler session as JSON and
# as PyTorch's printed table, and Nsight Compute's raw CSV of 60 launches
# of the same steps run unprofiled). The comparisons are in
# tests/cli/torch_capture_oracle.py:
#   - `report --kind operators`: every row against key_averages() (calls,
#     self and total CPU and CUDA time), and the text form's two total
#     lines against PyTorch's printed table, character for character;
#   - `tracetty query`: count, sum(dur) and sum(self_dur) per category and
#     name of the slice table against key_averages()'s counts and totals;
#   - the ncu CSV: per kernel name the launches and mean/min/max duration.
. "$srcdir/tests/lib.sh"

top=$(cd "$srcdir" && pwd)
D="$top/tests/data/torch"
T="$D/train.pt.trace.json.gz"
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || skip_all "no python3"
oracle="$top/tests/cli/torch_capture_oracle.py"
cd "$TMPD" || exit 1

"$TRACETTY" report --kind operators "$T" >ops.csv 2>ops.err
ok $? "report --kind operators of the H200 capture"
"$py" "$oracle" operators "$D/key_averages.json" ops.csv >ops.out
ok $? "operators: every row as PyTorch's key_averages() has it ($(tail -1 ops.out))"
sed '$d' ops.out | head -5 | sed 's/^/# /'

"$TRACETTY" report --kind operators --format text "$T" >ops.txt 2>/dev/null
ok $? "operators as text"
grep '^Self C[PU]*[A-Z]* time total: ' ops.txt >totals.got
grep '^Self C[PU]*[A-Z]* time total: ' "$D/key_averages.txt" >totals.want
[ -s totals.want ] && [ "$(wc -l <totals.want)" -eq 2 ]
ok $? "PyTorch's table has its two total lines"
same_file totals.got totals.want "text: Self CPU and Self CUDA time totals as PyTorch prints them"

"$TRACETTY" query "$T" "SELECT category, name, count(*) AS n, sum(dur) AS total,
        sum(self_dur) AS self FROM slice GROUP BY 1, 2" >slices.csv 2>slices.err
ok $? "query: counts and sums per category and name"
"$py" "$oracle" slices "$D/key_averages.json" slices.csv >slices.out
ok $? "query: slice counts, durations and self times as key_averages() has them ($(tail -1 slices.out))"
sed '$d' slices.out | head -5 | sed 's/^/# /'
nk=$("$py" -c 'import gzip, json, sys
print(sum(1 for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("cat") == "kernel"))' "$T")
[ "${nk:-0}" -gt 0 ]
ok $? "python counts the kernels of the trace ($nk)"
is "$("$TRACETTY" query "$T" "SELECT count(*) FROM slice WHERE category = 'kernel'" | tr -d '\r' | sed -n 2p)" \
    "$nk" "query: the kernels of the trace, as python counts them"

# The same model in bf16 autocast (tests/data/torch/amp/): autocast
# redispatches (aten::layer_norm calling aten::layer_norm) are one call in
# key_averages(), and the diff of the two runs is PyTorch's two tables'.
A="$D/amp/train.pt.trace.json.gz"
"$TRACETTY" report --kind operators "$A" >amp.csv 2>amp.err
ok $? "report --kind operators of the bf16 autocast capture"
"$py" "$oracle" operators "$D/amp/key_averages.json" amp.csv >amp.out
ok $? "autocast: every row as key_averages() has it, redispatches folded ($(tail -1 amp.out))"
sed '$d' amp.out | head -5 | sed 's/^/# /'
"$TRACETTY" report --kind operators --format text "$A" 2>/dev/null |
    grep '^Self C[PU]*[A-Z]* time total: ' >amp_totals.got
grep '^Self C[PU]*[A-Z]* time total: ' "$D/amp/key_averages.txt" >amp_totals.want
same_file amp_totals.got amp_totals.want "autocast text: the totals as PyTorch prints them"
"$TRACETTY" diff --kind operators "$T" "$A" >diff.csv 2>diff.err
ok $? "diff --kind operators of the fp32 and the autocast run"
"$py" "$oracle" diff "$D/key_averages.json" "$D/amp/key_averages.json" diff.csv >diff.out
ok $? "diff: counts and device totals of both sides as the two key_averages() ($(tail -1 diff.out))"
sed '$d' diff.out | head -5 | sed 's/^/# /'

# The same model with with_stack, with_modules and profile_memory
# (tests/data/torch/stack/): Python frames, nn.Module calls and [memory]
# events in the trace. ProfilerStep#N starts inside one Python frame and
# ends outside it; PyTorch builds its op tree without the frames, and so
# must tracetty on such lanes to give the same self times and totals.
S="$D/stack/train.pt.trace.json.gz"
"$TRACETTY" report --kind operators "$S" >stack.csv 2>stack.err
ok $? "report --kind operators of the with_stack capture"
"$py" "$oracle" operators "$D/stack/key_averages.json" stack.csv >stack.out
ok $? "with_stack: every row as key_averages() has it ($(tail -1 stack.out))"
sed '$d' stack.out | head -5 | sed 's/^/# /'
"$TRACETTY" report --kind operators --format text "$S" 2>/dev/null |
    grep '^Self C[PU]*[A-Z]* time total: ' >stack_totals.got
grep '^Self C[PU]*[A-Z]* time total: ' "$D/stack/key_averages.txt" >stack_totals.want
same_file stack_totals.got stack_totals.want "with_stack text: the totals as PyTorch prints them"
"$TRACETTY" report --kind operators --by module "$S" >modules.csv 2>/dev/null
"$py" "$top/tests/cli/attrib_oracle.py" --by-module "$S" modules.csv >modules.out
ok $? "with_stack: --by module as python computes it from the real nn.Module frames ($(tail -1 modules.out))"

"$TRACETTY" report --kind kernels "$D/ncu_raw.csv" >ncu.csv 2>ncu.err
ok $? "report --kind kernels of the ncu CSV"
"$py" "$oracle" ncu "$D/ncu_raw.csv" ncu.csv >ncu.out
ok $? "ncu: launches and durations per kernel as python reads the CSV ($(tail -1 ncu.out))"
sed '$d' ncu.out | head -5 | sed 's/^/# /'
"$TRACETTY" report --kind kernels --metrics "$D/ncu_raw.csv" "$T" >joined.csv 2>joined.err
ok $? "report --kind kernels --metrics: the capture joined with its ncu run"
matches joined.err 'ncu metrics: [1-9][0-9]* of 60 profiled launches matched, 0 names unmatched' \
    "the join matches launches of every profiled name"

tap_done
