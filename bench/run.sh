#!/bin/sh
# bench/run.sh - what `make bench` runs (see bench/local.mk).
#
# 1. Generates a 1M-event Kineto trace under $builddir/bench/out/ (reused
#    when already there) and a gzip'd copy.
# 2. Measures `tracetty summary --quiet` on both (best of 3 runs: wall time,
#    MB/s of decoded JSON, peak RSS), and the same for python3's json.load
#    and `jq length` when they are installed (one run each; they are slow),
#    and prints ratios from this one run.
# 3. Prints the DESIGN.md budget lines with the measured value and PASS or
#    MISS: load well over 200 MB/s, peak memory under 150 MB.
# 4. Runs every bench program in $BENCH_PROGS with the trace path as its
#    only argument (the convention is described in bench/local.mk).
#
# Environment (set by the make rule): TRACETTY GEN_TRACE MEASURE BENCH_PROGS
# PYTHON3 JQ builddir srcdir. Figures depend on the machine and on what else
# runs on it; they are never checked by `make check`.
set -eu

: "${TRACETTY:?}" "${GEN_TRACE:?}" "${MEASURE:?}" "${builddir:?}"
: "${BENCH_PROGS:=}" "${PYTHON3:=}" "${JQ:=}"
export LC_ALL=C

EVENTS=1000000
BUDGET_MBS=200
BUDGET_RSS_MB=150
out="$builddir/bench/out"
trace="$out/kineto-1m.json"
mkdir -p "$out"

# --------------------------------------------------------------- inputs
if [ ! -s "$trace" ] || [ "$GEN_TRACE" -nt "$trace" ]; then
    echo "generating $trace ($EVENTS events)"
    "$GEN_TRACE" kineto --events "$EVENTS" -o "$trace"
fi
if [ ! -s "$trace.gz" ] || [ "$trace" -nt "$trace.gz" ]; then
    echo "compressing $trace.gz"
    gzip -c "$trace" > "$trace.gz.tmp"
    mv "$trace.gz.tmp" "$trace.gz"
fi
bytes=$(wc -c < "$trace" | tr -d ' ')
gzbytes=$(wc -c < "$trace.gz" | tr -d ' ')
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "trace: $trace, $EVENTS events, $mb MB ($(awk -v b="$gzbytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB gzip'd)"
echo

# ------------------------------------------------------------ measuring
# run_once NAME CMD...: sets $wall and $rss_kb; fails when CMD fails.
run_once() {
    name=$1
    shift
    line=$("$MEASURE" -- "$@") || {
        echo "FAILED: $name: $line" >&2
        return 1
    }
    wall=$(echo "$line" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')
    rss_kb=$(echo "$line" | sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p')
}

# best_of N NAME CMD...: the fastest of N runs, and its peak RSS.
best_of() {
    n=$1
    shift
    best_wall=
    best_rss=
    i=0
    while [ "$i" -lt "$n" ]; do
        run_once "$@" || return 1
        if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
            best_wall=$wall
        fi
        if [ -z "$best_rss" ] || [ "$rss_kb" -gt "$best_rss" ]; then
            best_rss=$rss_kb
        fi
        i=$((i + 1))
    done
    wall=$best_wall
    rss_kb=$best_rss
}

# report NAME: one line with wall, MB/s of the decoded JSON and peak RSS
report() {
    awk -v n="$1" -v w="$wall" -v r="$rss_kb" -v b="$bytes" 'BEGIN {
        printf "  %-34s %8.3f s %9.1f MB/s %9.1f MB peak RSS\n", n, w, b / 1e6 / w, r / 1024 }'
}

echo "Load (wall time, decoded JSON per second, peak resident memory):"
best_of 3 "tracetty summary" "$TRACETTY" summary --quiet "$trace"
tt_wall=$wall
tt_rss=$rss_kb
report "tracetty summary (best of 3)"
best_of 3 "tracetty summary .gz" "$TRACETTY" summary --quiet "$trace.gz"
gz_wall=$wall
gz_rss=$rss_kb
report "tracetty summary .gz (best of 3)"

py_wall=
if [ -n "$PYTHON3" ] && command -v "$PYTHON3" >/dev/null 2>&1; then
    run_once "python3 json.load" "$PYTHON3" -c 'import json,sys; json.load(open(sys.argv[1]))' "$trace"
    py_wall=$wall
    py_rss=$rss_kb
    report "python3 json.load"
else
    echo "  python3 json.load                  (python3 not installed: skipped)"
fi
jq_wall=
if [ -n "$JQ" ] && command -v "$JQ" >/dev/null 2>&1; then
    run_once "jq length" "$JQ" length "$trace"
    jq_wall=$wall
    jq_rss=$rss_kb
    report "jq length"
else
    echo "  jq length                          (jq not installed: skipped)"
fi

echo
echo "Ratios (this run):"
ratio() {   # ratio NAME OTHER_WALL OTHER_RSS
    awk -v n="$1" -v tw="$tt_wall" -v tr="$tt_rss" -v ow="$2" -v or="$3" 'BEGIN {
        printf "  tracetty %.1fx faster than %s, %.2fx its peak memory\n", ow / tw, n, tr / or }'
}
[ -n "$py_wall" ] && ratio "python json.load" "$py_wall" "$py_rss"
[ -n "$jq_wall" ] && ratio "jq length" "$jq_wall" "$jq_rss"
awk -v a="$gz_wall" -v b="$tt_wall" 'BEGIN {
    printf "  gzip input costs %.2fx the plain load time\n", a / b }'

