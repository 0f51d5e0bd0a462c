#!/bin/sh
# formats_samples.sh - the device profile samples: the generator still
# writes exactly the committed files, and their summary, reports and
# findings match the golden outputs in tests/golden/formats/.
#
# TT_REGEN_GOLDEN=1 rewrites the golden files from this build (review the
# diff before committing).
. "$srcdir/tests/lib.sh"

GEN="$builddir/samples/gen-trace"
G="$srcdir/tests/golden/formats"
[ -x "$GEN" ] || skip_all "samples/gen-trace is not built"

# golden NAME OUTPUT-FILE DESCRIPTION
golden() {
    if [ "${TT_REGEN_GOLDEN:-}" = 1 ]; then cp "$2" "$G/$1"; fi
    same_file "$2" "$G/$1" "$3"
}

for spec in "neuron neuron.json" "ascend-csv kernel_details.csv" \
            "nsys-csv cuda_gpu_trace.csv" "hugectr hugectr_prof.json"; do
    set -- $spec
    "$GEN" "$1" -o "$TMPD/$2" 2>"$TMPD/err"
    ok $? "gen-trace $1"
    same_file "$TMPD/$2" "$srcdir/samples/$2" "samples/$2 is what gen-trace $1 writes"
done

# relative paths: the outputs name the file as given
cd "$srcdir/samples" || exit 1
for f in neuron.json kernel_details.csv cuda_gpu_trace.csv hugectr_prof.json; do
    "$TRACETTY" summary "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "summary $f"
    golden "$f.summary.txt" "$TMPD/out" "golden summary of $f"
    "$TRACETTY" summary --format json "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "summary --format json $f"
    golden "$f.summary.json" "$TMPD/out" "golden JSON summary of $f"
    "$TRACETTY" report --kind ops --format csv "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "report ops $f"
    golden "$f.ops.csv" "$TMPD/out" "golden ops report of $f"
done
for f in neuron.json cuda_gpu_trace.csv; do
    "$TRACETTY" report --kind transfers --format csv "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "report transfers $f"
    golden "$f.transfers.csv" "$TMPD/out" "golden transfers report of $f"
done
for f in kernel_details.csv cuda_gpu_trace.csv; do
    "$TRACETTY" report --kind gpu --format csv "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "report gpu $f"
    golden "$f.gpu.csv" "$TMPD/out" "golden GPU breakdown of $f"
done
"$TRACETTY" report --kind ops --by opcode --format csv neuron.json >"$TMPD/out" 2>"$TMPD/err"
ok $? "report by opcode (neuron)"
golden "neuron.json.opcode.csv" "$TMPD/out" "golden opcode breakdown of neuron.json"

# the arguments each decoder keeps, value by value (the decoders write
# them without libcsv and cJSON now: these were made with those)
args_golden() {
    f=$1
    shift
    "$TRACETTY" report --kind events --format csv "$@" "$f" >"$TMPD/out" 2>"$TMPD/err"
    ok $? "report events with arguments of $f"
    golden "$(basename "$f").events-args.csv" "$TMPD/out" "golden event arguments of $f"
}
args_golden kernel_details.csv --by 'arg:Step Id' --by arg:Type --by 'arg:Input Shapes' \
    --by 'arg:Accelerator Core' --by 'arg:aicore_time(us)' --by arg:aic_mac_ratio \
    --by 'arg:cube_utilization(%)'
args_golden cuda_gpu_trace.csv --by arg:CorrId --by arg:GrdX --by 'arg:Reg/Trd' \
    --by 'arg:Bytes (MB)' --by arg:SrcMemKd --by arg:Strm
args_golden hugectr_prof.json --by arg:label --by arg:avg_measured_time_ms \
    --by arg:avg_iter_start_to_event_start_time_ms --by arg:met_times_within_this_stream
if "$TRACETTY" summary "$srcdir/tests/fuzz/corpus/nsys/current.sqlite" >"$TMPD/out" 2>&1; then
    args_golden "$srcdir/tests/fuzz/corpus/nsys/current.sqlite" --by arg:gridX \
        --by arg:registersPerThread --by arg:bytes --by arg:copyKind --by arg:srcKind \
        --by arg:deviceId --by arg:correlationId --by arg:value
fi

# what the samples were made to show
"$TRACETTY" check --format csv neuron.json >"$TMPD/out" 2>"$TMPD/err"
is "$?" 1 "check finds problems in neuron.json"
matches "$TMPD/out" 'tensor-reload.*shared\.embedding loaded 3 times' "the tensor loaded three times"
matches "$TMPD/out" '^"?warning"?,"?throttle' "the throttling stretch"
"$TRACETTY" check --format csv cuda_gpu_trace.csv >"$TMPD/out" 2>"$TMPD/err"
matches "$TMPD/out" 'pageable-memcpy' "nsys CSV: pageable copies"
tap_done
