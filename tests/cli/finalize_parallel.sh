#!/bin/sh
# finalize_parallel.sh - what runs on several threads after the decode
# gives what one thread gives: finalize's time scan (pieces of 32k
# events), each lane's sort, nesting and index, the flow binding (pieces
# of the points in lane and time order), the rules (one job per rule and
# trace), and the streamed loading of ranks for reports
# (tt_cli_each_trace: the next ranks load while one is reported).
# summary, summary --format json, the ops and events reports, check and the
# per-rank reports must be byte-identical, with the same status and
# messages, under TRACETTY_THREADS=1 (every serial path), 2 and 3:
#   - a generated, shuffled Kineto trace big enough for several scan
#     pieces per lane and several binding pieces (flows, counters, args);
#   - a hand-made trace of one big thread lane whose begins never end
#     (their duration is the trace's end, set from the open lists), with
#     equal starts of different lengths (the sort's tie order), checked
#     against python3 as well;
#   - a directory of shuffled ranks: check, report --kind gpu, ranks and
#     ops, and the same directory with a broken rank in the middle (the
#     same single error and the same output before it).
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
gen="$builddir/samples/gen-trace"

# same_threads NAME CMD...: stdout, stderr and status equal for 1, 2, 3
# threads
same_threads() {
    name=$1
    shift
    TRACETTY_THREADS=1 "$TRACETTY" "$@" >t1.out 2>t1.err
    echo "status $?" >>t1.out
    cat t1.err >>t1.out
    for t in 2 3; do
        TRACETTY_THREADS=$t "$TRACETTY" "$@" >t$t.out 2>t$t.err
        echo "status $?" >>t$t.out
        cat t$t.err >>t$t.out
        same_file t$t.out t1.out "$name: $* ($t threads as 1)"
    done
}

compare() {
    f=$1
    base=$(basename "$f")
    same_threads "$base" summary --quiet "$f"
    same_threads "$base" summary --quiet --format json "$f"
    same_threads "$base" report --quiet --kind ops --format csv "$f"
    same_threads "$base" report --quiet --kind events --format csv "$f"
    same_threads "$base" check --quiet --fail-on never --all "$f"
}

# ---- a shuffled Kineto trace: lanes of more than 32k events, 40k flows
"$gen" kineto --events 160000 --shuffle -o kineto.json >/dev/null 2>&1
ok $? "gen-trace kineto --shuffle"
compare kineto.json
TRACETTY_THREADS=2 "$TRACETTY" summary --quiet --format json kineto.json >k.json 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
    python3 - kineto.json k.json >k.txt <<'EOF'
import json, sys
src = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
ev = [e for e in src["traceEvents"] if e.get("ph") == "X"]
print(len(ev) == got["events"] - sum(1 for e in src["traceEvents"] if e.get("ph") == "i"),
      got["lanes"][0]["events"] > 32768 if got.get("lanes") else False)
EOF
    is "$(cat k.txt)" "True True" "Kineto: the event count is python's, a lane spans several scan pieces"
else
    tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no python3"
fi

# ---- one big lane: begins that never end, equal starts of different
# lengths, events out of order
if command -v python3 >/dev/null 2>&1; then
    python3 - >unclosed.json <<'EOF'
import json, random
random.seed(13)
ev = []
for i in range(70000):
    ts = (i // 3) * 10.0          # three events on each start
    ev.append({"ph": "X", "name": "k%d" % (i % 7), "pid": 1, "tid": 1,
               "ts": ts, "dur": float(1 + (i * 7919) % 9)})
for i in range(5):
    ev.append({"ph": "B", "name": "open%d" % i, "pid": 1, "tid": 1, "ts": 1000.0 * (i + 1)})
random.shuffle(ev)
ev.append({"ph": "X", "name": "last", "pid": 2, "tid": 9, "ts": 300000.0, "dur": 5.0})
json.dump({"traceEvents": ev}, open("/dev/stdout", "w"))
EOF
    compare unclosed.json
    TRACETTY_THREADS=2 "$TRACETTY" report --quiet --kind events --format csv unclosed.json \
        >unclosed.csv 2>/dev/null
    python3 - unclosed.csv <<'EOF' >unclosed.txt
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = list(rows[0].keys())
name = next(k for k in keys if k.lower() == "name")
dur = next(k for k in keys if "dur" in k.lower())
opens = [r for r in rows if r[name].startswith("open")]
# the trace ends at 300005 us: each open begin at 1000*(i+1) us runs to it
print(len(opens), sorted(int(r[dur]) for r in opens) ==
      sorted((300005 - 1000 * (i + 1)) * 1000 for i in range(5)))
EOF
    is "$(cat unclosed.txt)" "5 True" "unclosed begins run to the trace's end (python3)"
else
    tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no python3"
fi

# ---- ranks: streamed loads for the per-rank reports, rules per rank
mkdir ranks
r=0
while [ $r -lt 6 ]; do
    "$gen" kineto --events 20000 --rank $r --world 6 --shuffle \
        -o ranks/trace-$r-of-6.json >/dev/null 2>&1 || break
    r=$((r + 1))
done
is "$r" 6 "gen-trace: 6 ranks"
same_threads ranks check --quiet --fail-on never --all ranks
same_threads ranks report --quiet --kind gpu ranks
same_threads ranks report --quiet --kind ranks ranks
same_threads ranks report --quiet --kind ops --format csv ranks
# a broken rank in the middle: one error, and what came before it
cp -r ranks broken
printf '{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 1, "pid": 1, "tid": 1},\n  {"ph": "X", "ts": }\n' \
    >broken/trace-3-of-6.json
same_threads broken report --quiet --kind gpu broken
same_threads broken check --quiet --fail-on never broken
TRACETTY_THREADS=2 "$TRACETTY" report --quiet --kind gpu broken >b.out 2>b.err
st=$?
is "$st $(grep -c . b.err)" "2 1" "a broken rank: exit 2 (a load error) and one message"
matches b.err "trace-3-of-6.json" "the message names the broken rank"

tap_done
