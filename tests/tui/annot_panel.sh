#!/bin/sh
# annot_panel.sh - a finding's whole text is readable in the view, on the
# real traces of ../shared/traces (skipped when absent): the annotations
# panel wraps each message instead of cutting it, the status line wraps an
# annotation's message over the rows above it, Enter opens a finding's
# detail (message, rule, severity, span, lanes, the events involved), f
# keeps one rule's findings. Texts and numbers are checked against
# `tracetty check --format csv` and the trace itself, read by python3.
. "$srcdir/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "python3 is not installed"
shared=$(shared_traces)
resnet="$shared/pytorch/resnet50_oldschema.pt.trace.json.gz"
job="$shared/pytorch/two_ranks"
[ -f "$resnet" ] && [ -d "$job" ] || skip_all "../shared/traces is absent"

export LC_ALL=C TZ=UTC

# has FILE TEXT DESCRIPTION: the file holds the text (not a pattern)
has() {
    if grep -Fq -- "$2" "$1"; then ok 0 "$3"; else
        ok 1 "$3"; printf '#   want: %s\n' "$2"; sed 's/^/#   got:  /' "$1" | head -20; fi
}

# panel SCREEN: the text inside the panel's border, its lines joined by
# one space ("TITLE: ..." first)
panel() {
    python3 - "$1" <<'EOF'
import re, sys
rows = open(sys.argv[1]).read().splitlines()
top = max(i for i, r in enumerate(rows) if re.match(r'\+-[^-]', r))
title = re.match(r'\+-(.*?)-{2,}', rows[top]).group(1)
body = []
for r in rows[top + 1:]:
    if r.startswith('+'):
        break
    body.append(r[1:-1].strip())
print('TITLE: ' + title + ' | ' + re.sub(r'\s+', ' ', ' '.join(body)))
EOF
}

# csv_msg N: the message of the Nth finding (from 1) of `check`
"$TRACETTY" check --format csv "$resnet" > "$TMPD/check.csv"
csv_msg() {
    python3 - "$TMPD/check.csv" "$1" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print(rows[int(sys.argv[2]) - 1]['Message'])
EOF
}

# 1. the list: the device-idle finding (2nd) whole, with its cause, at 80
# and 200 columns
msg2=$(csv_msg 2)
case $msg2 in *"(top: "*) ;; *) echo "# the 2nd finding is no longer a device-idle one: $msg2" ;; esac
for size in 80x24 200x50; do
    "$TRACETTY" render --size $size --keys '!j' "$resnet" > "$TMPD/list"
    panel "$TMPD/list" > "$TMPD/list.txt"
    has "$TMPD/list.txt" "error device-idle 54.381 ms $msg2" \
        "$size: the panel shows the device-idle message whole, cause included"
done

# 2. the status line on that finding (Enter twice: its detail, then its
# span): the message wrapped over the rows above it, not cut
# (low-utilization, an error too, covers that span and would be the one
# the status line names: it is disabled here, so the device-idle finding
# is the first)
"$TRACETTY" render --size 80x30 --disable low-utilization --keys '!<Enter><Enter><Esc><Esc>' "$resnet" > "$TMPD/st"
{ tail -n 4 "$TMPD/st" | tr '\n' ' ' | sed 's/  */ /g'; echo; } > "$TMPD/st.txt"
has "$TMPD/st.txt" "! error device-idle: $msg2" \
    "80x30: the status line wraps the annotation's message whole"
ok "$(tail -n 4 "$TMPD/st" | grep -c '[~]' | grep -qx 0; echo $?)" "no status row is cut short"

# 3. the detail of the first host-sync finding: message, rule, severity,
# span and the event involved, its start and duration from the trace
n_hs=$(python3 - "$TMPD/check.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print(next(i for i, r in enumerate(rows) if r['Rule'] == 'host-sync'))
EOF
)
keys="!$(printf '%*s' "$n_hs" '' | tr ' ' j)<Enter>"
"$TRACETTY" render --size 100x40 --keys "$keys" "$resnet" > "$TMPD/det"
panel "$TMPD/det" > "$TMPD/det.txt"
python3 - "$resnet" "$TMPD/check.csv" "$n_hs" "$TMPD/det.txt" > "$TMPD/want" <<'EOF'
import csv, gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
t0 = min(e['ts'] for e in ev if 'ts' in e and e.get('ph') != 'M')
row = list(csv.DictReader(open(sys.argv[2], newline='')))[int(sys.argv[3])]
s, e = int(row['Start (ns)']), int(row['End (ns)'])
sync = [x for x in ev if x.get('name') == 'cudaEventSynchronize' and x.get('ph') == 'X'
        and s <= (x['ts'] - t0) * 1000 < e]
assert sync, row   # consecutive syncs in one op are one finding
x = sync[0]
print('TITLE: Finding %d of %d: warning host-sync | Message %s Rule host-sync: '
      % (int(sys.argv[3]) + 1, sum(1 for _ in open(sys.argv[2])) - 1, row['Message']))
print('Severity warning')
print('Events %d (Enter on one selects it) cudaEventSynchronize - %.3f ms - %s - at %.6f s'
      % (len(sync), x['dur'] / 1000, row['Lanes'], (x['ts'] - t0) / 1e6))
EOF
[ -s "$TMPD/want" ] || ok 1 "host-sync detail: python found the finding's syncs in the trace"
while IFS= read -r want; do
    has "$TMPD/det.txt" "$want" "host-sync detail: ${want%% *} ..."
done < "$TMPD/want"

# 4. f: only the device-idle findings, as many as check finds; f again: all
"$TRACETTY" render --size 80x24 --keys '!jf' "$resnet" > "$TMPD/f"
want=$(python3 - "$TMPD/check.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print('Annotations: device-idle (%d of %d)'
      % (sum(r['Rule'] == 'device-idle' for r in rows), len(rows)))
EOF
)
has "$TMPD/f" "$want" "f: the title counts the rule's findings ($want)"
ok "$(panel "$TMPD/f" | grep -Eo '(info|warning|error) [a-z-]+ ' | grep -vc 'device-idle' | grep -qx 0; echo $?)" \
    "f: every finding listed is a device-idle one"
"$TRACETTY" render --size 80x24 --keys '!jff' "$resnet" > "$TMPD/ff"
has "$TMPD/ff" "Annotations ($(($(wc -l < "$TMPD/check.csv") - 1)))" "f again: every rule"

# 5. the job: a finding's detail names its rank and its clock
"$TRACETTY" render --size 100x30 --keys '!<Enter>' "$job" > "$TMPD/job"
panel "$TMPD/job" > "$TMPD/job.txt"
matches "$TMPD/job.txt" 'Message \[rank 0 clock\] ' "job: the detail's message says its rank's clock"
matches "$TMPD/job.txt" 'Rank 0 Time .* from the job.s start' "job: the detail names the rank"

tap_done
