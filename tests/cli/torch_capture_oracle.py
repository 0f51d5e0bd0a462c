#!/usr/bin/env python3
"""PyTorch's own numbers against tracetty's, for the real capture in
tests/data/torch/ (made on an H200 by capture.py: the Kineto trace and
key_averages() of ONE profiler session).

  torch_capture_oracle.py operators KEY_AVERAGES.json OPERATORS.csv
      every row of `report --kind operators` against key_averages(): Calls
      exactly, Host Self/Total and Device Self/Total within 1 ns per call
      (key_averages() keeps floats in us; the trace has ns exactly).
      PyTorch merges "ProfilerStep#N" into "ProfilerStep*": tracetty's
      rows of those names are summed before comparing. key_averages() has
      a second, device-side row for a name that is also a GPU annotation
      (ProfilerStep*, Optimizer.step#...): only its CPU row is compared.
      Every CPU row of key_averages() must be in the report and back.
  torch_capture_oracle.py slices KEY_AVERAGES.json QUERY.csv
      `SELECT category, name, count(*), sum(dur), sum(self_dur) FROM slice
      GROUP BY 1, 2` against key_averages(): per host name the count and
      cpu_time_total (and self_cpu_time_total for cpu_op), per kernel /
      memcpy / memset name the count and device_time_total of its device
      row.
  torch_capture_oracle.py diff KEY_AVERAGES_A.json KEY_AVERAGES_B.json DIFF.csv
      `diff --kind operators A B` against the two key_averages(): per name
      Count A/B and Total A/B (device total; empty where a side lacks the
      name) and the delta, within 1 ns per call.
  torch_capture_oracle.py ncu NCU_RAW.csv KERNELS.csv
      `report --kind kernels` of the ncu CSV alone: per kernel name the
      number of profiled launches and mean/min/max gpu__time_duration.sum
      in ns (the raw page's second row gives the unit).
Prints one line per disagreement, then "rows N mismatches M"; exit 1 on
any mismatch.
"""
import collections
import csv
import json
import sys
from decimal import Decimal as D

UNIT_NS = {"ns": D(1), "nsecond": D(1), "us": D(1000), "usecond": D(1000),
           "ms": D(1000000), "msecond": D(1000000), "s": D(10) ** 9, "second": D(10) ** 9}


def unguard(s):
    return s[1:] if len(s) > 1 and s[0] == "'" and s[1] in "=+-@\t\r" else s


def key_of(name):
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name


def key_averages(path):
    cpu, dev = {}, {}
    for r in json.load(open(path)):
        (cpu if r["device_type"] == "DeviceType.CPU" else dev)[r["key"]] = r
    return cpu, dev


class Check:
    def __init__(self):
        self.rows = 0
        self.bad = 0

    def near(self, what, got_ns, want_us, calls):
        # want_us: a float sum of us values; 1 ns of slack per call
        if abs(D(got_ns) / 1000 - D(repr(want_us))) > D("0.001") * max(calls, 1) + D("1e-9"):
            self.fail("%s: tracetty %s ns, PyTorch %r us" % (what, got_ns, want_us))

    def equal(self, what, got, want):
        if got != want:
            self.fail("%s: tracetty %r, PyTorch %r" % (what, got, want))

    def fail(self, line):
        self.bad += 1
        if self.bad <= 20:
            print(line)

    def done(self):
        print("rows %d mismatches %d" % (self.rows, self.bad))
        return 1 if self.bad else 0


def operators(ka_path, ops_csv):
    cpu, _ = key_averages(ka_path)
    got = collections.OrderedDict()
    with open(ops_csv, newline="") as f:
        for row in csv.DictReader(f):
            k = key_of(unguard(row["Name"]))
            g = got.setdefault(k, [0, 0, 0, 0, 0])
            for i, col in enumerate(("Calls", "Host Self (ns)", "Host Total (ns)",
                                     "Device Self (ns)", "Device Total (ns)")):
                g[i] += int(row[col] or 0)
    c = Check()
    for k in set(cpu) | set(got):
        c.rows += 1
        w, g = cpu.get(k), got.get(k)
        if w is None or g is None:
            c.fail("%r: only in %s" % (k, "tracetty" if w is None else "PyTorch"))
            continue
        n = w["count"]
        c.equal(k + " calls", g[0], n)
        c.near(k + " host self", g[1], w["self_cpu_time_total"], n)
        c.near(k + " host total", g[2], w["cpu_time_total"], n)
        c.near(k + " device self", g[3], w["self_device_time_total"], n)
        c.near(k + " device total", g[4], w["device_time_total"], n)
    return c.done()


