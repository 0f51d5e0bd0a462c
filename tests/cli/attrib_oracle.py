# attrib_oracle.py - the independent computation `report --kind operators`
# and `--kind kernels` are checked against (tests/cli/report_operators.sh).
#
#   python3 attrib_oracle.py TRACE OPERATORS.csv KERNELS.csv
#   python3 attrib_oracle.py --by-module TRACE OPERATORS.csv
#
# With --by-module the operators' rows are those of `--by module`: keyed by
# the innermost enclosing Python frame named "nn.Module: X" (X, or "" for
# an operator outside any module), and no kernels are checked.
# Reads a Kineto JSON trace (json module, times as decimals) or an nsys
# SQLite export (sqlite3 module) on its own, rebuilds per thread the call
# stack (sorted by start, longer first; an event is inside the open one
# that ends after it starts), links each device event to the host call
# with its correlation id (Kineto "correlation"; nsys correlationId in the
# same process), and prints one line per disagreement with tracetty's CSV,
# then "mismatches N rows R kernels K links L".
import collections, csv, gzip, json, re, sqlite3, sys
from decimal import Decimal as D, ROUND_HALF_UP

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset", "gpu_kernel",
               "cuda_kernel", "cuda_memcpy", "cuda_memset", "collective"}
KERNEL_CATS = {"kernel", "gpu_kernel", "cuda_kernel", "collective"}
RT_CATS = {"cuda_runtime", "cuda_driver", "runtime", "hip_runtime", "hip_driver", "cuda_api"}
RT_NAME = re.compile(r"^(cuda|cu|hip|aclrt)[A-Z]|^(hsa_|zeCommand)")


def ns(v):
    return int((D(str(v)) * 1000).quantize(D(1), rounding=ROUND_HALF_UP))


class Ev:
    __slots__ = ("lane", "name", "cat", "start", "dur", "corr", "args", "parent", "seq",
                 "self_ns", "dself", "dtotal", "launcher")

    def __init__(self, lane, name, cat, start, dur, corr, args, seq):
        self.lane, self.name, self.cat = lane, name, (cat or "")
        self.start, self.dur, self.corr, self.args, self.seq = start, dur, corr, args, seq
        self.parent = self.launcher = None
        self.dself = self.dtotal = 0

    def device(self):
        return self.cat.lower() in DEVICE_CATS

    def runtime(self):
        return self.cat.lower() in RT_CATS or RT_NAME.match(self.name) is not None

    def python(self):
        return self.cat.lower() == "python_function"


def load_kineto(path):
    op = gzip.open if path.endswith(".gz") else open
    d = json.load(op(path, "rt"), parse_float=D)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    meta = d if isinstance(d, dict) else {}
    out = []
    for i, e in enumerate(evs):
        if e.get("ph") != "X":
            continue
        args = e.get("args") or {}
        corr = args.get("correlation", args.get("correlation_id"))
        out.append(Ev((str(e.get("pid")), str(e.get("tid"))), e.get("name", ""), e.get("cat"),
                      ns(e["ts"]), ns(e.get("dur", 0)), corr, args, i))
    sms = {}
    for p in meta.get("deviceProperties", []) or []:
        sms[int(p["id"])] = D(str(p["numSms"]))
    return out, sms


def load_nsys(path):
    db = sqlite3.connect(path)
    strs = dict(db.execute("SELECT id, value FROM StringIds"))
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    out, seq = [], 0

    def add(*a):
        nonlocal seq
        out.append(Ev(*a, seq))
        seq += 1
    if "NVTX_EVENTS" in tables:
        for s, e, t, text, tid, gtid in db.execute(
                "SELECT start, end, eventType, text, textId, globalTid FROM NVTX_EVENTS"):
            if t in (59, 70) and e is not None:
                add(("t", gtid), text if text is not None else strs.get(tid, "(unnamed range)"),
                    "nvtx", s, e - s, None, {})
    for table, cat in (("CUPTI_ACTIVITY_KIND_RUNTIME", "cuda_runtime"),
                       ("CUPTI_ACTIVITY_KIND_DRIVER", "cuda_driver")):
        if table not in tables:
            continue
        for s, e, nid, gtid, corr in db.execute(
                "SELECT start, end, nameId, globalTid, correlationId FROM %s" % table):
            add(("t", gtid), strs[nid], cat, s, e - s, ((gtid >> 24) & 0xffffff, corr), {})
    for table, cat in (("CUPTI_ACTIVITY_KIND_KERNEL", "kernel"),
                       ("CUPTI_ACTIVITY_KIND_MEMCPY", "gpu_memcpy"),
                       ("CUPTI_ACTIVITY_KIND_MEMSET", "gpu_memset")):
        if table not in tables:
            continue
        name = "demangledName" if cat == "kernel" else "NULL"
        for s, e, dev, strm, gpid, corr, nid in db.execute(
                "SELECT start, end, deviceId, streamId, globalPid, correlationId, %s FROM %s"
                % (name, table)):
            add(("d", dev, strm), strs.get(nid, cat), cat, s, e - s,
                ((gpid >> 24) & 0xffffff, corr), {})
    return out, {}


