#!/bin/sh
# bench/run.sh - what `make bench` runs (see bench/local.mk): tracetty
# against the goals of issue 13, as ratios to references measured in the
# same run (timings on a shared machine are noisy; ratios less so).
#
# Inputs, generated once under $builddir/bench/out/ and reused (regenerated
# when gen-trace is newer):
#   kineto-1m.json            1M events written in Kineto's batch order
#                             (today's bench trace, kept for comparison)
#   kineto-1m-shuffled.json   the same events out of time order (gen-trace
#                             --shuffle), with .gz and .zst copies
#   kineto-10m-shuffled.json  10M events, shuffled, and its .ttz snapshot
#   ranks64/                  64 ranks of 100k events each, shuffled
# Like the issue's trace, every event has args, with flows (ac2g, fwdbwd)
# and "GPU Memory" counters, out of order. Ours is ~260 MB per 1M events
# rather than the issue's 157 MB: Kineto's own indentation (a line per
# key group, six spaces before args) is written as Kineto writes it.
#
# Measurements: each command BENCH_RUNS times (default 3), median wall time,
# median CPU time (user+sys of all threads, from wait4), highest peak RSS,
# median minor page faults (first touches of fresh memory: on a VM each
# costs tens of microseconds, so a line with many of them is partly a
# measure of the VM).
# "pinned" runs under `taskset -c 0` (one core: the CPU-time goals);
# "all cores" runs as the user would (the wall-time goals, against the
# reference's wall time unpinned: it is single-threaded anyway, and a
# pinned wall time also measures whoever else uses core 0). The reference
# is bench/ref-simdjson (simdjson On-Demand visiting ts, dur, name, ph, cat,
# pid, tid of every event; see its header for what it measures: it maps
# the file as tracetty does and puts its index on huge pages; once more as
# it was before, the file copied to 4 KiB pages, to show what that cost),
# pinned:
# without it (no C++ compiler or libsimdjson-dev at configure time) the
# ratios to it print "skipped".
#
# Then: the phase breakdown of the shuffled 1M load (tracetty --timings),
# `perf report`'s top symbols when `perf record` works here, and every
# bench program in $BENCH_PROGS with the 1M shuffled trace as $1 and the
# 10M one as $2 (convention in bench/local.mk).
#
# Environment:
#   BENCH_QUICK=1   skip everything 10M (generating it takes minutes and
#                   ~2.6 GB of disk; its runs take minutes more)
#   BENCH_RUNS=N    runs per measurement (default 3)
# Set by the make rule: TRACETTY GEN_TRACE MEASURE REF_SIMDJSON BENCH_PROGS
# PYTHON3 JQ builddir srcdir. Figures depend on the machine and on what
# else runs on it; they are never checked by `make check`.
set -eu

: "${TRACETTY:?}" "${GEN_TRACE:?}" "${MEASURE:?}" "${builddir:?}"
: "${BENCH_PROGS:=}" "${PYTHON3:=}" "${JQ:=}" "${REF_SIMDJSON:=}"
: "${BENCH_QUICK:=0}" "${BENCH_RUNS:=3}"
export LC_ALL=C

out="$builddir/bench/out"
ordered="$out/kineto-1m.json"
trace="$out/kineto-1m-shuffled.json"
big="$out/kineto-10m-shuffled.json"
ranks="$out/ranks64"
mkdir -p "$out"
want_big=1
[ "$BENCH_QUICK" = 1 ] && want_big=0

