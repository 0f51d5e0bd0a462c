#!/bin/sh
# tmux_sql.sh - `:sql SELECT ...` in the real TUI (tmux), as a person
# would type it:
#   - the rows open in a panel (column names, one line per row), equal to
#     what `tracetty render` prints for the same keys, at 80x24 and after
#     a resize to 200x50 with the panel open; the rows are those a python
#     reading of the JSON finds (ts and dur in ns);
#   - Enter selects the first row's event (the status line gives its name,
#     duration and start, checked against python), n the second, N back;
#   - an SQL error is one positioned line in the status line and the view
#     goes on; a query that would run forever stops on Ctrl-C, or on a key
#     press, and the view goes on (Ctrl-C does not quit it);
#   - a job: n steps to a row of another rank and shows that rank's tab;
#   - a real Kineto trace from ../shared/traces (skipped when absent): a
#     kernel's rows and the jumps, against python over the JSON.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

# wait_job: until the view runs a query that Ctrl-C or a key can stop,
# i.e. its keyboard watcher thread is up (tui/jobstop.c): the pane's
# tracetty (the pane's process or its child) has a second thread. At most
# 10 s; a fixed second was too short for a loaded sanitizer run, where the
# key then reached the view before the query began.
wait_job() {
    wj_pp=$($TT_TMUX display -p -t tt '#{pane_pid}')
    wj_n=100
    while [ "$wj_n" -gt 0 ]; do
        for wj_s in /proc/[0-9]*/stat; do
            read -r wj_pid wj_comm wj_st wj_ppid wj_rest < "$wj_s" 2>/dev/null || continue
            [ "$wj_pid" = "$wj_pp" ] || [ "$wj_ppid" = "$wj_pp" ] || continue
            [ "$wj_comm" = "(tracetty)" ] || continue
            [ "$(ls "/proc/$wj_pid/task" 2>/dev/null | wc -l)" -ge 2 ] && return 0
        done
        sleep 0.1
        wj_n=$((wj_n - 1))
    done
    return 1
}


command -v python3 > /dev/null 2>&1 || skip_all "no python3"
# (the tmux server is private to this test: tmux_lib.sh names it by PID)
loc=${UTF8_LOCALE:-C}
trace="$srcdir/tests/data/nested.json"
trace="$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")"

# oracle TRACE NAME: "ts|dur|startfmt|durfmt" per X event named NAME, by ts
# (ns; start from the trace's first timed event).
oracle() {
    PYTHONPATH="$srcdir/tests/tui" python3 - "$1" "$2" <<'PY'
import decimal, gzip, json, sys
from ttfmt import fmt
path, name = sys.argv[1], sys.argv[2]
f = gzip.open(path, 'rt', encoding='utf-8') if path.endswith('.gz') else open(path, encoding='utf-8')
evs = json.load(f, parse_float=decimal.Decimal)   # exact: ts in us has 16 digits
evs = evs['traceEvents'] if isinstance(evs, dict) else evs
def num(x):
    try:
        return decimal.Decimal(str(x))
    except (TypeError, ValueError, decimal.InvalidOperation):
        return None
timed = [e for e in evs if e.get('ph') != 'M' and num(e.get('ts')) is not None]
t0 = int((min(num(e['ts']) for e in timed) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))
ns = lambda v: int((v * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))
rows = sorted((ns(num(e['ts'])), ns(num(e.get('dur', 0)))) for e in timed
              if e.get('ph') == 'X' and e.get('name') == name)
for ts, dur in rows:
    print('%d|%d|%s|%s' % (ts, dur, fmt(ts - t0), fmt(dur)))
PY
}

start_view() {   # COLS ROWS TRACE
    tm_start "$1" "$2" "LC_ALL=$loc '$TRACETTY' '$3'; echo \"status=\$?\"; echo FINISHED; sleep 600"
    tm_wait '\? help' || { ok 1 "the timeline opens"; tm_capture | sed 's/^/#   /'; return 1; }
}

# --- nested.json: rows, jumps, resize, errors, stopping -------------------
sql="SELECT ts, dur, track_id, name FROM slice WHERE name = 'matmul' ORDER BY ts"
oracle "$trace" matmul > "$TMPD/want_rows"
is "$(wc -l < "$TMPD/want_rows" | tr -d ' ')" 2 "python: two matmul events in nested.json"
IFS='|' read -r ts1 dur1 at1 d1 < "$TMPD/want_rows"
IFS='|' read -r ts2 dur2 at2 d2 <<EOF2
$(sed -n 2p "$TMPD/want_rows")
EOF2

