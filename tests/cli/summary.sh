#!/bin/sh
# summary.sh - golden outputs of `tracetty summary` (text and JSON) for the
# handwritten fixtures in tests/data/: nesting (B/E, X, instants of every
# scope), metadata names and sort indexes, counters, flows, async slices,
# top-level metadata and every kind of data problem.
#
# The expected files live in tests/golden/summary/; every number in them
# was checked by hand against the fixture (see the comments in
# tests/data/README). To regenerate after an intended change, run
#   TT_REGEN_GOLDEN=1 make check TESTS=tests/cli/summary.sh
# and review the diff before committing.
. "$srcdir/tests/lib.sh"

data="$srcdir/tests/data"
golden="$srcdir/tests/golden/summary"

# Run from the data directory so the "File" line holds a relative name.
cd "$data" || exit 1

check() {   # check NAME FORMAT(txt|json)
    name=$1 fmt=$2
    if [ "$fmt" = json ]; then
        "$TRACETTY" summary --format json "$name.json" >"$TMPD/out" 2>"$TMPD/err"
    else
        "$TRACETTY" summary "$name.json" >"$TMPD/out" 2>"$TMPD/err"
    fi
    ok $? "summary $fmt of $name.json exits 0"
    if [ "${TT_REGEN_GOLDEN:-}" = 1 ]; then
        cp "$TMPD/out" "$golden/$name.$fmt"
    fi
    same_file "$TMPD/out" "$golden/$name.$fmt" "summary $fmt of $name.json matches the golden file"
    is "$(cat "$TMPD/err")" "" "summary $fmt of $name.json: nothing on stderr"
}

for f in nested counters_flows problems; do
    check "$f" txt
    check "$f" json
done
check unsafe_names txt

# Without a command and with stdout not a terminal, tracetty summarizes.
"$TRACETTY" nested.json >"$TMPD/out" 2>"$TMPD/err"
ok $? "tracetty FILE (not a terminal) exits 0"
same_file "$TMPD/out" "$golden/nested.txt" "tracetty FILE prints the summary"

# Several files: text summaries separated by a blank line, JSON as an array.
# They are the ranks of one job, as for check: the annotation counts add
# the cross-rank straggler and slow-card rules.
"$TRACETTY" summary nested.json problems.json >"$TMPD/out" 2>"$TMPD/err"
ok $? "summary of two files exits 0"
with_straggler() { sed 's/^  low-utilization .*/&\n  straggler                             0\n  slow-card                             0/' "$1"; }
{ with_straggler "$golden/nested.txt"; echo; with_straggler "$golden/problems.txt"; } >"$TMPD/want"
same_file "$TMPD/out" "$TMPD/want" "two text summaries, separated by a blank line"
"$TRACETTY" summary --format json nested.json problems.json >"$TMPD/out" 2>"$TMPD/err"
ok $? "JSON summary of two files exits 0"
# The array must hold exactly the two single-file summaries, in order.
if command -v jq >/dev/null 2>&1; then
    jq '.[0]' "$TMPD/out" >"$TMPD/first" && jq '.annotations |= (del(."slow-link") + {"straggler": 0, "slow-card": 0, "slow-link": ."slow-link"})' "$golden/nested.json" >"$TMPD/want1"
    same_file "$TMPD/first" "$TMPD/want1" "JSON array: first entry is nested.json's summary (jq)"
    jq '.[1]' "$TMPD/out" >"$TMPD/second" && jq '.annotations |= (del(."slow-link") + {"straggler": 0, "slow-card": 0, "slow-link": ."slow-link"})' "$golden/problems.json" >"$TMPD/want2"
    same_file "$TMPD/second" "$TMPD/want2" "JSON array: second entry is problems.json's summary (jq)"
    is "$(jq length "$TMPD/out")" 2 "JSON array: two entries (jq)"
else
    matches "$TMPD/out" '^\[\{' "JSON summary of two files is an array (jq absent: shape only)"
fi

# Epoch timestamps in ns are beyond a double's 53 bits: the JSON span is
# written as exact integers.
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1682725897226747.001,"dur":1.5}]' >"$TMPD/epoch.json"
"$TRACETTY" summary --format json "$TMPD/epoch.json" >"$TMPD/out"
matches "$TMPD/out" '"start_ns":[[:space:]]*1682725897226747001,' "start_ns exact to the ns"
matches "$TMPD/out" '"end_ns":[[:space:]]*1682725897226748501,' "end_ns exact to the ns"

# A directory stands for every trace in it (and `tracetty DIR` into a pipe
# prints that summary, as for one trace)
mkdir "$TMPD/dir"
cp nested.json problems.json "$TMPD/dir/"
"$TRACETTY" summary "$TMPD/dir" >"$TMPD/out" 2>"$TMPD/err"
ok $? "summary DIR exits 0"
is "$(grep -c '^File ' "$TMPD/out")" 2 "summary DIR: one summary per trace in it"
"$TRACETTY" "$TMPD/dir" >"$TMPD/out2" 2>"$TMPD/err"
same_file "$TMPD/out2" "$TMPD/out" "tracetty DIR into a pipe prints the same"

# metadata: whole key names, and one line per entry of a list of objects
# (neuron-profile's summary per NeuronCore)
printf '{"summary":[{"total_time":0.5,"nc_idx":0},{"total_time":0.6,"nc_idx":1,"tensor_engine_instruction_count":7}],"instruction":[{"timestamp":1,"duration":5,"label":"TensorMatrix","opcode":"MATMUL"}]}' \
    >"$TMPD/ncs.json"
"$TRACETTY" summary "$TMPD/ncs.json" >"$TMPD/out" 2>"$TMPD/err"
matches "$TMPD/out" '^  summary +2 entries$' "a list of summaries: its size"
matches "$TMPD/out" '^    \[1\] +total_time=0\.6 nc_idx=1 tensor_engine_instruction_count=7$' \
    "and each entry on a line of its own"

# Names longer than the 54-column name field end with an ellipsis ("..."
# in the C locale, "…" in a UTF-8 one), so that two names that differ only
# after column 54 do not look the same.
common=$(printf '%60s' '' | tr ' ' k)
printf '{"traceEvents":[{"ph":"X","name":"%s_first","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","name":"%s_second","pid":1,"tid":1,"ts":10,"dur":4},{"ph":"X","name":"short","pid":1,"tid":1,"ts":20,"dur":1}]}\n' \
    "$common" "$common" > "$TMPD/long.json"
LC_ALL=C "$TRACETTY" summary "$TMPD/long.json" > "$TMPD/out"
cut51=$(printf '%s' "$common" | cut -c1-51)
is "$(grep -c "^  $cut51\.\.\. " "$TMPD/out")" 2 "C locale: both long names are cut at 51 characters and end with ..."
matches "$TMPD/out" '^  short {49} ' "a short name is padded to 54 columns, no ellipsis"
utf8=
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-\?8'; then utf8=$l; break; fi
done
if [ -n "$utf8" ]; then
    LC_ALL=$utf8 "$TRACETTY" summary "$TMPD/long.json" > "$TMPD/out"
    cut53=$(printf '%s' "$common" | cut -c1-53)
    is "$(grep -c "^  $cut53… " "$TMPD/out")" 2 "UTF-8 locale: both long names end with … in column 54"
fi

tap_done
