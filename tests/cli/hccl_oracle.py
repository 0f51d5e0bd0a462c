#!/usr/bin/env python3
"""hccl_oracle.py - an independent computation of `tracetty report --kind
comm` and `--kind comm-matrix` for older MindSpore ranks, from their
hccl_raw_N.csv with python's csv and json modules, compared cell by cell
with tracetty's CSV output.

usage: hccl_oracle.py comm|comm-matrix [--totals] OUT.csv RANK=HCCL_RAW.csv ...

The mapping (decode/mindspore_hccl.h): per step row (the last row, step
"-", holds averages and is left out) and op of communication_operator_cost
[step, transit ms, wait ms, {"SRC-DST": {TYPE: [time ms, size KB,
bandwidth KB/s]}}]: Transit and Wait are the op's; Elapse,
Synchronization, Idle and the start are not in the file (empty); sizes
become MB (/1e3), bandwidths GB/s (/1e6). No type or group: one "Total
Op Info" per step, summed over every op; a total's bandwidth is size over
time. Before comparing, it checks the file against the units and totals
assumed: every op link's bandwidth is size / time * 1000 (KB, ms, KB/s),
every op's step is its row's, and the row's own communication_cost,
wait_cost and link_info time and size are the sums of its ops.
Prints the mismatches and exits 1 when any; prints the row count otherwise.
"""
import csv
import json
import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from comm_oracle import TOTAL, compare, f, parse_args, ratio  # noqa: E402


def fail(msg):
    print(msg)
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def steps(path):
    """[(step, row, ops)] of the numeric steps, after checking the file."""
    out = []
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            if row["step_num"] == "-":
                continue
            ops = json.loads(row["communication_operator_cost"])
            links = json.loads(row["link_info"])
            tr = sum(v[1] for v in ops.values())
            wt = sum(v[2] for v in ops.values())
            if not close(tr, float(row["communication_cost"])) or \
                    not close(wt, float(row["wait_cost"])):
                fail("step %s: ops sum to %r/%r, the row says %s/%s" % (
                    row["step_num"], tr, wt, row["communication_cost"], row["wait_cost"]))
            sums = {}
            for op, v in ops.items():
                if v[0] != row["step_num"]:
                    fail("op %s of step %s says step %s" % (op, row["step_num"], v[0]))
                for key, types in v[3].items():
                    for typ, (tm, size, bw) in ((t, x[:3]) for t, x in types.items()):
                        if tm and not close(bw, size / tm * 1000):
                            fail("op %s link %s: bandwidth %r is not size/time*1000 %r"
                                 % (op, key, bw, size / tm * 1000))
                        s = sums.setdefault((key, typ), [0.0, 0.0])
                        s[0] += tm
                        s[1] += size
            for key, types in links.items():
                for typ, x in types.items():
                    s = sums.get((key, typ), [0.0, 0.0])
                    if not close(s[0], x[0]) or not close(s[1], x[1]):
                        fail("step %s link %s: ops sum to %r, link_info says %r"
                             % (row["step_num"], key, s, x[:2]))
            out.append(("step" + row["step_num"], ops))
    return out


def comm_rows(rank, path, totals):
    rows = []
    for step, ops in steps(path):
        s = [0.0, 0.0]
        for op, v in ops.items():
            if not totals:
                rows.append(row_comm(rank, step, op, v[1], v[2]))
            s[0] += v[1]
            s[1] += v[2]
        rows.append(row_comm(rank, step, TOTAL, s[0], s[1]))
    return rows


def row_comm(rank, step, op, transit, wait):
    return [str(rank), step, "", op, "", "", "", f(transit, 6), f(wait, 6), "", "",
            f(ratio(wait, wait + transit), 4), ""]


def matrix_rows(rank, path, totals):
    rows = []
    for step, ops in steps(path):
        tot = {}
        for op, v in ops.items():
            for key, types in v[3].items():
                src, dst = key.split("-")
                for typ, x in types.items():
                    size, tm, bw = x[1] / 1e3, x[0], x[2] / 1e6
                    if not totals:
                        rows.append([str(rank), step, "", op, "", src, dst, typ, f(size, 6),
                                     f(tm, 6), f(bw, 4)])
                    t = tot.setdefault((src, dst), [None, 0.0, 0.0])
                    t[0] = typ
                    t[1] += size
                    t[2] += tm
        for (src, dst), t in tot.items():
            rows.append([str(rank), step, "", TOTAL, "", src, dst, t[0], f(t[1], 6),
                         f(t[2], 6), f(ratio(t[1], t[2]), 4)])
    return rows


def main():
    kind, totals, out, ranks = parse_args()
    want = []
    for rank, path in ranks:
        want += (comm_rows if kind == "comm" else matrix_rows)(rank, path, totals)
    compare(out, want)


main()
