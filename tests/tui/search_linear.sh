#!/bin/sh
# search_linear.sh - a regular-expression search never freezes the view:
# patterns are matched in linear time (util/relin.c), and back-references,
# which need backtracking (glibc took minutes on "(a*)*\1b" against a
# 200-character name), are refused with a positioned message. Each render
# is bounded by `timeout`: a hang fails the test instead of the suite.
. "$srcdir/tests/lib.sh"

trace="$TMPD/long.json"
# one event named by 5000 a's, one named "aab"
longname=$(printf '%5000s' '' | tr ' ' a)
printf '{"traceEvents":[{"ph":"X","name":"%s","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","name":"aab","pid":1,"tid":1,"ts":10,"dur":5}]}\n' \
    "$longname" > "$trace"

# search PATTERN: the status line after searching for PATTERN, in
# $TMPD/line; fails when the view does not answer within 20 s.
search() {
    timeout 20 "$TRACETTY" render --size 100x10 --keys "/$1<Enter>" "$trace" > "$TMPD/screen"
    st=$?
    tail -n 1 "$TMPD/screen" > "$TMPD/line"
    return $st
}

search '~(a*)*\1b'
ok $? "a back-reference pattern on a long name: the view answers at once"
matches "$TMPD/line" '^bad regular expression at character 6: back-references \(\\1 \.\.\. \\9\) are not supported' \
    "a back-reference is refused, saying where"

# patterns a backtracking matcher takes exponential time on
for pat in '(a*)*b' '(a|aa)*b' '(.*)*(.*)*ab' '(a?){30}a{30}$'; do
    search "~$pat"
    ok $? "/~$pat: finishes"
    case $pat in
    *b) matches "$TMPD/line" "^match 1 of 1 for '~" "/~$pat: finds the one event named aab" ;;
    *) matches "$TMPD/line" "match 1 of 1 for '~" "/~$pat: finds the long name" ;;
    esac
done
search '~^(a?){30}a{30}$'
matches "$TMPD/line" "^no event name matches" "/~^(a?){30}a{30}\$: matches neither name"

search '~^A{5000}$'
matches "$TMPD/line" "^bad regular expression at character 3: a count above 255" \
    "a count above 255 is refused"
search '~^(A{250}){20}$'
matches "$TMPD/line" "match 1 of 1 for '~" "counted repeats, case-insensitive: the long name matches"

tap_done
