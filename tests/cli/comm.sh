#!/bin/sh
# comm.sh - Ascend communication reports (issue 16): `report --kind comm`
# (communication.json: per op Elapse, Transit, Wait, Synchronization, Idle
# and the ratios, a "Total Op Info" row per step and group) and `--kind
# comm-matrix` (communication_matrix.json: per op and link, and the totals
# per link), with and without --totals, read beside each rank's
# trace_view.json in ../shared/traces-next/ascend/job_level1. Every cell
# equals tests/cli/comm_oracle.py (python's json module over the same
# files, summing as msprof-analyze does; it also checks the files' own
# ratios and "Total Op Info" agree with the definitions). Bad side files
# (cut off, invalid, a member missing) give one positioned error and exit
# 2; a trace without them says so; the slow-link rule fires on a link made
# slow and not on the real files; the matrix view renders at 80x24 and in
# small windows.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
job="$srcdir/../shared/traces-next/ascend/job_level1"
[ -d "$job" ] || skip_all "no ../shared/traces-next/ascend/job_level1"
oracle="$srcdir/tests/cli/comm_oracle.py"
r0="$job/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"
r1="$job/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT"

for kind in comm comm-matrix; do
    for totals in "" --totals; do
        t="$kind${totals:+ $totals}"
        "$TRACETTY" report --kind $kind $totals "$r0/trace_view.json" "$r1/trace_view.json" \
            >"$TMPD/r.csv" 2>"$TMPD/err"
        ok $? "$t: exits 0"
        python3 "$oracle" $kind $totals "$TMPD/r.csv" "0=$r0" "1=$r1" >"$TMPD/o" 2>&1
        ok $? "$t: every cell equals the json-module oracle"
        [ $? -eq 0 ] || sed 's/^/#   /' "$TMPD/o" | head -20
    done
done
"$TRACETTY" report --kind comm "$r0/trace_view.json" >"$TMPD/r.csv"
matches "$TMPD/r.csv" '^0,"step50","collective","Total Op Info","17522688603477080586",,105\.991878,3\.683353,5\.940619,5\.615712,96\.367905,0\.6173,0\.6039' \
    "comm: rank 0's step total (the profiler's own Total Op Info)"
"$TRACETTY" report --kind comm-matrix --totals --format json "$r1/trace_view.json" >"$TMPD/r.json"
ok $? "comm-matrix --format json exits 0"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"] if "rows" in d else d["traces"][0]["rows"]
r = [x for x in rows if x["src_rank"] == 1 and x["dst_rank"] == 0][0]
assert r["transport_type"] == "HCCS" and abs(r["bandwidth_gbs"] - r["size_mb"] / r["time_ms"]) < 1e-12, r
' "$TMPD/r.json" 2>"$TMPD/err"
ok $? "comm-matrix JSON: a total's bandwidth is its size over its time"
[ -s "$TMPD/err" ] && sed 's/^/#   /' "$TMPD/err" | head -5
"$TRACETTY" report --kind comm --format text "$r0/trace_view.json" >"$TMPD/r.txt"
matches "$TMPD/r.txt" 'Wait Ratio +Synchronization Ratio' "comm --format text: the ratio columns"

# usage: --totals only where it applies
"$TRACETTY" report --kind ops --totals "$r0/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "--totals with --kind ops: exit 2"
matches "$TMPD/err" '--totals applies to --kind comm or comm-matrix' "--totals: says which kinds take it"

# a trace without side files: an empty table and a note
bare="$TMPD/bare"
mkdir "$bare"
cp "$r0/trace_view.json" "$bare/"
"$TRACETTY" report --kind comm-matrix "$bare/trace_view.json" >"$TMPD/r.csv" 2>"$TMPD/err"
ok $? "no side files: exits 0"
matches "$TMPD/err" 'no communication.json or communication_matrix.json beside this trace' \
    "no side files: says so"

# bad side files: one positioned error, exit 2
bad="$TMPD/bad"
mkdir "$bad"
cp "$r0/trace_view.json" "$bad/"
head -c 3000 "$r0/communication.json" >"$bad/communication.json"
"$TRACETTY" report --kind comm "$bad/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "a cut-off communication.json: exit 2"
matches "$TMPD/err" 'communication\.json: line 1, column 3001 \(byte 3000\): the file ends inside the JSON document: it is cut off' \
    "a cut-off communication.json: positioned, says it is cut off"
printf '{"step1": {"collective": {"a@1": {"Communication Time Info": {"Elapse Time(ms)": 1,, }}}}}' \
    >"$bad/communication.json"
"$TRACETTY" report --kind comm "$bad/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "invalid JSON: exit 2"
matches "$TMPD/err" 'communication\.json: line 1, column 85 \(byte 84\): invalid JSON' \
    "invalid JSON: line and column"
