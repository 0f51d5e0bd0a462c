#!/bin/sh
# gen_demo.sh - samples/demo.json is exactly what `gen-trace kineto` writes
# with its defaults (the sample cannot drift from the generator), the
# generator is deterministic, and the demo holds what it promises.
. "$srcdir/tests/lib.sh"

GEN="$builddir/samples/gen-trace"
demo="$srcdir/samples/demo.json"
[ -x "$GEN" ] || skip_all "samples/gen-trace is not built"
[ -f "$demo" ] || skip_all "samples/demo.json is missing"

"$GEN" kineto -o "$TMPD/demo.json"
ok $? "gen-trace kineto runs with its defaults"
same_file "$TMPD/demo.json" "$demo" \
    "samples/demo.json is byte-for-byte today's generator output (to update: make samples-demo)"
"$GEN" kineto --steps 4 --seed 20240611 --rank 0 --world 8 --nccl-version 2.18.1 \
    -o "$TMPD/explicit.json"
same_file "$TMPD/explicit.json" "$demo" "the defaults spelled out give the same bytes"
"$GEN" kineto -o - > "$TMPD/stdout.json"
same_file "$TMPD/stdout.json" "$demo" "-o - writes the same bytes to stdout"
"$GEN" kineto --seed 7 -o "$TMPD/seed7.json"
! cmp -s "$TMPD/seed7.json" "$demo"
ok $? "another seed gives another trace"

# size and shape: 10k-20k events, under 5 MB, one "ph" per event
size=$(wc -c < "$demo" | tr -d ' ')
[ "$size" -lt 5000000 ]
ok $? "demo is under 5 MB ($size bytes)"
nev=$(grep -o '"ph": "' "$demo" | wc -l | tr -d ' ')
[ "$nev" -ge 10000 ] && [ "$nev" -le 20000 ]
ok $? "demo has 10k-20k events ($nev)"
head -c 40 "$demo" | tr '\n' ' ' | grep -q '^ { *"schemaVersion": 1,'
ok $? "starts like Kineto output (newline, schemaVersion first)"
[ "$(tail -c 2 "$demo")" = "
}" ]
ok $? "ends with a newline and the closing brace, no trailing newline"

# what the demo must contain (names as PyTorch and CUDA spell them)
for pat in \
    '"deviceProperties": \[' \
    '"distributedInfo": \{"backend": "nccl", "rank": 0, "world_size": 8,' \
    '"displayTimeUnit": "ms"' '"baseTimeNanoseconds": [0-9]+$' '"traceName": ' \
    '"name": "ProfilerStep#2"' '"name": "ProfilerStep#5"' \
    '"name": "enumerate\(DataLoader\)#' '"name": "## forward ##"' '"name": "## backward ##"' \
    '"name": "Optimizer.step#SGD.step"' \
    '"name": "aten::linear"' '"name": "aten::t"' '"name": "aten::addmm"' \
    '"name": "aten::conv2d"' '"name": "aten::cudnn_convolution"' '"name": "aten::batch_norm"' \
    '"name": "aten::relu_"' '"name": "autograd::engine::evaluate_function: ConvolutionBackward0"' \
    '"cat": "cuda_runtime", "name": "cudaLaunchKernel"' \
    '"cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float' \
    '"cat": "kernel", "name": "sm80_xmma_fprop_implicit_gemm' \
    '"name": "Memcpy HtoD \(Pageable -> Device\)"' '"name": "Memcpy DtoH \(Device -> Pinned\)"' \
    '"cat": "gpu_memset"' '"name": "cudaStreamSynchronize"' '"name": "cudaDeviceSynchronize"' \
    '"ph": "C", "name": "GPU Memory"' '"ph": "f", "id": [0-9]+, "pid": 0, "tid": 7' \
    '"cat": "ac2g", "name": "ac2g", "bp": "e"' '"memory bandwidth \(GB/s\)": [0-9.]+' \
    '"grid": \[[0-9]+, [0-9]+, [0-9]+\]' '"name": "stream 20 "' \
    '"name": "thread [0-9]+ \(pt_autograd_0\)"' '"name": "PyTorch Profiler \(0\)"'
do
    matches "$demo" "$pat" "demo contains $pat"
done

# the options change what they should
"$GEN" kineto --steps 1 --rank 11 --world 16 -o "$TMPD/r11.json"
ok $? "--rank 11 --world 16 runs"
matches "$TMPD/r11.json" '"distributedInfo": \{"backend": "nccl", "rank": 11, "world_size": 16,' \
    "distributedInfo carries rank and world size"
matches "$TMPD/r11.json" '"cat": "kernel", .*"pid": 3, "tid": 7,' "rank 11 runs on GPU 3"
"$TRACETTY" summary --format json "$TMPD/r11.json" > "$TMPD/r11.sum"
matches "$TMPD/r11.sum" '"rank":	11,' "tracetty reads rank 11"
! cmp -s "$TMPD/r11.json" "$demo"
ok $? "another rank gives another trace"
n_steps=$(grep -c '"name": "ProfilerStep#' "$TMPD/r11.json")
is "$n_steps" 1 "--steps 1 writes one ProfilerStep"
"$GEN" kineto --steps 1 --nccl-version 2.21.5 -o "$TMPD/nccl221.json"
matches "$TMPD/nccl221.json" '"name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL' \
    "--nccl-version 2.21.5 uses ncclDevKernel_ names"
! grep -q '"name": "ncclKernel_' "$TMPD/nccl221.json"
ok $? "and no ncclKernel_ names"

# the command line
"$GEN" --help > "$TMPD/help" 2>&1
ok $? "gen-trace --help exits 0"
matches "$TMPD/help" '^  kineto ' "--help lists the kineto format"
"$GEN" kineto --help > "$TMPD/khelp" 2>&1
ok $? "gen-trace kineto --help exits 0"
matches "$TMPD/khelp" '--events N' "kineto --help lists --events"
"$GEN" > /dev/null 2>&1
is $? 2 "no arguments: exit 2"
"$GEN" nosuch -o "$TMPD/x" 2> "$TMPD/err"
is $? 2 "unknown format: exit 2"
matches "$TMPD/err" "unknown format 'nosuch'" "unknown format is named"

tap_done
