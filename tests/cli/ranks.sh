#!/bin/sh
# ranks.sh - a generated 8-rank job with one slow rank (5): the reports,
# the collectives and the straggler annotation name it; per-rank reports
# merged with merge-reports equal one run over the directory (run with
# GNU parallel when it is installed); the real two-rank set loads as 0, 1.
. "$srcdir/tests/lib.sh"
gen="$builddir/samples/gen-trace"
job="$TMPD/job"
mkdir -p "$job"
for r in 0 1 2 3 4 5 6 7; do
    "$gen" kineto --rank $r --world 8 --slow-rank 5 -o "$job/train-$r-of-8.json" || break
done
is "$(ls "$job" | wc -l)" 8 "8 rank traces generated"

# ranks: rank 5 computes 40% more than the median; the others within 2%
"$TRACETTY" report --kind ranks --quiet "$job" >"$TMPD/ranks.csv"; ok $? "report --kind ranks DIR"
is "$(head -n 1 "$TMPD/ranks.csv" | tr -d '\r')" '"Rank","Steps","Avg Step (ns)","Computation (ns)","Communication (ns)","Exposed Communication (ns)","Idle (ns)","Step vs Median (%)","Computation vs Median (%)","Trace"' "ranks header"
awk -F, 'NR > 1 { dev = $9 + 0; if (dev > 30) slow = slow " " $1; else if (dev > 2 || dev < -2) odd = odd " " $1 }
         END { print "slow:" slow " odd:" odd }' "$TMPD/ranks.csv" >"$TMPD/verdict"
is "$(cat "$TMPD/verdict")" "slow: 5 odd:" "only rank 5 deviates from the median computation"
is "$(awk -F, 'NR > 1 { n++ } END { print n }' "$TMPD/ranks.csv")" 8 "one row per rank"
is "$(awk -F, 'NR > 1 && $2 != 4 { n++ } END { print n + 0 }' "$TMPD/ranks.csv")" 0 "4 steps on every rank"

# collectives: rank 5 is the one with no wait at the all-reduces
"$TRACETTY" report --kind collectives --quiet "$job" >"$TMPD/colls.csv"; ok $? "report --kind collectives DIR"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$TMPD/colls.csv" >"$TMPD/cv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ar = [r for r in rows if "AllReduce" in r["Collective"]]
last = {}
for r in ar:
    if int(r["Wait (ns)"]) == 0:
        last[r["Rank"]] = last.get(r["Rank"], 0) + 1