printf '{"step1": {"collective": {"a@1": {"Communication Time Info": {"Elapse Time(ms)": 1}}}}}' \
    >"$bad/communication.json"
"$TRACETTY" report --kind comm "$bad/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "a missing member: exit 2"
matches "$TMPD/err" 'communication\.json: at step1\.collective\.a@1\.Communication Time Info: no "Transit Time\(ms\)" member' \
    "a missing member: its JSON path"
python3 - "$r0/communication_matrix.json" "$bad/communication_matrix.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["step50"]["collective"]["allreduce-middle@17522688603477080586"]["0-3"]["Bandwidth(GB/s)"] = "fast"
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
"$TRACETTY" report --kind comm-matrix "$bad/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "a bandwidth that is not a number: exit 2"
matches "$TMPD/err" 'communication_matrix\.json: at step50\.collective\.allreduce-middle@17522688603477080586\.0-3: "Bandwidth\(GB/s\)" is not a number' \
    "a bandwidth that is not a number: its JSON path"
printf '{"step1": {"collective": {"a@1": {"0+1": {}}}}}' >"$bad/communication_matrix.json"
"$TRACETTY" report --kind comm-matrix "$bad/trace_view.json" >/dev/null 2>"$TMPD/err"
is $? 2 "a link that is not SRC-DST: exit 2"
matches "$TMPD/err" 'link "0\+1" is not SRC-DST' "a link that is not SRC-DST: says so"

# slow-link: silent on the real files, fires on a link made 20 times slower
"$TRACETTY" report --kind annotations "$r0/trace_view.json" "$r1/trace_view.json" >"$TMPD/a.csv"
ok $? "annotations of the real ranks: exits 0"
if grep -q slow-link "$TMPD/a.csv"; then ok 1 "real files: no slow link"; else ok 0 "real files: no slow link"; fi
slow="$TMPD/slow"
mkdir "$slow"
cp "$r0/trace_view.json" "$r0/communication.json" "$slow/"
python3 - "$r0/communication_matrix.json" "$slow/communication_matrix.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["step50"]["collective"]["allreduce-total@17522688603477080586"]["0-3"]["Transit Time(ms)"] *= 20
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
"$TRACETTY" check "$slow/trace_view.json" >"$TMPD/c.txt"
want=$(python3 - "$slow/communication_matrix.json" <<'EOF'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
links = d["step50"]["collective"]["allreduce-total@17522688603477080586"]
bw = {k: v["Transit Size(MB)"] / v["Transit Time(ms)"] for k, v in links.items()
      if v["Transport Type"] == "HCCS"}
med = statistics.median(bw.values())
print("link 0->3 \\(HCCS\\) ran at %.4f GB/s, %.2fx the median %.4f GB/s of %d HCCS links"
      % (bw["0-3"], bw["0-3"] / med, med, len(bw)))
EOF
)
matches "$TMPD/c.txt" "slow-link: 1 finding" "slow-link: one finding on the slowed link"
matches "$TMPD/c.txt" "$want" "slow-link: its bandwidth and the median equal python's"
"$TRACETTY" check --set slow-link.max_ratio=0.01 "$slow/trace_view.json" >"$TMPD/c.txt"
if grep -q slow-link "$TMPD/c.txt"; then ok 1 "max_ratio=0.01: no finding"; else ok 0 "max_ratio=0.01: no finding"; fi

# the matrix view renders at 80x24, larger and in a tiny window
for size in 80x24 132x40 20x6; do
    "$TRACETTY" render --size $size --keys B "$r0/trace_view.json" "$r1/trace_view.json" \
        >"$TMPD/v.txt" 2>"$TMPD/err"
    ok $? "render $size with B: exits 0"
done
"$TRACETTY" render --size 80x24 --keys Bjl "$r0/trace_view.json" "$r1/trace_view.json" >"$TMPD/v.txt"
matches "$TMPD/v.txt" '^src.dst +0 +1 +2 +3 +4 +5 +6 +7' "matrix: a column per destination rank"
matches "$TMPD/v.txt" '^src 1 ' "matrix: a line per source rank"
matches "$TMPD/v.txt" 'rank 1 -> 1 . LOCAL 428\.6377 GB/s . 61\.210656 MB in 0\.142803 ms' \
    "matrix: the chosen link's numbers in the status line"
"$TRACETTY" render --size 80x24 --keys 'B<Esc>' "$r0/trace_view.json" "$r1/trace_view.json" \
    | head -n 23 >"$TMPD/v.txt"
"$TRACETTY" render --size 80x24 "$r0/trace_view.json" "$r1/trace_view.json" | head -n 23 \
    >"$TMPD/v0.txt"
same_file "$TMPD/v.txt" "$TMPD/v0.txt" "matrix: Esc goes back to the view it came from (its status aside)"

tap_done
