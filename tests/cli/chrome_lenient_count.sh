#!/bin/sh
# chrome_lenient_count.sh - --lenient's rough count of the dropped events
# (the "ph" keys in the unparsed tail) is the count in the file, however
# the tail was read: serially or after parallel chunks of any length, from
# a file, gzip, zstd or a pipe. A key split across the end of a read window
# was missed, so the count depended on where the reads ended.
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
want=$(tail -n +"$(cat line)" bad.json | grep -o '"ph"' | wc -l | tr -d ' ')
gzip -c bad.json >bad.json.gz
have_zstd=0
if command -v zstd >/dev/null 2>&1 && zstd -q -c bad.json >bad.json.zst 2>/dev/null; then
    have_zstd=1
fi

# count ENV...: the count --lenient reports with the given environment
count() {
    env "$@" "$TRACETTY" summary --quiet --lenient "$f" 2>&1 >/dev/null |
        sed -n 's/.*(about \([0-9]*\) events*).*/\1/p' | head -n 1
}

for f in bad.json bad.json.gz bad.json.zst; do
    [ "$f" = bad.json.zst ] && [ "$have_zstd" -eq 0 ] && continue
    is "$(count TRACETTY_THREADS=1)" "$want" "$f: serial: the \"ph\" keys of the dropped tail"
    for chunk in 4099 65536 1000000; do
        is "$(count TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=$chunk)" "$want" \
            "$f: chunks of $chunk bytes: the same count"
    done
done
got=$(TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=65536 "$TRACETTY" summary --quiet \
      --lenient - <bad.json.gz 2>&1 >/dev/null |
      sed -n 's/.*(about \([0-9]*\) events*).*/\1/p' | head -n 1)
is "$got" "$want" "gzip from a pipe: the same count"

tap_done
