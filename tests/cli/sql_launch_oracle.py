#!/usr/bin/env python3
"""sql_launch_oracle.py TRACE LAUNCH.csv - the `launch` table of `tracetty
query` against attrib_oracle.py's own launch links (Python's json/sqlite3
modules, its own call stacks and correlation links): for every kernel the
trace holds, a row with its name, ts, dur, launch delay (its start minus
its launching call's), launch op and the op's chain of enclosing names,
compared as multisets. LAUNCH.csv is the output of
  SELECT name, ts, dur, launch_delay, op_name, op_chain FROM launch
Prints the disagreements, then "rows N mismatches M"; exit 1 on any.
"""
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attrib_oracle  # noqa: E402


def chain(op):
    names = []
    while op is not None:
        names.append(op.name)
        op = op.parent
    return " > ".join(reversed(names))


def main(trace, got_csv):
    _, _, kernels, _ = attrib_oracle.compute(trace)
    want = collections.Counter()
    for name, ks in kernels.items():
        for e, op in ks:
            h = e.launcher
            want[(name, str(e.start), str(e.dur),
                  str(e.start - h.start) if h is not None else "",
                  op.name if op is not None else "",
                  chain(op) if op is not None else "")] += 1
    got = collections.Counter()
    with open(got_csv, newline="") as f:
        for row in csv.DictReader(f):
            if row["name"] in kernels:
                got[(row["name"], row["ts"], row["dur"], row["launch_delay"], row["op_name"],
                     row["op_chain"])] += 1
    bad = 0
    for k in set(want) | set(got):
        if want[k] != got[k]:
            bad += 1
            if bad <= 10:
                print("%r: python %d, tracetty %d" % (k, want[k], got[k]))
    print("rows %d mismatches %d" % (sum(want.values()), bad))
    return 1 if bad or not want else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
