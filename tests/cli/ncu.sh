#!/bin/sh
# ncu.sh - Nsight Compute `ncu --csv` tables (src/decode/ncu.c): every real
# file in ../shared/traces-next/ncu (details pages with a BOM, CRLF,
# program output and thousands separators; per-section CSVs with Rule and
# Estimated Speedup columns; an older layout with "Kernel Time") and a raw
# page (tests/data/ncu) is detected from content, and every cell of
# `report --kind kernels` (with --metric) equals tests/cli/ncu_oracle.py, an
# independent computation with python's csv module over the same file;
# `summary` shows the kernels; bad input gets one positioned error, exit 2.
# The real files stay in traces-next: ../shared/traces is read-only here.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
oracle="$srcdir/tests/cli/ncu_oracle.py"
data="$srcdir/tests/data/ncu"

# the raw page (one column per metric, a units row)
"$TRACETTY" report --kind kernels "$data/raw_page.csv" >"$TMPD/r.csv" 2>"$TMPD/err"
ok $? "raw page: report --kind kernels exits 0"
python3 "$oracle" "$data/raw_page.csv" "$TMPD/r.csv" >/dev/null
ok $? "raw page: every cell equals the csv-module oracle"
"$TRACETTY" report --kind kernels --metric sm__warps_active.avg.pct_of_peak_sustained_active \
    --metric dram__bytes.sum "$data/raw_page.csv" >"$TMPD/r.csv" 2>"$TMPD/err"
python3 "$oracle" "$data/raw_page.csv" "$TMPD/r.csv" \
    sm__warps_active.avg.pct_of_peak_sustained_active dram__bytes.sum >/dev/null
ok $? "raw page: --metric columns equal the oracle"
"$TRACETTY" summary --format json "$data/raw_page.csv" >"$TMPD/s.json"
matches "$TMPD/s.json" '"format":[[:space:]]*"ncu-csv"' "raw page: detected as ncu-csv from content"
matches "$TMPD/s.json" '"kernels":[[:space:]]*3' "summary JSON: 3 kernels"
"$TRACETTY" summary "$data/raw_page.csv" >"$TMPD/s.txt"
matches "$TMPD/s.txt" '^Kernels   3 profiled by Nsight Compute \(raw page\), 2 names' "summary: kernels line"
matches "$TMPD/s.txt" '^  kern_b .* 1024500\.0 ' "summary: the longest kernel first"
matches "$TMPD/s.txt" 'no timeline' "summary: says there is no timeline"

# the view opens on the table (metadata panel): one line per metric
"$TRACETTY" render --size 100x40 "$data/raw_page.csv" >"$TMPD/v.txt" 2>"$TMPD/err"
ok $? "render of a raw page exits 0"
matches "$TMPD/v.txt" 'Metadata' "the view opens on the information panel"
matches "$TMPD/v.txt" 'gpu__time_duration\.sum +12\.3 ' "a metric and its value on one line"
# a snapshot keeps the table
"$TRACETTY" convert "$data/raw_page.csv" -o "$TMPD/r.ttz" 2>/dev/null
"$TRACETTY" report --kind kernels "$data/raw_page.csv" >"$TMPD/src.csv" 2>/dev/null
"$TRACETTY" report --kind kernels "$TMPD/r.ttz" >"$TMPD/ttz.csv" 2>/dev/null
same_file "$TMPD/ttz.csv" "$TMPD/src.csv" "the same kernels table from a .ttz snapshot"

# bad input: one positioned error, exit 2
"$TRACETTY" summary "$data/bad_value.csv" >/dev/null 2>"$TMPD/err"
is "$?" 2 "a value that is not a number: exit 2"
matches "$TMPD/err" 'bad_value.csv: row 3, column 11: metric "gpu__time_duration.sum" \(usecond\): "12.3x" is not a number' \
    "a value that is not a number: row and column"
