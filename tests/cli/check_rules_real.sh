#!/bin/sh
# check_rules_real.sh - host-sync and pageable-memcpy on the real traces of
# ../shared/traces, each number recomputed by python from the trace:
# host-sync names the op that synchronizes, merges consecutive syncs in one
# op and leaves out the profiler's own stop; pageable-memcpy leaves out
# copies under min_bytes (64 KiB).
. "$srcdir/tests/lib.sh"
traces=$(shared_traces)/pytorch
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
[ -d "$traces" ] || skip_all "../shared/traces is absent"

# host-sync: python groups the syncs of each thread as the rule should
hs() {   # TRACE: "findings syncs same|differ" from python over check's CSV
    "$TRACETTY" check --quiet --disable all --enable host-sync --fail-on never --format csv "$1" >"$TMPD/hs.csv"
    python3 - "$1" "$TMPD/hs.csv" <<'PY'
import csv, gzip, json, re, sys
SYNC = re.compile(r'^(cuda(Device|Stream|Event|Thread)Synchronize|cu(Ctx|Stream|Event)Synchronize|'
                  r'hip(Device|Stream|Event)Synchronize|aclrtSynchronize(Device|Stream|Event))(_.*)?$')
API = re.compile(r'^(cuda|cu|hip|aclrt)[A-Z]')
d = json.load(gzip.open(sys.argv[1]))
ev = [e for e in d['traceEvents'] if e.get('ph') == 'X']
t0 = min(float(e['ts']) for e in d['traceEvents'] if 'ts' in e and e.get('ph') != 'M')
steps = [float(e['ts']) + float(e['dur']) for e in ev if str(e['name']).startswith('ProfilerStep#')]
last_step = max(steps) if steps else None
envelope = [(float(e['ts']), float(e['ts']) + float(e['dur'])) for e in ev if e.get('cat') == 'Trace']
def is_op(e):
    return not API.match(e['name']) and not e['name'].startswith('ProfilerStep#') and e.get('cat') != 'Trace'
threads = {}
for e in ev:
    threads.setdefault((e['pid'], e['tid']), []).append(e)
found = []
for es in threads.values():
    es.sort(key=lambda e: (float(e['ts']), -float(e['dur'])))
    stack, run, op_between, outer_end = [], None, False, None
    def flush():
        if run and run['blocked'] >= 1000:   # min_duration 1 ms, in all
            found.append((round((run['start'] - t0) * 1000), run['count'], run['op']))
    for e in es:
        s, end = float(e['ts']), float(e['ts']) + float(e['dur'])
        while stack and float(stack[-1]['ts']) + float(stack[-1]['dur']) <= s:
            stack.pop()
        ops = [p for p in stack if is_op(p)]   # enclosing ops, innermost last
        stack.append(e)
        if not SYNC.match(e['name']):
            if (outer_end is None or s >= outer_end) and is_op(e):
                op_between = True
            continue
        if outer_end is not None and s < outer_end:
            continue   # nested in the sync before: the same wait
        outer_end = end
        if last_step is not None and s >= last_step and any(a <= s < b for a, b in envelope):
            continue   # the profiler's own stop
        op = id(ops[-1]) if ops else None
        if run and (run['opid'] != op or op_between):
            flush(); run = None
        if not run:
            run = dict(start=s, count=0, blocked=0.0, op=ops[-1]['name'] if ops else None, opid=op)
        run['count'] += 1
        run['blocked'] += float(e['dur'])
        op_between = False
    flush()
rows = list(csv.DictReader(open(sys.argv[2])))
got = sorted((int(r['Start (ns)']), int(r['Events']),
              re.search(r' in (\S+) block', r['Message']).group(1) if ' in ' in r['Message'] else None)
             for r in rows)
print(len(found), sum(c for _, c, _ in found), "same" if got == sorted(found) else "differ")
PY
}
old="$traces/resnet50_oldschema.pt.trace.json.gz"
is "$(hs "$old")" "68 357 same" \
    "resnet50_oldschema: 357 syncs in 68 findings, one per convolution op being tuned (python)"
matches "$TMPD/hs.csv" '"5 cudaEventSynchronize calls in aten::cudnn_convolution block python \(CPU\) / thread 1 \(python\) for 5\.325 ms \(longest 1\.44 ms\) between 1\.49 s and 1\.499 s"' \
    "the message names the op, the count, the total and the longest"
for f in memcpy_queue_rank0.json.gz resnet50_workers0.pt.trace.json.gz; do
    is "$(hs "$traces/$f")" "0 0 same" "$f: the sync after the last step, in the profiler's span, is its stop"
done
is "$(hs "$traces/two_ranks/rank-0.json.gz")" "0 0 same" "two_ranks rank 0: no long sync"

# pageable-memcpy: every pageable copy of 64 KiB or more, and only those
pg() {   # TRACE [SETTING]: "copies-in-findings python-count"
    "$TRACETTY" check --quiet --disable all --enable pageable-memcpy ${2:+--set "$2"} --fail-on never --format csv "$1" >"$TMPD/pg.csv"
    python3 - "$1" "$TMPD/pg.csv" "${3:-65536}" <<'PY'
import csv, gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))['traceEvents']
min_bytes = int(sys.argv[3])
n = sum(1 for e in ev if e.get('ph') == 'X' and e.get('cat') in ('Memcpy', 'gpu_memcpy')
        and 'pageable' in e['name'].lower()
        and int(e.get('args', {}).get('bytes', e.get('args', {}).get('Bytes', min_bytes))) >= min_bytes)
print(sum(int(r['Events']) for r in csv.DictReader(open(sys.argv[2]))), n)
PY
}
for f in memcpy_queue_rank0.json.gz two_ranks/rank-0.json.gz resnet50_workers4.pt.trace.json.gz; do
    set -- $(pg "$traces/$f")
    is "$1" "$2" "$f: the copies in pageable-memcpy findings are python's pageable copies of 64 KiB or more ($2)"
done
set -- $(pg "$traces/two_ranks/rank-0.json.gz" pageable-memcpy.min_bytes=0 0)
ok "$([ "$1" = "$2" ] && [ "$1" -gt 0 ]; echo $?)" "min_bytes=0: every pageable copy of two_ranks rank 0 ($1, python $2)"
"$TRACETTY" check --quiet --disable all --enable pageable-memcpy --format csv --fail-on never "$traces/two_ranks/rank-0.json.gz" >"$TMPD/pg0.csv"
is "$(grep -c 'pageable' "$TMPD/pg0.csv")" 0 "two_ranks rank 0: its 1-byte and 4-byte copies are not findings"
tap_done
