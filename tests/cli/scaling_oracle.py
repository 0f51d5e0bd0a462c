#!/usr/bin/env python3
"""scaling_oracle.py - the table `tracetty diff --scaling` must print for
HugeCTR prof.json runs, computed independently (json module only), for
tests/cli/diff_scaling.sh.

usage: scaling_oracle.py [--weak] RUN...      (RUN: a prof.json or a directory of them)

Prints one line per row, cells joined by '|': Name, Stat, then per run
time (ns, 1 decimal), speedup and efficiency (3 decimals), empty when
undefined. What is measured is what HugeCTR's own scaling chart
(tools/profiler) measures: the iteration is each host's avg_iter_time,
a label each of its events' avg_measured_time over every host, device
and stream; avg and max over those. Times become whole ns first, as a
trace reader keeps them.
"""
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP


def ns(ms):
    return int((Decimal(repr(ms)) * 1000000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def natural(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def files_of(run):
    if os.path.isdir(run):
        return [os.path.join(run, f) for f in sorted(os.listdir(run), key=natural)]
    return [run]


def measure(run):
    iters, labels, hosts = [], {}, 0
    for path in files_of(run):
        with open(path) as f:
            for host in json.load(f):
                hosts += 1
                iters.append(ns(host["avg_iter_time_ms"]))
                for streams in host["timeline"].values():
                    for events in streams.values():
                        for e in events:
                            labels.setdefault(e["label"], []).append(ns(e["avg_measured_time_ms"]))
    return iters, labels, hosts


def fmt(v, d):
    return "" if v is None else "%.*f" % (d, v)


def main():
    args = sys.argv[1:]
    weak = "--weak" in args
    runs = [a for a in args if a != "--weak"]
    m = [measure(r) for r in runs]
    ranks = [x[2] for x in m]
    names = set()
    for _, labels, _ in m:
        names |= set(labels)

    def avg(v):
        return sum(v) / len(v) if v else None

    def first_avg(n):
        v = m[0][1].get(n)
        return avg(v)
    with_first = sorted([n for n in names if first_avg(n) is not None],
                        key=lambda n: (-first_avg(n), n.encode()))
    without = sorted([n for n in names if first_avg(n) is None], key=lambda n: n.encode())
    rows = [("iteration", [x[0] for x in m])]
    rows += [(n, [x[1].get(n, []) for x in m]) for n in with_first + without]
    for name, per_run in rows:
        for stat, f in (("avg", avg), ("max", lambda v: max(v) if v else None)):
            t = [f(v) for v in per_run]
            cells = [name, stat]
            for k in range(len(runs)):
                if t[0] is None or t[k] is None or t[0] <= 0 or t[k] <= 0:
                    sp = ef = None
                else:
                    sp = t[0] / t[k]
                    ef = t[0] / t[k] if weak else sp * ranks[0] / ranks[k]
                cells += [fmt(t[k], 1), fmt(sp, 3), fmt(ef, 3)]
            print("|".join(cells))


if __name__ == "__main__":
    main()
