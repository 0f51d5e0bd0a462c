#!/usr/bin/env python3
"""ncu_oracle.py - the `tracetty report --kind kernels` table of an
`ncu --csv` file, computed independently with the csv module, compared to
tracetty's CSV output.

usage: ncu_oracle.py NCU.csv REPORT.csv [METRIC...]
Exit 0 when every row and cell agrees, 1 (with the first difference on
stderr) otherwise. The definitions are those of src/analysis/ncu_kernels.h.
"""
import csv
import io
import sys

TIME = {"ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6,
        "s": 1e9, "second": 1e9}
IDENTITY = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time",
            "Context", "Stream", "Block Size", "Grid Size", "Device", "CC", "Section Name", ""}
BYTES = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}


def number(text):
    t = text.strip()
    if t in ("", "n/a", "N/A"):
        return None
    try:
        return float(t.replace(",", ""))
    except ValueError:
        return None


def add(ms, section, name, unit, value):
    """A metric under its name, or "Section: Name" when the name came
    before; a repeat of that is left out (as ncu.c keys them)."""
    key = name if name not in ms else section + ": " + name
    if key not in ms:
        ms[key] = (unit, value)


def load(path):
    """[(name, block, grid, {key: (unit, value)})] per kernel ID, first-seen order."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID",') or l.startswith("ID,"))
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    head = rows[0]
    col = {h: i for i, h in reversed(list(enumerate(head)))}
    kernels = {}
    if "Metric Name" in col:
        for r in rows[1:]:
            k = kernels.setdefault(int(r[0]), (r[col["Kernel Name"]], r[col["Block Size"]] if "Block Size" in col else "",
                                              r[col["Grid Size"]] if "Grid Size" in col else "", {}))
            if r[col["Metric Name"]]:
                add(k[3], r[col["Section Name"]], r[col["Metric Name"]], r[col["Metric Unit"]],
                    number(r[col["Metric Value"]]))
    else:
        units = rows[1]
        for r in rows[2:]:
            k = kernels.setdefault(int(r[0]), (r[col["Kernel Name"]], r[col.get("Block Size", 0)],
                                              r[col.get("Grid Size", 0)], {}))
            for i, h in enumerate(head):
                if h not in IDENTITY and not h.startswith(("NVTX", "thread_domain")):
                    add(k[3], "", h, units[i], number(r[i]))
    return list(kernels.values())


def get(ms, name, unit=None, scale=None):
    if name not in ms:
        return None
    u, v = ms[name]
    if v is None or (unit is not None and u != unit):
        return None
    if scale is not None:
        return v * scale[u] if u in scale else None
    return v


def first(ms, *names):
    for n in names:
        v = get(ms, n)
        if v is not None:
            return v
    return None


def dims(t):
    t = t.strip()
    if not (t.startswith("(") and t.endswith(")")):
        return None
    p = 1.0
    for x in t[1:-1].split(","):
        p *= float(x)
    return p


def values(k, extra):
    name, block, grid, ms = k
    v = {}
    dur = get(ms, "Duration", scale=TIME)
    if dur is None:
        dur = get(ms, "gpu__time_duration.sum", scale=TIME)
    v["dur"] = dur
    v["sm"] = first(ms, "Compute (SM) Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed")
    mem = get(ms, "Memory Throughput", unit="%")
    v["mem"] = mem if mem is not None else get(ms, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
    b = get(ms, "dram__bytes.sum", scale=BYTES)
    if b is None:
        for rd, wr in (("dram__bytes_read.sum", "dram__bytes_write.sum"),
                       ("dram__bytes_op_read.sum", "dram__bytes_op_write.sum")):
            r, w = get(ms, rd, scale=BYTES), get(ms, wr, scale=BYTES)
            if r is not None and w is not None:
                b = r + w
                break
    v["bytes"] = b
    v["bw"] = b / dur if b is not None and dur else None
    v["occ"] = first(ms, "Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active")
    v["regs"] = first(ms, "Registers Per Thread", "launch__registers_per_thread")
    bl = first(ms, "Block Size", "launch__block_size")
    v["block"] = bl if bl is not None else dims(block)
    gr = first(ms, "Grid Size", "launch__grid_size")
    v["grid"] = gr if gr is not None else dims(grid)
    flop, anyf = 0.0, False
    for p in "dfh":
        for op, wgt in (("fma", 2), ("add", 1), ("mul", 1)):
            x = get(ms, "sm__sass_thread_inst_executed_op_%s%s_pred_on.sum" % (p, op))
            if x is not None:
                flop += wgt * x
                anyf = True
    v["flop"] = flop if anyf else None
    t = None
    if anyf:
        if dur is not None:
            t = dur
        else:
            c, r = get(ms, "sm__cycles_elapsed.avg"), get(ms, "sm__cycles_elapsed.avg.per_second")
            if c is not None and r:
                t = c / r * 1e9
    v["ftime"] = t
    for i, m in enumerate(extra):
        u, x = ms.get(m, ("", None))
        v["x%d" % i] = x * TIME.get(u, BYTES.get(u, 1)) if x is not None else None
    return v


def stat(vs, key):
    return [x[key] for x in vs if x[key] is not None]


def mean(xs):
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs)


def cells(vs, n_extra):
    """Calls through Bound and the n_extra --metric means of one name's
    kernels (values() of each), as tracetty writes them."""
    f = lambda xs, d: "%.*f" % (d, mean(xs)) if xs else ""
    d = stat(vs, "dur")
    row = [str(len(vs)), f(d, 1), "%.1f" % min(d) if d else "", "%.1f" % max(d) if d else "",
           f(stat(vs, "sm"), 2), f(stat(vs, "mem"), 2), f(stat(vs, "bytes"), 0),
           f(stat(vs, "bw"), 2), f(stat(vs, "occ"), 2), f(stat(vs, "regs"), 1),
           f(stat(vs, "block"), 1), f(stat(vs, "grid"), 1)]
    fl, by, ft = stat(vs, "flop"), stat(vs, "bytes"), stat(vs, "ftime")
    row.append("%.3f" % (mean(fl) / mean(by)) if fl and by and mean(by) > 0 else "")
    row.append("%.3f" % (mean(fl) / mean(ft)) if fl and ft and mean(ft) > 0 else "")
    sm, mem = stat(vs, "sm"), stat(vs, "mem")
    row.append(("compute" if mean(sm) >= mean(mem) else "memory") if sm and mem else "")
    for i in range(n_extra):
        row.append(f(stat(vs, "x%d" % i), 3))
    return [c if not c.startswith("-0.") or c.strip("-0.") else c[1:] for c in row]


def main():
    path, report, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = {}
    for k in load(path):
        names.setdefault(k[0], []).append(values(k, extra))

    def total(vs):
        s = 0.0
        for x in stat(vs, "dur"):
            s += x
        return s

    order = sorted(names, key=lambda n: (-total(names[n]), n.encode()))
    want = [cells(names[n], len(extra)) + [n] for n in order]
    with open(report, newline="") as fh:
        got = list(csv.reader(fh))[1:]
    if len(got) != len(want):
        print("rows: got %d, want %d" % (len(got), len(want)), file=sys.stderr)
        return 1
    for g, w in zip(got, want):
        if g != w:
            print("got  %s\nwant %s" % (g, w), file=sys.stderr)
            return 1
    print("%d rows agree" % len(want))
    return 0


if __name__ == "__main__":
    sys.exit(main())
