#!/bin/sh
# options.sh - the command line every command shares: options before or
# after the traces (GNU-style, `--` ends them, whatever POSIXLY_CORRECT
# says), a mistyped command or option named with the closest valid one,
# and `tracetty help COMMAND` for each command.
. "$srcdir/tests/lib.sh"
cd "$TMPD" || exit 2
cp "$srcdir/tests/data/problems.json" t.json

# ------------------------------------------------- mistyped commands

"$TRACETTY" summry x >out 2>err
is "$?" 2 "a mistyped command: exit 2"
is "$(cat err)" "tracetty: unknown command 'summry' (did you mean summary?); see 'tracetty --help'" \
    "a mistyped command names the closest command"
is "$(cat out)" "" "a mistyped command prints nothing on stdout"
"$TRACETTY" help sumary >out 2>err
is "$?" 2 "help of a mistyped command: exit 2"
is "$(cat err)" "tracetty: unknown command 'sumary' (did you mean summary?); see 'tracetty --help'" \
    "help of a mistyped command names the closest command"
# an existing file wins over a command's typo
cp t.json summry
"$TRACETTY" summry >out 2>err
is "$?" 0 "a trace called like a typo of a command is a trace"
matches out '^File      summry$' "the file summry is summarized"
# a name close to no command is a file that cannot be opened
"$TRACETTY" nothere.json >out 2>err
is "$(cat err)" "tracetty: nothere.json: cannot open: No such file or directory" \
    "a name close to no command is opened as a file"

# ------------------------------------------------ mistyped options

for c in summary view render convert report diff check markers merge-reports query; do
    "$TRACETTY" "$c" --hepl t.json >out 2>err
    is "$?" 2 "$c --hepl: exit 2"
    is "$(cat err)" \
        "tracetty: $c: unknown option '--hepl' (did you mean --help?); see 'tracetty help $c'" \
        "$c: an unknown option names the closest and the help command"
    "$TRACETTY" help "$c" >out 2>err
    is "$?" 0 "tracetty help $c exists"
    matches out "^usage: tracetty $c" "tracetty help $c prints its usage"
    "$TRACETTY" "$c" --help >help 2>&1
    cmp -s out help
    is "$?" 0 "tracetty help $c is the page of $c --help (the errors point to it)"
done
"$TRACETTY" report --kidn gpu t.json >out 2>err
is "$(cat err)" \
    "tracetty: report: unknown option '--kidn' (did you mean --kind?); see 'tracetty help report'" \
    "report --kidn suggests --kind"
"$TRACETTY" summary --zzzzzzz t.json >out 2>err
is "$(cat err)" "tracetty: summary: unknown option '--zzzzzzz'; see 'tracetty help summary'" \
    "an option close to none gets no suggestion"
"$TRACETTY" check --f csv t.json >out 2>err
is "$(cat err)" \
    "tracetty: check: option '--f' is ambiguous (--fail-on, --format); see 'tracetty help check'" \
    "an ambiguous abbreviation names its candidates"
"$TRACETTY" summary t.json --format >out 2>err
is "$(cat err)" "tracetty: summary: option '--format' needs a value; see 'tracetty help summary'" \
    "a missing value is named"
"$TRACETTY" report --quiet=yes t.json >out 2>err
is "$(cat err)" "tracetty: report: option '--quiet' takes no value; see 'tracetty help report'" \
    "a value given to a flag is named"
"$TRACETTY" report -Z t.json >out 2>err
is "$(cat err)" "tracetty: report: unknown option '-Z'; see 'tracetty help report'" \
    "an unknown short option is named"

# ------------------------------------------- options after the traces

"$TRACETTY" summary --format json t.json >want.json 2>/dev/null
"$TRACETTY" summary t.json --format json >got.json 2>err
is "$?" 0 "summary TRACE --format json: exit 0"
same_file got.json want.json "summary TRACE --format json equals options first"
POSIXLY_CORRECT=1 "$TRACETTY" summary t.json --format json >got.json 2>err
same_file got.json want.json "POSIXLY_CORRECT does not turn permutation off"
"$TRACETTY" report --format json t.json >want.json 2>/dev/null
"$TRACETTY" report t.json --format json >got.json 2>/dev/null
same_file got.json want.json "report TRACE --format json"
"$TRACETTY" check --format csv --fail-on never t.json >want.csv 2>/dev/null
"$TRACETTY" check t.json --format csv --fail-on never >got.csv 2>/dev/null
same_file got.csv want.csv "check TRACE --format csv"
"$TRACETTY" render --size 40x8 t.json >want.txt 2>/dev/null
"$TRACETTY" render t.json --size 40x8 >got.txt 2>/dev/null
same_file got.txt want.txt "render TRACE --size"
"$TRACETTY" convert t.json -o t.ttz --quiet >out 2>err
ok $? "convert TRACE -o FILE --quiet"
is "$(cat err)" "" "convert: --quiet after the trace applies"
"$TRACETTY" markers add t.json --set s --at 1us --name a >out 2>err
"$TRACETTY" markers list t.json --format json >got.json 2>err
matches got.json '"set":[[:space:]]*"s"' "markers list TRACE --format json"
"$TRACETTY" report --kind gpu t.json >part.csv 2>/dev/null
"$TRACETTY" merge-reports part.csv -o merged.csv 2>err
ok $? "merge-reports CSV -o FILE"
[ -s merged.csv ]; ok $? "merge-reports: -o after the CSV writes the file"

# `--` ends the options: what follows is a trace even with a dash
cp t.json ./--format
"$TRACETTY" summary -- --format >out 2>err
is "$?" 0 "summary -- --format: exit 0"
matches out '^File      --format$' "after --, --format is a trace"

tap_done
