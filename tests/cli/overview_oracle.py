#!/usr/bin/env python3
"""overview_oracle.py - independent computations for tests/cli/overview.sh,
standard library only (csv, json, decimal).

  file STEP_TRACE_TIME.CSV     the profiler's overview in ns: one line per
                               step, then Average (rounded half up)
  timeline TRACE_VIEW.JSON     the overview computed from the Ascend
                               timeline (interval unions over the device
                               events, steps = ProfilerStep#N host spans)
  timeline-window TRACE LO HI the same with the steps cut to [LO, HI) ns
                               after the first step's start (--window)
  timeline-hw TRACE            the same over the "Ascend Hardware" lanes
                               alone (--lanes): no HCCL ops, no Bubble
  legacy STEP_TRACE_RAW.CSV    the MindSpore step_trace_raw mapping
  agree GOT.CSV WANT.CSV PCT   every number of GOT within PCT percent of WANT
                               (both lines of the form above)
  stat TRACETTY.CSV FILE.CSV   tracetty's op/api-statistic rows hold the
                               file's cells exactly (same numbers)

Output lines: Step,Computing,Comm(Not Overlapped),Overlapped,Communication,
Free,Stage,Bubble,Preparing; an unknown value is empty.
"""
import csv
import json
import sys
from decimal import Decimal, ROUND_HALF_UP


