#!/bin/sh
# summary_inputs.sh - the same trace read plain, gzip (also multi-member
# and without a telling file name), zstd (also multi-frame), and from
# stdin ("-", redirected and piped) gives the same summary; only the
# "File" line and the compression named in "Format" differ. A cut-off
# compressed file fails without --lenient and loads with it.
. "$srcdir/tests/lib.sh"

data="$srcdir/tests/data"
golden="$srcdir/tests/golden/summary"
cd "$TMPD" || exit 1
cp "$data/nested.json" nested.json

# norm FILE COMPRESSION: drop the File line and name the compression "C",
# so outputs of different inputs compare equal to the golden text.
norm() {
    sed -e '1s/^File .*/File X/' -e "2s/(${2}, /(C, /" "$1"
}
norm "$golden/nested.txt" none >want.txt

# same_as_plain COMPRESSION DESCRIPTION PIPE_FROM ARGS...: run summary
# ARGS (with PIPE_FROM piped to its stdin unless it is empty; the pipe is
# made here so that the TAP counters stay in this shell).
same_as_plain() {
    comp=$1 desc=$2 from=$3
    shift 3
    if [ -n "$from" ]; then
        cat "$from" | "$TRACETTY" summary "$@" >out.txt 2>err.txt
    else
        "$TRACETTY" summary "$@" >out.txt 2>err.txt
    fi
    ok $? "$desc: exits 0"
    matches out.txt "^Format    chrome-json \\($comp, " "$desc: compression is $comp"
    norm out.txt "$comp" >got.txt
    same_file got.txt want.txt "$desc: same summary as the plain file"
    is "$(cat err.txt)" "" "$desc: nothing on stderr"
}

gzip -c nested.json >nested.json.gz
same_as_plain gzip "gzip" "" nested.json.gz
cp nested.json.gz nested.data
same_as_plain gzip "gzip without a .gz name" "" nested.data
half=$(($(wc -c <nested.json) / 2))
head -c "$half" nested.json | gzip -c >multi.gz
tail -c +"$((half + 1))" nested.json | gzip -c >>multi.gz
same_as_plain gzip "multi-member gzip" "" multi.gz
same_as_plain none "stdin redirected (-)" "" - <nested.json
same_as_plain gzip "gzip piped to stdin (-)" nested.json.gz -

if command -v zstd >/dev/null 2>&1; then
    zstd -q -c nested.json >nested.json.zst
    same_as_plain zstd "zstd" "" nested.json.zst
    head -c "$half" nested.json | zstd -q -c >multi.zst
    tail -c +"$((half + 1))" nested.json | zstd -q -c >>multi.zst
    same_as_plain zstd "multi-frame zstd" "" multi.zst
    same_as_plain zstd "zstd piped to stdin (-)" nested.json.zst -
else
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP zstd program not installed"
    done
fi

# The JSON summary too: equal apart from "file" and "compression".
"$TRACETTY" summary --format json nested.json.gz >out.json 2>err.txt
ok $? "JSON summary of gzip input exits 0"
matches out.json '^	"compression":	"gzip",$' "JSON names the compression"
grep -v -e '^	"file":' -e '^	"compression":' out.json >got.json
grep -v -e '^	"file":' -e '^	"compression":' "$golden/nested.json" >want.json
same_file got.json want.json "JSON summary of gzip input equals the plain one"

# A gzip file cut in the middle: an error naming the cut, or with
# --lenient the complete events and a note on stderr.
size=$(wc -c <nested.json.gz)
head -c "$((size * 2 / 3))" nested.json.gz >cut.json.gz
"$TRACETTY" summary cut.json.gz >out.txt 2>err.txt
is "$?" 2 "cut gzip without --lenient: exit status 2"
is "$(wc -l <err.txt | tr -d ' ')" 1 "cut gzip: one line on stderr"
matches err.txt '^tracetty: cut\.json\.gz: line [0-9]+, column [0-9]+: .*--lenient' \
    "cut gzip: positioned message suggesting --lenient"
is "$(wc -c <out.txt | tr -d ' ')" 0 "cut gzip: nothing on stdout"
"$TRACETTY" summary --lenient cut.json.gz >out.txt 2>err.txt
ok $? "cut gzip with --lenient: exit status 0"
matches err.txt '^tracetty: warning: cut\.json\.gz: incomplete trace' \
    "cut gzip with --lenient: a note on stderr"
matches out.txt '^Problems$' "cut gzip with --lenient: the summary is printed"
matches out.txt '^  dropped incomplete data ' "cut gzip with --lenient: reported as a problem"

tap_done
