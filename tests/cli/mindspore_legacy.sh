#!/bin/sh
# mindspore_legacy.sh - an older MindSpore cluster directory (issue 16):
# ../shared/traces-next/ascend/mindspore_legacy_4rank opens as it is, one
# rank per step_trace_raw_N_detail_time.csv (its flops_summary_N.json,
# hccl_raw_N.csv and pipeline CSVs are not ranks), in report, summary,
# check and the view; `report --kind comm` and `--kind comm-matrix` read
# each rank's hccl_raw_N.csv, every cell equal to tests/cli/hccl_oracle.py
# (python's csv and json modules over the same files; it also checks the
# units and step totals the mapping assumes against the files' own
# numbers). A malformed hccl_raw gives one positioned error and exit 2.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
ms="$srcdir/../shared/traces-next/ascend/mindspore_legacy_4rank"
[ -d "$ms" ] || skip_all "no ../shared/traces-next/ascend/mindspore_legacy_4rank"
oracle="$srcdir/tests/cli/hccl_oracle.py"

# the folder as it is: four ranks, the step traces
"$TRACETTY" report --kind ranks --quiet "$ms" >"$TMPD/ranks.csv" 2>"$TMPD/err"
ok $? "report --kind ranks on the folder as it is"
is "$(tr -d '\r' <"$TMPD/ranks.csv" | awk -F, 'NR > 1 { printf "%s ", $1 }')" "0 1 2 3 " "ranks 0 to 3"
is "$(grep -c 'step_trace_raw_[0-3]_detail_time\.csv' "$TMPD/ranks.csv")" 4 \
    "each rank's file is its step trace"
if grep -q 'flops_summary\|hccl_raw\|pipeline-parallel' "$TMPD/ranks.csv"; then
    ok 1 "no side file is a rank"
else
    ok 0 "no side file is a rank"
fi
"$TRACETTY" report --kind overview --format csv "$ms" >"$TMPD/ov.csv" 2>"$TMPD/err"
ok $? "report --kind overview DIR exits 0"
is "$(tr -d '\r' <"$TMPD/ov.csv" | awk -F, 'NR > 1 { print $2 }' | sort -u | tr '\n' ' ')" "0 1 2 3 " \
    "overview: a row set per rank"
"$TRACETTY" summary "$ms" >"$TMPD/sum.txt" 2>"$TMPD/err"
ok $? "summary DIR exits 0"
"$TRACETTY" check --quiet "$ms" >"$TMPD/check.txt" 2>"$TMPD/err"
rc=$?; [ $rc -le 1 ]; ok $? "check DIR (exit $rc)"
"$TRACETTY" render --size 100x30 --keys B "$ms" >"$TMPD/view.txt" 2>"$TMPD/err"
ok $? "render the job view with the matrix (B)"
matches "$TMPD/view.txt" '^src.dst +0 +1' "matrix: the ranks of the hccl_raw links"

# comm and comm-matrix: every cell against python
for kind in comm comm-matrix; do
    for totals in "" --totals; do
        t="$kind${totals:+ $totals}"
        "$TRACETTY" report --kind $kind $totals "$ms" >"$TMPD/r.csv" 2>"$TMPD/err"
        ok $? "$t DIR: exits 0"
        python3 "$oracle" $kind $totals "$TMPD/r.csv" "0=$ms/hccl_raw_0.csv" "1=$ms/hccl_raw_1.csv" \
            "2=$ms/hccl_raw_2.csv" "3=$ms/hccl_raw_3.csv" >"$TMPD/o" 2>&1
        ok $? "$t: every cell equals the csv/json oracle ($(head -c 40 "$TMPD/o") rows)"
        [ $? -eq 0 ] || sed 's/^/#   /' "$TMPD/o" | head -20
    done
done
"$TRACETTY" report --kind comm "$ms/step_trace_raw_1_detail_time.csv" | tr -d '\r' >"$TMPD/r.csv"
matches "$TMPD/r.csv" '^1,"step1","","Total Op Info","",,,2\.614750,333\.777640,,,0\.9922,$' \
    "comm: rank 1 step 1 total is the file's communication_cost and wait_cost"
"$TRACETTY" report --kind comm-matrix --totals "$ms/step_trace_raw_0_detail_time.csv" | tr -d '\r' >"$TMPD/r.csv"
matches "$TMPD/r.csv" '^0,"step1","","Total Op Info","",1,0,"SDMA",52\.706816,2\.520910,20\.9079$' \
    "comm-matrix: rank 0 step 1 link 1-0 (52706.816 KB in 2.52091 ms)"