"$TRACETTY" summary "$data/truncated.csv" >/dev/null 2>"$TMPD/err"
is "$?" 2 "a row cut off inside a quote: exit 2"
matches "$TMPD/err" 'truncated.csv: row [0-9]+' "a cut-off row: positioned"
"$TRACETTY" summary --input-format ncu-csv "$data/no_header.csv" >/dev/null 2>"$TMPD/err"
is "$?" 2 "no header: exit 2"
matches "$TMPD/err" 'no ncu header' "no header: says so"
"$TRACETTY" summary --input-format ncu-csv "$data/short_id.csv" >/dev/null 2>"$TMPD/err"
is "$?" 2 "a kernel ID that is not an integer: exit 2"
matches "$TMPD/err" 'short_id.csv: row 2, column 1: kernel "ID": expected an integer' \
    "a bad kernel ID: row and column"

# --metric applies to ncu tables under --kind kernels only
"$TRACETTY" report --kind ops --metric x "$data/raw_page.csv" >/dev/null 2>"$TMPD/err"
ok "$([ $? -ne 0 ]; echo $?)" "--metric with --kind ops is refused"

dir=$srcdir/../shared/traces-next/ncu
if [ -d "$dir" ]; then
    n=0
    for f in $(find "$dir" -name '*.csv' | LC_ALL=C sort); do
        n=$((n + 1))
        b=$(echo "$f" | sed 's|.*/ncu/||')
        "$TRACETTY" summary --format json "$f" >"$TMPD/s.json" 2>"$TMPD/err"
        ok $? "$b: loads"
        matches "$TMPD/s.json" '"format":[[:space:]]*"ncu-csv"' "$b: detected as ncu-csv"
        "$TRACETTY" report --kind kernels "$f" >"$TMPD/r.csv" 2>"$TMPD/err"
        ok $? "$b: report --kind kernels exits 0"
        python3 "$oracle" "$f" "$TMPD/r.csv" >/dev/null
        ok $? "$b: every cell equals the csv-module oracle"
    done
    is "$n" 13 "13 real ncu files"
    a100=$dir/a100_ops/bert_flashattn_nsight.csv
    "$TRACETTY" report --kind kernels --metric "Theoretical Occupancy" --metric lts__t_bytes.sum \
        "$a100" >"$TMPD/r.csv" 2>"$TMPD/err"
    python3 "$oracle" "$a100" "$TMPD/r.csv" "Theoretical Occupancy" lts__t_bytes.sum >/dev/null
    ok $? "a100: --metric columns equal the oracle"
    matches "$TMPD/r.csv" '^4,.*,"compute",62\.500,422480\.000,"void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, \(int\)4, void at::native::templates::cuda::uniform_and_transform' \
        "a100: the 4 uniform kernels share a row"
    for f in "$dir"/dsocr_rtx5090/ncu-v2/kernel_*/ncu.details.csv; do
        "$TRACETTY" report --kind kernels --metric "L2 Hit Rate" --metric dram__bytes_read.sum \
            "$f" >"$TMPD/r.csv" 2>/dev/null
        python3 "$oracle" "$f" "$TMPD/r.csv" "L2 Hit Rate" dram__bytes_read.sum >/dev/null
        ok $? "$(echo "$f" | sed 's|.*/ncu-v2/||'): --metric (units scaled per value) equals the oracle"
    done
    # several tables: one header, a Trace column
    "$TRACETTY" report --kind kernels "$dir"/rtx5070/saxpy.csv "$dir"/rtx5070/gemm_tiled.csv \
        >"$TMPD/r.csv" 2>"$TMPD/err"
    ok $? "two ncu files: exit 0"
    is "$(grep -c '^"Trace"' "$TMPD/r.csv")" 1 "two ncu files: one header with a Trace column"
    is "$(tr -d '\r' <"$TMPD/r.csv" | wc -l | tr -d ' ')" 3 "two ncu files: a row each"
    # an ncu table and a timeline do not share a kernels report
    "$TRACETTY" report --kind kernels "$dir"/rtx5070/saxpy.csv "$srcdir/samples/demo.json" \
        >/dev/null 2>"$TMPD/err"
    ok "$([ $? -ne 0 ]; echo $?)" "an ncu table and a timeline in one kernels report: refused"
    # the other kinds still run (on no events)
    "$TRACETTY" report --kind ops "$dir"/rtx5070/saxpy.csv >/dev/null 2>"$TMPD/err"
    ok $? "report --kind ops of an ncu table exits 0"
fi
tap_done
