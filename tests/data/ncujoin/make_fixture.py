#!/usr/bin/env python3
"""make_fixture.py - an `ncu --csv` details page of the kernels of a real
Kineto trace, for the --metrics join tests (see README).

usage: make_fixture.py KINETO.json.gz NCU_DETAILS.csv... -o OUT.csv
                       [--first N] [--extra]

The kernels are the trace's first N kernel launches (cat "kernel") in
launch order (correlation id), as `ncu -c N` would have profiled them.
Each becomes one ncu kernel: ID in that order, the trace's name written
the way ncu writes names (below), its grid and block as "(x, y, z)", and
the metric rows (sections, names, units, values, rule rows) of one of
the real ncu details files given, in turn, plus a Launch Statistics row
"Registers Per Thread" with the trace's own "registers per thread". The
file is written as ncu writes on Windows: UTF-8 BOM, CRLF, every cell
quoted, a line of program output before the header.

--extra adds what a join cannot match: one launch of a kernel the trace
never ran (the real file's own kernel name) and one more launch of the
trace's rarest kernel name than the trace has.

ncu's way of writing a name (what the join must see through): "(anonymous
namespace)" becomes "<unnamed>", "> >" becomes ">>", integer template
arguments get a cast ("4" -> "(int)4"), the parameter list becomes ncu's
template parameter names "(T1, T2, ...)", and every third name is cut
after 60 characters.
"""
import csv
import gzip
import io
import json
import re
import sys


def ncu_name(name, i):
    n = name.replace("(anonymous namespace)", "<unnamed>")
    while "> >" in n:
        n = n.replace("> >", ">>")
    n = re.sub(r"(?<=[<, ])(\d+)(?=[,>])", r"(int)\1", n)
    if n.endswith(")"):
        depth = 0
        for j in range(len(n) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(n[j], 0)
            if depth == 0:
                args = n[j + 1:-1]
                count = args.count(",") + 1 if args.strip() else 0
                n = n[:j] + "(" + ", ".join("T%d" % (k + 1) for k in range(count)) + ")"
                break
    if i % 3 == 2:
        n = n[:60]
    return n


def real_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        text = f.read()
    rows = list(csv.reader(io.StringIO(text[text.index('"ID",'):])))
    return rows[0], [r for r in rows[1:] if r]


def main():
    args = sys.argv[1:]
    out = args[args.index("-o") + 1]
    first = int(args[args.index("--first") + 1]) if "--first" in args else 16
    extra = "--extra" in args
    skip = {out, str(first)}
    paths = [a for a in args if not a.startswith("-") and a not in skip]
    kineto, ncu_files = paths[0], paths[1:]
    with gzip.open(kineto, "rt") as f:
        doc = json.load(f)
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    kernels = sorted((e for e in ev if str(e.get("cat", "")).lower() == "kernel"),
                     key=lambda e: e["args"]["correlation"])
    chosen = kernels[:first]
    header, templates = None, []
    for p in ncu_files:
        h, rows = real_rows(p)
        header = header or h
        assert h == header, "the real files must share one header"
        templates.append(rows)
    col = {h: i for i, h in enumerate(header)}
    launches = [(ncu_name(k["name"], i), k["args"]["grid"], k["args"]["block"],
                 k["args"].get("registers per thread")) for i, k in enumerate(chosen)]
    if extra:
        counts = {}
        for k in kernels:
            counts[k["name"]] = counts.get(k["name"], 0) + 1
        rare = min(counts, key=lambda n: (counts[n], n))
        runs = [k for k in kernels if k["name"] == rare]
        for k in runs + runs[-1:]:
            launches.append((ncu_name(k["name"], 0), k["args"]["grid"], k["args"]["block"],
                             k["args"].get("registers per thread")))
        foreign = templates[0][0]
        launches.append((foreign[col["Kernel Name"]], [1, 1, 1], [1, 1, 1], None))
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    buf.write("==PROF== Connected to process 4242 (python3)\r\n")
    w.writerow(header)
    for i, (name, grid, block, regs) in enumerate(launches):
        rows = templates[i % len(templates)]
        for r in rows:
            r = list(r)
            r[col["ID"]] = str(i)
            # one profiled process: the first real file's
            r[col["Process ID"]] = templates[0][0][col["Process ID"]]
            r[col["Kernel Name"]] = name
            r[col["Block Size"]] = "(%d, %d, %d)" % tuple(block)
            r[col["Grid Size"]] = "(%d, %d, %d)" % tuple(grid)
            w.writerow(r)
        if regs is not None:
            r = list(rows[0])
            r[col["ID"]] = str(i)
            r[col["Process ID"]] = templates[0][0][col["Process ID"]]
            r[col["Kernel Name"]] = name
            r[col["Block Size"]] = "(%d, %d, %d)" % tuple(block)
            r[col["Grid Size"]] = "(%d, %d, %d)" % tuple(grid)
            r[col["Section Name"]] = "Launch Statistics"
            r[col["Metric Name"]] = "Registers Per Thread"
            r[col["Metric Unit"]] = "register/thread"
            r[col["Metric Value"]] = str(regs)
            for c in range(col["Metric Value"] + 1, len(r)):
                r[c] = ""
            w.writerow(r)
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write("\ufeff" + buf.getvalue())


main()