def ns(text, scale=3):
    """Decimal text in units of 10^-scale s... times 10^scale, rounded half away from 0."""
    d = Decimal(str(text)).scaleb(scale)
    return int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def emit(rows):
    """rows: (step, [9 values or None]); prints them and the Average."""
    n = len(rows)
    for step, v in rows:
        print(step + "," + ",".join("" if x is None else str(x) for x in v))
    if n:
        avg = []
        for k in range(8):
            col = [v[k] for _, v in rows]
            avg.append(None if any(x is None for x in col) else (sum(col) + n // 2) // n)
        print("Average," + ",".join("" if x is None else str(x) for x in avg))


def from_file(path):
    rows = []
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        for row in r:
            v = [ns(row[c]) for c in ("Computing", "Communication(Not Overlapped)",
                                      "Overlapped", "Communication", "Free")]
            for c in ("Stage", "Bubble", "Preparing"):
                v.append(ns(row[c]) if row.get(c, "") != "" else None)
            rows.append((row["Step"], v))
    emit(rows)


def union(iv):
    out = []
    for s, e in sorted(x for x in iv if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def clip(u, a, b):
    return [[max(s, a), min(e, b)] for s, e in u if e > a and s < b]


def length(u):
    return sum(e - s for s, e in u)


def overlap(a, b):
    i = j = tot = 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if e > s:
            tot += e - s
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tot


BOOKKEEPING = {"EVENT_WAIT", "EVENT_RECORD", "Notify Wait", "Notify Record", "Notify_Wait",
               "Notify_Record", "Write Value", "SDMA", "PROFILING_ENABLE", "PROFILING_DISABLE"}
COLLECTIVE = ("nccl", "rccl", "hccl", "hcom", "c10d", "gloo", "msccl", "cncl", "xccl")


def from_timeline(path, win=None, hw_only=False):
    """win: (lo, hi) ns after the first step's start, the step cut to it
    (report --window); hw_only: the "Ascend Hardware" lanes alone
    (report --lanes 'Ascend Hardware*'): no HCCL lanes, so no Bubble."""
    with open(path) as f:
        data = json.load(f)
    ev = data["traceEvents"] if isinstance(data, dict) else data
    procs, threads = {}, {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    comp, comm, recv, steps = [], [], [], []
    for e in ev:
        if e.get("ph") != "X":
            continue
        s = ns(e["ts"])
        iv = (s, s + ns(e.get("dur", 0)))
        proc, name = procs.get(e["pid"], ""), e.get("name", "")
        if name.startswith("ProfilerStep#") and e.get("cat") == "cpu_op":
            steps.append((name[len("ProfilerStep#"):], iv))
        elif proc == "HCCL" and hw_only:
            continue
        elif proc == "HCCL" and threads.get((e["pid"], e["tid"]), "").endswith("Communication"):
            comm.append(iv)
            if name.startswith("hcom_receive"):
                recv.append(iv)
        elif proc == "Ascend Hardware":
            if any(k in name.lower() for k in COLLECTIVE):
                comm.append(iv)
            elif name not in BOOKKEEPING and "MEMCPY" not in name:
                comp.append(iv)
    comp, comm, recv = union(comp), union(comm), union(recv)
    rows = []
    steps.sort(key=lambda x: x[1])
    if win:
        lo, hi = steps[0][1][0] + win[0], steps[0][1][0] + win[1]
        steps = [(n, (max(a, lo), min(b, hi))) for n, (a, b) in steps if a < hi and b > lo]
    for step, (a, b) in steps:
        c, m, r = clip(comp, a, b), clip(comm, a, b), clip(recv, a, b)
        u = union(c + m)
        ovl = overlap(c, m)
        span = u[-1][1] - u[0][0] if u else 0
        bubble = length(r)
        if hw_only:
            rows.append((step, [length(c), length(m) - ovl, ovl, length(m), span - length(u),
                                span, None, u[0][0] - a if u else None]))
            continue
        rows.append((step, [length(c), length(m) - ovl, ovl, length(m), span - length(u),
                            span - bubble, bubble, u[0][0] - a if u else None]))
    emit(rows)


def from_legacy(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    hdr = r[0]
    ops = [h for h in hdr[9:] if h.startswith("stream_") and not h.endswith("_point")]
    rows = []
    for row in r[1:]:
        d = dict(zip(hdr, row))
        if d["step_num"] == "-":
            continue
        tick = lambda c: int(d[c]) * 10   # 10 ns ticks
        a, b = tick("start_point"), tick("end_point")
        iv = [(tick(o + "_start_point"), tick(o + "_end_point")) for o in ops
              if d.get(o + "_start_point", "") != ""]
        rv = [(tick(o + "_start_point"), tick(o + "_end_point")) for o in ops
              if "_Receive" in o and d.get(o + "_start_point", "") != ""]
        m = clip(union(iv), a, b)
        fp = clip(union([(tick("fp_point"), tick("bp_point"))]), a, b)
        comp = length(fp) - overlap(fp, m)
        bubble = length(clip(union(rv), a, b))
        rows.append((d["step_num"], [comp, length(m), None, length(m), (b - a) - comp - length(m),
                                     (b - a) - bubble, bubble, None]))
    emit(rows)


def agree(got, want, pct):
    g = [l.strip().split(",") for l in open(got) if l.strip()]
    w = [l.strip().split(",") for l in open(want) if l.strip()]
    bad = 0
    if len(g) != len(w):
        print("rows: %d vs %d" % (len(g), len(w)))
        return 1
    names = ["Computing", "Comm(Not Overlapped)", "Overlapped", "Communication", "Free",
             "Stage", "Bubble", "Preparing"]
    for a, b in zip(g, w):
        for k in range(1, 9):
            if a[k] == "" or b[k] == "":
                continue
            x, y = int(a[k]), int(b[k])
            if abs(x - y) > float(pct) / 100 * abs(y):
                print("%s %s: %d vs %d" % (a[0], names[k - 1], x, y))
                bad += 1
    return 1 if bad else 0


def stat(got, want):
    with open(got, newline="") as f:
        g = list(csv.reader(f))
    with open(want, newline="") as f:
        w = list(csv.reader(f))
    if g[0][-len(w[0]):] != w[0] or len(g) != len(w):
        print("header or row count differs")
        return 1
    for a, b in zip(g[1:], w[1:]):
        a = a[-len(b):]
        for x, y in zip(a, b):
            if x != y and not (x.lstrip("'") == y):
                print("cell %r vs %r" % (x, y))
                return 1
    return 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "file":
        from_file(sys.argv[2])
    elif mode == "timeline":
        from_timeline(sys.argv[2])
    elif mode == "timeline-window":   # PATH LO_NS HI_NS (after the first step's start)
        from_timeline(sys.argv[2], (int(sys.argv[3]), int(sys.argv[4])))
    elif mode == "timeline-hw":
        from_timeline(sys.argv[2], hw_only=True)
    elif mode == "legacy":
        from_legacy(sys.argv[2])
    elif mode == "agree":
        sys.exit(agree(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif mode == "stat":
        sys.exit(stat(sys.argv[2], sys.argv[3]))