who = max(last, key=last.get)
waits_on_5 = sum(1 for r in ar if r["Rank"] == "5" and int(r["Wait (ns)"]) > 0)
small = sum(1 for r in ar if r["Rank"] != "5" and int(r["Wait (ns)"]) < 1000000)
bad = sum(1 for r in rows if int(r["Start Offset (ns)"]) < 0 or int(r["Wait (ns)"]) < 0 or r["Ranks"] != "8")
print("last:%s waits-on-5:%d small:%d bad:%d groups:%d" % (who, waits_on_5, small, bad, len(ar) // 8))
PY
    is "$(cut -d' ' -f1-2 "$TMPD/cv")" "last:5 waits-on-5:0" "rank 5 arrives last at every all-reduce and never waits"
    is "$(cut -d' ' -f3 "$TMPD/cv")" "small:0" "every other rank waits over 1 ms at every all-reduce"
    is "$(cut -d' ' -f4 "$TMPD/cv")" "bad:0" "offsets and waits are non-negative; every collective on 8 ranks"
fi

# the straggler annotation names rank 5 and nobody else
"$TRACETTY" check --all --quiet --fail-on never "$job" >"$TMPD/check"
is "$(grep -c straggler "$TMPD/check")" 1 "one straggler finding"
matches "$TMPD/check" 'train-5-of-8\.json: [a-z]* *straggler .*rank 5 arrived last' "it is rank 5"
"$TRACETTY" report --kind annotations --quiet "$job" >"$TMPD/ann.csv"
is "$(grep -c '"straggler"' "$TMPD/ann.csv")" 1 "report --kind annotations has it too"

# gpu: one row per rank
"$TRACETTY" report --kind gpu --quiet "$job" >"$TMPD/gpu.csv"
is "$(($(wc -l <"$TMPD/gpu.csv") - 1))" 8 "report --kind gpu DIR: one row per rank"

# per-rank runs merged equal one run over the directory
for kind in gpu ranks collectives; do
    if command -v parallel >/dev/null 2>&1; then
        parallel -j2 --halt now,fail=1 "'$TRACETTY' report --quiet --kind $kind {} > '$TMPD/part-$kind-{/.}.csv'" ::: "$job"/*.json
    else
        for f in "$job"/*.json; do
            b=$(basename "$f" .json)
            "$TRACETTY" report --quiet --kind $kind "$f" >"$TMPD/part-$kind-$b.csv"
        done
    fi
    "$TRACETTY" merge-reports "$TMPD"/part-$kind-*.csv >"$TMPD/merged-$kind.csv"; ok $? "merge-reports $kind"
    if [ $kind = gpu ]; then
        cut -d, -f2- "$TMPD/gpu.csv" >"$TMPD/whole-$kind.csv"   # one run adds a Trace column
    else
        "$TRACETTY" report --quiet --kind $kind "$job" >"$TMPD/whole-$kind.csv"
    fi
    same_file "$TMPD/merged-$kind.csv" "$TMPD/whole-$kind.csv" "merged $kind equals one run over the directory"
done
"$TRACETTY" merge-reports -o "$TMPD/m.csv" "$TMPD"/part-ranks-*.csv; ok $? "merge-reports -o"
same_file "$TMPD/m.csv" "$TMPD/merged-ranks.csv" "-o writes the same"
"$TRACETTY" merge-reports "$TMPD/part-gpu-train-0-of-8.csv" "$TMPD/part-ranks-train-0-of-8.csv" \
    >/dev/null 2>"$TMPD/err"; is "$?" 2 "different kinds cannot be merged"
matches "$TMPD/err" "header differs" "says why"
printf '"Rank","X"\r\n1,"unterminated\r\n' >"$TMPD/bad.csv"
"$TRACETTY" merge-reports "$TMPD/bad.csv" >/dev/null 2>"$TMPD/err"; is "$?" 2 "malformed CSV: exit 2"
matches "$TMPD/err" 'bad\.csv' "names the file"

# alignment on an event
"$TRACETTY" report --kind collectives --quiet --align event:ProfilerStep#3 "$job" >"$TMPD/al.csv"; ok $? "--align event:ProfilerStep#3"
"$TRACETTY" report --kind collectives --align event:ProfilerStep#3 "$job" >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" '^tracetty: report: aligned by event ProfilerStep#3: rank 0 [+-][0-9.]+ [nmu]?s, rank 1 [+-]' \
    "the offsets chosen are said on stderr"
"$TRACETTY" report --kind collectives --quiet --align event:NoSuchStep "$job" >/dev/null 2>"$TMPD/err"
is "$?" 2 "aligning on a missing event: exit 2"
"$TRACETTY" report --kind gpu --align start "$job" >/dev/null 2>&1; is "$?" 2 "--align only with collectives"

# a trace without a rank of its own takes the lowest rank no file name
# claims (as view numbers it), and two traces claiming one rank are an error
mkdir "$TMPD/order"
printf '[{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":5}]' >"$TMPD/order/a.json"
cp "$TMPD/order/a.json" "$TMPD/order/rank_0.json"
"$TRACETTY" report --kind gpu --quiet "$TMPD/order" >"$TMPD/order.csv"
is "$(awk -F, 'NR > 1 { printf "%s=%s ", $1, $2 }' "$TMPD/order.csv" | sed 's|[^ ]*/||g')" \
    'a.json"=1 rank_0.json"=0 ' "unranked a.json takes rank 1, not rank_0's 0"
"$TRACETTY" report --kind ranks --quiet "$TMPD/order" | tr -d '\r' >"$TMPD/order-ranks.csv"
is "$(cut -d, -f1 "$TMPD/order-ranks.csv" | tr '\n' ' ')" '"Rank" 0 1 ' "--kind ranks numbers them the same"
cp "$TMPD/order/a.json" "$TMPD/order/rank-0.json"
"$TRACETTY" report --kind collectives --quiet "$TMPD/order" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 2 "two traces claiming rank 0: exit 2"
matches "$TMPD/err" "both claim rank 0" "says which"
is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "and writes nothing"

# streaming kinds number a trace before later traces' metadata is known:
# when that gives two traces one rank, they say so
mkdir "$TMPD/meta"
printf '[{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":5}]' >"$TMPD/meta/a.json"
printf '{"distributedInfo":{"rank":0},"traceEvents":[{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":5}]}' \
    >"$TMPD/meta/b.json"
"$TRACETTY" report --kind gpu --quiet "$TMPD/meta" >/dev/null 2>"$TMPD/err"
matches "$TMPD/err" "warning: .*a\.json and .*b\.json both have rank 0 here" "gpu: a rank given twice is said"

# merged deviations print as one run prints them (no "-0.0")
for r in 0 1 2; do
    printf '[{"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":%s}]' \
        "$( [ $r = 1 ] && echo 49.999 || echo 50)" >"$TMPD/order/dev-$r-of-3.json"
done
rm "$TMPD/order/a.json" "$TMPD/order/rank-0.json" "$TMPD/order/rank_0.json"
"$TRACETTY" report --kind ranks --quiet "$TMPD/order" >"$TMPD/dev-one.csv"
for r in 0 1 2; do
    "$TRACETTY" report --kind ranks --quiet "$TMPD/order/dev-$r-of-3.json" >"$TMPD/dev-part-$r.csv"
done
"$TRACETTY" merge-reports "$TMPD"/dev-part-*.csv >"$TMPD/dev-merged.csv"
same_file "$TMPD/dev-merged.csv" "$TMPD/dev-one.csv" "merged ranks with tiny deviations equal one run"
ok "$(! grep -q -- '-0\.0' "$TMPD/dev-merged.csv"; echo $?)" "no -0.0 in the merge"

# the real two-rank set loads as ranks 0 and 1
two="$(shared_traces)/pytorch/two_ranks"
if [ -d "$two" ]; then
    "$TRACETTY" report --kind gpu --quiet "$two" >"$TMPD/two.csv"
    is "$(awk -F, 'NR > 1 { printf "%s ", $2 }' "$TMPD/two.csv")" "0 1 " "two_ranks loads as ranks 0 and 1"
fi
tap_done
