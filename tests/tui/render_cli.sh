#!/bin/sh
# render_cli.sh - the command line of `render` and `view`: options, the
# KEYS syntax errors, exit codes, and when `tracetty TRACE` browses.
. "$srcdir/tests/lib.sh"

trace="$srcdir/tests/data/tui/basic.json"

# expect_error DESCRIPTION REGEX CMD...: exit 2, one line on stderr
expect_error() {
    d=$1 re=$2
    shift 2
    "$@" > "$TMPD/out" 2> "$TMPD/err"
    st=$?
    is "$st" 2 "$d: exit status 2"
    is "$(wc -l < "$TMPD/err" | tr -d ' ')" 1 "$d: one line on stderr"
    matches "$TMPD/err" "$re" "$d: says what is wrong"
    is "$(wc -c < "$TMPD/out" | tr -d ' ')" 0 "$d: nothing on stdout"
}

printf '{"traceEvents":[{"ph":"X","name":"a","ts":1,' > "$TMPD/cut.json"

expect_error "unknown key token" "^tracetty: --keys: unknown key token '<Entr>' at character 3" \
    "$TRACETTY" render --keys 'ab<Entr>' "$trace"
expect_error "unterminated token" "unterminated key token '<Esc'" \
    "$TRACETTY" render --keys 'x<Esc' "$trace"
expect_error "bad mouse token" "unknown key token '<Click:1>'" \
    "$TRACETTY" render --keys '<Click:1>' "$trace"
expect_error "bad size" "--size: expected COLSxROWS" \
    "$TRACETTY" render --size 80 "$trace"
expect_error "zero size" "--size: expected COLSxROWS" \
    "$TRACETTY" render --size 0x24 "$trace"
expect_error "no trace" "render: give a TRACE, several, or a DIR" \
    "$TRACETTY" render
expect_error "--align with one trace" "render: --align lines up several traces" \
    "$TRACETTY" render --align start "$trace"
expect_error "bad --align" "render: --align 'sideways': expected absolute, start" \
    "$TRACETTY" render --align sideways "$trace" "$trace"
mkdir "$TMPD/empty"
expect_error "a directory without traces" "empty" \
    "$TRACETTY" render "$TMPD/empty"
expect_error "a rank that does not load" "cut.json: line 1, column" \
    "$TRACETTY" render "$trace" "$TMPD/cut.json"
expect_error "no such event to align on" "--align: rank 0 .* has no occurrence 1 of 'nope'" \
    "$TRACETTY" render --align event:nope "$trace" "$trace"
expect_error "unknown option" "unknown option '--bogus'; see 'tracetty help render'" \
    "$TRACETTY" render --bogus "$trace"
expect_error "missing file" "no-such-file" \
    "$TRACETTY" render "$TMPD/no-such-file.json"
expect_error "malformed trace" "cut.json: line 1, column" \
    "$TRACETTY" render "$TMPD/cut.json"

# --markers SET names a set beside the trace: one that is not there, or a
# sidecar that does not parse, is an error before the view starts
cp "$trace" "$TMPD/mk.json"
expect_error "an unknown marker set" "^tracetty: render: --markers: .*mk.json: no marker set named 'nope'" \
    "$TRACETTY" render --markers nope "$TMPD/mk.json"
expect_error "an unknown marker set over two ranks" "none of the 2 traces has a marker set named 'nope'" \
    "$TRACETTY" render --markers nope "$TMPD/mk.json" "$TMPD/mk.json"
expect_error "--markers with stdin" "--markers: \(stdin\): markers need a trace file" \
    "$TRACETTY" render --markers nope - < "$trace"
printf '{"format": "tracetty-markers",\n' > "$TMPD/mk.json.markers.json"
expect_error "a corrupt sidecar" "mk.json.markers.json: line 2, column 1: marker file is not valid JSON" \
    "$TRACETTY" render --markers iter "$TMPD/mk.json"
rm "$TMPD/mk.json.markers.json"
"$TRACETTY" markers add "$TMPD/mk.json" --set iter --at 1us --name a
"$TRACETTY" render --markers iter "$TMPD/mk.json" > "$TMPD/mk" 2> "$TMPD/mk.err"
is "$?:$(wc -c < "$TMPD/mk.err" | tr -d ' ')" "0:0" "a set that is there renders, quietly"
matches "$TMPD/mk" "loaded set 'iter'" "with the set loaded"
if command -v script > /dev/null 2>&1 && command -v timeout > /dev/null 2>&1; then
    # view, on a terminal: the same error before the screen is taken (a
    # view that did start waits for keys: the timeout ends it)
    timeout 10 script -qec "$TRACETTY view --markers nope $TMPD/mk.json" /dev/null \
        > "$TMPD/vw" 2>&1 < /dev/null
    is "$?" 2 "view --markers nope: exit 2"
    matches "$TMPD/vw" "^tracetty: view: --markers: .*mk.json: no marker set named 'nope'" \
        "view --markers nope: says so"
else
    ok 0 "view --markers nope # SKIP no script(1) or timeout(1)"
    ok 0 "view --markers nope: says so # SKIP no script(1) or timeout(1)"
fi

