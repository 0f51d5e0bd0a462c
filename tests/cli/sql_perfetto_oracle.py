#!/usr/bin/env python3
"""sql_perfetto_oracle.py - an independent model of a Kineto/Chrome JSON
trace in Perfetto's table shapes, built with python's json and sqlite3
modules, to check `tracetty query` (tests/cli/sql_perfetto.sh).

  sql_perfetto_oracle.py TRACE QUERIES.sql OUTDIR
  sql_perfetto_oracle.py --differences

builds an in-memory SQLite database from TRACE with the tables process,
thread, thread_track, track, slice, counter_track, counter and flow, runs
every query of QUERIES.sql (queries separated by lines "-- name: NAME")
and writes OUTDIR/NAME.csv for each (a header line, then rows; NULL as
the empty field, integers as integers, reals with repr()).

What it models (the events real Kineto and Chrome exporters write), as
Perfetto's JSON importer does (src/trace_processor/importers/json/
json_trace_parser_impl.cc): X complete events, B/E pairs (matched per
thread in time order), instants (i/I) as dur-0 slices (of a thread; with
s "p" on their process's track, with s "g" on one global track, neither a
thread track), C counters (one track per pid, name and argument key;
with an "id", Perfetto's "NAME id: ID KEY"), M metadata (process_name,
thread_name), flow v1 events as its FlowTracker binds them (s at the
slice enclosing it on its thread; a step t links the flow's last slice
to the one enclosing the step and goes on from there; f to the slice
enclosing it with bp "e", else to the next slice starting at or after
it); D/N/O object events are ignored. Where tracetty models a trace
differently on purpose the model follows tracetty, and DIFFERENCES says
so, one line each (`sql_perfetto_oracle.py --differences` prints them;
README's SQL section lists them too). Times are
exact: ts and dur in microseconds as decimal text, times 1000 to the
nearest ns (each on its own, as Perfetto rounds them).
Ids are this model's own: queries compared with tracetty must not print
ids, only what they join.
"""
import bisect
import csv
import gzip
import heapq
import json
import os
import re
import sqlite3
import sys
from decimal import Decimal, ROUND_HALF_UP

# What tracetty models differently from Perfetto's JSON importer, on
# purpose, and this model with it (one line each).
DIFFERENCES = [
    "legacy async S/F pairs are async slices (T steps ignored); Perfetto's "
    "JSON importer drops S/T/F",
    "nestable async b/e/n: one async track per process and category, depth "
    "= its first free row, parent_id NULL; Perfetto: a track per category "
    "and id, nested as a stack",
    "an async end (e/F) closes the latest open begin of its id, one of its "
    "name if any; Perfetto closes only one of its name (else drops the end)",
    "a begin never ended (B, b, S) runs to the trace's end (the last end of "
    "the rest); Perfetto leaves dur -1",
    "counter_track.name of a counter without an id is its timeline label "
    "(\"mem\" for the key \"value\"); Perfetto's is \"mem value\", as "
    "tracetty's track.name",
    "a thread exists for the pid/tid of thread-lane and flow events; "
    "Perfetto also makes one for the pid/tid of counter and async events",
]


def ns(v):
    """us to ns as Perfetto's JSON importer converts a fractional time:
    llround(us * 1000), the nearest ns, halves away from zero (here on
    the exact decimal, not a double)."""
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def key_int(v):
    """Perfetto's pid/tid are integers; string ids become NULL."""
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"-?[0-9]+", v):
        return int(v)
    return None