echo
echo "Budgets (DESIGN.md, Chrome JSON trace of 1M events):"
awk -v w="$tt_wall" -v b="$bytes" -v want="$BUDGET_MBS" 'BEGIN {
    v = b / 1e6 / w
    printf "  load at well over %d MB/s           %8.1f MB/s  %s\n", want, v, (v > want ? "PASS" : "MISS") }'
awk -v r="$tt_rss" -v want="$BUDGET_RSS_MB" 'BEGIN {
    v = r / 1024
    printf "  peak memory under %d MB             %8.1f MB    %s\n", want, v, (v < want ? "PASS" : "MISS") }'
awk -v r="$gz_rss" -v w="$gz_wall" -v b="$bytes" -v want="$BUDGET_MBS" -v wr="$BUDGET_RSS_MB" 'BEGIN {
    printf "  (gzip input: %.1f MB/s, %.1f MB peak)\n", b / 1e6 / w, r / 1024 }'

# ------------------------------------------------------------ many ranks
# Issue budget: a directory of 64 ranks of 100k events each opens in a few
# seconds on the 2-core machine, and memory grows with the loaded events.
ranks="$out/ranks64"
if [ ! -s "$ranks/trace-63-of-64.json" ] || [ "$GEN_TRACE" -nt "$ranks/trace-63-of-64.json" ]; then
    echo
    echo "Generating 64 ranks of 100k events in $ranks ..."
    mkdir -p "$ranks"
    r=0
    while [ $r -lt 64 ]; do
        "$GEN_TRACE" kineto --events 100000 --rank $r --world 64 -o "$ranks/trace-$r-of-64.json" || exit 1
        r=$((r + 1))
    done
fi
rbytes=$(cat "$ranks"/*.json | wc -c)
echo
echo "Many ranks: 64 files, $(awk -v b="$rbytes" 'BEGIN { printf "%.0f", b / 1e6 }') MB:"
one_bytes=$bytes
bytes=$rbytes   # MB/s of the ranks' JSON in the lines below
run_once "check DIR (all ranks loaded at once)" "$TRACETTY" check --quiet --fail-on never "$ranks"
ck_wall=$wall
ck_rss=$rss_kb
report "check DIR (all ranks loaded at once)"
run_once "report --kind gpu DIR (ranks in batches)" "$TRACETTY" report --quiet --kind gpu "$ranks"
rp_wall=$wall
rp_rss=$rss_kb
report "report --kind gpu DIR (ranks in batches)"
bytes=$one_bytes
awk -v w="$ck_wall" -v r="$ck_rss" -v b="$rbytes" 'BEGIN {
    printf "  open 64 ranks of 100k events in a few seconds %6.2f s  %s  (%.0f MB/s, %.1f MB peak, %.2f bytes of memory per byte of JSON)\n",
        w, (w <= 5 ? "PASS" : "MISS"), b / 1e6 / w, r / 1024, r * 1024 / b }'
awk -v w="$rp_wall" -v r="$rp_rss" 'BEGIN {
    printf "  report over 64 ranks in batches               %6.2f s         (%.1f MB peak: memory of a few ranks)\n", w, r / 1024 }'

# --------------------------------------------------------- bench programs
status=0
for prog in $BENCH_PROGS; do
    echo
    echo "== $prog $trace"
    if ! "$builddir/$prog" "$trace"; then
        echo "FAILED: $prog" >&2
        status=1
    fi
done
exit $status