if start_view 80 24 "$trace"; then
    keys=":sql $sql<Enter>"
    tm_text ":sql $sql"; tm_keys Enter
    tm_wait 'SQL: SELECT ts' 5
    ok $? "the panel opens with the query as its title"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "80x24: the panel = render"
    tm_capture > "$TMPD/screen"
    grep -Eq '^[^ ]+ ts +dur +track_id +name' "$TMPD/screen"
    ok $? "a header line with the column names"
    grep -Eq "^[^ ]+ +$ts1 +$dur1 +[0-9]+ +matmul" "$TMPD/screen" &&
        grep -Eq "^[^ ]+ +$ts2 +$dur2 +[0-9]+ +matmul" "$TMPD/screen"
    ok $? "the rows are python's matmul events ($ts1/$dur1, $ts2/$dur2 ns)"
    grep -q '2 rows' "$TMPD/screen"
    ok $? "the status line counts the rows"

    tm_keys Enter; keys="${keys}<Enter>"
    tm_wait "matmul .+ dur $d1 .+ start $at1" 5
    ok $? "Enter selects the first row's event (dur $d1, start $at1)"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "80x24: after Enter = render"
    tm_text n; keys="${keys}n"
    tm_wait "matmul .+ dur $d2 .+ start $at2" 5
    ok $? "n selects the second row's event (dur $d2, start $at2)"
    tm_text N; keys="${keys}N"
    tm_wait "matmul .+ dur $d1 .+ start $at1" 5
    ok $? "N goes back to the first"

    $TT_TMUX resize-window -t tt -x 200 -y 50; keys="${keys}<Resize:200x50>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "resized to 200x50 with the panel open = render"
    $TT_TMUX resize-window -t tt -x 80 -y 24; keys="${keys}<Resize:80x24>"
    render_to "$TMPD/want" 80x24 "$keys" "$trace" "$loc"
    tm_same "$TMPD/want" "back to 80x24 = render"

    tm_text ":sql SELECT nme FROM slice"; tm_keys Enter
    tm_wait 'query:1:8: no such column: nme' 5
    ok $? "an SQL error: one positioned line in the status line"

    tm_text ":sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    tm_keys Enter
    wait_job || sleep 1
    tm_keys C-c
    tm_wait 'query: interrupted' 10
    ok $? "Ctrl-C stops a query that would run forever"
    tm_text ":sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    tm_keys Enter
    wait_job || sleep 1
    tm_text x
    tm_wait 'query: stopped by a key press' 10
    ok $? "... and so does a key press"
    tm_text ":sql $sql"; tm_keys Enter
    tm_wait '2 rows' 5
    ok $? "the view goes on: the next query runs"
    tm_keys Escape; tm_text q
    tm_wait FINISHED 10
    tm_capture | grep -q 'status=0'
    ok $? "q quits with status 0 (Ctrl-C did not end the view)"
fi

# --- a job: the rank column, a jump to another rank ------------------------
ranks="$(cd "$srcdir/tests/data/tui/ranks" && pwd)"
if start_view 120 30 "$ranks"; then
    tm_text ":sql SELECT rank, ts, dur, track_id, name FROM slice WHERE name LIKE 'ncclKernel_AllReduce%' ORDER BY ts LIMIT 3"
    tm_keys Enter
    tm_wait 'SQL: SELECT rank' 5
    ok $? "a job's query opens its panel"
    tm_keys Enter; tm_text n
    tm_wait 'rank 1 · rank-1\.json|rank 1 . rank-1\.json' 5
    ok $? "n steps to the second row, on rank 1: its tab is shown"
    tm_keys Escape; tm_text q
    tm_wait FINISHED 10
fi

# --- a real Kineto trace ----------------------------------------------------
real="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
if [ -f "$real" ]; then
    real="$(cd "$(dirname "$real")" && pwd)/$(basename "$real")"
    # a kernel name seen 2 to 50 times, without quotes, the first by name
    name=$(python3 - "$real" <<'PY'
import collections, gzip, json, sys
evs = json.load(gzip.open(sys.argv[1], 'rt', encoding='utf-8'))['traceEvents']
n = collections.Counter(e['name'] for e in evs if e.get('ph') == 'X' and str(e.get('cat', '')).lower() == 'kernel')
ok = sorted(k for k, c in n.items() if 2 <= c <= 50 and "'" not in k and len(k) < 60)
print(ok[0] if ok else '')
PY
)
    oracle "$real" "$name" > "$TMPD/want_real"
    rts1= rdur1= rat1= rts2= rdur2= rat2=
    IFS='|' read -r rts1 rdur1 rat1 x < "$TMPD/want_real"
    IFS='|' read -r rts2 rdur2 rat2 x <<EOF2
$(sed -n 2p "$TMPD/want_real")
EOF2
    if [ -n "$name" ] && [ -n "$rts2" ] && start_view 200 50 "$real"; then
        tm_text ":sql SELECT ts, dur, track_id FROM slice WHERE name = '$name' ORDER BY ts"
        tm_keys Enter
        tm_wait "^[^ ]+ +$rts1 +$rdur1 +[0-9]+ " 30
        ok $? "real trace: the first row is python's first '$name' ($rts1, $rdur1 ns)"
        tm_capture | grep -Eq "^[^ ]+ +$rts2 +$rdur2 +[0-9]+ "
        ok $? "real trace: the second row too ($rts2, $rdur2 ns)"
        tm_keys Enter
        tm_wait "start $rat1" 5
        ok $? "real trace: Enter goes to its start ($rat1)"
        tm_text n
        tm_wait "start $rat2" 5
        ok $? "real trace: n to the second's ($rat2)"
        tm_keys Escape; tm_text q
        tm_wait FINISHED 10
    else
        ok 1 "real trace: a kernel name to query ('$name') and the view opens"
    fi
else
    echo "# no shared resnet50 trace: the real-trace part is skipped"
fi
tap_done
