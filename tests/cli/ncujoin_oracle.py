#!/usr/bin/env python3
"""ncujoin_oracle.py - the --metrics join (src/analysis/ncu_join.h) done
independently: Kineto kernels with the json module, the ncu file with the
csv module (ncu_oracle.py's reader and per-kernel values), names reduced
with regular expressions, then the joined columns of
`report --kind kernels --metrics` compared cell by cell.

usage: ncujoin_oracle.py KINETO.json[.gz] NCU.csv REPORT.csv [METRIC...]
Prints "N of M profiled launches matched, K names unmatched" and exits 0
when every row's joined cells (and the --metric METRIC columns) agree, 1
(first difference on stderr) otherwise. With NCUJOIN_MIN_SHARE=P in the
environment it also prints "underused N": the kernel names the
ncu-underused rule must flag with min_share=P (defaults otherwise).
"""
import csv
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_oracle  # noqa: E402


def key(name):
    """The function's own name: no templates, namespaces, parameters."""
    s = name
    while True:
        t = re.sub(r"<[^<>]*>", "", s)
        if t == s:
            break
        s = t
    if "<" in s:
        s = s[:s.index("<")]
    s = s.replace("(anonymous namespace)", "")
    if "(" in s:
        s = s[:s.index("(")]
    words = re.findall(r"[A-Za-z0-9_]+", s)
    return words[-1] if words else ""


def shape(text):
    return [int(x) for x in re.findall(r"\d+", text)]


def main():
    kineto, ncu_path, report = sys.argv[1:4]
    extra = sys.argv[4:]
    op = gzip.open if kineto.endswith(".gz") else open
    with op(kineto, "rt") as f:
        doc = json.load(f)
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    tl = sorted((e for e in ev if str(e.get("cat", "")).lower() == "kernel"),
                key=lambda e: e["args"]["correlation"])
    by_key = {}
    for e in tl:
        by_key.setdefault(key(e["name"]), []).append(e)
    profiled = ncu_oracle.load(ncu_path)
    used = {}
    joined = {}   # Kineto name -> [values]
    matched = 0
    names = set()
    for name, block, grid, ms in profiled:
        k = key(name)
        names.add(k)
        i = used.get(k, 0)
        used[k] = i + 1
        cands = by_key.get(k, [])
        if i >= len(cands):
            continue
        e = cands[i]
        if shape(grid) + shape(block) != list(e["args"]["grid"]) + list(e["args"]["block"]):
            continue
        matched += 1
        joined.setdefault(e["name"], []).append(ncu_oracle.values((name, block, grid, ms), extra))
    unmatched = len([k for k in names if k not in by_key])
    print("%d of %d profiled launches matched, %d names unmatched"
          % (matched, len(profiled), unmatched))

    stat, mean = ncu_oracle.stat, ncu_oracle.mean

    with open(report, newline="") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    first = head.index("Profiled Calls")
    last = head.index("Name")
    checked = 0
    for r in rows[1:]:
        vs = joined.get(r[last], [])
        want = ncu_oracle.cells(vs, len(extra))
        got = r[first:last]
        if got != want:
            print("%s\ngot  %s\nwant %s" % (r[last][:80], got, want), file=sys.stderr)
            return 1
        checked += len(vs) > 0
    share = os.environ.get("NCUJOIN_MIN_SHARE")
    if share is not None:
        # ns as tracetty stores them: the JSON's microseconds, rounded
        tot = {}
        for e in tl:
            tot[e["name"]] = tot.get(e["name"], 0) + round(e["dur"] * 1000)
        whole = sum(tot.values())
        n = 0
        for name, vs in joined.items():
            sm, mem, occ = stat(vs, "sm"), stat(vs, "mem"), stat(vs, "occ")
            latency = sm and mem and mean(sm) < 60 and mean(mem) < 60
            low = occ and mean(occ) < 25
            if 100.0 * tot[name] / whole >= float(share) and (latency or low):
                n += 1
        print("underused %d" % n)
    if checked != len(joined):
        print("names with metrics: report %d, oracle %d" % (checked, len(joined)), file=sys.stderr)
        return 1
    return 0


sys.exit(main())
