# sql_slice_oracle.py - the independent computation the SQL `slice` and
# `instant` tables are checked against (tests/cli/sql_slice.sh).
#
#   python3 sql_slice_oracle.py TRACE SLICE.csv TRACK.csv PROCESS.csv [INSTANT.csv]
#
# TRACE is a Chrome trace-event JSON file (plain or .gz; json module,
# times as decimals) or an Nsight Systems SQLite export (sqlite3 module,
# its own tables). The oracle rebuilds every event, its lane (process and
# thread, or process and category for async events), and on thread lanes
# the call stack (events sorted by start, longer first; one is inside the
# open one that ends after it starts), from which depth, parent and self
# time (dur minus its direct children clipped to it) follow, with bytes and
# the correlation id of each event; async lanes
# pack events into the first free row. The CSVs are tracetty's dumps
# (tests/unit/sqltab_dump); their rows are joined with the track and
# process dumps to name each row's lane. Rows are compared as multisets per
# lane (tracetty's lane order is its display order), then "rows N
# mismatches M" is printed; every disagreement first, one line each.
import collections, csv, gzip, json, sqlite3, sys
from decimal import Decimal as D, ROUND_HALF_UP

KNOWN = {"s", "ph", "ts", "id", "bp", "pid", "tid", "cat", "dur", "id2", "name", "args",
         "scope", "bind_id", "flow_in", "flow_out"}


def ns(v):
    return int((D(str(v)) * 1000).quantize(D(1), rounding=ROUND_HALF_UP))


def key(v):
    """A pid/tid as tracetty keeps it: integers as text."""
    return str(v) if v is not None else ""


def pidkey(v):
    """The process table's pid: the integer, else nothing."""
    s = key(v)
    return s if s.lstrip("-").isdigit() else ""


class Ev:
    __slots__ = ("lane", "ts", "dur", "name", "cat", "args", "instant", "scope", "depth",
                 "parent", "self_ns", "seq", "nbytes", "corr")

    def __init__(self, lane, ts, dur, name, cat, args, instant, seq, scope=None):
        self.lane, self.ts, self.dur, self.name, self.cat = lane, ts, dur, name, cat
        self.args, self.instant, self.seq, self.scope = args, instant, seq, scope
        self.depth, self.parent, self.self_ns = 0, None, dur
        self.nbytes = self.corr = None


def has_args(e):
    a = e.get("args")
    return bool(a) or any(k not in KNOWN for k in e)


def well_known(ev, e):
    """bytes and the correlation id, from args as the decoder takes them
    (integers; a correlation id of 1 .. 2^32-1)."""
    a = e.get("args") or {}
    b = a.get("bytes")
    if isinstance(b, int) and not isinstance(b, bool):
        ev.nbytes = b
    c = a.get("correlation", a.get("correlation_id"))
    if isinstance(c, int) and not isinstance(c, bool) and 0 < c <= 0xffffffff:
        ev.corr = c
    return ev


