#!/bin/sh
# diff_gate.sh - `tracetty diff --fail-if COND` and `--normalize`: a CI
# gate on two small traces with numbers worked out below (exit 1 and the
# conditions that hold with their values on stderr, exit 0 otherwise, a
# malformed condition exit 2 before anything is loaded); then real Kineto
# traces: kernel:GLOB and step conditions against Python sums
# (gate_oracle.py, steps_oracle.py), and --normalize against Python's own
# implementation of the name rules over a copy whose kernels are renamed as
# a library upgrade renames them.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
py=${PYTHON3:-python3}

# tests/data/gate: A has a 2 x 10 us, b 5 us, x 1 us (span 0..51 us); B
# has a 3 x 10 us, b 10 us, c 2 us (span 0..72 us). Totals 26,000 ->
# 42,000 ns (+16,000, +61.54%); rows: a increased, b unchanged, x deleted,
# c added.
cp "$srcdir/tests/data/gate/a.json" "$srcdir/tests/data/gate/b.json" . || exit 1
"$TRACETTY" diff a.json b.json >plain.csv
"$TRACETTY" diff --fail-if 'total>+50%' a.json b.json >gate.csv 2>gate.err
is $? 1 "total>+50% holds: exit 1"
same_file gate.csv plain.csv "  the table is written as without the gate"
is "$(cat gate.err)" "tracetty: diff: --fail-if 'total>+50%' holds: total: A 26,000 ns, B 42,000 ns, delta +16,000 ns (+61.54%)" \
    "  stderr names it with the measured values"
"$TRACETTY" diff --fail-if 'total > +70%' a.json b.json >/dev/null 2>none.err
is $? 0 "total > +70% does not hold: exit 0"
is "$(cat none.err)" "tracetty: diff: --fail-if: none of 1 condition holds" "  and says so"
"$TRACETTY" diff --quiet --fail-if 'total>+70%' a.json b.json >/dev/null 2>quiet.err
is "$?:$(cat quiet.err)" "0:" "--quiet: silent when none holds"
"$TRACETTY" diff --fail-if 'added>0' --fail-if 'deleted>1' --fail-if 'name:a>=10us' \
    --fail-if 'total<0' a.json b.json >/dev/null 2>many.err
is $? 1 "several conditions, some hold: exit 1"
is "$(cat many.err)" "tracetty: diff: --fail-if 'added>0' holds: added rows: 1
tracetty: diff: --fail-if 'name:a>=10us' holds: name:a: A 20,000 ns, B 30,000 ns, delta +10,000 ns (+50.00%)" \
    "  each that holds, in order (deleted>1 and total<0, counts 4 -> 5, do not)"
"$TRACETTY" diff --fail-if 'span>20us' a.json b.json >/dev/null 2>span.err
is $? 1 "span>20us: 51 -> 72 us holds"
matches span.err "span: A 51,000 ns, B 72,000 ns, delta \+21,000 ns \(\+41.18%\)" "  with the spans"
"$TRACETTY" diff --fail-if 'span>21us' a.json b.json >/dev/null 2>&1
is $? 0 "span>21us: exactly 21 us does not"
"$TRACETTY" diff --kind kernels --fail-if 'op:a*>=+50%' a.json b.json >/dev/null 2>op.err
is $? 1 "op:a* under --kind kernels: the ops table is computed for it"
"$TRACETTY" diff --by cat --fail-if 'op:b<=5us' --fail-if 'name:*>1000%' a.json b.json >/dev/null 2>by.err
is $? 1 "op: with --by: by name all the same"
matches by.err "op:b: A 5,000 ns, B 10,000 ns" "  op:b by name"

# malformed: exit 2 before anything is loaded or written
"$TRACETTY" diff --fail-if 'total>+5x' nosuch.json b.json >bad.out 2>bad.err
is $? 2 "a malformed condition: exit 2"
is "$(cat bad.err)" "tracetty: diff: --fail-if 'total>+5x': column 9: expected %, ns, us, ms or s after the number (or nothing: a count)" \
    "  positioned, before loading"
is "$(wc -c <bad.out | tr -d ' ')" 0 "  no output"
"$TRACETTY" diff --fail-if 'kernal:gemm*>1%' a.json b.json >/dev/null 2>typo.err
is $? 2 "an unknown subject: exit 2"
matches typo.err "column 1: unknown subject 'kernal' \(did you mean kernel\?\)" "  with a suggestion"
"$TRACETTY" diff --fail-if 'step>1%' a.json b.json >/dev/null 2>nostep.err
is $? 2 "step on traces without steps: exit 2"
matches nostep.err "A has no steps" "  says which side"

