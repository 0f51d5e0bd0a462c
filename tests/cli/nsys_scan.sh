#!/bin/sh
# nsys_scan.sh - the decoder's own reading of an Nsight Systems export's
# pages (src/decode/sqlite_scan.c) against SQLite's: exports written to
# take each of its paths (tests/cli/nsys_scan_gen.py: deep and big pages,
# every integer width, text names, deleted rows, and what it must leave to
# SQLite: an index (its tbl_name in any case), a REAL, columns of REAL
# affinity, overflow pages, UTF-16, a write-ahead log,
# short records, generated columns, damaged pages) give summary, check,
# the operator report and the arguments byte for byte as with
# TRACETTY_SQLITE_SCAN=0, where SQLite reads every table. Skipped without
# python3.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
need_py_sqlite
"$py" "$srcdir/tests/cli/nsys_scan_gen.py" . >names
ok $? "exports written"

"$TRACETTY" summary plain.sqlite >/dev/null
ok $? "plain: summary"

for name in $(cat names); do
    for cmd in summary check report args; do
        case $cmd in
        summary) args="summary" ;;
        check) args="check --format csv" ;;
        report) args="report --kind ops --format csv" ;;
        args) args="query --format csv" ;;
        esac
        q=""
        [ $cmd = args ] && q="select * from args"
        # shellcheck disable=SC2086 # args: a command and its options
        "$TRACETTY" $args "$name.sqlite" ${q:+"$q"} >scan.out 2>&1
        echo "exit $?" >>scan.out
        # shellcheck disable=SC2086
        TRACETTY_SQLITE_SCAN=0 "$TRACETTY" $args "$name.sqlite" ${q:+"$q"} >sql.out 2>&1
        echo "exit $?" >>sql.out
        cmp -s scan.out sql.out
        ok $? "$name: $cmd as SQLite reads it"
    done
done

# what the query read before the scan: the index of another case sets the
# order (the thread's last name, "Worker A"), and an NVTX eventType of
# REAL affinity (39.0) still names a thread, whichever path reads
for scan in 1 0; do
    TRACETTY_SQLITE_SCAN=$scan "$TRACETTY" summary index_case.sqlite | grep -q "/ Worker A "
    ok $? "index_case: the index's order (scan $scan)"
    TRACETTY_SQLITE_SCAN=$scan "$TRACETTY" summary real_affinity.sqlite | grep -q "/ MPI Rank 3 "
    ok $? "real_affinity: a REAL eventType names a thread (scan $scan)"
done
tap_done
