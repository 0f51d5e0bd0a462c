# lib.sh - TAP helpers for shell tests (sourced). The driver is automake's
# tap-driver.sh; the plan is printed at the end by tap_done.
#
# Environment from the Makefile: TRACETTY (the program), srcdir, builddir.
set -u
: "${TRACETTY:=./tracetty}"
: "${srcdir:=.}"
: "${builddir:=.}"
export LC_ALL="${LC_ALL:-C}" TZ=UTC
tap_n=0
tap_failed=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/tracetty-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

ok() {   # ok COND-EXIT-STATUS DESCRIPTION
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_n - $2"
    else
        echo "not ok $tap_n - $2"
        tap_failed=$((tap_failed + 1))
    fi
}

# is GOT WANT DESCRIPTION
is() {
    if [ "$1" = "$2" ]; then ok 0 "$3"; else
        ok 1 "$3"; printf '#   got:  %s\n#   want: %s\n' "$1" "$2"; fi
}

# same_file GOT_FILE WANT_FILE DESCRIPTION: byte-identical, diff on failure
same_file() {
    if cmp -s "$1" "$2"; then ok 0 "$3"; else
        ok 1 "$3"; diff -u "$2" "$1" | head -40 | sed 's/^/#   /'; fi
}

# matches FILE REGEX DESCRIPTION (grep -E)
matches() {
    if grep -Eq -- "$2" "$1"; then ok 0 "$3"; else
        ok 1 "$3"; sed 's/^/#   /' "$1" | head -20; fi
}

skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# need_py_sqlite: sets $py to a python3 with its sqlite3 module (tests
# that write SQLite exports), or skips the whole test without one.
need_py_sqlite() {
    py=${PYTHON3:-python3}
    command -v "$py" >/dev/null 2>&1 || skip_all "no python3"
    "$py" -c 'import sqlite3' 2>/dev/null || skip_all "no sqlite3 module in python3"
}

tap_done() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }

# Where the third-party traces live, relative to the project root.
shared_traces() { echo "$srcdir/../shared/traces"; }