T="$(shared_traces)/pytorch"
if [ ! -f "$T/resnet50_workers0.pt.trace.json.gz" ]; then
    tap_done
    exit $?
fi
A="$T/resnet50_workers0.pt.trace.json.gz" B="$T/resnet50_workers4.pt.trace.json.gz"

# kernel:GLOB while --kind ops is in use, against Python's sums
set -- $("$py" "$srcdir/tests/cli/gate_oracle.py" sums "$A" "$B" '*sgemm*')
want=$("$py" -c 'import sys
a, b = int(sys.argv[1]), int(sys.argv[2])
print("kernel:*sgemm*: A {:,} ns, B {:,} ns, delta {}{:,} ns ({:+.2f}%)".format(
    a, b, "+" if b >= a else "-", abs(b - a), 100.0 * (b - a) / a))' "$1" "$2")
"$TRACETTY" diff --fail-if 'kernel:*sgemm*>-100%' "$A" "$B" >/dev/null 2>k.err
is $? 1 "kernel:*sgemm* on two real runs"
is "$(sed 's/.* holds: //' k.err)" "$want" "  its totals as Python sums them"

# step: the mean step times as steps_oracle.py computes them
"$py" "$srcdir/tests/cli/steps_oracle.py" "$A" >a.steps
"$py" "$srcdir/tests/cli/steps_oracle.py" "$B" >b.steps
want=$("$py" -c 'import sys
def mean(p):
    v = [int(l.split(",")[2]) for l in open(p) if l[0].isdigit()]
    return sum(v) / len(v)
def f(v):
    return "{:,.0f}".format(v) if v == int(v) else "{:,.1f}".format(v)
a, b = mean("a.steps"), mean("b.steps")
print("step: A {} ns, B {} ns, delta {}{} ns ({:+.2f}%)".format(
    f(a), f(b), "+" if b >= a else "-", f(abs(b - a)), 100.0 * (b - a) / a))')
"$TRACETTY" diff --fail-if 'step<-10%' --fail-if 'step>0ns' "$A" "$B" >/dev/null 2>s.err
is $? 1 "step<-10% holds (workers4 steps are faster)"
is "$(sed 's/.* holds: //' s.err)" "$want" "  the mean step times as Python computes them; step>0ns does not hold"

# two steps of one trace (--step 6 --step 7): span and step are each
# step's time, as steps_oracle.py computes it
want=$("$py" -c 'import sys
t = {l.split(",")[0]: int(l.split(",")[2]) for l in open("a.steps") if l[0].isdigit()}
a, b = t["6"], t["7"]
for s in ("step", "span"):
    print("{}: A {:,} ns, B {:,} ns, delta {}{:,} ns ({:+.2f}%)".format(
        s, a, b, "+" if b >= a else "-", abs(b - a), 100.0 * (b - a) / a))')
"$TRACETTY" diff --step 6 --step 7 "$A" --fail-if 'step>-100%' --fail-if 'span>=-100%' \
    >/dev/null 2>st.err
is $? 1 "--step 6 --step 7 of one trace: step and span conditions"
is "$(sed 's/.* holds: //' st.err)" "$want" "  each step's time as Python computes it"

# --normalize: kernels renamed as an upgrade renames them
"$py" "$srcdir/tests/cli/gate_oracle.py" rename "$A" renamed.json >/dev/null
"$TRACETTY" diff --kind kernels "$A" renamed.json --fail-if 'added>0' >exact.csv 2>/dev/null
is $? 1 "renamed kernels: added rows without --normalize"
"$TRACETTY" diff --kind kernels --normalize "$A" renamed.json \
    --fail-if 'added>0' --fail-if 'deleted>0' --fail-if 'total>0ns' --fail-if 'total<0ns' >norm.csv 2>norm.err
is $? 0 "with --normalize every kernel meets its renamed self (the gate holds nothing)"
"$py" "$srcdir/tests/cli/gate_oracle.py" norm "$A" renamed.json norm.csv >norm.out
ok $? "every normalized row as Python normalizes and sums ($(tail -1 norm.out))"
tap_done
