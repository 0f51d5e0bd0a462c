#!/bin/sh
# chrome_mapped.sh - with one thread, a plain Chrome file larger than the
# read window (4 MB) is parsed straight from its mapping
# (chrome_window_map): every output is the one a read window gives, the
# same bytes through a pipe:
#   - summary, reports and check of a generated Kineto trace (object
#     form), and of the bare array form;
#   - a syntax error and a bad timestamp late in the file (the same line
#     and column, counted from the mapping only for the message);
#   - a file cut off inside an event, with and without --lenient (the same
#     dropped byte count), and after a complete event;
#   - data after the end of the trace (read after the array through a
#     window again).
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1

# run_both NAME FILE CMD...: mapped (the file) and read (a pipe), one
# thread; the pipe's name "-" is the file's in its messages.
run_both() {
    name=$1 f=$2
    shift 2
    TRACETTY_THREADS=1 "$TRACETTY" "$@" "$f" >mapped.out 2>mapped.err
    echo "status $?" >>mapped.out
    TRACETTY_THREADS=1 "$TRACETTY" "$@" - <"$f" >read.out 2>read.err
    echo "status $?" >>read.out
    cat mapped.err >>mapped.out
    sed "s|^tracetty: -:|tracetty: $f:|; s|^tracetty: warning: -:|tracetty: warning: $f:|" \
        read.err >>read.out
    sed -i "s|^File  *-\$|File      $f|; s|^\t\"file\":\t\"-\",|\t\"file\":\t\"$f\",|" read.out
    same_file mapped.out read.out "$name: $*"
}

"$builddir/samples/gen-trace" kineto --events 40000 --shuffle -o big.json >/dev/null 2>&1
ok $? "gen-trace kineto"
size=$(wc -c <big.json)
[ "$size" -gt $((6 << 20)) ]
ok $? "the trace is larger than the read window ($size bytes)"

run_both object big.json summary --quiet
run_both object big.json summary --quiet --format json
run_both object big.json report --quiet --kind events --format csv
run_both object big.json report --quiet --kind ops --format csv
run_both object big.json check --quiet --fail-on never --all --format csv

# the bare array form: the events array alone
python3 - <<'PY'
import json
d = json.load(open("big.json"))
with open("array.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(e) for e in d["traceEvents"]) + "\n]\n")
PY
run_both array array.json summary --quiet
run_both array array.json report --quiet --kind ops --format csv

# damaged late in the file
python3 - <<'PY'
d = open("big.json", "rb").read()
n = len(d)
i = d.index(b'"ts"', n * 2 // 3)
open("syntax.json", "wb").write(d[:i] + b'"ts": tru, ' + d[i + 4:])
i = d.index(b'"name"', n * 3 // 4)
open("badts.json", "wb").write(d[:i] + b'"ts": 01, ' + d[i:])
i = d.index(b'"ts"', n * 4 // 5)
open("cut.json", "wb").write(d[:i + 2])
i = d.index(b'}', d.index(b'"ph"', n * 4 // 5))
i = d.index(b'}', i + 1)
open("cut_after.json", "wb").write(d[:i + 1] + b',\n  ')
j = d.rindex(b'}')
open("junk.json", "wb").write(d[:j + 1] + b'\n  xyz\n')
PY
for f in syntax.json badts.json cut.json cut_after.json junk.json; do
    run_both "${f%.json}" "$f" summary --quiet
    run_both "${f%.json}" "$f" summary --quiet --lenient
done
matches mapped.out 'line [0-9]+, column [0-9]+' "an error position is given"

tap_done
