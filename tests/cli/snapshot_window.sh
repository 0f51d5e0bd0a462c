#!/bin/sh
# snapshot_window.sh - `report --window/--lanes` on a .ttz decodes only the
# event blocks that meet the window on the lanes: for generated traces and
# the real ones in shared/traces, written in blocks of 16 events so that
# windows begin and end inside blocks, each report kind that does so
# (ops, lanes, transfers, events) prints exactly what it prints from the
# source, over windows at several places and lane patterns, also from a
# --cache entry; the events a window holds are also counted by python3 in
# the JSON itself.
. "$srcdir/tests/lib.sh"

set -f   # lane patterns such as *1* are for tracetty, not the shell
GEN="$builddir/samples/gen-trace"
[ -x "$GEN" ] || skip_all "samples/gen-trace is not built"
T=$(shared_traces)

"$GEN" kineto --events 30000 --seed 4 --shuffle -o "$TMPD/kineto.json" >/dev/null 2>&1
ok $? "gen-trace kineto, 30000 events, shuffled"
"$GEN" neuron --layers 6 -o "$TMPD/neuron.json" >/dev/null 2>&1
"$GEN" ascend-csv --steps 3 -o "$TMPD/kernel_details.csv" >/dev/null 2>&1
"$GEN" nsys-csv --iters 4 -o "$TMPD/gpu_trace.csv" >/dev/null 2>&1
set -- "$TMPD/kineto.json" "$TMPD/neuron.json" "$TMPD/kernel_details.csv" "$TMPD/gpu_trace.csv"
for f in pytorch/nccl_data.json.gz pytorch/two_ranks/rank-0.json.gz \
    pytorch/memcpy_queue_rank0.json.gz pytorch/mi250_rocm.json.gz ascend/trace_view.json \
    ascend/kernel_details_v8.csv chrome-edge/catapult_main_thread_has_unclosed_slices.json \
    chrome-edge/catapult_nestable_async.json chrome-edge/viztracer_multithread.json \
    nsys/saxpy_mpi.sqlite; do
    [ -f "$T/$f" ] && set -- "$@" "$T/$f"
done

# the JSON and the warnings name each trace by the path opened
strip_name() { sed -e 's/"trace":"[^"]*"/"trace":""/' -e "s|$2|TRACE|g" "$1" >"$1.t"; }

for f in "$@"; do
    b=$(basename "$f")
    if ! TRACETTY_TTZ_BLOCK_EVENTS=16 "$TRACETTY" convert --quiet "$f" -o "$TMPD/$b.ttz" \
        >"$TMPD/err" 2>&1; then
        ok 1 "$b: convert ($(head -c 200 "$TMPD/err"))"
        continue
    fi
    # the trace's span, for windows at a tenth, a third and a half of it
    span=$("$TRACETTY" report --quiet --format json "$f" | sed -n 's/.*"window_ns":\([0-9]*\).*/\1/p' |
        head -n 1)
    [ -n "$span" ] || span=1000000
    a=$((span / 10)) c=$((span / 3)) h=$((span / 2))
    kinds="ops lanes events"
    case $b in kineto* | memcpy* | *gpu_trace*) kinds="$kinds transfers" ;; esac
    for sel in "--window ${a}ns:$((a + span / 100 + 1))ns" "--window ${c}ns:$((c + span / 20))ns" \
        "--window ${h}ns:" "--lanes *1*" "--window ${c}ns:$((h + 1))ns --lanes *stream*,*thread*" \
        "--window 0ns:0ns"; do
        for kind in $kinds; do
            # shellcheck disable=SC2086
            "$TRACETTY" report --quiet --kind $kind $sel --format json "$f" >"$TMPD/a" 2>&1
            # shellcheck disable=SC2086
            "$TRACETTY" report --quiet --kind $kind $sel --format json "$TMPD/$b.ttz" \
                >"$TMPD/b" 2>&1
            strip_name "$TMPD/a" "$f"
            strip_name "$TMPD/b" "$TMPD/$b.ttz"
            same_file "$TMPD/b.t" "$TMPD/a.t" "$b: report --kind $kind $sel identical from the .ttz"
        done
    done
done

# --cache: the entry (written in blocks of 16) is read only in part too
f="$TMPD/kineto.json"
"$TRACETTY" report --quiet --window 5ms:6ms --lanes '*stream*' --format csv "$f" >"$TMPD/a" 2>&1
for run in first second; do
    XDG_CACHE_HOME="$TMPD/cache" TRACETTY_TTZ_BLOCK_EVENTS=16 "$TRACETTY" report --quiet --cache \
        --window 5ms:6ms --lanes '*stream*' --format csv "$f" >"$TMPD/b" 2>&1
    same_file "$TMPD/b" "$TMPD/a" "report --cache --window --lanes, $run run: what the source prints"
done

# python3 counts the events of a window in the generated JSON: complete
# and instant events that overlap [from, to) as the index defines it (a
# zero-length one when it starts inside), times as exact nanoseconds
if command -v python3 >/dev/null 2>&1; then
    for w in "2000000:3000000" "150000000:150250000" "0:1"; do
        from=${w%:*} to=${w#*:}
        "$TRACETTY" report --quiet --window "${from}ns:${to}ns" --format json \
            "$TMPD/kineto.json.ttz" >"$TMPD/r" 2>&1
        got=$(sed -n 's/.*"events":\([0-9]*\).*/\1/p' "$TMPD/r" | head -n 1)
        want=$(python3 - "$TMPD/kineto.json" "$from" "$to" <<'EOF'
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = d["traceEvents"] if isinstance(d, dict) else d
ns = lambda v: int(Decimal(v) * 1000)
timed = [e for e in ev if e.get("ph") in ("X", "i", "I", "C")]
t0 = min(ns(e["ts"]) for e in timed)
lo, hi = t0 + int(sys.argv[2]), t0 + int(sys.argv[3])
n = 0
for e in timed:
    if e["ph"] == "C":
        continue
    s = ns(e["ts"])
    dur = ns(e.get("dur", 0)) if e["ph"] == "X" else 0
    if s < hi and (s >= lo if dur == 0 else s + dur > lo):
        n += 1
print(n)
EOF
)
        is "$got" "$want" "window ${from}ns:${to}ns of the generated .ttz: $want events, as python3 counts"
    done
fi
tap_done
