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

# js CSV N: the j keys from where the panel opens (the first group's
# header) to the Nth finding (from 1) of the CSV: the list is check's
# ranking (its Rank column), one header line before each (trace, rule)
# group, every group unfolded
js() {
    n=$(python3 - "$1" "$2" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
want = rows[int(sys.argv[2]) - 1]
groups = []
for r in sorted(rows, key=lambda r: int(r['Rank'])):
    if (r.get('Trace'), r['Rule']) not in groups:
        groups.append((r.get('Trace'), r['Rule']))
print(int(want['Rank']) + groups.index((want.get('Trace'), want['Rule'])))
EOF
)
    printf '%*s' "$n" '' | tr ' ' j
}

# 1. the list: the device-idle finding (2nd) whole, with its cause, at 80
# and 200 columns
msg2=$(csv_msg 2)
case $msg2 in *"(top: "*) ;; *) echo "# the 2nd finding is no longer a device-idle one: $msg2" ;; esac
for size in 80x24 200x50; do
    "$TRACETTY" render --size $size --keys "!$(js "$TMPD/check.csv" 2)" "$resnet" > "$TMPD/list"
    panel "$TMPD/list" > "$TMPD/list.txt"
    has "$TMPD/list.txt" "error device-idle 54.381 ms $msg2" \
        "$size: the panel shows the device-idle message whole, cause included"
done

# 2. the status line on that finding (Enter twice: its detail, then its
# span): the message wrapped over the rows above it, not cut
# (low-utilization, an error too, covers that span and would be the one
# the status line names: it is disabled here, so the device-idle finding
# is the first; the panel lists it where check ranks it without that rule)
"$TRACETTY" check --format csv --disable low-utilization "$resnet" > "$TMPD/check-nolu.csv"
n=$(grep -nF -- "$msg2" "$TMPD/check-nolu.csv" | cut -d: -f1)
"$TRACETTY" render --size 80x30 --disable low-utilization \
    --keys "!$(js "$TMPD/check-nolu.csv" $((n - 1)))<Enter><Enter><Esc><Esc>" "$resnet" > "$TMPD/st"
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
keys="!$(js "$TMPD/check.csv" $((n_hs + 1)))<Enter>"
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
      % (int(row['Rank']), sum(1 for _ in open(sys.argv[2])) - 1, row['Message']))
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

# 5. the job: a finding's detail names its rank and its clock (the first
# finding listed, the straggler's, is about rank 1)
"$TRACETTY" render --size 100x30 --keys '!j<Enter>' "$job" > "$TMPD/job"
panel "$TMPD/job" > "$TMPD/job.txt"
matches "$TMPD/job.txt" 'Message \[rank 1 clock\] ' "job: the detail's message says its rank's clock"
matches "$TMPD/job.txt" 'Rank 1 Time .* from the job.s start' "job: the detail names the rank"

# 6. the groups, in the order and with the headline numbers of `tracetty
# check` (its text output less the file name): Enter on each header folds
# its group, so the folded list is every header; in the job the straggler
# is the first group; the counts from the CSV
for t in resnet job; do
    eval "trace=\$$t"
    "$TRACETTY" check "$trace" | grep -E '^(error|warning|info) ' |
        sed 's/ ([^()]*): /: /; s/  */ /g' > "$TMPD/heads-$t.want"
    n=$(wc -l < "$TMPD/heads-$t.want")
    "$TRACETTY" render --size 200x50 --keys "!$(printf '%*s' "$n" '' | sed 's/ /<Enter>j/g')" \
        "$trace" > "$TMPD/folded-$t"
    sed -n 's/^| + \(.*[^ ]\) *|$/\1/p' "$TMPD/folded-$t" | sed 's/  */ /g' > "$TMPD/heads-$t.got"
    if cmp -s "$TMPD/heads-$t.want" "$TMPD/heads-$t.got"; then ok 0 "$t: the $n headers are check's headlines, in its order"
    else ok 1 "$t: the $n headers are check's headlines, in its order"
        diff "$TMPD/heads-$t.want" "$TMPD/heads-$t.got" | sed 's/^/#   /'; fi
    "$TRACETTY" check --format csv "$trace" > "$TMPD/$t.csv"
    python3 - "$TMPD/$t.csv" "$TMPD/heads-$t.got" <<'EOF' > "$TMPD/counts-$t"
