#!/bin/sh
# output_files.sh - files tracetty replaces keep their mode (report -o,
# convert -o, marker sidecars, markers export -o, merge-reports -o; all
# through io/atomic.c, as the view's box export) while new ones honour the
# umask; a symbolic link or a named pipe given as the output stays one;
# and a write that fails (a full device, a file size limit) is said once,
# with the path and the reason, leaving the old file as it was.
. "$srcdir/tests/lib.sh"
cd "$TMPD" || exit 2
cp "$srcdir/tests/data/problems.json" t.json
umask 022

mode() { stat -c %a "$1"; }

# ------------------------------------------------ replaced files keep mode

echo old >r.csv
chmod 600 r.csv
"$TRACETTY" report -o r.csv t.json 2>err
ok $? "report -o over an existing file"
is "$(mode r.csv)" 600 "report -o keeps a 600 file 600"
echo old >s.ttz
chmod 640 s.ttz
"$TRACETTY" convert --quiet -o s.ttz t.json 2>err
ok $? "convert -o over an existing file"
is "$(mode s.ttz)" 640 "convert -o keeps a 640 file 640"
"$TRACETTY" markers add t.json --set s --at 1us --name a 2>err
side=$(ls -A | grep 'markers' | head -1)
chmod 600 "$side"
"$TRACETTY" markers add t.json --set s --at 2us --name b 2>err
ok $? "a second marker"
is "$(mode "$side")" 600 "the marker sidecar keeps its 600 mode"
echo old >x.csv
chmod 600 x.csv
"$TRACETTY" markers export t.json -o x.csv 2>err
ok $? "markers export -o over an existing file"
is "$(mode x.csv)" 600 "markers export -o keeps a 600 file 600"
"$TRACETTY" report --quiet --kind gpu t.json >part.csv
echo old >merged.csv
chmod 640 merged.csv
"$TRACETTY" merge-reports -o merged.csv part.csv 2>err
ok $? "merge-reports -o over an existing file"
is "$(mode merged.csv)" 640 "merge-reports -o keeps a 640 file 640"
# a link stays a link (the file it names is replaced); a named pipe, like
# /dev/null or /dev/stdout, is written in place, not renamed over
echo old >real.csv
ln -s real.csv link.csv
"$TRACETTY" report -o link.csv t.json 2>err
ok $? "report -o through a symbolic link"
[ -L link.csv ]; ok $? "the link is still a link"
"$TRACETTY" report t.json >want.csv
same_file real.csv want.csv "the file it names has the report"
if mkfifo pipe 2>/dev/null && command -v timeout >/dev/null 2>&1; then
    timeout 20 cat pipe >got.csv &
    reader=$!
    timeout 20 "$TRACETTY" report -o pipe t.json 2>err
    ok $? "report -o into a named pipe"
    wait $reader
    [ -p pipe ]; ok $? "the pipe is still a pipe"
    same_file got.csv want.csv "the reader got the report"
else
    for i in 1 2 3; do tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no mkfifo or timeout"; done
fi
(umask 027; "$TRACETTY" report -o new.csv t.json 2>err)
is "$(mode new.csv)" 640 "a new file honours the umask"

# ----------------------------------------------- failed writes, said once

if [ -w /dev/full ]; then
    "$TRACETTY" check --format csv --fail-on never t.json >/dev/full 2>err
    is "$?" 2 "check > /dev/full: exit 2"
    is "$(cat err)" "tracetty: check: cannot write the output: No space left on device" \
        "check > /dev/full: one message with the reason"
    "$TRACETTY" report t.json >/dev/full 2>err
    is "$(cat err)" "tracetty: report: cannot write the output: No space left on device" \
        "report > /dev/full: one message with the reason"
    "$TRACETTY" markers export t.json >/dev/full 2>err
    is "$(cat err)" "tracetty: markers export: cannot write the output: No space left on device" \
        "markers export > /dev/full: one message with the reason"
else
    for i in 1 2 3 4; do
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no /dev/full"
    done
fi

# A file size limit stands in for a full disk: writes past it fail with
# EFBIG once SIGXFSZ is ignored (a full file system gives ENOSPC the same
# way). The report of the demo trace's events is far over 8 blocks.
demo="$srcdir/samples/demo.json"
echo old >big.csv
(trap '' XFSZ; ulimit -f 8; "$TRACETTY" report --kind events -o big.csv "$demo") 2>err
is "$?" 2 "report -o past a size limit: exit 2"
is "$(cat err)" "tracetty: report: cannot write big.csv: File too large" \
    "report -o past a size limit: one message with the path and the reason"
is "$(cat big.csv)" old "report -o past a size limit: the old file is untouched"
is "$(ls -A | grep -c '^\.big\.csv')" 0 "report -o past a size limit: no temporary file left"

long=$(printf 'n%.0s' $(seq 1 6000))
"$TRACETTY" markers add t.json --set s --at 3us --name c --note "$long" 2>err
(trap '' XFSZ; ulimit -f 4; "$TRACETTY" markers export t.json -o m.csv) 2>err
is "$?" 2 "markers export -o past a size limit: exit 2"
is "$(cat err)" "tracetty: markers export: cannot write m.csv: File too large" \
    "markers export -o past a size limit: the path and the reason"
[ ! -e m.csv ]; ok $? "markers export -o past a size limit: no file"

tap_done
