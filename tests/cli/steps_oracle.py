#!/usr/bin/env python3
"""steps_oracle.py - the step-time breakdown of a Kineto trace, computed
independently of tracetty (json module only), for tests/cli/report_steps.sh.

usage: steps_oracle.py TRACE.json[.gz] [--window FROM_NS:TO_NS] [--device-only]
       [--spans NAME:FROM_NS:TO_NS,...]

Prints "step,start_ns,step_ns,kernel,memcpy,memset,runtime,dataloader,
cpu_exec,other" per step (start relative to the trace start) and an
"Average" line, the numbers `tracetty report --kind steps` must print.

The rules are TensorBoard's overview (torch_tb_profiler StepParser and
OverallParser) as tracetty documents them; the arithmetic is different on
purpose: each step is cut into elementary segments at every interval
boundary and each segment goes to the first role covering it.
"""
import bisect
import gzip
import json
import sys
from decimal import Decimal, ROUND_HALF_UP

KERNEL, MEMCPY, MEMSET, RUNTIME, DATALOADER, CPU = range(6)
CATS = {
    "kernel": KERNEL, "memcpy": MEMCPY, "gpu_memcpy": MEMCPY,
    "memset": MEMSET, "gpu_memset": MEMSET,
    "runtime": RUNTIME, "cuda_runtime": RUNTIME, "cuda_driver": RUNTIME,
    "cpu_op": CPU, "operator": CPU, "python": CPU, "user_annotation": CPU,
}


def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    window = spans = None
    device_only = False
    while args:
        a = args.pop(0)
        if a == "--window":
            window = [int(x) for x in args.pop(0).split(":")]
        elif a == "--device-only":
            device_only = True
        elif a == "--spans":
            spans = [(s.split(":")[0], int(s.split(":")[1]), int(s.split(":")[2]))
                     for s in args.pop(0).split(",")]
    events = load(path)
    t0 = min(ns(e["ts"]) for e in events if e.get("ph") in ("X", "i", "I", "B", "E") and "ts" in e)

    ivals = [[] for _ in range(6)]
    steps, runtimes, device = [], [], []
    for e in events:
        if e.get("ph") != "X":
            continue
        role = CATS.get(str(e.get("cat", "")).lower())
        if role is None:
            continue
        s = ns(e["ts"])
        t = s + ns(e.get("dur", 0))
        name = e.get("name", "")
        corr = (e.get("args") or {}).get("correlation")
        if role == CPU and name.startswith("ProfilerStep#"):
            steps.append([s, t, name.split("#", 1)[1], 0])
            continue
        if role == CPU and ((name.startswith("enumerate(DataLoader)#") and name.endswith(".__next__"))
                            or name.startswith("enumerate(DataPipe)#")):
            role = DATALOADER
        if role == RUNTIME:
            runtimes.append((s, t, corr))
        if role <= MEMSET:
            device.append([s, t, corr, False])
        if device_only and role > MEMSET:
            continue
        ivals[role].append((s, t))

    if spans is not None:
        steps = [[t0 + a, t0 + b, n, 0] for n, a, b in spans]
    else:
        steps.sort(key=lambda x: x[0])
        # device work of each step: runtimes wholly inside its host span
        by_corr = {}
        for d in device:
            if d[2] is not None:
                by_corr.setdefault(d[2], []).append(d)
        owner = {}
        for r in runtimes:
            if r[2] is not None:
                owner.setdefault(r[2], r)
        dev_span = [None] * len(steps)
        for r in runtimes:
            if r[2] is None or owner[r[2]] is not r:
                continue
            for i, st in enumerate(steps):
                if r[0] >= st[0] and r[1] <= st[1]:
                    for d in by_corr.get(r[2], []):
                        d[3] = True
                        st[3] += 1
                        lo, hi = dev_span[i] or (d[0], d[1])
                        dev_span[i] = (min(lo, d[0]), max(hi, d[1]))
                    break
        if any(st[3] for st in steps):
            prev = steps[0][0]
            if dev_span[0]:
                for d in device:
                    if not d[3] and d[1] < dev_span[0][0]:
                        prev = max(prev, d[1])
            for i, st in enumerate(steps):
                start = max(prev, st[0])
                end = max(st[1], dev_span[i][1]) if dev_span[i] else st[1]
                end = max(end, start)
                st[0], st[1] = start, end
                prev = end
            if len(steps) > 1:
                last = max(i for i, st in enumerate(steps) if st[3] > 0)
                keep = last + 1
                if last > 0 and steps[last - 1][3] * 0.8 > steps[last][3]:
                    keep = last
                steps = steps[:keep]

    if window:
        lo, hi = t0 + window[0], t0 + window[1]
        steps = [[max(a, lo), min(b, hi), n, m] for a, b, n, m in steps if a < hi and b > lo]

    merged = []
    for iv in ivals:
        iv.sort()
        out = []
        for s, t in iv:
            if t <= s:
                continue
            if out and s <= out[-1][1]:
                out[-1][1] = max(out[-1][1], t)
            else:
                out.append([s, t])
        merged.append(([a for a, _ in out], [b for _, b in out]))

    def covers(role, a, b):
        starts, ends = merged[role]
        i = bisect.bisect_right(starts, a) - 1
        return i >= 0 and ends[i] >= b

    sums = [0] * 8
    for a, b, name, _ in steps:
        cuts = {a, b}
        for starts, ends in merged:
            lo = bisect.bisect_left(starts, a)
            hi = bisect.bisect_right(starts, b)
            cuts.update(x for x in starts[max(lo - 1, 0):hi] if a < x < b)
            lo = bisect.bisect_left(ends, a)
            hi = bisect.bisect_right(ends, b)
            cuts.update(x for x in ends[lo:hi] if a < x < b)
        cuts = sorted(cuts)
        part = [0] * 7
        for x, y in zip(cuts, cuts[1:]):
            for role in range(6):
                if covers(role, x, y):
                    part[role] += y - x
                    break
            else:
                part[6] += y - x
        row = [b - a] + part
        sums = [s + v for s, v in zip(sums, row)]
        print(",".join([name, str(a - t0)] + [str(v) for v in row]))
    if steps:
        n = len(steps)
        print(",".join(["Average", ""] + [str((2 * s + n) // (2 * n)) for s in sums]))


main()