import collections, csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
n = collections.Counter((re.sub(r'.*rank-(\d+)\..*', r'\1', r.get('Trace', '')), r['Rule'])
                        for r in rows)
for h in open(sys.argv[2]):
    m = re.match(r'\S+ (\S+)(?: on rank (\d+))?: (\d+) findings?,', h)
    print('ok' if n[(m.group(2) or '', m.group(1))] == int(m.group(3)) else 'bad: ' + h.strip())
EOF
    ok "$(grep -c '^ok$' "$TMPD/counts-$t" | grep -qx "$n"; echo $?)" "$t: each header counts its group's findings in check's CSV"
done
first=$(python3 - "$TMPD/job.csv" <<'EOF'
import csv, re, sys
r = min(csv.DictReader(open(sys.argv[1], newline='')), key=lambda r: int(r['Rank']))
print('%s %s on rank %s' % (r['Severity'], r['Rule'], re.sub(r'.*rank-(\d+)\..*', r'\1', r['Trace'])))
EOF
)
case $first in *straggler*) ;; *) echo "# the job's first finding is no longer the straggler: $first" ;; esac
ok "$(head -n 1 "$TMPD/heads-job.got" | grep -q "^$first: "; echo $?)" "job: the straggler's group comes first ($first)"

# 7. a group's findings costliest first (longest span, then earliest):
# the first group's, in the list unfolded
"$TRACETTY" render --size 200x50 --keys '!' "$resnet" > "$TMPD/open"
panel "$TMPD/open" > "$TMPD/open.txt"
python3 - "$TMPD/resnet.csv" "$TMPD/open.txt" "$(head -n 1 "$TMPD/heads-resnet.got" | cut -d' ' -f2 | tr -d :)" <<'EOF' > "$TMPD/order"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['Rule'] == sys.argv[3]]
rows.sort(key=lambda r: (-(int(r['End (ns)']) - int(r['Start (ns)'])), int(r['Start (ns)'])))
text = open(sys.argv[2]).read()
at = [text.find(' ' + r['Message']) for r in rows[:3]]
print('ok' if len(at) == 3 and -1 not in at and at == sorted(at) else 'bad: %s' % at)
EOF
ok "$(grep -qx ok "$TMPD/order"; echo $?)" "the first group lists its 3 longest findings first, longest first"

# 8. headers are lines the cursor stops on: the counter counts them with
# the findings; k on the first header stays there; Enter on it folds
"$TRACETTY" render --size 80x24 --keys '!k' "$resnet" > "$TMPD/k"
n_groups=$(wc -l < "$TMPD/heads-resnet.want")
n_all=$(($(wc -l < "$TMPD/resnet.csv") - 1))
has "$TMPD/k" " 1/$((n_all + n_groups)) " "the counter counts headers and findings ($n_all + $n_groups)"
"$TRACETTY" render --size 80x24 --keys '!<Enter>' "$resnet" > "$TMPD/fold1"
panel "$TMPD/fold1" > "$TMPD/fold1.txt"
has "$TMPD/fold1.txt" "+ $(head -n 1 "$TMPD/heads-resnet.want") - $(sed -n 2p "$TMPD/heads-resnet.want")" \
    "Enter on the first header folds it: the second header follows"
"$TRACETTY" render --size 80x24 --keys '!<Enter><Enter>j' "$resnet" > "$TMPD/unfold"
panel "$TMPD/unfold" > "$TMPD/unfold.txt"
has "$TMPD/unfold.txt" "- $(head -n 1 "$TMPD/heads-resnet.want") $(sed -n 's/^\([a-z]*\) \([a-z-]*\):.*/\1 \2/p;q' "$TMPD/heads-resnet.want")" \
    "Enter again unfolds it: its findings follow"

tap_done
