#!/bin/sh
# chrome_empty_strings.sh - empty strings ("name": "", "cat": "", "tid": "")
# are interned like any other, in every way the JSON is read: an empty
# string once reached the long-string memo, which reads 8 bytes at each
# end of the string: past the end of a file whose size is a multiple of the
# page size and whose last event ends in "name": "" (a SIGSEGV), and past
# the end of a chunk's buffer (ASan).
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1

# 3000 events: names "", "k" and a 40-byte one in turn (the last one ""),
# cat and tid ""; on one line after "[\n" and spaces that make the file,
# "]" included, a whole number of pages
awk 'BEGIN {
    long = "a_kernel_name_of_forty_bytes_0123456789a"
    for (i = 0; i < 3000; i++) {
        nm = (i % 3 == 0 || i == 2999) ? "" : (i % 3 == 1) ? "k" : long
        printf "%s{\"ph\":\"X\",\"cat\":\"\",\"ts\":%d.000,\"dur\":1.000,\"pid\":1,\"tid\":\"\",\"name\":\"%s\"}", \
            (i ? "," : ""), i * 2, nm
    }
}' > events.txt
len=$(( 2 + $(wc -c < events.txt) + 1 ))
pad=$(( (4096 - len % 4096) % 4096 ))
{ printf '[\n%*s' "$pad" ''; cat events.txt; printf ']'; } > e.json
is "$(( $(wc -c < e.json) % 4096 ))" 0 "the file is a whole number of pages"
is "$(tail -c 11 e.json)" '"name":""}]' "it ends in an empty name"
gzip -c e.json > e.json.gz

q="select count(*) from slice where name = ''"
want=1001
for t in 1 2; do
    got=$(TRACETTY_THREADS=$t "$TRACETTY" query --format csv e.json "$q" 2>&1 | tail -n 1 | tr -d "\r")
    is "$got" "$want" "mapped file, $t thread(s): the events with an empty name"
done
for chunk in 300 4099; do
    got=$(TRACETTY_THREADS=2 TRACETTY_CHROME_CHUNK_BYTES=$chunk "$TRACETTY" query --format csv \
          e.json.gz "$q" 2>&1 | tail -n 1 | tr -d "\r")
    is "$got" "$want" "gzip, chunks of $chunk bytes: the events with an empty name"
done
"$TRACETTY" summary --quiet e.json > file.out 2>&1
ok $? "summary of the file"
"$TRACETTY" summary --quiet - < e.json > pipe.out 2>&1
ok $? "summary from a pipe"
is "$(sed 1d pipe.out)" "$(sed 1d file.out)" "a pipe: the same summary (but its first line, the source)"
got=$("$TRACETTY" query --format csv e.json "select count(*) from slice where name = 'k'" 2>&1 | tail -n 1 | tr -d "\r")
is "$got" 1000 "the one-byte names"

tap_done