# render: default size 80x24, deterministic
"$TRACETTY" render "$trace" > "$TMPD/a"
"$TRACETTY" render --size 80x24 --keys '' "$trace" > "$TMPD/b"
is "$(wc -l < "$TMPD/a" | tr -d ' ')" 24 "render defaults to 24 rows"
same_file "$TMPD/a" "$TMPD/b" "render defaults to 80x24 and no keys"
"$TRACETTY" render --keys 'wwj<Enter>' "$trace" > "$TMPD/c1"
"$TRACETTY" render --keys 'wwj<Enter>' "$trace" > "$TMPD/c2"
same_file "$TMPD/c1" "$TMPD/c2" "the same keys give the same screen"
"$TRACETTY" render --keys 'q' "$trace" > "$TMPD/q1"
"$TRACETTY" render --keys 'qwwww' "$trace" > "$TMPD/q2"
same_file "$TMPD/q1" "$TMPD/q2" "keys after q are not replayed"
"$TRACETTY" render --keys "$(printf 'ww\r')" "$trace" > "$TMPD/r1"
"$TRACETTY" render --keys 'ww<Enter>' "$trace" > "$TMPD/r2"
same_file "$TMPD/r1" "$TMPD/r2" "a raw CR in the keys is Enter"
gzip -c < "$trace" > "$TMPD/basic.json.gz"
"$TRACETTY" render "$TMPD/basic.json.gz" | sed 's/basic\.json\.gz  /basic.json  /' > "$TMPD/gz"
same_file "$TMPD/gz" "$TMPD/a" "a gzip'd trace renders the same (but its name)"
"$TRACETTY" render - < "$trace" > "$TMPD/stdin"
matches "$TMPD/stdin" '^ tracetty  \(stdin\)' "render - reads stdin"
"$TRACETTY" render "$(cd "$srcdir/tests/data/tui" && pwd)/basic.json" > "$TMPD/abs"
if grep -q "$srcdir" "$TMPD/abs"; then ok 1 "no directory in the header"; else ok 0 "no directory in the header"; fi

# two traces are two ranks of a job, one tab each (the same file twice:
# ranks from the order given)
"$TRACETTY" render "$trace" "$trace" > "$TMPD/two" 2> "$TMPD/two.err"
is "$?" 0 "two traces render"
matches "$TMPD/two" '^ Ranks  0  1  ' "as ranks 0 and 1, in the tab bar"
matches "$TMPD/two" '^ tracetty  2 ranks . 2 files' "the header says so"
"$TRACETTY" render --keys '1' "$trace" "$trace" > "$TMPD/two1"
matches "$TMPD/two1" '^ tracetty  rank 1 . basic.json' "1 shows rank 1's tab"
"$TRACETTY" render --keys '1' "$trace" > "$TMPD/one1"
matches "$TMPD/one1" 'one trace is loaded' "with one trace, 1 says what it needs"

# view and the default command need a terminal
expect_error "view without a terminal" "view needs a terminal" \
    "$TRACETTY" view "$trace"
"$TRACETTY" "$trace" < /dev/null > "$TMPD/sum" 2>&1
is "$?" 0 "tracetty TRACE without a terminal prints the summary"
matches "$TMPD/sum" '^Events +[0-9]+ in the timeline' "with the summary's lines"

"$TRACETTY" --help > "$TMPD/help"
matches "$TMPD/help" '^  view ' "--help lists view"
matches "$TMPD/help" '^  render ' "--help lists render"
"$TRACETTY" help render > "$TMPD/hr"
matches "$TMPD/hr" 'render \[--size COLSxROWS\] \[--keys KEYS\] \[--ansi\]' "help render shows its usage"
# ranks without any device work (CPU-only profiles): the combined view
# shows all their lanes rather than empty rank rows
for r in 0 1; do
    printf '[{"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":%s},{"ph":"X","name":"idle","pid":1,"tid":2,"ts":500,"dur":10}]' \
        "$(( r == 0 ? 1000 : 400 ))" >"$TMPD/cpu-rank$r.json"
done
"$TRACETTY" render --size 80x8 "$TMPD/cpu-rank0.json" "$TMPD/cpu-rank1.json" >"$TMPD/cpu" 2>&1
ok $? "render two CPU-only ranks"
matches "$TMPD/cpu" '^>. rank 0 +.[#█]{20}' "rank 0's summary row shows its work"
matches "$TMPD/cpu" 'rank 0 . cpu-rank0.json . 2 lanes . in the window: busy 100\.0%' \
    "its status counts every lane as the rank's work"
# ranks on clocks decades apart are start-aligned by a huge offset: the
# ranks panel still shows it whole, with fewer decimals
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":10,"dur":100}]' >"$TMPD/far0.json"
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1682725897226747.001,"dur":100}]' >"$TMPD/far1.json"
"$TRACETTY" render --size 100x10 --keys '#' "$TMPD/far0.json" "$TMPD/far1.json" >"$TMPD/far" 2>&1
matches "$TMPD/far" ' 1 far1\.json +order +-1682725897\.2 s ' "a decades-long offset fits its column"
# a tall terminal gives the statistics panel more rows (two thirds)
"$TRACETTY" render --size 100x100 --keys 'v<End>G<Enter>' "$trace" >"$TMPD/tall" 2>&1
is "$(grep -c '^[|│].*[|│]$' "$TMPD/tall" | awk '{ print ($1 > 40) }')" 1 \
    "100 rows: the panel is taller than 40 rows"
# ':' to a time outside the trace goes to the nearer edge and says so
"$TRACETTY" render --size 100x24 --keys ':5s<Enter>' "$trace" >"$TMPD/far-go" 2>&1
matches "$TMPD/far-go" 'that time is outside the trace \(0 to [0-9.]+ ms\): at its end' \
    ":5s past the end: at its end, and said"
tap_done
