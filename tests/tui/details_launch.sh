#!/bin/sh
# details_launch.sh - the details panel's Launch section on a real Kineto
# trace from ../shared/traces (skipped when absent or without python3):
#   - of the longest kernel (/cat:kernel, T, Enter): its launcher, the
#     launch delay, the launch op and the host events around it, as
#     tests/tui/calltree_oracle.py --launch finds them from the JSON
#     (correlation ids, thread stacks);
#   - following the Launch op line (Enter) selects the op, whose details
#     give its self time and list the kernel among the device events it
#     launched.
. "$srcdir/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || skip_all "no python3"
trace="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$trace" ] || skip_all "no shared resnet50 trace"

python3 "$srcdir/tests/tui/calltree_oracle.py" "$trace" --launch > "$TMPD/want"
ok $? "the python computation runs"
"$TRACETTY" render --size 200x80 --disable all --keys '/cat:kernel<Enter>T<Enter>' "$trace" \
    > "$TMPD/screen"
ok $? "render shows the longest kernel's details"
PYTHONPATH="$srcdir/tests/tui" python3 - "$TMPD/screen" "$TMPD/want" > "$TMPD/got" <<'PY'
import re, sys
screen = [l[2:-1].rstrip() for l in open(sys.argv[1], encoding='utf-8').read().splitlines()
          if l.startswith('\u2502') or l.startswith('|')]
want = dict()
callers = []
for l in open(sys.argv[2], encoding='utf-8').read().splitlines():
    k, v = l.split(' ', 1)
    if k == 'caller':
        callers.append(v)
    else:
        want[k] = v
from ttfmt import fmt   # tt_fmt_dur(ns, 3)
text = '\n'.join(screen)
def field(key):
    m = re.search(r'^' + re.escape(key) + r' +(.*)$', text, re.M)
    return m.group(1) if m else None
got = []
got.append('launcher ' + (field('Launcher') or '').split(' \u00b7 ')[0].split(' - ')[0])
got.append('delay ' + (field('Delay') or ''))
got.append('op ' + (field('Launch op') or '').split(' \u00b7 ')[0].split(' - ')[0])
i = [n for n, l in enumerate(screen) if l.startswith('Called in')]
chain = []
if i:
    for l in screen[i[0]:]:
        if not (l.startswith('Called in') or l.startswith('           ')):
            break
        chain.append(l[11:].split(' \u00b7 ')[0].split(' - ')[0])
print('\n'.join(got))
print('callers ' + ' > '.join(chain))
print('---')
print('launcher ' + want['launcher'])
print('delay %s after the launch call began' % fmt(int(want['delay'])))
print('op ' + want['op'])
print('callers ' + ' > '.join(callers))
PY
sed -n '1,4p' "$TMPD/got" > "$TMPD/a"
sed -n '6,9p' "$TMPD/got" > "$TMPD/b"
same_file "$TMPD/a" "$TMPD/b" "the kernel's launcher, delay, launch op and callers are the JSON's"
op=$(sed -n 's/^op //p' "$TMPD/b")
# Enter on the Launch op line: the cursor starts on the first link (Flow
# in); j goes line by line: Parent, Children, Launch, Launcher, Delay,
# Launch op
"$TRACETTY" render --size 200x80 --disable all --keys '/cat:kernel<Enter>T<Enter>jjjjjj<Enter>' \
    "$trace" > "$TMPD/op"
grep -q "^. Name  *$op " "$TMPD/op"
ok $? "Enter on the Launch op line selects $op"
grep -q "^. Self  *[0-9]" "$TMPD/op"
ok $? "the op's details give its self time"
kernel=$(sed -n 's/^kernel //p' "$TMPD/want" | cut -c1-40)
grep -q "^. Launched  *.*$(printf '%s' "$kernel" | sed 's/[][\.*^$]/\\&/g')" "$TMPD/op" ||
    grep -A30 "^. Launched" "$TMPD/op" | grep -qF "$kernel"
ok $? "and list the kernel among what it launched"
tap_done
