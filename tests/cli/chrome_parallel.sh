#!/bin/sh
# chrome_parallel.sh - a Chrome trace decoded in parallel chunks
# (src/decode/chrome_chunks.c) is the trace the serial decode builds:
# summary, summary --format json, the events and ops reports, check, the
# .ttz snapshot's bytes, error messages and exit statuses are identical
# with TRACETTY_THREADS=1 (serial) and with two threads and tiny chunks
# (TRACETTY_CHROME_CHUNK_BYTES, which puts chunk boundaries everywhere):
#   - generated Kineto traces (flows, counters, args) and every Chrome trace
#     in ../shared/traces (B/E, async, flows, metadata, instants);
#   - hand-made traces with B/E pairs, async pairs, flows and metadata whose
#     halves lie in different chunks, an async end preferring a same-named
#     begin of an earlier chunk, a thread renamed in a later chunk;
#   - strings and args that look like event boundaries (`},{` in strings,
#     escaped quotes, nested objects in args);
#   - a syntax error and a bad timestamp in a late chunk (the same positioned
#     error), a truncated file with and without --lenient, a bare array
#     without its ']';
#   - gzip and zstd input and a pipe (chunks cut from the decompressed
#     stream), cut off and with a syntax error too.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1

# run_both NAME CHUNK CMD...: the command's stdout, stderr and status,
# serial and parallel, must be the same.
run_both() {
    name=$1 chunk=$2
    shift 2
    TRACETTY_THREADS=1 "$TRACETTY" "$@" >serial.out 2>serial.err
    echo "status $?" >>serial.out
    TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=$chunk "$TRACETTY" "$@" >par.out 2>par.err
    echo "status $?" >>par.out
    cat serial.err >>serial.out
    cat par.err >>par.out
    same_file par.out serial.out "$name: $* (chunks of $chunk bytes)"
}

# compare FILE CHUNK: every output of FILE serial vs parallel
compare() {
    f=$1 chunk=$2
    base=$(basename "$f")
    run_both "$base" "$chunk" summary --quiet "$f"
    run_both "$base" "$chunk" summary --quiet --format json "$f"
    run_both "$base" "$chunk" report --quiet --kind events --format csv "$f"
    run_both "$base" "$chunk" report --quiet --kind ops --format json "$f"
    run_both "$base" "$chunk" check --quiet --fail-on never --all "$f"
    rm -f serial.ttz par.ttz
    TRACETTY_THREADS=1 "$TRACETTY" convert --quiet "$f" -o serial.ttz >/dev/null 2>&1
    TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=$chunk "$TRACETTY" convert --quiet "$f" \
        -o par.ttz >/dev/null 2>&1
    if [ -f serial.ttz ]; then
        same_file par.ttz serial.ttz "$base: the same .ttz snapshot (chunks of $chunk bytes)"
    fi
}

# ---- generated Kineto traces
"$builddir/samples/gen-trace" kineto --events 20000 -o kineto.json >/dev/null 2>&1
ok $? "gen-trace kineto"
for chunk in 4099 65536; do
    compare kineto.json $chunk
done
# a syntax error three quarters in: the same line and column after many
# chunks' newline counts
n=$(wc -l <kineto.json)
sed "$((n * 3 / 4))s/\"ts\": /\"ts\": x/" kineto.json >kineto_bad.json
run_both kineto_bad.json 65536 summary --quiet kineto_bad.json
# compressed: chunks cut from the decompressed stream
gzip -c kineto.json >kineto.json.gz
compare kineto.json.gz 4099
if command -v zstd >/dev/null 2>&1; then
    zstd -q -c kineto.json >kineto.json.zst
    compare kineto.json.zst 65536
fi

