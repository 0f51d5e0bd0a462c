#!/bin/sh
# merge_reports.sh - merge-reports follows report's output rules: text
# cells keep the formula guard, escapes in the parts reach a terminal made
# visible (real bytes to a pipe), two parts claiming one rank are
# refused, and a damaged part is named with the row and what is wrong.
. "$srcdir/tests/lib.sh"
cd "$TMPD" || exit 2
data="$srcdir/tests/data/report"

# ---------------------------------------------------------- formula guard

printf '"Name","Total (ns)"\r\n"=1+1",5\r\n"@SUM(A1)",6\r\n"-2x",7\r\n' >f1.csv
printf '"Name","Total (ns)"\r\n"plain",8\r\n' >f2.csv
"$TRACETTY" merge-reports f1.csv f2.csv >out.csv 2>err
ok $? "merging parts with formula-like cells: exit 0"
printf '"Name","Total (ns)"\r\n"'"'"'=1+1",5\r\n"'"'"'@SUM(A1)",6\r\n"'"'"'-2x",7\r\n"plain",8\r\n' >want.csv
same_file out.csv want.csv "formula-like text gets the guard quote, numbers stay bare"
# a part report wrote (already guarded) is not guarded twice
"$TRACETTY" merge-reports out.csv >again.csv 2>err
same_file again.csv want.csv "a guarded cell is not guarded twice"

# ------------------------------------------------------ terminal escapes

printf '"Name","Total (ns)"\r\n"a\033]0;pwned\007b",5\r\n' >esc.csv
"$TRACETTY" merge-reports esc.csv >pipe.csv 2>err
is "$(grep -c "$(printf '\033')" pipe.csv)" 1 "to a pipe the bytes stay real"
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    script -qec "'$TRACETTY' merge-reports esc.csv" tty.log >/dev/null 2>&1
    matches tty.log 'a.*pwned' "the merged row reaches the terminal"
    is "$(grep -c "$(printf '\033')" tty.log)" 0 "to a terminal the escape is made visible"
else
    tap_n=$((tap_n + 2)); echo "ok $((tap_n - 1)) # SKIP no script(1)"; echo "ok $tap_n # SKIP no script(1)"
fi

# ------------------------------------------------- damaged parts, named

printf '"Name","Total (ns)"\r\n"a"x,5\r\n' >quote.csv
"$TRACETTY" merge-reports quote.csv >out.csv 2>err
is "$?:$(cat err)" "2:tracetty: merge-reports: quote.csv: row 2: malformed quoting: a quote inside an unquoted field or text after a closing quote" \
    "text after a closing quote: the file, the row and what is wrong"
printf '"Name","Total (ns)"\r\n"a",5\r\n"b' >cut.csv
"$TRACETTY" merge-reports cut.csv >out.csv 2>err
is "$?:$(cat err)" "2:tracetty: merge-reports: cut.csv: row 3: the file ends inside a quoted field: the report is cut off" \
    "a part cut off inside a quote: said so"
printf '"Name","Total (ns)"\r\n"a",5,6\r\n' >wide.csv
"$TRACETTY" merge-reports wide.csv >out.csv 2>err
is "$?:$(cat err)" "2:tracetty: merge-reports: wide.csv: row 2: 3 fields where the header has 2" \
    "a row wider than the header: the file and the row"

# ------------------------------------------------------ one rank, one part

"$TRACETTY" report --quiet --kind gpu "$data/small.json" >a.csv
cp a.csv b.csv
"$TRACETTY" report --quiet --kind gpu "$data/rank-1.json" >c.csv
"$TRACETTY" merge-reports a.csv c.csv >out.csv 2>err
ok $? "parts of two ranks merge"
"$TRACETTY" merge-reports a.csv c.csv b.csv >out.csv 2>err
is "$?" 2 "two parts claiming rank 3: exit 2"
is "$(cat err)" "tracetty: merge-reports: a.csv and b.csv both hold rank 3: give each rank's report once" \
    "two parts claiming rank 3: one clear message"
is "$(cat out.csv)" "" "two parts claiming rank 3: nothing on stdout"
"$TRACETTY" merge-reports -o m.csv a.csv b.csv 2>err
is "$?" 2 "-o with two parts claiming one rank: exit 2"
[ ! -e m.csv ]; ok $? "-o with two parts claiming one rank: no file"
"$TRACETTY" report --quiet --kind ranks "$data/small.json" >ra.csv
cp ra.csv rb.csv
"$TRACETTY" merge-reports ra.csv rb.csv >out.csv 2>err
matches err "ra\.csv and rb\.csv both hold rank 3" "the ranks kind is checked too"

tap_done
