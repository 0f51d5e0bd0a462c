#!/bin/sh
# chrome_lenient_count.sh - --lenient's rough count of the dropped events
# (the "ph" keys in the unparsed tail) is the count in the file, and its
# dropped bytes those from the damaged event on (not the comma and
# whitespace after the last complete event, as tests/cli/errors.sh's
# cut-off file), however the tail was read: serially or after parallel
# chunks of any length, from a file, gzip, zstd or a pipe. A key split
# across the end of a read window was missed, so the count depended on
# where the reads ended; a serial load counted the separators when they
# were still in its window, 4 bytes more than the parallel chunks.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1

"$builddir/samples/gen-trace" kineto --events 20000 -o k.json >/dev/null 2>&1
ok $? "gen-trace kineto"

# a "ts" key without its ':' about 45% in: from that event on, all is dropped
n=$(wc -l <k.json)
awk -v at=$((n * 45 / 100)) '
    !done && NR >= at && /"ts":/ { sub(/"ts":/, "\"ts\" "); done = NR }
    { print }
    END { print done >"line" }' k.json >bad.json
# the "ph" keys from the damaged event's line on (one event a line)
events=$(tail -n +"$(cat line)" bad.json | grep -o '"ph"' | wc -l | tr -d ' ')
# the bytes from the damaged event's start, the last line "  {" before the
# damage (gen-trace's layout)
bytes=$(awk -v size="$(wc -c <bad.json | tr -d ' ')" '
    /"ts" / { print size - start; exit }
    /^  {$/ { start = off + 2 }
    { off += length($0) + 1 }' bad.json)
want="$bytes bytes, about $events events"
gzip -c bad.json >bad.json.gz
have_zstd=0
if command -v zstd >/dev/null 2>&1 && zstd -q -c bad.json >bad.json.zst 2>/dev/null; then
    have_zstd=1
fi

# count ENV...: the bytes and events --lenient reports with the environment
count() {
    env "$@" "$TRACETTY" summary --quiet --lenient "$f" 2>&1 >/dev/null |
        sed -n 's/.*dropped \([0-9]*\) bytes (about \([0-9]*\) events*).*/\1 bytes, about \2 events/p' |
        head -n 1
}

for f in bad.json bad.json.gz bad.json.zst; do
    [ "$f" = bad.json.zst ] && [ "$have_zstd" -eq 0 ] && continue
    is "$(count TRACETTY_THREADS=1)" "$want" "$f: serial: the bytes and \"ph\" keys of the dropped tail"
    for chunk in 4099 65536 1000000; do
        is "$(count TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=$chunk)" "$want" \
            "$f: chunks of $chunk bytes: the same count"
    done
done
f=-
got=$(count TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=65536 <bad.json.gz)
is "$got" "$want" "gzip from a pipe: the same count"

tap_done
