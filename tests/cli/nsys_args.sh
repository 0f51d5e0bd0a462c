#!/bin/sh
# nsys_args.sh - the arguments of an Nsight Systems SQLite export's copies
# and memsets read back exactly, kind labels that need JSON escapes (a
# quote, a backslash, a tab: stored as JSON text the block's key filter
# looks at) beside ones that need none (complete scalars it need not, see
# TT_ARGV_SCALAR in src/model/args.h), against an independent computation
# (tests/cli/nsys_args_oracle.py, Python's sqlite3); a query for one key,
# which may pass blocks over by their key filter, finds every value too.
# Skipped without python3 or without SQLite support.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
need_py_sqlite
oracle="$srcdir/tests/cli/nsys_args_oracle.py"

"$py" "$oracle" write labels.sqlite
ok $? "export written"
"$TRACETTY" summary labels.sqlite >summary.out 2>summary.err
rc=$?
if [ $rc -ne 0 ] && grep -q "built without SQLite" summary.err; then
    skip_all "built without SQLite"
fi
ok $rc "summary"
"$py" "$oracle" expect >expect.csv
"$TRACETTY" query labels.sqlite "select key, display_value, count(*) from args
    group by key, display_value order by key, display_value" >got.csv 2>got.err
ok $? "query of every argument"
same_file got.csv expect.csv "every argument value as written, escapes and all"
grep '^"args.copyKind"' expect.csv >expect1.csv
"$TRACETTY" query --format csv labels.sqlite "select key, display_value, count(*) from args
    where key = 'args.copyKind' group by key, display_value order by display_value" \
    | sed 1d >got1.csv
same_file got1.csv expect1.csv "a query for copyKind alone finds every value"
tap_done
