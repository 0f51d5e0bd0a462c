#!/bin/sh
# formats_snapshot.sh - `tracetty convert` and --cache: `summary` and
# every `report` kind print the same from a trace and from its .ttz (and
# from a format 2 one); a
# snapshot is at most a third of the gzip'd JSON; one of another format
# version is refused by name; the cache is written once, reused while the
# source is unchanged, rebuilt when the source changes or the entry is
# corrupt or of another format version; convert's errors and its atomic
# output.
. "$srcdir/tests/lib.sh"

S="$srcdir/samples"
[ -f "$S/demo.json" ] || skip_all "no samples"
T=$(shared_traces)

# same_output OUT1 OUT2 DESCRIPTION: identical but for the "File" line and
# the "file" member, which name the path opened
same_output() {
    grep -v -e '^File ' -e '"file":' "$1" >"$1.f"
    grep -v -e '^File ' -e '"file":' "$2" >"$2.f"
    same_file "$2.f" "$1.f" "$3"
}

set -- "$S/demo.json" "$S/neuron.json" "$S/kernel_details.csv" "$S/cuda_gpu_trace.csv" \
    "$S/hugectr_prof.json"
[ -f "$T/nsys/saxpy_mpi.sqlite" ] && "$TRACETTY" summary --quiet "$T/nsys/saxpy_mpi.sqlite" \
    >/dev/null 2>&1 && set -- "$@" "$T/nsys/saxpy_mpi.sqlite"
[ -f "$T/pytorch/nccl_data.json.gz" ] && set -- "$@" "$T/pytorch/nccl_data.json.gz"
for f in "$@"; do
    b=$(basename "$f")
    "$TRACETTY" convert --quiet "$f" -o "$TMPD/$b.ttz" 2>"$TMPD/err"
    ok $? "convert $b"
    for fmt in text json; do
        "$TRACETTY" summary --format $fmt "$f" >"$TMPD/a" 2>&1
        "$TRACETTY" summary --format $fmt "$TMPD/$b.ttz" >"$TMPD/b" 2>&1
        same_output "$TMPD/a" "$TMPD/b" "$b: summary ($fmt) identical from the .ttz"
    done
    for kind in ops lanes transfers gpu events; do
        "$TRACETTY" report --quiet --kind $kind --format csv "$f" >"$TMPD/a" 2>&1
        "$TRACETTY" report --quiet --kind $kind --format csv "$TMPD/$b.ttz" >"$TMPD/b" 2>&1
        same_output "$TMPD/a" "$TMPD/b" "$b: report --kind $kind identical from the .ttz"
    done
done
# arguments survive (they are renumbered inside the snapshot)
"$TRACETTY" report --quiet --kind ops --by arg:stream --format csv "$S/demo.json" >"$TMPD/a" 2>&1
"$TRACETTY" report --quiet --kind ops --by arg:stream --format csv "$TMPD/demo.json.ttz" >"$TMPD/b" 2>&1
same_output "$TMPD/a" "$TMPD/b" "demo.json: breakdown by an argument identical from the .ttz"
"$TRACETTY" report --quiet --kind events --by "arg:Step Id" --format csv "$S/kernel_details.csv" >"$TMPD/a" 2>&1
"$TRACETTY" report --quiet --kind events --by "arg:Step Id" --format csv "$TMPD/kernel_details.csv.ttz" >"$TMPD/b" 2>&1
same_output "$TMPD/a" "$TMPD/b" "kernel_details.csv: events with an argument column identical"
matches "$TMPD/b" '^[0-9]+,[0-9]+,.*,"?19"?[[:space:]]*$' "the Step Id column is filled"

# report reads a snapshot without the argument records (unless a key is an
# argument) and the flows: windows, lanes and argument keys print what the
# source does, for every kind that skips them, also through the cache
set -- "$S/demo.json"
[ -f "$T/pytorch/nccl_data.json.gz" ] && set -- "$@" "$T/pytorch/nccl_data.json.gz"
[ -f "$T/pytorch/two_ranks/rank-0.json.gz" ] && set -- "$@" "$T/pytorch/two_ranks/rank-0.json.gz"
for f in "$@"; do
    b=$(basename "$f")
    [ -f "$TMPD/$b.ttz" ] || "$TRACETTY" convert --quiet "$f" -o "$TMPD/$b.ttz"
    for sel in "--window 20ms:21ms" "--window 100ms:" "--lanes *stream*" \
        "--window 5ms:80ms --lanes *thread*" "--window 1ms:50ms --by arg:stream" \
        "--kind events --window 10ms:10.5ms" "--kind gpu --window 30ms:40ms" \
        "--kind transfers --window :60ms" "--kind ranks --window 2ms:9ms" \
        "--kind collectives --lanes *stream*"; do
        # shellcheck disable=SC2086
        "$TRACETTY" report --quiet $sel --format json "$f" >"$TMPD/a" 2>&1
        # shellcheck disable=SC2086
        "$TRACETTY" report --quiet $sel --format json "$TMPD/$b.ttz" >"$TMPD/b" 2>&1
        # the JSON names each trace by the path opened
        sed 's/"trace":"[^"]*"/"trace":""/' "$TMPD/a" >"$TMPD/a.t"
        sed 's/"trace":"[^"]*"/"trace":""/' "$TMPD/b" >"$TMPD/b.t"
        same_file "$TMPD/b.t" "$TMPD/a.t" "$b: report $sel identical from the .ttz"
    done