def load_chrome(path):
    op = gzip.open if path.endswith(".gz") else open
    d = json.load(op(path, "rt"), parse_float=D)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    out, open_b, open_async = [], collections.defaultdict(list), collections.defaultdict(list)
    for seq, e in enumerate(evs):
        ph = e.get("ph")
        if ph not in ("X", "B", "E", "i", "I", "R", "b", "e", "S", "F", "n") or "ts" not in e:
            continue
        pid, tid = pidkey(e.get("pid")), key(e.get("tid"))
        name, cat, ts = e.get("name", ""), e.get("cat", ""), ns(e["ts"])
        thread = ("thread", pid, tid)
        if ph == "X":
            out.append(well_known(Ev(thread, ts, max(ns(e.get("dur", 0)), 0), name, cat,
                                     has_args(e), False, seq), e))
        elif ph == "B":
            ev = Ev(thread, ts, None, name, cat, has_args(e), False, seq)
            out.append(ev)
            open_b[thread].append(ev)
        elif ph == "E":
            if not open_b[thread]:
                continue
            ev = open_b[thread].pop()
            ev.dur = max(ts - ev.ts, 0)
            ev.args = ev.args or has_args(e)
        elif ph in ("i", "I", "R"):
            s = "process" if ph == "R" or e.get("s") == "p" else "global" if e.get("s") == "g" \
                else "thread"
            # process and global instants: a lane of their own, a track
            # of type "process" / "global" (not a thread's: sql/lanewalk.h)
            lane = {"thread": thread, "process": ("process", pid, ""),
                    "global": ("global", "", "")}[s]
            out.append(Ev(lane, ts, 0, name, cat, has_args(e), True, seq, s))
        else:
            lane = ("async", pid, cat)
            ident = (lane, cat, json.dumps(e.get("id", e.get("id2")), default=str))
            if ph == "n":
                out.append(Ev(lane, ts, 0, name, cat, has_args(e), True, seq, "thread"))
            elif ph in ("b", "S"):
                ev = Ev(lane, ts, None, name, cat, has_args(e), False, seq)
                out.append(ev)
                open_async[ident].append(ev)
            elif open_async[ident]:
                # the innermost open one of the same name, else the innermost
                st = open_async[ident]
                k = next((j for j in range(len(st) - 1, -1, -1) if st[j].name == name),
                         len(st) - 1)
                ev = st.pop(k)
                ev.dur = max(ts - ev.ts, 0)
    # a begin never ended runs to the end of the trace
    t1 = max(e.ts + e.dur for e in out if e.dur is not None)
    for e in out:
        if e.dur is None:
            e.dur = t1 - e.ts
    return out