def nest(evs):
    lanes = collections.defaultdict(list)
    for e in evs:
        lanes[e.lane].append(e)
    for lane in lanes.values():
        lane.sort(key=lambda e: (e.start, -e.dur, e.seq))
        stack = []
        for e in lane:
            while stack and stack[-1].start + stack[-1].dur <= e.start:
                stack.pop()
            e.parent = stack[-1] if stack else None
            stack.append(e)
        covered = collections.defaultdict(int)
        for e in lane:
            if e.parent is not None:
                p = e.parent
                covered[id(p)] += min(e.start + e.dur, p.start + p.dur) - e.start
        for e in lane:
            e.self_ns = e.dur - covered[id(e)]
    return lanes


def depth(e):
    d = 0
    while e.parent is not None:
        e, d = e.parent, d + 1
    return d


MODULE = "nn.Module: "


def module_of(e):
    p = e.parent
    while p is not None:
        if p.python() and p.name.startswith(MODULE):
            return p.name[len(MODULE):]
        p = p.parent
    return ""


def compute(path, by_module=False):
    """The operators' rows (name or module -> [calls, host self, host total,
    device self, device total]), whether any device event is linked, the
    kernels by name ([(event, its launch op)]) and the SM counts."""
    evs, sms = load_nsys(path) if path.endswith(".sqlite") else load_kineto(path)
    lanes = nest(evs)
    device_lanes = {k for k, v in lanes.items() if any(e.device() for e in v)}
    by_corr = {}
    for e in evs:
        if e.corr is None or e.device():
            continue
        key = e.corr if not isinstance(e.corr, D) else int(e.corr)
        old = by_corr.get(key)
        # a runtime call first; of nested calls with one id the innermost
        if old is None or (e.runtime(), depth(e)) > (old.runtime(), depth(old)):
            by_corr[key] = e
    links = 0
    kernels = collections.defaultdict(list)
    for e in evs:
        if not e.device():
            continue
        key = e.corr if not isinstance(e.corr, D) else (int(e.corr) if e.corr is not None else None)
        h = by_corr.get(key) if key is not None else None
        op = None
        if h is not None:
            links += 1
            e.launcher = h
            op = h
            while op is not None and (op.runtime() or op.python()):
                op = op.parent
            if op is None:
                op = h
            op.dself += e.dur
            x = h
            while x is not None:
                x.dtotal += e.dur
                x = x.parent
        if e.cat.lower() in KERNEL_CATS:
            kernels[e.name].append((e, op))

    want = collections.OrderedDict()
    # The operators' table as PyTorch's key_averages() has it: Kineto's
    # span of the capture (category "Trace") is no operator, a runtime
    # call's kernels count for its operator, not for the call (its "CUDA
    # total" is 0), and a redispatch (the only child of a parent of its
    # name, as EventList._remove_dup_nodes finds them) is one call with its
    # parent: its self times go to the outermost of the chain.
    # On a lane holding Python frames (with_stack), PyTorch's own op tree
    # (_populate_cpu_children): the ops alone, by (start, -end), each the
    # child of the innermost open op wholly containing it; self = duration
    # minus the children's, device total = device self plus the children's.
    def is_op(e):
        return not (e.lane in device_lanes or e.python() or e.cat == "Trace")
    tparent, times = {}, {}
    for lane in lanes.values():
        if not any(e.python() for e in lane):
            for e in lane:
                tparent[id(e)] = e.parent
                times[id(e)] = [e.self_ns, e.dself, e.dtotal]
            continue
        ops = sorted((e for e in lane if is_op(e)), key=lambda e: (e.start, -(e.start + e.dur), e.seq))
        stack = []
        for e in ops:
            while stack and (e.start >= stack[-1].start + stack[-1].dur or
                             e.start + e.dur > stack[-1].start + stack[-1].dur):
                stack.pop()
            tparent[id(e)] = stack[-1] if stack else None
            times[id(e)] = [e.dur, e.dself, e.dself]
            stack.append(e)
        for e in reversed(ops):
            p = tparent[id(e)]
            if p is not None:
                times[id(p)][0] -= e.dur
                times[id(p)][2] += times[id(e)][2]
    children = collections.Counter(id(p) for p in tparent.values() if p is not None)
    into = {}
    for e in sorted((e for e in evs if is_op(e)), key=depth):
        p = tparent.get(id(e))
        if p is not None and is_op(p) and p.name == e.name and children[id(p)] == 1:
            top = into.get(id(p), p)
            into[id(e)] = top
            times[id(top)][0] += times[id(e)][0]
            times[id(top)][1] += times[id(e)][1]
    for e in evs:
        if not is_op(e) or id(e) in into:
            continue
        r = want.setdefault(module_of(e) if by_module else e.name, [0, 0, 0, 0, 0])
        hself, dself, dtotal = times[id(e)]
        if e.runtime():
            dtotal = 0
        for i, v in enumerate((1, hself, e.dur, dself, dtotal)):
            r[i] += v
    return want, links, kernels, sms