# slow-link on the hccl_raw links: a card's copies within itself (SRC ==
# DST, SDMA in these files) are compared only with such copies
"$TRACETTY" check --all "$ms" >"$TMPD/c.txt" 2>"$TMPD/err"
grep -o 'rank [0-9]*, step[0-9]*: link [0-9]*->[0-9]* ([A-Z]*)' "$TMPD/c.txt" | sort >"$TMPD/got"
python3 - "$ms" >"$TMPD/want" <<'EOF'
import csv, json, statistics, sys
for r in range(4):
    tot = {}
    for row in csv.DictReader(open("%s/hccl_raw_%d.csv" % (sys.argv[1], r), newline="")):
        if row["step_num"] == "-":
            continue
        for op, v in json.loads(row["communication_operator_cost"]).items():
            for key, types in v[3].items():
                for typ, x in types.items():
                    t = tot.setdefault((row["step_num"], key), [typ, 0.0, 0.0])
                    t[0] = typ
                    t[1] += x[1] / 1e3
                    t[2] += x[0]
    bw = {k: t[1] / t[2] for k, t in tot.items() if t[1] > 0 and t[2] > 0}
    def kind(k):
        src, dst = k[1].split("-")
        return (tot[k][0], src == dst)
    for k, b in bw.items():
        same = [x for j, x in bw.items() if kind(j) == kind(k)]
        if len(same) >= 3 and b < 0.5 * statistics.median(same):
            src, dst = k[1].split("-")
            print("rank %d, step%s: link %s->%s (%s)" % (r, k[0], src, dst, tot[k][0]))
EOF
sort -o "$TMPD/want" "$TMPD/want"
same_file "$TMPD/got" "$TMPD/want" "slow-link: the links python finds, in-card copies apart ($(wc -l <"$TMPD/want") findings)"

# a malformed hccl_raw: one positioned error, exit 2
bad="$TMPD/bad"
mkdir "$bad"
cp "$ms/step_trace_raw_0_detail_time.csv" "$bad/"
python3 - "$ms/hccl_raw_0.csv" "$bad/hccl_raw_0.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
rows[2][4] = rows[2][4][:5000]
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
EOF
"$TRACETTY" report --kind comm "$bad/step_trace_raw_0_detail_time.csv" >/dev/null 2>"$TMPD/err"
is $? 2 "a cut JSON cell: exit 2"
matches "$TMPD/err" 'hccl_raw_0\.csv: row 3, column 5: invalid JSON at character 5001 of the cell' \
    "a cut JSON cell: the file, row, column and where in the cell"
python3 - "$ms/hccl_raw_0.csv" "$bad/hccl_raw_0.csv" <<'EOF'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
ops = json.loads(rows[1][4])
ops["stream_41_3_AllReduce-op4585"][3]["1-0"]["SDMA"][1] = "big"
rows[1][4] = json.dumps(ops)
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
EOF
"$TRACETTY" report --kind comm-matrix "$bad/step_trace_raw_0_detail_time.csv" >/dev/null 2>"$TMPD/err"
is $? 2 "a size that is not a number: exit 2"
matches "$TMPD/err" 'hccl_raw_0\.csv: row 2, column 5: communication_operator_cost: op "stream_41_3_AllReduce-op4585", link 1-0: a transport.s time, size and bandwidth are numbers' \
    "a size that is not a number: the row, op and link"
printf 'step_num,communication_cost\n1,2\n' >"$bad/hccl_raw_0.csv"
"$TRACETTY" report --kind comm "$bad/step_trace_raw_0_detail_time.csv" >/dev/null 2>"$TMPD/err"
is $? 2 "not an hccl_raw table: exit 2"
matches "$TMPD/err" 'hccl_raw_0\.csv: row 1, column 1: not an hccl_raw table' "not an hccl_raw table: says so"
rm "$bad/hccl_raw_0.csv"
"$TRACETTY" report --kind comm "$bad/step_trace_raw_0_detail_time.csv" >/dev/null 2>"$TMPD/err"
ok $? "no hccl_raw beside the step trace: exits 0"
matches "$TMPD/err" 'hccl_raw_N\.csv beside step_trace_raw_N_detail_time\.csv' "no hccl_raw: the note names it"

# a file named like a step trace that is none is not a rank
cp "$ms/step_trace_raw_1_detail_time.csv" "$bad/"
printf '{"FLOPs": 1}\n' >"$bad/step_trace_raw_7_detail_time.csv"
cp "$ms/flops_summary_0.json" "$bad/"
"$TRACETTY" report --kind ranks --quiet "$bad" >"$TMPD/ranks.csv" 2>"$TMPD/err"
ok $? "a step-trace name on other content: exits 0"
is "$(tr -d '\r' <"$TMPD/ranks.csv" | awk -F, 'NR > 1 { printf "%s ", $1 }')" "0 1 " \
    "only the real step traces are ranks"
tap_done