def build(events):
    db = sqlite3.connect(":memory:")
    db.executescript("""
        CREATE TABLE process(upid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
        CREATE TABLE thread(utid INTEGER PRIMARY KEY, tid INTEGER, name TEXT, upid INTEGER);
        CREATE TABLE thread_track(id INTEGER PRIMARY KEY, utid INTEGER);
        CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT, type TEXT);
        CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER, dur INTEGER,
            track_id INTEGER, category TEXT, name TEXT, depth INTEGER, parent_id INTEGER);
        CREATE TABLE counter_track(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE counter(id INTEGER PRIMARY KEY, ts INTEGER, track_id INTEGER, value REAL);
        CREATE TABLE flow(id INTEGER PRIMARY KEY, slice_out INTEGER, slice_in INTEGER);
    """)
    pnames, tnames = {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        a = e.get("args") or {}
        if e.get("name") == "process_name":
            pnames[str(e.get("pid"))] = a.get("name")
        elif e.get("name") == "thread_name":
            tnames[(str(e.get("pid")), str(e.get("tid")))] = a.get("name")

    procs, threads = {}, {}

    def upid_of(pid):
        k = str(pid)
        if k not in procs:
            procs[k] = len(procs)
            db.execute("INSERT INTO process VALUES (?,?,?)",
                       (procs[k], key_int(pid), pnames.get(k)))
        return procs[k]

    def track_of(pid, tid):
        k = (str(pid), str(tid))
        if k not in threads:
            u = upid_of(pid)
            t = len(threads)
            threads[k] = t
            name = tnames.get(k)
            db.execute("INSERT INTO thread VALUES (?,?,?,?)", (t, key_int(tid), name, u))
            db.execute("INSERT INTO thread_track VALUES (?,?)", (t, t))
            db.execute("INSERT INTO track VALUES (?,?,?)", (t, name, "thread"))
        return threads[k]

    # instants of a process (s "p") and of the whole trace (s "g") are
    # slices on a track of their own, not a thread's
    other_tracks = {}

    def other_track(kind, pid):
        k = (kind, str(pid) if kind == "process" else "")
        if k not in other_tracks:
            t = 1000000 + len(other_tracks)
            other_tracks[k] = t
            db.execute("INSERT INTO track VALUES (?,?,?)", (t, None, kind))
        return other_tracks[k]

    # async tracks (tracetty's: one per process and category, see
    # DIFFERENCES) hold b/e/n and S/F slices
    async_tracks = {}

    def async_track(pid, cat):
        k = (str(pid), cat)
        if k not in async_tracks:
            upid_of(pid)
            t = 2000000 + len(async_tracks)
            async_tracks[k] = t
            db.execute("INSERT INTO track VALUES (?,?,?)", (t, cat, "async"))
        return async_tracks[k]

    # slices per track, nested as a call stack: sorted by start, longer first
    per_track = {}
    open_b = {}
    unclosed = []   # (track, ts, cat, name, order): begins never ended
    # (a slice's place in the file breaks ties of start and length: the
    # one read first encloses the others, as Perfetto's stable sort reads
    # them)
    order = {id(e): i for i, e in enumerate(events)}
    for e in sorted((e for e in events if e.get("ph") in ("B", "E")),
                    key=lambda e: ns(e["ts"])):
        t = track_of(e.get("pid"), e.get("tid"))
        if e["ph"] == "B":
            open_b.setdefault(t, []).append(e)
        elif open_b.get(t):
            b = open_b[t].pop()
            per_track.setdefault(t, []).append(
                (ns(b["ts"]), ns(e["ts"]) - ns(b["ts"]), b.get("cat"), b.get("name", ""),
                 order[id(b)]))
    for t, bs in open_b.items():
        for b in bs:
            unclosed.append((t, ns(b["ts"]), b.get("cat"), b.get("name", ""), order[id(b)]))
    # async begins and ends in file order: an end closes the latest open
    # begin of its process, category and id, preferring one of its name
    open_async = {}
    for e in events:
        ph = e.get("ph")
        if ph not in ("b", "e", "n", "S", "F"):
            continue
        # (a process with nothing but ends that match nothing has no
        # track: tracetty drops empty lanes)
        t = async_track(e.get("pid"), e.get("cat")) if ph in ("b", "n", "S") else None
        if ph == "n":
            per_track.setdefault(t, []).append((ns(e["ts"]), 0, e.get("cat"), e.get("name", ""),
                                                order[id(e)]))
            continue
        key = (str(e.get("pid")), e.get("cat"), json.dumps(e.get("id")),
               json.dumps(e.get("id2")), json.dumps(e.get("scope")))
        st = open_async.setdefault(key, [])
        if ph in ("b", "S"):
            st.append((t, e))
            continue
        if not st:
            continue
        k = len(st) - 1
        for j in range(len(st) - 1, -1, -1):
            if st[j][1].get("name", "") == e.get("name", ""):
                k = j
                break
        bt, b = st.pop(k)
        per_track.setdefault(bt, []).append(
            (ns(b["ts"]), max(0, ns(e["ts"]) - ns(b["ts"])), b.get("cat"), b.get("name", ""),
             order[id(b)]))
    for st in open_async.values():
        for t, b in st:
            unclosed.append((t, ns(b["ts"]), b.get("cat"), b.get("name", ""), order[id(b)]))
    for e in events:
        ph = e.get("ph")
        if ph == "X":
            dur = ns(e.get("dur", 0))
        elif ph in ("i", "I"):
            dur = 0
        else:
            continue
        scope = e.get("s", "t") if ph in ("i", "I") else "t"
        if scope == "g":
            t = other_track("global", None)
        elif scope == "p":
            t = other_track("process", e.get("pid"))
        else:
            t = track_of(e.get("pid"), e.get("tid"))
        per_track.setdefault(t, []).append((ns(e["ts"]), dur, e.get("cat"), e.get("name", ""),
                                            order[id(e)]))
    # begins never ended run to the trace's end (tracetty's; see
    # DIFFERENCES): the last end or start of every other slice, or counter
    # sample
    ends = [r[0] + r[1] for rows in per_track.values() for r in rows]
    ends += [u[1] for u in unclosed]
    ends += [ns(e["ts"]) for e in events if e.get("ph") == "C" and e.get("args")]
    t1 = max(ends) if ends else 0
    for t, ts, cat, name, o in unclosed:
        per_track.setdefault(t, []).append((ts, t1 - ts, cat, name, o))
    sid = 0
    spans = {}   # track -> [(ts, dur, id, depth)] in order
    for t in sorted(per_track):
        rows = sorted(per_track[t], key=lambda r: (r[0], -r[1], r[4]))
        stack, out = [], []
        rowend = []   # async tracks: each row's end (an instant holds 1 ns)
        for ts, dur, cat, name, _ in rows:
            if t in async_tracks.values():
                d = next((i for i, r in enumerate(rowend) if r <= ts), len(rowend))
                if d == len(rowend):
                    rowend.append(0)
                rowend[d] = ts + max(dur, 1)
                db.execute("INSERT INTO slice VALUES (?,?,?,?,?,?,?,?)",
                           (sid, ts, dur, t, cat, name, d, None))
                out.append((ts, dur, sid, d))
                sid += 1
                continue
            # a parent holds what starts before its end (a zero-length
            # event at its end is outside it)
            while stack and ts >= stack[-1][0] + stack[-1][1]:
                stack.pop()
            depth = len(stack)
            parent = stack[-1][2] if stack else None
            db.execute("INSERT INTO slice VALUES (?,?,?,?,?,?,?,?)",
                       (sid, ts, dur, t, cat, name, depth, parent))
            out.append((ts, dur, sid, depth))
            if dur > 0:
                stack.append((ts, dur, sid))
            sid += 1
        spans[t] = out

    # counters
    ctracks, cid = {}, 0
    next_track = len(threads)
    for e in events:
        if e.get("ph") != "C":
            continue
        upid_of(e.get("pid"))
        for k, v in (e.get("args") or {}).items():
            if "id" in e:
                # Perfetto's: "NAME id: ID KEY" (json_trace_parser_impl.cc)
                tname = "%s id: %s %s" % (e.get("name", ""), e["id"], k)
            else:
                tname = e.get("name", "") if k == "value" else "%s %s" % (e.get("name", ""), k)
            key = (str(e.get("pid")), tname)
            if key not in ctracks:
                ctracks[key] = next_track
                db.execute("INSERT INTO counter_track VALUES (?,?)", (next_track, tname))
                db.execute("INSERT INTO track VALUES (?,?,?)", (next_track, tname, "counter"))
                next_track += 1
            db.execute("INSERT INTO counter VALUES (?,?,?,?)",
                       (cid, ns(e["ts"]), ctracks[key], float(v)))
            cid += 1

    # flows: s binds to the deepest slice enclosing it; f with bp "e" too,
    # else to the first slice starting at or after it
    # Both are asked in time order per track (the loop below sorts the
    # flow events), so enclosing() sweeps: the slices started so far wait
    # in a heap, deepest (then latest) first, and one that does not hold
    # ts is dropped for good (later times are past its end too).
    sweep = {}   # track -> [next slice, heap, last time asked]

    def enclosing(t, ts):
        lst = spans.get(t, [])
        st = sweep.get(t)
        if st is None or ts < st[2]:
            st = sweep[t] = [0, [], ts]   # a time before the last: start over
        st[2] = ts
        i, heap = st[0], st[1]
        while i < len(lst) and lst[i][0] <= ts:
            s_ts, s_dur, s_id, s_depth = lst[i]
            heapq.heappush(heap, (-s_depth, -i, s_ts, s_dur, s_id))
            i += 1
        st[0] = i
        while heap:
            _, _, s_ts, s_dur, s_id = heap[0]
            if s_ts <= ts < s_ts + s_dur or (s_dur == 0 and s_ts == ts):
                return s_id
            heapq.heappop(heap)
        return None

    starts = {t: [r[0] for r in lst] for t, lst in spans.items()}

    def following(t, ts):
        k = bisect.bisect_left(starts.get(t, []), ts)
        return spans[t][k][2] if k < len(starts.get(t, [])) else None

    # flow v1 events by time (an end after a start or step of the same
    # time): s opens a flow at its enclosing slice, t links the flow's
    # last slice to the slice enclosing the step and moves it there, f
    # links it to its slice, as Perfetto's FlowTracker Begin/Step/End
    last = {}
    fid = 0
    for e in sorted((e for e in events if e.get("ph") in ("s", "t", "f")),
                    key=lambda e: (ns(e["ts"]), e["ph"] == "f")):
        ph = e["ph"]
        t = track_of(e.get("pid"), e.get("tid"))
        key = (str(e.get("id")), e.get("cat"))
        ts = ns(e["ts"])
        if ph == "s":
            last[key] = enclosing(t, ts)
            continue
        dst = enclosing(t, ts) if ph == "t" or e.get("bp") == "e" else following(t, ts)
        src = last.get(key)
        if src is not None and dst is not None:
            db.execute("INSERT INTO flow VALUES (?,?,?)", (fid, src, dst))
            fid += 1
        if ph == "t":
            last[key] = dst
    return db


def queries(path):
    text = open(path, encoding="utf-8").read()
    out, name, buf = [], None, []
    for line in text.splitlines():
        m = re.match(r"--\s*name:\s*(\S+)", line)
        if m:
            if name:
                out.append((name, "\n".join(buf)))
            name, buf = m.group(1), []
        elif name:
            buf.append(line)
    if name:
        out.append((name, "\n".join(buf)))
    return out


def main():
    if sys.argv[1:] == ["--differences"]:
        print("\n".join(DIFFERENCES))
        return
    trace, qfile, outdir = sys.argv[1:4]
    db = build(load(trace))
    os.makedirs(outdir, exist_ok=True)
    for name, sql in queries(qfile):
        cur = db.execute(sql)
        with open(os.path.join(outdir, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow([c[0] for c in cur.description])
            for row in cur:
                w.writerow(["" if v is None else repr(v) if isinstance(v, float) else v
                            for v in row])


if __name__ == "__main__":
    main()