def load_nsys(path):
    """The export's own tables: on each host thread (globalTid) its CUDA
    runtime calls and NVTX push/pop ranges (eventType 59), NVTX start/end
    ranges (60) on the process's async NVTX lane, and on each stream its
    kernels, memcpys (with bytes) and memsets. Lanes are keyed as the
    decoder keys them (tid:N, stream:N, NVTX); memcpy and memset names,
    composed by the decoder, are not compared."""
    db = sqlite3.connect(path)
    strs = dict(db.execute("SELECT id, value FROM StringIds"))
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    out = []

    def add(lane, st, en, name, corr, nbytes=None):
        ev = Ev(lane, st, en - st, name, None, None, False, len(out))
        ev.nbytes, ev.corr = nbytes, corr
        out.append(ev)
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
        for st, en, gtid, nid, corr in db.execute(
                "SELECT start, end, globalTid, nameId, correlationId "
                "FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
            add(("thread", "", "tid:%d" % (gtid & 0xffffff)), st, en, strs.get(nid, ""), corr)
    if "NVTX_EVENTS" in tables:
        for st, en, typ, text, tid, gtid in db.execute(
                "SELECT start, end, eventType, text, textId, globalTid FROM NVTX_EVENTS "
                "WHERE eventType IN (59, 60) AND end IS NOT NULL"):
            name = text if text is not None else strs.get(tid, "")
            lane = ("thread", "", "tid:%d" % (gtid & 0xffffff)) if typ == 59 \
                else ("async", "", "NVTX")
            add(lane, st, en, name, None)
    for table, nm in (("CUPTI_ACTIVITY_KIND_KERNEL", "demangledName"),
                      ("CUPTI_ACTIVITY_KIND_MEMCPY", "bytes"),
                      ("CUPTI_ACTIVITY_KIND_MEMSET", "bytes")):
        if table not in tables:
            continue
        for st, en, stream, x, corr in db.execute(
                "SELECT start, end, streamId, %s, correlationId FROM %s" % (nm, table)):
            lane = ("thread", "", "stream:%d" % stream)
            if nm == "bytes":
                add(lane, st, en, None, corr, x)
            else:
                add(lane, st, en, strs.get(x, ""), corr)
    return out


def nest(evs):
    lanes = collections.defaultdict(list)
    for e in evs:
        e.self_ns = e.dur
        lanes[e.lane].append(e)
    for lane, l in lanes.items():
        l.sort(key=lambda e: (e.ts, -e.dur, e.seq))
        if lane[0] == "async":
            rows = []
            for e in l:
                d = next((i for i, end in enumerate(rows) if end <= e.ts), len(rows))
                if d == len(rows):
                    rows.append(0)
                rows[d] = e.ts + e.dur if e.dur > 0 else e.ts + 1
                e.depth = d
            continue
        stack = []
        for e in l:
            while stack and stack[-1].ts + stack[-1].dur <= e.ts:
                stack.pop()
            e.depth = len(stack)
            if stack:
                p = stack[-1]
                e.parent = p
                p.self_ns -= min(e.ts + e.dur, p.ts + p.dur) - e.ts
            stack.append(e)
    for e in evs:
        if e.instant:
            e.self_ns = 0


def want_rows(evs, instants, nsys):
    rows = []
    for e in evs:
        if instants and not e.instant:
            continue
        par = (e.parent.ts, e.parent.name) if e.parent else None
        if instants:
            rows.append((e.lane, e.ts, e.name, e.args, e.scope))
        elif nsys:
            rows.append((e.lane, e.ts, e.dur, e.name, e.depth, par, e.self_ns, e.nbytes,
                         e.corr))
        else:
            rows.append((e.lane, e.ts, e.dur, e.name, e.cat or None, e.depth, par, e.self_ns,
                         e.args, e.nbytes, e.corr))
    return rows


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(x):
    return int(x) if x != "" else None


def got_rows(slices, tracks, procs, instants, nsys):
    pid_of = {p["upid"]: p["pid"] for p in procs}
    lane_of = {}
    for t in tracks:
        lane_of[t["id"]] = (t["type"], pid_of[t["upid"]], t["key"])
    by_id = {s["id"]: s for s in slices}
    rows = []
    if instants is not None:
        for r in instants:
            rows.append((lane_of[r["track_id"]], int(r["ts"]), r["name"], r["arg_set_id"] != "",
                         r["scope"]))
        return rows
    for s in slices:
        lane = lane_of[s["track_id"]]
        p = by_id.get(s["parent_id"])
        par = (int(p["ts"]), p["name"]) if p else None
        if nsys:
            copy = s["category"] in ("gpu_memcpy", "gpu_memset")
            rows.append((lane, int(s["ts"]), int(s["dur"]), None if copy else s["name"],
                         int(s["depth"]), par, int(s["self_dur"]), num(s["bytes"]),
                         num(s["corr"])))
        else:
            rows.append((lane, int(s["ts"]), int(s["dur"]), s["name"], s["category"] or None,
                         int(s["depth"]), par, int(s["self_dur"]), s["arg_set_id"] != "",
                         num(s["bytes"]), num(s["corr"])))
    return rows


def main():
    trace, slice_csv, track_csv, proc_csv = sys.argv[1:5]
    inst_csv = sys.argv[5] if len(sys.argv) > 5 else None
    nsys = trace.endswith(".sqlite")
    evs = load_nsys(trace) if nsys else load_chrome(trace)
    nest(evs)
    want = collections.Counter(want_rows(evs, inst_csv is not None, nsys))
    got = collections.Counter(got_rows(read(slice_csv), read(track_csv), read(proc_csv),
                                       read(inst_csv) if inst_csv else None, nsys))
    bad = 0
    for r in sorted(set(want) | set(got), key=repr):
        if want[r] != got[r]:
            bad += 1
            if bad <= 20:
                print("row %r: tracetty %d, python %d" % (r, got[r], want[r]))
    print("rows %d mismatches %d" % (sum(want.values()), bad))


main()
