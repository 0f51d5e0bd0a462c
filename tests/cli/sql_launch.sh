#!/bin/sh
# sql_launch.sh - the `launch` table of `tracetty query` (src/sql/
# tab_launch.c): every kernel's name, time, launch delay, launch op and
# operator chain against attrib_oracle.py's own links (sql_launch_oracle.py)
# on the real H200 capture in tests/data/torch and the shared real traces
# (Kineto, two ranks, nsys); per operator the device time launched equals
# report --kind operators' Device Self; a job's ids carry the rank.
. "$srcdir/tests/lib.sh"

top=$(cd "$srcdir" && pwd)
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || skip_all "no python3"
oracle="$top/tests/cli/sql_launch_oracle.py"
cd "$TMPD" || exit 1
Q="SELECT name, ts, dur, launch_delay, op_name, op_chain FROM launch"

check_trace() {   # check_trace FILE LABEL
    "$TRACETTY" query "$1" "$Q" >launch.csv 2>launch.err
    ok $? "$2: query the launch table"
    "$py" "$oracle" "$1" launch.csv >launch.out
    ok $? "$2: every kernel's launch as python links it ($(tail -1 launch.out))"
    sed '$d' launch.out | head -5 | sed 's/^/# /'
}

T="$top/tests/data/torch/train.pt.trace.json.gz"
check_trace "$T" "H200 capture"
is "$("$TRACETTY" query "$T" "SELECT count(*), count(launcher_id), count(op_id) FROM launch" | tr -d '\r' | sed -n 2p)" \
    "242,242,242" "every device event of the capture is linked (242 kernels, copies, memsets)"
# the device time per launch op is the operators report's Device Self
"$TRACETTY" query "$T" "SELECT op_name, sum(dur) FROM launch GROUP BY 1 ORDER BY 1" |
    tr -d '\r' | sed 1d | sort >by_op.txt
"$TRACETTY" report --kind operators "$T" 2>/dev/null | tr -d '\r' | sed 1d |
    awk -F'","|",|,' '{ gsub(/^"/, "", $1); if ($5 != 0) print "\"" $1 "\"," $5 }' | sort >ops.txt
[ -s by_op.txt ] && same_file by_op.txt ops.txt \
    "sum(dur) per op_name equals report --kind operators' Device Self"
"$TRACETTY" query "$T" "SELECT l.op_name = s.name, l.launch_delay = l.ts - h.ts
        FROM launch l JOIN slice s ON s.id = l.op_id JOIN slice h ON h.id = l.launcher_id
        GROUP BY 1, 2" | tr -d '\r' >join.csv
is "$(sed 1d join.csv | tr '\n' ' ')" "1,1 " "op_id and launcher_id join slice: names and delays agree"

S="$top/../shared/traces"
for f in pytorch/resnet50_workers0.pt.trace.json.gz nsys/saxpy_mpi.sqlite; do
    [ -r "$S/$f" ] && check_trace "$S/$f" "$f"
done
if [ -d "$S/pytorch/two_ranks" ]; then
    "$TRACETTY" query "$S/pytorch/two_ranks" \
        "SELECT rank, count(*), min(slice_id >> 40), max(slice_id >> 40) FROM launch GROUP BY 1 ORDER BY 1" |
        tr -d '\r' >ranks.csv
    is "$(sed 1d ranks.csv | cut -d, -f1,3,4 | tr '\n' ' ')" "0,0,0 1,1,1 " \
        "two ranks: each rank's rows, ids offset by its ordinal"
fi
"$TRACETTY" query "$top/tests/data/counters_flows.json" "SELECT count(*) FROM launch WHERE launcher_id IS NULL" >/dev/null
ok $? "a trace with few links still queries"
tap_done
