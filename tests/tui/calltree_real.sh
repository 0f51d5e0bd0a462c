#!/bin/sh
# calltree_real.sh - analysis/calltree.h on real Kineto traces from
# ../shared/traces/pytorch (skipped when absent or without python3): the
# call tree of the whole trace, as tests/unit/test_calltree prints it,
# equals tests/tui/calltree_oracle.py's computation from the JSON, node
# for node (name path, calls, host total and self, device total and self).
. "$srcdir/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "no python3"
dir="$(shared_traces)/pytorch"
[ -d "$dir" ] || skip_all "no shared pytorch traces"
dump="$builddir/tests/unit/test_calltree"
[ -x "$dump" ] || skip_all "tests/unit/test_calltree is not built"

for f in resnet50_workers0.pt.trace.json.gz resnet50_workers4.pt.trace.json.gz \
         nccl_data.json.gz memcpy_queue_rank0.json.gz; do
    t="$dir/$f"
    [ -f "$t" ] || continue
    "$dump" "$t" > "$TMPD/dump.csv"
    ok $? "$f: the call tree builds"
    python3 - "$TMPD/dump.csv" > "$TMPD/got.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))[1:]
w = csv.writer(sys.stdout, lineterminator='\n')
for r in sorted(r[:6] for r in rows):
    w.writerow(r)
PY
    python3 "$srcdir/tests/tui/calltree_oracle.py" "$t" > "$TMPD/want.csv"
    ok $? "$f: the python computation runs"
    n=$(wc -l < "$TMPD/want.csv")
    [ "$n" -gt 100 ]
    ok $? "$f: a tree of many nodes ($n)"
    grep -q '\[d\]' "$TMPD/want.csv"
    ok $? "$f: kernels hang under ops"
    same_file "$TMPD/got.csv" "$TMPD/want.csv" "$f: every node's numbers are the python computation's"
done
[ "$tap_n" -gt 0 ] || skip_all "none of the traces is there"
tap_done
