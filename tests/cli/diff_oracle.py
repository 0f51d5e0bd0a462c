# diff_oracle.py - the independent computation `tracetty diff` is checked
# against (tests/cli/diff_ops.sh), with Python's json and csv modules only.
#
#   python3 diff_oracle.py make A.json.gz B.json      write B: A changed
#   python3 diff_oracle.py check KIND A B DIFF.csv [FROM:TO FROM:TO]
#                                                     check every row
#
# make: B is A with every event of one kernel name deleted (the 3rd most
# frequent), the durations of another kernel name doubled (the 2nd most
# frequent) and one operator event repeated (the first "aten::conv2d"
# event, else the first Operator); it prints the three names.
# check: per name of A and B, counts and totals in ns (ts and dur are us,
# read as decimals), for KIND ops (every complete event and instant of the
# trace by name), kernels (events of a kernel category by name) or
# operators (attrib_oracle.py's own call stacks and correlation links:
# calls and Device Total, Host Total without links, by name); then
# status by count as HTA's ops_diff, delta, delta %, the averages, and the
# order (|delta| descending, then name), against tracetty's CSV. With two
# windows (ns from the trace's first event, one per side), ops counts the
# events overlapping the window (an instant: starting in it) and sums
# their durations clipped to it, as a window of `report` does. Prints one
# line per disagreement, then "rows N mismatches M".
import collections, csv, gzip, json, os, sys
from decimal import Decimal as D

KERNEL_CATS = {"kernel", "gpu_kernel", "cuda_kernel", "collective"}


def ns(v):
    return int(D(str(v)) * 1000)


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def events(d):
    return d["traceEvents"] if isinstance(d, dict) else d


def make(src, dst):
    d = load(src)
    ev = events(d)
    kc = collections.Counter(e["name"] for e in ev
                             if e.get("ph") == "X" and (e.get("cat") or "").lower() in KERNEL_CATS)
    names = [n for n, _ in kc.most_common()]
    deleted, doubled = names[2], names[1]
    out, repeated = [], None
    for e in ev:
        if e.get("ph") == "X" and e.get("name") == deleted and \
                (e.get("cat") or "").lower() in KERNEL_CATS:
            continue
        if e.get("ph") == "X" and e.get("name") == doubled and \
                (e.get("cat") or "").lower() in KERNEL_CATS:
            e = dict(e)
            e["dur"] = e["dur"] * 2
        out.append(e)
    ops = [e for e in out if e.get("ph") == "X" and e.get("cat") == "Operator"]
    conv = [e for e in ops if e["name"] == "aten::conv2d"]
    repeated = (conv or ops)[0]
    out.append(dict(repeated))
    d["traceEvents"] = out
    with open(dst, "w") as f:
        json.dump(d, f)
    print(deleted)
    print(doubled)
    print(repeated["name"])


def operators(path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import attrib_oracle
    want, links, _, _ = attrib_oracle.compute(path)
    return {name: [r[0], r[4] if links else r[2]] for name, r in want.items()}


def table(path, kind, window=None):
    if kind == "operators":
        return operators(path)
    rows = collections.defaultdict(lambda: [0, 0])
    evs = events(load(path))
    t0 = min(ns(e["ts"]) for e in evs if e.get("ph") in ("X", "i", "I"))
    for e in evs:
        ph = e.get("ph")
        if kind == "ops":
            if ph not in ("X", "i", "I"):
                continue
        elif ph != "X" or (e.get("cat") or "").lower() not in KERNEL_CATS:
            continue
        s = ns(e["ts"])
        d = ns(e.get("dur", 0)) if ph == "X" else 0
        if window:
            lo, hi = t0 + window[0], t0 + window[1]
            if d == 0 and not (lo <= s < hi):
                continue
            if d > 0 and not (s < hi and s + d > lo):
                continue
            d = min(s + d, hi) - max(s, lo) if d > 0 else 0
        r = rows[e.get("name", "")]
        r[0] += 1
        r[1] += d
    return rows


def status(ca, cb):
    if ca == 0:
        return "added"
    if cb == 0:
        return "deleted"
    return "increased" if cb > ca else "decreased" if cb < ca else "unchanged"


def check(kind, a, b, got_csv, wa=None, wb=None):
    ta, tb = table(a, kind, wa), table(b, kind, wb)
    want = {}
    for name in set(ta) | set(tb):
        ca, sa = ta.get(name, [0, 0])
        cb, sb = tb.get(name, [0, 0])
        delta = sb - sa
        want[name] = [name, status(ca, cb), str(ca), str(cb), str(sa), str(sb), str(delta),
                      "%.2f" % (100.0 * delta / sa) if sa else "",
                      "%.1f" % (sa / ca) if ca else "", "%.1f" % (sb / cb) if cb else ""]
    with open(got_csv, newline="") as f:
        got = list(csv.reader(f))
    bad = 0
    head = ["Name", "Status", "Count A", "Count B", "Total A (ns)", "Total B (ns)",
            "Delta (ns)", "Delta (%)", "Avg A", "Avg B"]
    if got[0] != head:
        print("header", got[0])
        bad += 1
    seen = set()
    for r in got[1:]:
        name = r[0][1:] if r[0][:1] == "'" and r[0][1:2] in "=+-@" else r[0]
        w = want.get(name)
        if w is None:
            print("unexpected row", r)
            bad += 1
            continue
        seen.add(name)
        if [name] + r[1:] != w:
            print("row", r, "want", w)
            bad += 1
    for name in set(want) - seen:
        print("missing row", want[name])
        bad += 1
    order = [(-abs(int(w[6])), w[0].encode()) for w in
             (want[r[0][1:] if r[0][:1] == "'" else r[0]] for r in got[1:] if
              (r[0][1:] if r[0][:1] == "'" else r[0]) in want)]
    if order != sorted(order):
        print("rows not sorted by |delta| then name")
        bad += 1
    print("rows %d mismatches %d" % (len(got) - 1, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        w = [tuple(int(x) for x in v.split(":")) for v in sys.argv[6:8]]
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], *w))