def main():
    by_module = sys.argv[1] == "--by-module"
    args = sys.argv[2:] if by_module else sys.argv[1:]
    path, ops_csv = args[0], args[1]
    kern_csv = None if by_module else args[2]
    want, links, kernels, sms = compute(path, by_module)

    bad = 0

    def unguard(s):
        return s[1:] if len(s) > 1 and s[0] == "'" and s[1] in "=+-@\t\r" else s

    got = {}
    with open(ops_csv, newline="") as f:
        for row in csv.DictReader(f):
            name = unguard(row["Name"])
            got[name] = [int(row["Calls"]), int(row["Host Self (ns)"]),
                         int(row["Host Total (ns)"]),
                         int(row["Device Self (ns)"] or 0) if links else row["Device Self (ns)"],
                         int(row["Device Total (ns)"] or 0) if links else row["Device Total (ns)"]]
    for name in set(want) | set(got):
        w = want.get(name)
        g = got.get(name)
        if w is not None and not links:
            w = w[:3] + ["", ""]
        if w != g:
            bad += 1
            if bad <= 10:
                print("operator %r: want %s got %s" % (name, w, g))

    kgot = {}
    if by_module:
        kernels = {}
    else:
        with open(kern_csv, newline="") as f:
            for row in csv.DictReader(f):
                kgot[unguard(row["Name"])] = row
    for name, ks in kernels.items():
        g = kgot.pop(name, None)
        if g is None:
            bad += 1
            print("kernel %r missing" % name)
            continue
        durs = [e.dur for e, _ in ks]
        ops = collections.Counter(op.name for _, op in ks if op is not None)
        top = sorted(ops.items(), key=lambda kv: (-kv[1], kv[0].encode()))
        wsum = sum(durs)

        def wmean(vals):
            if all(v is None for v in vals):
                return ""
            if wsum == 0:
                return 0.0
            return float(sum(D(str(v if v is not None else 0)) * d
                             for v, d in zip(vals, durs)) / wsum)

        bps, occ = [], []
        for e, _ in ks:
            a = e.args
            v = a.get("blocks per SM")
            if v is None and isinstance(a.get("grid"), list) and a.get("device") is not None \
                    and sms.get(int(a["device"])):
                p = D(1)
                for x in a["grid"]:
                    p *= D(str(x))
                v = p / sms[int(a["device"])]
            bps.append(v)
            occ.append(a.get("est. achieved occupancy %"))
        w = [len(ks), wsum, min(durs), max(durs),
             top[0][0] if top else "", top[0][1] if top else 0, len(ops), wmean(bps), wmean(occ)]
        gv = [int(g["Calls"]), int(g["Total (ns)"]), int(g["Min (ns)"]), int(g["Max (ns)"]),
              unguard(g["Launch Op"]), int(g["Launch Op Calls"] or 0), int(g["Launch Ops"] or 0),
              g["Mean Blocks per SM"], g["Mean Est. Achieved Occupancy (%)"]]
        if not links:
            w[4:7] = ["", 0, 0]
        same = w[:7] == gv[:7]
        for i in (7, 8):
            if w[i] == "" or gv[i] == "":
                same = same and w[i] == gv[i]
            else:
                same = same and abs(float(gv[i]) - w[i]) <= 0.0051
        if not same:
            bad += 1
            if bad <= 10:
                print("kernel %r: want %s got %s" % (name, w, gv))
    for name in kgot:
        bad += 1
        print("kernel %r not expected" % name)
    print("mismatches %d rows %d kernels %d links %d" % (bad, len(want), len(kernels), links))


if __name__ == "__main__":
    main()
