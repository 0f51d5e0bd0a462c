#!/usr/bin/env python3
"""gate_oracle.py - independent computations (json, csv, re only) for
tests/cli/diff_gate.sh: `diff --normalize` and `--fail-if` over a real
Kineto trace.

usage:
  gate_oracle.py rename A B      B = A with every kernel renamed as a library
                                 upgrade renames it: the numbers inside its
                                 template arguments changed, a numeric
                                 suffix on plain names without any ("_7",
                                 or "_v1" -> "_v2")
  gate_oracle.py norm A B CSV    check `diff --kind kernels --normalize A B`
                                 (CSV): the rows Python makes by normalizing
                                 both sides' kernel names with its own
                                 implementation of the rules and summing
  gate_oracle.py sums A B GLOB   Total A, Total B, Count A, Count B of the
                                 kernels whose name matches GLOB (fnmatch)
"""
import csv
import fnmatch
import gzip
import json
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

KERNEL_CATS = {"kernel", "gpu_kernel", "cuda_kernel", "collective"}


def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f, parse_float=Decimal)


def kernels(d):
    ev = d["traceEvents"] if isinstance(d, dict) else d
    return [e for e in ev if e.get("ph") == "X" and (e.get("cat") or "").lower() in KERNEL_CATS]


# ------------------------------------------------- the rules, done again

def strip_templates(s):
    """Rule 1: '<' after a word character up to its matching '>' -> '<>'."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "<" and i > 0 and re.match(r"\w", s[i - 1]) and not "".join(out).endswith("operator"):
            depth = paren = 0
            j = i
            while j < len(s):
                if s[j] == "(":
                    paren += 1
                elif s[j] == ")":
                    if paren == 0:
                        break
                    paren -= 1
                elif paren == 0 and s[j] == "<":
                    depth += 1
                elif paren == 0 and s[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j < len(s) and s[j] == ">" and depth == 0:
                out.append("<>")
                i = j + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def norm_word(w, qualifier):
    if qualifier or not re.search(r"[A-Za-z]", w):
        return w
    last = w.rsplit("_", 1)[-1]
    if not re.fullmatch(r"0[xX][0-9a-fA-F]+", last):
        m = re.fullmatch(r"(.*?)(_v|_)?(\d+)", w)
        if m and m.group(1) + (m.group(2) or "") and len(m.group(1)) > 0:
            w = m.group(1)
    return re.sub(r"(?:(?<=_)|^)0[xX][0-9a-fA-F]+(?=_|$)", "0x", w)


def normalize(name):
    s = strip_templates(name)
    out, i = [], 0
    for m in re.finditer(r"\w+|[.#]\d+(?!\w)|.", s, re.S):
        t = m.group(0)
        if re.fullmatch(r"\w+", t):
            out.append(norm_word(t, s[m.end():m.end() + 2] == "::"))
        elif t[0] == "#" and len(t) > 1:
            pass
        elif t[0] == "." and len(t) > 1 and m.start() > 0 and re.match(r"\w", s[m.start() - 1]) \
                and out and re.search(r"[A-Za-z]", out[-1]):
            pass
        else:
            out.append(t)
    return "".join(out)


def rename(name):
    if "<" in name:
        head, rest = name.split("<", 1)
        return head + "<" + re.sub(r"(?<!\w)\d+(?!\w)", lambda m: m.group(0) + "1", rest)
    if re.search(r"_v\d+$", name):
        return re.sub(r"_v(\d+)$", lambda m: "_v%d" % (int(m.group(1)) + 1), name)
    if name.endswith(")"):
        return name
    return name + "_7"


def main():
    cmd = sys.argv[1]
    if cmd == "rename":
        d = load(sys.argv[2])
        names = sorted({e["name"] for e in kernels(d)})
        new = {n: rename(n) for n in names}
        for e in kernels(d):
            e["name"] = new[e["name"]]
        with open(sys.argv[3], "w") as f:
            json.dump(d, f, default=str)
        print(len(names))
    elif cmd == "norm":
        sides = []
        for p in sys.argv[2:4]:
            t = {}
            for e in kernels(load(p)):
                k = normalize(e["name"])
                c, s = t.get(k, (0, 0))
                t[k] = (c + 1, s + ns(e.get("dur", 0)))
            sides.append(t)
        want = {}
        for k in set(sides[0]) | set(sides[1]):
            ca, ta = sides[0].get(k, (0, 0))
            cb, tb = sides[1].get(k, (0, 0))
            want[k] = [str(ca), str(cb), str(ta), str(tb), str(tb - ta)]
        got = {r[0]: r[2:7] for r in list(csv.reader(open(sys.argv[4])))[1:]}
        bad = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
        for k in bad[:5]:
            print("row %r: got %s want %s" % (k[:80], got.get(k), want.get(k)))
        print("rows %d bad %d" % (len(want), len(bad)))
        sys.exit(1 if bad else 0)
    elif cmd == "sums":
        out = []
        for p in sys.argv[2:4]:
            ks = [e for e in kernels(load(p)) if fnmatch.fnmatchcase(e["name"], sys.argv[4])]
            out.append((sum(ns(e.get("dur", 0)) for e in ks), len(ks)))
        print(out[0][0], out[1][0], out[0][1], out[1][1])


if __name__ == "__main__":
    main()