done
XDG_CACHE_HOME="$TMPD/skipcache" "$TRACETTY" report --quiet --cache --window 20ms:21ms \
    "$S/demo.json" >"$TMPD/a" 2>&1
XDG_CACHE_HOME="$TMPD/skipcache" "$TRACETTY" report --quiet --cache --window 20ms:21ms \
    "$S/demo.json" >"$TMPD/b" 2>&1
same_file "$TMPD/b" "$TMPD/a" "report --window from the cache prints what the source does"
XDG_CACHE_HOME="$TMPD/skipcache" "$TRACETTY" report --quiet --cache --by arg:stream \
    "$S/demo.json" >"$TMPD/b" 2>&1
"$TRACETTY" report --quiet --by arg:stream "$S/demo.json" >"$TMPD/a" 2>&1
same_file "$TMPD/b" "$TMPD/a" "and an argument key from the same entry"

# size: at most a third of the JSON compressed with gzip -6 (issue 7), for
# a generated Kineto trace and for the real ones at hand. Sizes only: the
# encoding is deterministic, so this cannot be flaky.
ttz_third() {   # ttz_third JSON-OR-GZ TTZ DESCRIPTION
    case $1 in
    *.gz) gz=$(gzip -dc "$1" | gzip -6 | wc -c) ;;
    *) gz=$(gzip -6 -c "$1" | wc -c) ;;
    esac
    z=$(wc -c <"$2")
    ok "$(test $((3 * z)) -le "$gz"; echo $?)" "$3: .ttz $z bytes, gzip -6 $gz bytes"
}
GEN="$builddir/samples/gen-trace"
if [ -x "$GEN" ]; then
    "$GEN" kineto --events 20000 -o "$TMPD/gen.json" &&
        "$TRACETTY" convert --quiet "$TMPD/gen.json" -o "$TMPD/gen.ttz"
    ok $? "convert a generated 20000-event Kineto trace"
    ttz_third "$TMPD/gen.json" "$TMPD/gen.ttz" "generated Kineto trace: at most a third of gzip -6"
else
    ok 0 "# SKIP samples/gen-trace is not built"
    ok 0 "# SKIP samples/gen-trace is not built"
fi
[ -f "$TMPD/nccl_data.json.gz.ttz" ] &&
    ttz_third "$T/pytorch/nccl_data.json.gz" "$TMPD/nccl_data.json.gz.ttz" "nccl_data.json.gz"
if [ -f "$T/pytorch/two_ranks/rank-0.json.gz" ]; then
    "$TRACETTY" convert --quiet "$T/pytorch/two_ranks/rank-0.json.gz" -o "$TMPD/rank-0.ttz"
    ttz_third "$T/pytorch/two_ranks/rank-0.json.gz" "$TMPD/rank-0.ttz" "two_ranks/rank-0.json.gz"
fi

# snapshots of format 2 (one frame of events, before the blocks of format
# 3) still open, and say what their source does
for b in demo neuron; do
    "$TRACETTY" summary --format json "$S/$b.json" >"$TMPD/a" 2>&1
    "$TRACETTY" summary --format json "$srcdir/tests/fuzz/corpus/ttz/v2-$b.ttz" >"$TMPD/b" 2>&1
    same_output "$TMPD/a" "$TMPD/b" "$b.json: summary identical from its format 2 snapshot"
    "$TRACETTY" report --quiet --window 1ms:30ms --format csv "$S/$b.json" >"$TMPD/a" 2>&1
    "$TRACETTY" report --quiet --window 1ms:30ms --format csv \
        "$srcdir/tests/fuzz/corpus/ttz/v2-$b.ttz" >"$TMPD/b" 2>&1
    same_output "$TMPD/a" "$TMPD/b" "$b.json: report --window identical from its format 2 snapshot"
done

# a snapshot of another format version: refused by name
V1="$srcdir/tests/fuzz/corpus/ttz/v1-nsys.ttz"
"$TRACETTY" summary "$V1" >"$TMPD/out" 2>&1
is "$?" 2 "a snapshot of format 1: exit 2"
matches "$TMPD/out" 'made by another tracetty version.*reconvert' "and says to reconvert"

