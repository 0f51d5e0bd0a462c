#!/bin/sh
# gen_large.sh - large mode writes exactly N events of valid JSON, counted
# independently (python3 when present, tracetty's phase tally, grep), and
# usage errors exit 2 without leaving a file behind.
. "$srcdir/tests/lib.sh"

GEN="$builddir/samples/gen-trace"
[ -x "$GEN" ] || skip_all "samples/gen-trace is not built"
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1
tab=$(printf '\t')

# 39 = the metadata alone; 40 = one polling call; 1000 = polling only;
# 9001 = two steps and a partial; 17500 = more steps than the demo
for n in 39 40 1000 9001 17500; do
    f="$TMPD/e$n.json"
    "$GEN" kineto --events "$n" --stats -o "$f" 2> "$TMPD/st$n"
    ok $? "--events $n runs"
    is "$(awk '$1 == "events" { print $2 }' "$TMPD/st$n")" "$n" "--events $n: --stats says $n"
    is "$(grep -o '"ph": "' "$f" | wc -l | tr -d ' ')" "$n" "--events $n: $n \"ph\" keys in the file"
    "$TRACETTY" summary --format json "$f" > "$TMPD/sum$n"
    ok $? "--events $n: tracetty loads it"
    tally=$(sed -n "/^$tab\"phases\":/,/^$tab}/s/^$tab$tab\"[A-Za-z]\":$tab\([0-9]*\),\{0,1\}\$/\1/p" \
        "$TMPD/sum$n" | awk '{ s += $1 } END { print s + 0 }')
    is "$tally" "$n" "--events $n: tracetty's phase tally sums to $n"
    matches "$TMPD/sum$n" "^$tab\"problems\":$tab\\[\\],\$" "--events $n: no problems"
    if [ "$have_py" = 1 ]; then
        got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["traceEvents"]))' "$f")
        is "$got" "$n" "--events $n: python3 json.load finds $n events"
    else
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP python3 not installed"
    fi
done
steps=$(awk '$1 == "steps" { print $2 }' "$TMPD/st9001")
fill=$(awk '$1 == "fill" { print $2 }' "$TMPD/st9001")
[ "$steps" -ge 2 ] && [ "$fill" -gt 0 ]
ok $? "--events 9001 is whole steps ($steps) plus polling ($fill)"
grep -c '"name": "cudaEventQuery"' "$TMPD/e9001.json" > "$TMPD/nq"
is "$(cat "$TMPD/nq")" "$fill" "the polling is $fill cudaEventQuery calls"

# the same steps, whatever the mode: large mode's first steps are the demo's
"$GEN" kineto --steps 2 -o "$TMPD/s2.json"
a=$(grep -n '"name": "ProfilerStep#3"' "$TMPD/s2.json" | head -1)
b=$(grep -n '"name": "ProfilerStep#3"' "$TMPD/e9001.json" | head -1)
is "$b" "$a" "large mode starts with the same steps as --steps"

# errors: exit 2, one message, no file
"$GEN" kineto --events 38 -o "$TMPD/bad1.json" 2> "$TMPD/err1"
is $? 2 "--events below the metadata: exit 2"
matches "$TMPD/err1" "at least 39" "the message gives the minimum"
"$GEN" kineto --events 100 --steps 2 -o "$TMPD/bad2.json" 2> "$TMPD/err2"
is $? 2 "--events with --steps: exit 2"
"$GEN" kineto --rank 8 --world 8 -o "$TMPD/bad3.json" 2> "$TMPD/err3"
is $? 2 "--rank not below --world: exit 2"
"$GEN" kineto --steps 0 -o "$TMPD/bad4.json" 2> "$TMPD/err4"
is $? 2 "--steps 0: exit 2"
matches "$TMPD/err4" "--steps wants a whole number from 1" "the message gives the range"
"$GEN" kineto --steps 2x -o "$TMPD/bad5.json" 2> /dev/null
is $? 2 "--steps 2x: exit 2"
"$GEN" kineto --nccl-version abc -o "$TMPD/bad6.json" 2> /dev/null
is $? 2 "--nccl-version abc: exit 2"
"$GEN" kineto 2> "$TMPD/err7"
is $? 2 "no -o: exit 2"
"$GEN" kineto -o "$TMPD/no/such/dir/x.json" 2> "$TMPD/err8"
is $? 2 "unwritable output: exit 2"
matches "$TMPD/err8" "x.json" "the message names the file"
ls "$TMPD" | grep -q '^bad' && ok 1 "no output left by a failed run" || ok 0 "no output left by a failed run"
ls -a "$TMPD" | grep -q '\.tmp\.' && ok 1 "no temporary file left" || ok 0 "no temporary file left"

tap_done
