#!/bin/sh
# nsys_flows.sh - the correlation flows of Nsight Systems SQLite exports,
# which the decoder links itself (src/decode/nsys_flows.c) or hands to
# finalize as points: the flows, those running backward and the
# unresolved ones of exports written to take every path (one call and its
# kernels, two calls of an id, kernels before their call or with no call,
# identical calls, a lane left for finalize to sort), against an
# independent computation (tests/cli/nsys_flows_oracle.py, Python's
# sqlite3). Skipped without python3 or without SQLite support.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
need_py_sqlite
oracle="$srcdir/tests/cli/nsys_flows_oracle.py"

for how in plain scrambled; do
    rm -f "$how.sqlite"
    "$py" "$oracle" write "$how.sqlite" $([ $how = scrambled ] && echo --scrambled)
    ok $? "$how: export written"
    "$TRACETTY" summary "$how.sqlite" >"$how.out" 2>"$how.err"
    rc=$?
    if [ $rc -ne 0 ] && grep -q "built without SQLite" "$how.err"; then
        skip_all "built without SQLite"
    fi
    ok $rc "$how: summary"
    got=$(awk '/^Flows/ { f = $2; if ($3 ~ /^\(/) b = substr($3, 2) }
               /^  unresolved flow/ { u = $3 }
               END { printf "flows %d backward %d unresolved %d", f, b, u }' "$how.out")
    is "$got" "$("$py" "$oracle" expect "$how.sqlite")" "$how: flows as computed by Python"
done
tap_done