# convert's errors; an output that cannot be written leaves nothing behind
"$TRACETTY" convert "$S/neuron.json" >"$TMPD/out" 2>&1
is "$?" 2 "convert without -o: exit 2"
matches "$TMPD/out" 'no output file given' "and says so"
"$TRACETTY" convert "$S/neuron.json" -o "$TMPD/nodir/x.ttz" >"$TMPD/out" 2>&1
is "$?" 2 "convert into a missing directory: exit 2"
is "$(ls "$TMPD" | grep -c '\.ttz\.' || true)" 0 "no temporary file left behind"
"$TRACETTY" convert "$S/neuron.json" -o "$TMPD" >"$TMPD/out" 2>&1
is "$?" 2 "convert onto a directory: exit 2"
cp "$S/neuron.json" "$TMPD/self.json"
"$TRACETTY" convert "$TMPD/self.json" -o "$TMPD/self.json" >"$TMPD/out" 2>&1
is "$?" 2 "convert onto its own input: exit 2"
same_file "$TMPD/self.json" "$S/neuron.json" "the input is untouched"
printf 'garbage' >"$TMPD/bad.json"
"$TRACETTY" convert --quiet "$TMPD/bad.json" -o "$TMPD/bad.ttz" >"$TMPD/out" 2>&1
is "$?" 2 "convert of a bad trace: exit 2"
ok "$(test ! -e "$TMPD/bad.ttz"; echo $?)" "no output for a bad trace"

# a damaged snapshot is an error naming the problem
cp "$TMPD/neuron.json.ttz" "$TMPD/cut.ttz"
size=$(wc -c <"$TMPD/cut.ttz")
head -c $((size - 10)) "$TMPD/neuron.json.ttz" >"$TMPD/cut.ttz"
"$TRACETTY" summary "$TMPD/cut.ttz" >"$TMPD/out" 2>&1
is "$?" 2 "a cut-off snapshot: exit 2"
matches "$TMPD/out" 'cut\.ttz: .*the file is cut off' "and says it is cut off"
printf '\211TTZ\r\n\032\n' >"$TMPD/tiny.ttz"
"$TRACETTY" summary "$TMPD/tiny.ttz" >"$TMPD/out" 2>&1
is "$?" 2 "a snapshot header alone: exit 2"

# --cache: written once, reused, rebuilt when stale or corrupt
export XDG_CACHE_HOME="$TMPD/cache"
cp "$S/neuron.json" "$TMPD/src.json"
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c1" 2>"$TMPD/err"
ok $? "first --cache run"
entry=$(ls "$XDG_CACHE_HOME"/tracetty/*.ttz 2>/dev/null)
is "$(echo "$entry" | grep -c '\.ttz$')" 1 "one entry written under \$XDG_CACHE_HOME/tracetty"
"$TRACETTY" summary "$TMPD/src.json" >"$TMPD/c0" 2>&1
same_file "$TMPD/c1" "$TMPD/c0" "first run prints what a plain run prints"
ino1=$(ls -i "$entry" | awk '{print $1}')
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c2" 2>&1
same_file "$TMPD/c2" "$TMPD/c0" "second run (from the cache) prints the same"
is "$(ls -i "$entry" | awk '{print $1}')" "$ino1" "the entry was reused, not rewritten"
"$TRACETTY" summary --cache --lenient "$TMPD/src.json" >/dev/null 2>&1
is "$(ls "$XDG_CACHE_HOME"/tracetty/*.ttz | grep -c .)" 2 "other load options: another entry"
printf 'junk' >"$entry"
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c3" 2>&1
same_file "$TMPD/c3" "$TMPD/c0" "a corrupt entry is ignored"
"$TRACETTY" summary --quiet "$entry" >/dev/null 2>&1
ok $? "and rebuilt"
cp "$V1" "$entry"
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c3" 2>&1
same_file "$TMPD/c3" "$TMPD/c0" "an entry of another format version is ignored"
"$TRACETTY" summary --quiet "$entry" >/dev/null 2>&1
ok $? "and rebuilt in the current format"
touch -d '2001-02-03 04:05:06' "$TMPD/src.json"
ino2=$(ls -i "$entry" | awk '{print $1}')
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c4" 2>&1
same_file "$TMPD/c4" "$TMPD/c0" "a stale entry (source touched) is ignored"
ok "$(test "$(ls -i "$entry" | awk '{print $1}')" != "$ino2"; echo $?)" "and replaced"
cp "$S/kernel_details.csv" "$TMPD/src.json"
touch -d '2001-02-03 04:05:06' "$TMPD/src.json"
"$TRACETTY" summary --cache "$TMPD/src.json" >"$TMPD/c5" 2>&1
"$TRACETTY" summary "$TMPD/src.json" >"$TMPD/c6" 2>&1
same_file "$TMPD/c5" "$TMPD/c6" "same size and mtime, other content: the hash tells them apart"
cat "$S/neuron.json" | "$TRACETTY" summary --cache - >"$TMPD/c7" 2>"$TMPD/err"
ok $? "--cache with stdin just loads"
chmod 500 "$XDG_CACHE_HOME/tracetty"
if [ ! -w "$XDG_CACHE_HOME/tracetty" ]; then
    cp "$S/hugectr_prof.json" "$TMPD/h.json"
    "$TRACETTY" summary --cache "$TMPD/h.json" >"$TMPD/c8" 2>"$TMPD/err"
    ok $? "a read-only cache still loads"
    matches "$TMPD/err" 'warning: .*--cache: cannot' "with a warning"
else
    ok 0 "# SKIP running as root: the cache directory stays writable"
    ok 0 "# SKIP running as root"
fi
chmod 700 "$XDG_CACHE_HOME/tracetty"
tap_done