def diff(ka_a, ka_b, diff_csv):
    cpu_a, _ = key_averages(ka_a)
    cpu_b, _ = key_averages(ka_b)
    got = {}
    with open(diff_csv, newline="") as f:
        for row in csv.DictReader(f):
            g = got.setdefault(key_of(unguard(row["Name"])), [0, 0, 0, 0])
            for i, col in enumerate(("Count A", "Count B", "Total A (ns)", "Total B (ns)")):
                g[i] += int(row[col] or 0)
    c = Check()
    for k in set(cpu_a) | set(cpu_b) | set(got):
        wa, wb, g = cpu_a.get(k), cpu_b.get(k), got.get(k)
        if not (wa and wa["device_time_total"]) and not (wb and wb["device_time_total"]) \
                and (g is None or not (g[2] or g[3])):
            continue   # no device time on either side: diff's Total is device time
        c.rows += 1
        if g is None:
            c.fail("%r: not in the diff" % k)
            continue
        for i, w in enumerate((wa, wb)):
            side = "AB"[i]
            c.equal("%s count %s" % (k, side), g[i], w["count"] if w else 0)
            c.near("%s total %s" % (k, side), g[2 + i], w["device_time_total"] if w else 0,
                   w["count"] if w else 0)
    return c.done()


DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
HOST_CATS = {"cpu_op", "user_annotation", "cuda_runtime", "cuda_driver"}


def slices(ka_path, q_csv):
    cpu, dev = key_averages(ka_path)
    got = {}
    with open(q_csv, newline="") as f:
        for row in csv.DictReader(f):
            cat = row["category"]
            if cat not in DEVICE_CATS and cat not in HOST_CATS:
                continue
            k = (cat in DEVICE_CATS, key_of(unguard(row["name"])))
            g = got.setdefault(k, [0, 0, 0])
            g[0] += int(row["n"])
            g[1] += int(row["total"])
            g[2] += int(row["self"] or 0) if cat == "cpu_op" else 0
    c = Check()
    for (is_dev, k), g in got.items():
        c.rows += 1
        w = (dev if is_dev else cpu).get(k)
        if w is None:
            c.fail("%r: not in key_averages()" % k)
            continue
        c.equal(k + " count", g[0], w["count"])
        if is_dev:
            c.near(k + " device time", g[1], w["device_time_total"], w["count"])
        else:
            c.near(k + " cpu time", g[1], w["cpu_time_total"], w["count"])
            if g[2]:
                c.near(k + " self cpu", g[2], w["self_cpu_time_total"], w["count"])
    return c.done()


def ncu(raw_csv, kernels_csv):
    with open(raw_csv, newline="") as f:
        rows = list(csv.reader(f))
    head, units = rows[0], rows[1]
    col = head.index("gpu__time_duration.sum")
    name = head.index("Kernel Name")
    scale = UNIT_NS[units[col]]
    want = collections.defaultdict(list)
    for r in rows[2:]:
        want[r[name]].append(D(r[col].replace(",", "")) * scale)
    got = {}
    with open(kernels_csv, newline="") as f:
        for row in csv.DictReader(f):
            got[unguard(row["Name"])] = row
    c = Check()
    for k in set(want) | set(got):
        c.rows += 1
        w, g = want.get(k), got.get(k)
        if w is None or g is None:
            c.fail("%r: only in %s" % (k, "tracetty" if w is None else "the CSV"))
            continue
        c.equal(k + " launches", int(g["Calls"]), len(w))
        for col_name, v in (("Mean Duration (ns)", sum(w) / len(w)),
                            ("Min Duration (ns)", min(w)), ("Max Duration (ns)", max(w))):
            if abs(D(g[col_name]) - v) > D("0.05"):
                c.fail("%s %s: tracetty %s, python %s" % (k, col_name, g[col_name], v))
    return c.done()


if __name__ == "__main__":
    mode = sys.argv[1]
    sys.exit({"operators": operators, "slices": slices, "diff": diff, "ncu": ncu}[mode](*sys.argv[2:]))