# ------------------------------------------------------------- helpers
# stale FILE [SOURCE]: FILE is missing, empty, or older than SOURCE or
# than the generator.
stale() {
    [ ! -s "$1" ] || [ "$GEN_TRACE" -nt "$1" ] || { [ $# -gt 1 ] && [ "$2" -nt "$1" ]; }
}

mb_of() { awk -v b="$(wc -c < "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# gen FILE EVENTS [OPTION...]: write a Kineto trace unless it is fresh
gen() {
    f=$1
    n=$2
    shift 2
    if stale "$f"; then
        echo "  generating $f ($n events $*)"
        "$GEN_TRACE" kineto --events "$n" "$@" -o "$f"
    fi
}

# pack FILE TOOL EXT: a compressed copy, unless it is fresh
pack() {
    if stale "$1.$3" "$1"; then
        echo "  compressing $1.$3"
        "$2" -c "$1" > "$1.$3.tmp"
        mv "$1.$3.tmp" "$1.$3"
    fi
}

have_taskset=0
taskset -c 0 true >/dev/null 2>&1 && have_taskset=1
have_ref=0
[ -n "$REF_SIMDJSON" ] && [ -x "$REF_SIMDJSON" ] && have_ref=1
have_zstd=0
command -v zstd >/dev/null 2>&1 && have_zstd=1

# measure MODE NAME CMD...: BENCH_RUNS runs; sets $wall, $cpu and $flt
# (medians) and $rss_kb (highest). MODE: pinned (taskset -c 0) or all (all
# cores).
measure() {
    mode=$1
    name=$2
    shift 2
    if [ "$mode" = pinned ] && [ "$have_taskset" = 1 ]; then
        set -- taskset -c 0 "$@"
    fi
    walls=
    cpus=
    flts=
    rss_kb=0
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        line=$("$MEASURE" -- "$@") || {
            echo "FAILED: $name: $line" >&2
            return 1
        }
        walls="$walls $(echo "$line" | sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p')"
        cpus="$cpus $(echo "$line" | sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p')"
        flts="$flts $(echo "$line" | sed -n 's/.*minflt=\([0-9]*\).*/\1/p')"
        r=$(echo "$line" | sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p')
        [ "$r" -gt "$rss_kb" ] && rss_kb=$r
        i=$((i + 1))
    done
    wall=$(median $walls)
    cpu=$(median $cpus)
    flt=$(median $flts)
}

median() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        printf "%.6f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_row MODE LABEL BYTES CMD...: measure (MODE as above), then the row
bench_row() {
    mode_=$1
    label_=$2
    bytes_=$3
    shift 3
    measure "$mode_" "$label_" "$@"
    row "$label_" "$bytes_"
}

# row NAME BYTES: one line with the last measure's figures (MB/s of BYTES
# of decoded JSON by wall time; minor faults in thousands)
row() {
    awk -v n="$1" -v w="$wall" -v c="$cpu" -v r="$rss_kb" -v b="$2" -v f="$flt" 'BEGIN {
        printf "  %-46s %8.3f s wall %8.3f s CPU %7.1f MB/s %8.1f MB peak %7.1fk faults\n",
            n, w, c, b / 1e6 / w, r / 1024, f / 1000 }'
}

# goal NAME VALUE UNIT OP LIMIT [NOTE]: a goal line, PASS or MISS
# (OP: le or lt); VALUE "-" prints "skipped: NOTE".
goal() {
    if [ "$2" = - ]; then
        printf '  %-52s %s\n' "$1" "skipped: $6"
    else
        awk -v n="$1" -v v="$2" -v u="$3" -v op="$4" -v l="$5" -v note="${6:-}" 'BEGIN {
            pass = op == "lt" ? v < l : v <= l
            printf "  %-52s %9.3f%-3s (goal %s %g%s)  %s%s\n", n, v, u, op == "lt" ? "<" : "<=",
                l, u, pass ? "PASS" : "MISS", note == "" ? "" : "  " note }'
    fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# --------------------------------------------------------------- inputs
echo "== Inputs ($out)"
gen "$ordered" 1000000
gen "$trace" 1000000 --shuffle
pack "$trace" gzip gz
if [ "$have_zstd" = 1 ]; then
    pack "$trace" zstd zst
fi
if [ "$want_big" = 1 ]; then
    gen "$big" 10000000 --shuffle
fi
if [ ! -s "$ranks/trace-63-of-64.json" ] || [ ! -e "$ranks/.shuffled" ] ||
   [ "$GEN_TRACE" -nt "$ranks/trace-63-of-64.json" ]; then
    echo "  generating 64 ranks of 100k events (shuffled) in $ranks"
    rm -rf "$ranks"
    mkdir -p "$ranks"
    r=0
    while [ $r -lt 64 ]; do
        "$GEN_TRACE" kineto --events 100000 --rank $r --world 64 --shuffle \
            -o "$ranks/trace-$r-of-64.json" || exit 1
        r=$((r + 1))
    done
    touch "$ranks/.shuffled"
fi
bytes=$(wc -c < "$trace" | tr -d ' ')
echo "  1M ordered   $(mb_of "$ordered") MB (Kineto's batch order: per step, CPU ops, then GPU)"
echo "  1M shuffled  $(mb_of "$trace") MB, .gz $(mb_of "$trace.gz") MB$(
    [ "$have_zstd" = 1 ] && echo ", .zst $(mb_of "$trace.zst") MB")"
[ "$want_big" = 1 ] && echo "  10M shuffled $(mb_of "$big") MB"
rbytes=$(cat "$ranks"/*.json | wc -c | tr -d ' ')
echo "  64 ranks     $(awk -v b="$rbytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB" \
    "(100k events each, shuffled)"
echo "  measuring: median of $BENCH_RUNS runs; pinned = taskset -c 0$(
    [ "$have_taskset" = 1 ] || echo " (taskset missing: NOT pinned)"); CPU = user+sys"
echo

# ------------------------------------------------------- plain JSON, 1M
echo "== Plain JSON, 1M events"
ref_cpu=
ref_wall=
if [ "$have_ref" = 1 ]; then
    bench_row pinned "simdjson On-Demand, shuffled (pinned)" "$bytes" "$REF_SIMDJSON" "$trace"
    ref_cpu=$cpu
    # single-threaded anyway: its wall time beside tracetty's all-cores one,
    # under the same conditions (a pinned wall time waits for core 0)
    bench_row all "simdjson On-Demand, shuffled (unpinned)" "$bytes" "$REF_SIMDJSON" "$trace"
    ref_wall=$wall
    # the same parse as it was before (a padded copy of the file on 4 KiB
    # pages), to show what fresh memory costs on this host; the CPU goal is
    # a ratio to the faster of the two
    bench_row pinned "simdjson, file copied, 4 KiB pages (pinned)" "$bytes" \
        "$REF_SIMDJSON" --naive "$trace"
    ref_cpu=$(awk -v a="$ref_cpu" -v b="$cpu" 'BEGIN { print (b < a ? b : a) }')
else
    echo "  simdjson reference: skipped (configure found no C++17 compiler or simdjson)"
fi
bench_row pinned "tracetty summary, ordered (pinned)" "$bytes" \
    "$TRACETTY" summary --quiet "$ordered"
ord_cpu=$cpu
bench_row pinned "tracetty summary, shuffled (pinned)" "$bytes" \
    "$TRACETTY" summary --quiet "$trace"
tt_cpu=$cpu
bench_row all "tracetty summary, shuffled (all cores)" "$bytes" \
    "$TRACETTY" summary --quiet "$trace"
tt_wall=$wall
tt_rss=$rss_kb
echo "  event order costs $(ratio "$tt_cpu" "$ord_cpu")x CPU (shuffled / ordered)"
echo

# -------------------------------------------------------- plain JSON, 10M
big_cpu=
big_wall=
big_rss=
if [ "$want_big" = 1 ]; then
    bigbytes=$(wc -c < "$big" | tr -d ' ')
    echo "== Plain JSON, 10M events"
    big_ref_cpu=
    if [ "$have_ref" = 1 ]; then
        bench_row pinned "simdjson On-Demand (pinned)" "$bigbytes" "$REF_SIMDJSON" "$big"
        big_ref_cpu=$cpu
    fi
    bench_row pinned "tracetty summary (pinned)" "$bigbytes" "$TRACETTY" summary --quiet "$big"
    big_cpu=$cpu
    bench_row all "tracetty summary (all cores)" "$bigbytes" "$TRACETTY" summary --quiet "$big"
    big_wall=$wall
    big_rss=$rss_kb
    [ -n "$big_ref_cpu" ] &&
        echo "  tracetty/simdjson CPU at 10M: $(ratio "$big_cpu" "$big_ref_cpu")x"
    echo
fi

# ------------------------------------------------------------ compressed
echo "== Compressed input, 1M shuffled (all cores; decompressors alone for reference)"
bench_row all "gzip -dc > /dev/null" "$bytes" gzip -dc "$trace.gz"
gunzip_wall=$wall
bench_row all "tracetty summary .json.gz" "$bytes" "$TRACETTY" summary --quiet "$trace.gz"
gz_wall=$wall
gz_rss=$rss_kb
zst_wall=
zst_rss=
if [ "$have_zstd" = 1 ]; then
    bench_row all "zstd -dc > /dev/null" "$bytes" zstd -dc "$trace.zst"
    bench_row all "tracetty summary .json.zst" "$bytes" "$TRACETTY" summary --quiet "$trace.zst"
    zst_wall=$wall
    zst_rss=$rss_kb
else
    echo "  zstd: skipped (the zstd program is not installed)"
fi
echo

# ------------------------------------------------------------- snapshots
echo "== Snapshots (.ttz, all cores)"
bench_row all "tracetty convert 1M to .ttz" "$bytes" \
    "$TRACETTY" convert --quiet "$trace" -o "$out/kineto-1m-shuffled.ttz"
conv_wall=$wall
conv_base=$tt_wall
conv_what="1M"
ttz_wall=
win_wall=
if [ "$want_big" = 1 ]; then
    # once: a 10M convert takes about as long as a few 10M loads
    runs=$BENCH_RUNS
    BENCH_RUNS=1
    bench_row all "tracetty convert 10M to .ttz (1 run)" "$bigbytes" \
        "$TRACETTY" convert --quiet "$big" -o "$out/kineto-10m-shuffled.ttz"
    BENCH_RUNS=$runs
    conv_wall=$wall
    conv_base=$big_wall
    conv_what="10M"
    bench_row all "tracetty summary of the 10M .ttz (whole reopen)" "$bigbytes" \
        "$TRACETTY" summary --quiet "$out/kineto-10m-shuffled.ttz"
    ttz_wall=$wall ttz_cpu=$cpu
    # format 3: only the event blocks that meet the window are decoded
    bench_row all "tracetty report --window 10s:10001ms, 10M .ttz" "$bigbytes" \
        "$TRACETTY" report --quiet --window 10s:10001ms \
        "$out/kineto-10m-shuffled.ttz"
    win_wall=$wall win_cpu=$cpu
fi
# the same two at 1M, also with BENCH_QUICK=1
bench_row all "tracetty summary of the 1M .ttz (whole reopen)" "$bytes" \
    "$TRACETTY" summary --quiet "$out/kineto-1m-shuffled.ttz"
ttz1_wall=$wall ttz1_cpu=$cpu
bench_row all "tracetty report --window 10s:10001ms, 1M .ttz" "$bytes" \
    "$TRACETTY" report --quiet --window 10s:10001ms "$out/kineto-1m-shuffled.ttz"
win1_wall=$wall win1_cpu=$cpu
# diff (issue 15): two 1M-event snapshots, the second a copy of the first
cp "$out/kineto-1m-shuffled.ttz" "$out/kineto-1m-shuffled-copy.ttz"
bench_row all "tracetty diff of two 1M .ttz (--kind ops)" "$((2 * bytes))" \
    "$TRACETTY" diff --quiet "$out/kineto-1m-shuffled.ttz" "$out/kineto-1m-shuffled-copy.ttz"
diff_wall=$wall diff_cpu=$cpu
echo

# ------------------------------------------------------------- many ranks
echo "== Many ranks: 64 files of 100k events (all cores; simdjson single-threaded, unpinned)"
set -- "$ranks"/trace-*-of-64.json
ranks_ref=
if [ "$have_ref" = 1 ]; then
    bench_row all "simdjson On-Demand over the 64 files" "$rbytes" "$REF_SIMDJSON" "$@"
    ranks_ref=$wall
    # over many 26 MB files, copying each into the same reused heap block
    # measured cheaper than mapping them: the reference is the faster way
    bench_row all "simdjson, files copied, 4 KiB pages" "$rbytes" "$REF_SIMDJSON" --naive "$@"
    ranks_ref=$(awk -v a="$ranks_ref" -v b="$wall" 'BEGIN { print (b < a ? b : a) }')
    echo "  reference for the ratios below: the faster of the two, $ranks_ref s wall"
fi
bench_row all "tracetty check DIR" "$rbytes" "$TRACETTY" check --quiet --fail-on never "$ranks"
ck_wall=$wall
bench_row all "tracetty report --kind gpu DIR" "$rbytes" \
    "$TRACETTY" report --quiet --kind gpu "$ranks"
rp_wall=$wall
echo

# -------------------------------------------------------------- query
# issue 17: `tracetty query` against report on the same input (pinned
# CPU: both load on one core, the ratio is the query's own cost), and
# over the 64 ranks its peak RSS beside report's (ranks load in batches)
echo "== SQL: tracetty query against report (issue 17)"
sqlq='SELECT name, sum(dur) FROM slice GROUP BY 1'
# sql_vs_report MODE WHAT BYTES INPUT: report --kind ops, then the query,
# on INPUT; $sql_cpu and $sql_rss: the query's CPU and peak RSS over
# report's
sql_vs_report() {
    bench_row "$1" "report --kind ops, $2" "$3" "$TRACETTY" report --quiet --kind ops "$4"
    rep_cpu=$cpu rep_rss=$rss_kb
    bench_row "$1" "query GROUP BY name, $2" "$3" "$TRACETTY" query --quiet "$4" "$sqlq"
    sql_cpu=$(ratio "$cpu" "$rep_cpu") sql_rss=$(ratio "$rss_kb" "$rep_rss")
}
sql_vs_report pinned "1M .ttz (pinned)" "$bytes" "$out/kineto-1m-shuffled.ttz"
sql_ttz=$sql_cpu
sql_vs_report pinned "1M JSON (pinned)" "$bytes" "$trace"
sql_json=$sql_cpu
sql_vs_report all "DIR, 64 ranks" "$rbytes" "$ranks"
sql_ranks_rss=$sql_rss
echo

# -------------------------------------------------------- other programs
echo "== Other JSON readers, 1M shuffled (one run each)"
BENCH_RUNS_SAVED=$BENCH_RUNS
BENCH_RUNS=1
if [ -n "$PYTHON3" ] && command -v "$PYTHON3" >/dev/null 2>&1; then
    bench_row all "python3 json.load" "$bytes" \
        "$PYTHON3" -c 'import json,sys; json.load(open(sys.argv[1]))' "$trace"
else
    echo "  python3 json.load: skipped (python3 not installed)"
fi
if [ -n "$JQ" ] && command -v "$JQ" >/dev/null 2>&1; then
    bench_row all "jq length" "$bytes" "$JQ" length "$trace"
else
    echo "  jq length: skipped (jq not installed)"
fi
BENCH_RUNS=$BENCH_RUNS_SAVED
echo

# ------------------------------------------------------ where time goes
echo "== Where the time goes: tracetty --timings summary, 1M shuffled (all cores)"
if "$TRACETTY" summary --quiet --timings "$trace" 2> "$out/timings.txt" > /dev/null; then
    sed 's/^/  /' "$out/timings.txt"
else
    echo "  skipped: tracetty has no --timings"
fi
if command -v perf >/dev/null 2>&1 &&
   perf record -g -o "$out/perf.data" -- "$TRACETTY" summary --quiet "$trace" \
       > /dev/null 2> "$out/perf.log"; then
    echo
    echo "  perf report, self time by library, then top symbols (summary, 1M shuffled):"
    for sort in dso dso,symbol; do
        perf report -i "$out/perf.data" --stdio --no-children --sort "$sort" -g none \
            --percent-limit 1.5 2> /dev/null | grep -E '^ +[0-9]' | head -15 |
            sed 's/^ */    /; s/[ -]*$//'
        echo
    done
fi
echo

# ----------------------------------------------------------------- goals
echo "== Goals (issue 13; ratios to references measured above)"
if [ -n "$ref_cpu" ]; then
    goal "CPU, 1M shuffled, pinned / simdjson" "$(ratio "$tt_cpu" "$ref_cpu")" x le 2
    goal "wall, 1M shuffled, all cores / simdjson (1 thread)" \
        "$(ratio "$tt_wall" "$ref_wall")" x le 1
else
    goal "CPU, 1M shuffled, pinned / simdjson" - "" le 2 "no simdjson reference"
    goal "wall, 1M shuffled, all cores / simdjson (1 thread)" - "" le 1 "no simdjson reference"
fi
if [ -n "$big_cpu" ]; then
    goal "CPU 10M / CPU 1M (pinned, shuffled)" "$(ratio "$big_cpu" "$tt_cpu")" x le 10.5
    goal "peak RSS per 1M events, 10M" "$(awk -v r="$big_rss" 'BEGIN { print r / 1024 / 10 }')" \
        " MB" le 100
else
    goal "CPU 10M / CPU 1M (pinned, shuffled)" - "" le 10.5 "BENCH_QUICK=1"
fi
goal "peak RSS per 1M events, 1M" "$(awk -v r="$tt_rss" 'BEGIN { print r / 1024 }')" " MB" le 100
goal "peak RSS per 1M events, 1M .json.gz" "$(awk -v r="$gz_rss" 'BEGIN { print r / 1024 }')" \
    " MB" le 100
if [ -n "$zst_rss" ]; then
    goal "peak RSS per 1M events, 1M .json.zst" "$(awk -v r="$zst_rss" 'BEGIN { print r / 1024 }')" \
        " MB" le 100
else
    goal "peak RSS per 1M events, 1M .json.zst" - "" le 100 "zstd not installed"
fi
goal ".json.gz / gzip -dc alone" "$(ratio "$gz_wall" "$gunzip_wall")" x le 1.3
if [ -n "$zst_wall" ]; then
    goal ".json.zst / plain JSON" "$(ratio "$zst_wall" "$tt_wall")" x le 1.3
else
    goal ".json.zst / plain JSON" - "" le 1.3 "zstd not installed"
fi
goal "convert $conv_what / load $conv_what (summary)" "$(ratio "$conv_wall" "$conv_base")" x le 1.2
if [ -n "$ttz_wall" ]; then
    goal "whole 10M .ttz reopen (summary)" "$ttz_wall" " s" lt 1 "(CPU $ttz_cpu s)"
    goal "report --window of 1 ms, 10M .ttz" "$(awk -v w="$win_wall" 'BEGIN { print w * 1000 }')" \
        " ms" lt 50 "(CPU $(awk -v c="$win_cpu" 'BEGIN { printf "%.1f", c * 1000 }') ms)"
else
    goal "whole 10M .ttz reopen (summary)" - "" lt 1 "BENCH_QUICK=1 (1M: $ttz1_wall s wall, $ttz1_cpu s CPU)"
    goal "report --window of 1 ms, 10M .ttz" - "" lt 50 \
        "BENCH_QUICK=1 (1M: $win1_wall s wall, $win1_cpu s CPU)"
fi
goal "diff of two 1M .ttz (--kind ops)" "$diff_wall" " s" lt 1 "(CPU $diff_cpu s)"
if [ -n "$ranks_ref" ]; then
    goal "check, 64 ranks / simdjson over the files" "$(ratio "$ck_wall" "$ranks_ref")" x le 1.5
    goal "report, 64 ranks / simdjson over the files" "$(ratio "$rp_wall" "$ranks_ref")" x le 1.5
else
    goal "check, 64 ranks / simdjson over the files" - "" le 1.5 "no simdjson reference"
fi
goal "budget: query GROUP BY name / report ops, 1M .ttz CPU" "$sql_ttz" x le 2
goal "budget: query GROUP BY name / report ops, 1M JSON CPU" "$sql_json" x le 2
goal "budget: query peak RSS / report's, 64 ranks" "$sql_ranks_rss" x le 1.5
awk -v w="$tt_wall" -v b="$bytes" 'BEGIN {
    v = b / 1e6 / w
    printf "  %-52s %9.1f MB/s (goal > 200)  %s\n", "DESIGN.md: load, 1M shuffled, all cores",
        v, (v > 200 ? "PASS" : "MISS") }'
goal "DESIGN.md: peak memory, 1M" "$(awk -v r="$tt_rss" 'BEGIN { print r / 1024 }')" " MB" lt 150
echo "  (box select and frames at 10M: the bench programs below)"

# --------------------------------------------------------- bench programs
status=0
for prog in $BENCH_PROGS; do
    echo
    if [ "$want_big" = 1 ]; then
        echo "== $prog $trace $big"
        set -- "$trace" "$big"
    else
        echo "== $prog $trace"
        set -- "$trace"
    fi
    if ! "$builddir/$prog" "$@"; then
        echo "FAILED: $prog" >&2
        status=1
    fi
done
echo; . "$srcdir/bench/decoders.sh"   # the device-format decoders' MB/s (sets status on failure)
exit $status
