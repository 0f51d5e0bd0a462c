#!/usr/bin/env python3
"""comm_oracle.py - an independent computation of `tracetty report --kind
comm` and `--kind comm-matrix` from an Ascend rank's communication.json and
communication_matrix.json, with python's json module, compared cell by cell
with tracetty's CSV output.

usage: comm_oracle.py comm|comm-matrix [--totals] OUT.csv RANK=DIR ...

DIR holds the rank's side files (ASCEND_PROFILER_OUTPUT). Totals follow
msprof-analyze's cluster analysis: per step, type (p2p, collective) and
group (after the '@'), the ops whose name holds no "top", "middle" or
"bottom" are summed; a total's bandwidth is size / time, the wait ratio
wait / (wait + transit), the synchronization ratio sync / (sync + transit).
Prints the mismatches and exits 1 when any; prints the row count otherwise.
"""
import csv
import json
import os
import sys

TOTAL = "Total Op Info"


def counts(op):
    return not any(s in op for s in ("middle", "top", "bottom"))


def ratio(a, b):
    return a / b if b != 0 else 0.0


def split(key):
    if "@" in key:
        i = key.rindex("@")
        return key[:i], key[i + 1:]
    return key, ""


def f(v, d):
    s = "%.*f" % (d, v)
    if s.startswith("-") and set(s[1:]) <= set("0."):
        s = s[1:]
    return s


def groups(doc):
    """(step, type, group) -> [(op, value)] in file order"""
    out = {}
    for step, types in doc.items():
        for typ, ops in types.items():
            for key, val in ops.items():
                op, grp = split(key)
                out.setdefault((step, typ, grp), []).append((op, val))
    return out


def comm_rows(rank, path, totals):
    rows = []
    with open(path) as fh:
        doc = json.load(fh)
    for (step, typ, grp), ops in groups(doc).items():
        s = [0.0] * 5
        if op_is_total(ops):
            continue
        for op, val in ops:
            t = val["Communication Time Info"]
            v = [t["Elapse Time(ms)"], t["Transit Time(ms)"], t["Wait Time(ms)"],
                 t["Synchronization Time(ms)"], t["Idle Time(ms)"]]
            if not totals:
                rows.append(row_comm(rank, step, typ, op, grp, t.get("Start Timestamp(us)"), v))
                # the file's own ratios (4 decimals) agree with the definitions
                for name, num in (("Wait Time Ratio", v[2]), ("Synchronization Time Ratio", v[3])):
                    if name in t and abs(t[name] - round(ratio(num, num + v[1]), 4)) > 1e-9:
                        print("file's %s of %s is %s, definition gives %s"
                              % (name, op, t[name], ratio(num, num + v[1])))
                        sys.exit(1)
            if counts(op):
                for i in range(5):
                    s[i] += v[i]
        rows.append(row_comm(rank, step, typ, TOTAL, grp, None, s))
        # the profiler's own total of the step agrees (one group here)
        own = doc[step][typ].get(TOTAL)
        if own is not None:
            t = own["Communication Time Info"]
            mine = row_comm(rank, step, typ, TOTAL, grp, None, s)[6:]
            theirs = row_comm(rank, step, typ, TOTAL, grp, None,
                              [t["Elapse Time(ms)"], t["Transit Time(ms)"], t["Wait Time(ms)"],
                               t["Synchronization Time(ms)"], t["Idle Time(ms)"]])[6:]
            if mine != theirs:
                print("total of %s: computed %s, the file's %s" % (step, mine, theirs))
                sys.exit(1)
    return rows


def op_is_total(ops):
    # the file's own "Total Op Info" entry: not an op (no '@' group)
    return len(ops) == 1 and ops[0][0] == TOTAL


def row_comm(rank, step, typ, op, grp, start, v):
    return [str(rank), step, typ, op, grp, "" if start is None else f(start, 3)] + \
        [f(x, 6) for x in v] + [f(ratio(v[2], v[2] + v[1]), 4), f(ratio(v[3], v[3] + v[1]), 4)]


def matrix_rows(rank, path, totals):
    rows = []
    with open(path) as fh:
        doc = json.load(fh)
    for (step, typ, grp), ops in groups(doc).items():
        tot = {}
        if op_is_total(ops):
            continue
        for op, links in ops:
            for key, l in links.items():
                src, dst = key.split("-")
                if not totals:
                    rows.append([str(rank), step, typ, op, grp, src, dst, l["Transport Type"],
                                 f(l["Transit Size(MB)"], 6), f(l["Transit Time(ms)"], 6),
                                 f(l["Bandwidth(GB/s)"], 4)])
                if counts(op):
                    t = tot.setdefault((src, dst), [None, 0.0, 0.0])
                    t[0] = l["Transport Type"]
                    t[1] += l["Transit Size(MB)"]
                    t[2] += l["Transit Time(ms)"]
        for (src, dst), t in tot.items():
            rows.append([str(rank), step, typ, TOTAL, grp, src, dst, t[0], f(t[1], 6),
                         f(t[2], 6), f(ratio(t[1], t[2]), 4)])
    return rows


def parse_args():
    """kind, totals, OUT.csv and the RANK=PATH pairs of the command line"""
    args = sys.argv[1:]
    kind = args.pop(0)
    totals = False
    if args and args[0] == "--totals":
        totals = True
        args.pop(0)
    out = args.pop(0)
    return kind, totals, out, [(int(r), p) for r, p in (a.split("=", 1) for a in args)]


def compare(out, want):
    """tracetty's CSV at out against the rows want: exits 1 on a mismatch
    (printing the first ones), prints the row count otherwise"""
    with open(out, newline="") as fh:
        got = list(csv.reader(fh))
    head = got.pop(0)
    if head and head[0] == "Trace":
        got = [r[1:] for r in got]
    bad = 0
    if len(got) != len(want):
        print("rows: got %d, want %d" % (len(got), len(want)))
        bad += 1
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print("row %d:\n  got  %s\n  want %s" % (i + 2, g, w))
            bad += 1
            if bad > 10:
                break
    if bad:
        sys.exit(1)
    print(len(want))


def main():
    kind, totals, out, ranks = parse_args()
    want = []
    for rank, d in ranks:
        if kind == "comm":
            want += comm_rows(rank, os.path.join(d, "communication.json"), totals)
        else:
            want += matrix_rows(rank, os.path.join(d, "communication_matrix.json"), totals)
    compare(out, want)


if __name__ == "__main__":
    main()
