#!/bin/sh
# tmux_annot.sh - a finding's detail in the real TUI, on the real traces of
# ../shared/traces (skipped when absent): Enter on a finding opens its
# detail, Enter on an event it involves selects that event on the timeline
# (the details panel then names it, with its start read from the trace by
# python3), Esc goes back to the list; each screen equals `tracetty
# render`'s for the same keys. At 80x24 on one trace, at 200x50 on the
# two-rank job.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "python3 is not installed"
shared=$(shared_traces)
resnet="$shared/pytorch/resnet50_oldschema.pt.trace.json.gz"
job="$shared/pytorch/two_ranks"
[ -f "$resnet" ] && [ -d "$job" ] || skip_all "../shared/traces is absent"

# step TMUX-KEYS... -- RENDER-KEYS DESCRIPTION: send keys, then the screen
# must become what render prints for every key so far
step() {
    while [ "$1" != -- ]; do tm_keys "$1"; shift; done
    keys="$keys$2"
    render_to "$TMPD/want" "$size" "$keys" "$trace"
    tm_same "$TMPD/want" "$size: $3 = render"
}

# the first host-sync finding and the start of its one event, from the
# trace (seconds from its first event, as the details panel prints it)
"$TRACETTY" check --format csv "$resnet" > "$TMPD/check.csv"
python3 - "$resnet" "$TMPD/check.csv" > "$TMPD/hs" <<'EOF'
import csv, gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
t0 = min(e['ts'] for e in ev if 'ts' in e and e.get('ph') != 'M')
rows = list(csv.DictReader(open(sys.argv[2], newline='')))
k = next(i for i, r in enumerate(rows) if r['Rule'] == 'host-sync')
s, e = int(rows[k]['Start (ns)']), int(rows[k]['End (ns)'])
x = [x for x in ev if x.get('name') == 'cudaEventSynchronize' and x.get('ph') == 'X'
     and s <= (x['ts'] - t0) * 1000 < e][0]
# the panel lists check's ranking (its Rank column), a header line before
# each rule's group, and opens on the first header
groups = []
for r in sorted(rows, key=lambda r: int(r['Rank'])):
    if r['Rule'] not in groups:
        groups.append(r['Rule'])
print(int(rows[k]['Rank']) + groups.index('host-sync'), '%.6f s' % ((x['ts'] - t0) / 1e6))
EOF
read -r n_hs start < "$TMPD/hs"

size=80x24 trace=$resnet keys=
tm_start 80 24 "LC_ALL=C '$TRACETTY' '$trace'; sleep 600"
tm_wait '\? help' || { ok 1 "the timeline opens"; tm_capture | sed 's/^/#   /'; }
step '!' -- '!' "the annotations panel"
js=$(printf '%*s' "$n_hs" '' | tr ' ' j)
tm_text "$js"; keys="$keys$js"
step Enter -- '<Enter>' "Enter: the host-sync finding's detail"
tm_wait 'Finding [0-9]+ of [0-9]+: warning host-sync' 2
ok $? "the detail is the host-sync finding's"
# Message (two lines), Rule, Severity, Time, Lane, Events, then the event
tm_text jjjjjj; keys="${keys}jjjjjj"
step Enter -- '<Enter>' "Enter on the event"
tm_wait 'event 1 of [0-9]+ involved in the host-sync' 2
ok $? "the status line says which event it went to"
step Escape -- '<Esc>' "Esc: back to the list"
tm_wait 'Annotations \([0-9]+\)' 2
ok $? "Esc goes back to the list"
step Escape Enter -- '<Esc><Enter>' "Esc, Enter: the selected event's details"
tm_wait 'Name +cudaEventSynchronize' 2
ok $? "the event selected is the cudaEventSynchronize"
tm_wait "Start +$start" 2
ok $? "at the start the trace gives ($start)"

size=200x50 trace=$job keys=
tm_start 200 50 "LC_ALL=C '$TRACETTY' '$trace'; sleep 600"
tm_wait '\? help' || { ok 1 "the job opens"; tm_capture | sed 's/^/#   /'; }
# the tiny-kernels finding (on rank 0, with events): the panel opens on
# the first group's header and lists each group's header, then its
# findings in check's Rank order, so the finding sits at its Rank plus
# the number of headers down to its group
rank_st=$("$TRACETTY" check --quiet --fail-on never --format csv "$job" |
    python3 -c 'import csv, sys; print([r["Rank"] for r in csv.DictReader(sys.stdin) if r["Rule"] == "tiny-kernels"][0])')
grp_st=$("$TRACETTY" check --quiet --fail-on never "$job" |
    grep -E '^(error|warning|info) ' | grep -n ' tiny-kernels ' | cut -d: -f1)
n_st=$((rank_st + grp_st))
js=$(printf '%*s' "$((n_st - 1))" '' | tr ' ' j)
tm_keys '!'; tm_text "$js"; keys="!$js"
step Enter -- '<Enter>' "job: the tiny-kernels finding's detail"
tm_wait 'Rank +0' 2
ok $? "job: the detail names the rank"
# Message, Rule, Severity, Rank, Time, Lane, Events, then the event
tm_text jjjjjjj; keys="${keys}jjjjjjj"
step Enter Escape Escape Enter -- '<Enter><Esc><Esc><Enter>' "job: the event, its details"
tm_wait 'Name +void at::native::vectorized_elementwise_kernel' 2
ok $? "job: the event involved is selected on its rank"

tap_done