# ---- hand-made: pairs across chunks, boundary look-alikes
awk 'BEGIN {
    printf "{\"traceEvents\": [\n"
    printf "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"main\"}},\n"
    for (i = 0; i < 300; i++) {
        t = i * 10
        printf "{\"ph\": \"B\", \"name\": \"outer%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d},\n", i % 3, t
        printf "{\"ph\": \"X\", \"name\": \"s\\\"},{\\\"ph\\\": \\\"X\\\"\", \"pid\": 1, \"tid\": 2, \"ts\": %d, \"dur\": 2, \"args\": {\"a\": {\"x\": 1}, \"b\": {\"y\": \"},{\"}, \"c\": [{}, {}]}},\n", t
        printf "{\"ph\": \"b\", \"name\": \"req%d\", \"cat\": \"net\", \"id\": \"0x%d\", \"pid\": 1, \"ts\": %d},\n", i % 2, i % 4, t
        if (i % 7 == 0)
            printf "{\"ph\": \"e\", \"name\": \"req1\", \"cat\": \"net\", \"id\": \"0x%d\", \"pid\": 1, \"ts\": %d},\n", (i + 1) % 4, t + 5
        printf "{\"ph\": \"s\", \"name\": \"fl\", \"cat\": \"c%d\", \"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %d},\n", i % 2, i, t + 1
        printf "{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"fl\", \"cat\": \"c%d\", \"id\": %d, \"pid\": 1, \"tid\": 2, \"ts\": %d},\n", i % 2, (i > 3 ? i - 3 : i), t + 1
        printf "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": %d, \"args\": {\"used\": %d}},\n", t, i * 7
        if (i % 50 == 49)
            printf "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"%s\"}},\n", (i == 299 ? "" : "t" i)
        if (i % 3 == 2)
            printf "{\"ph\": \"E\", \"name\": \"outer%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d},\n", i % 3, t + 9
    }
    printf "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 99999},\n"
    printf "{\"ph\": \"e\", \"name\": \"nobody\", \"cat\": \"net\", \"id\": \"0x9\", \"pid\": 1, \"ts\": 99999},\n"
    printf "{\"ph\": \"i\", \"name\": \"last\", \"pid\": 1, \"tid\": 1, \"ts\": 99999}\n"
    printf "], \"otherData\": {\"k\": [{\"a\": 1}, {\"b\": 2}]}}\n"
}' >pairs.json
for chunk in 97 1000 7777; do
    compare pairs.json $chunk
done

# the same events as a bare array without its ']', and with a trailing comma
sed -e '1s/^{"traceEvents": //' -e '$d' pairs.json >bare.json
compare bare.json 1000
{ cat bare.json; printf ',\n'; } >bare_comma.json
run_both bare_comma.json 1000 summary --quiet bare_comma.json

# ---- errors in a late chunk, cut-off files
sed '2000s/"ts": /"ts": x/' pairs.json >syntax.json
run_both syntax.json 1000 summary --quiet syntax.json
run_both syntax.json 1000 summary --quiet --lenient syntax.json
sed '2000s/"ts": \([0-9]*\)/"ts": "1e999"/' pairs.json >badts.json
run_both badts.json 1000 summary --quiet badts.json
head -c 150000 pairs.json >cut.json
run_both cut.json 1000 summary --quiet cut.json
run_both cut.json 1000 summary --quiet --lenient cut.json
run_both cut.json 1000 report --quiet --lenient --kind events --format csv cut.json
gzip -c pairs.json >pairs.json.gz
compare pairs.json.gz 1000
compare pairs.json.gz 97
gzip -c cut.json >cut.json.gz
run_both cut.json.gz 1000 summary --quiet cut.json.gz
run_both cut.json.gz 1000 summary --quiet --lenient cut.json.gz
gzip -c syntax.json >syntax.json.gz
run_both syntax.json.gz 1000 summary --quiet syntax.json.gz
# a pipe: read as a stream too
TRACETTY_THREADS=1 "$TRACETTY" summary --quiet - <pairs.json >serial.out 2>&1
TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=1000 "$TRACETTY" summary --quiet - <pairs.json \
    >par.out 2>&1
same_file par.out serial.out "pairs.json on stdin: the same summary (chunks of 1000 bytes)"

# ---- every Chrome trace of ../shared/traces
shared=$(shared_traces)
if [ -d "$shared" ]; then
    for f in "$shared"/chrome-edge/*.json "$shared"/pytorch/*.json "$shared"/pytorch/*/*.json \
             "$shared"/ascend/*.json; do
        [ -f "$f" ] || continue
        head -c 4096 "$f" | grep -q '"ph"' || continue
        compare "$f" 211
    done
else
    ok 0 "# SKIP ../shared/traces is absent"
fi
tap_done
