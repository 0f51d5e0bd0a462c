#!/usr/bin/env python3
"""sql_more_oracle.py - independent computations for tests/cli/sql_more.sh.

Each subcommand reads a real Chrome JSON trace with Python's json module
(and the CSV dumps tests/unit/sqltab_dump wrote of the same trace) and
says "ok" or, on a mismatch, what differs (exit 1).

  counters TRACE COUNTER_TRACK.csv COUNTER.csv PROCESS.csv
  flows    TRACE FLOW.csv SLICES.csv
  args     TRACE ARGS.csv SLICES.csv
"""
import bisect
import csv
import gzip
import json
import sqlite3
import sys
from collections import Counter
from decimal import Decimal, ROUND_HALF_UP


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def ns(us):
    return int((Decimal(str(us)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def real(x):
    """A number as the dumps write reals (%.17g reads back exactly)."""
    return repr(float(x))


def report(got, want, what):
    """Say what differs between the row lists got and want; 1 when they
    differ, else 0 (the caller prints "ok" when all its lists agree)."""
    if got == want:
        return 0
    g, w = Counter(got), Counter(want)
    print("%s differ: %d rows, want %d" % (what, sum(g.values()), sum(w.values())))
    for k in list((g - w).keys())[:5]:
        print("  extra:  ", k)
    for k in list((w - g).keys())[:5]:
        print("  missing:", k)
    return 1


def numeric(v):
    """A counter value as the Chrome decoder takes it: a number, or a
    string holding one; None for anything else."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def counters(trace, ct_csv, c_csv, p_csv):
    """Every sample of every counter series: (process pid, track name as
    the timeline shows it, or Perfetto's "NAME id: ID KEY" for a counter
    with an id, ts ns, value); and the tracks' names."""
    want, want_tracks = [], set()
    for e in load(trace):
        if e.get("ph") != "C" or not isinstance(e.get("args"), dict):
            continue
        track = e.get("name", "")
        for k, v in e["args"].items():
            x = numeric(v)
            if x is None:
                continue
            if "id" in e:
                # a counter with an id: Perfetto's name, key always there
                name = "%s id: %s %s" % (track, e["id"], k)
            else:
                name = track if k == "value" else track + " " + k
            want.append((str(e.get("pid")), name, ns(e["ts"]), real(x)))
            want_tracks.add((str(e.get("pid")), name))
    pid = {r["upid"]: r["pid"] for r in rows(p_csv)}
    tracks = {r["id"]: r for r in rows(ct_csv)}
    got_tracks = {(pid[t["upid"]], t["name"]) for t in tracks.values()}
    got = [(pid[tracks[r["track_id"]]["upid"]], tracks[r["track_id"]]["name"], int(r["ts"]),
            real(r["value"])) for r in rows(c_csv)]
    bad = report(sorted(got_tracks), sorted(want_tracks), "counter tracks")
    return bad | report(sorted(got), sorted(want), "counter samples")


def slice_keys(sl_csv):
    return {r["id"]: (r["pid"], r["tid"], int(r["ts"]), r["name"]) for r in rows(sl_csv)}


def flows(trace, f_csv, sl_csv):
    """Kineto flows: an `s` binds to the slice enclosing it on its thread
    (the deepest: latest start), an `f` with bp "e" likewise; each pair of
    an `s` and an `f` of one id and category is a flow."""
    ev = load(trace)
    by_thread = {}
    for e in ev:
        if e.get("ph") == "X":
            by_thread.setdefault((str(e.get("pid")), str(e.get("tid"))), []).append(
                (ns(e["ts"]), -ns(e.get("dur", 0)), e.get("name", "")))
    for v in by_thread.values():
        v.sort()
    starts_of = {k: [s for s, _, _ in v] for k, v in by_thread.items()}

    def enclosing(e):
        """The slice of the thread with the latest start (the shortest of
        those) that holds ts: walk back from the last start <= ts."""
        k = (str(e.get("pid")), str(e.get("tid")))
        t = ns(e["ts"])
        v = by_thread.get(k, ())
        i = bisect.bisect_right(starts_of.get(k, ()), t) - 1
        while i >= 0:
            s, negdur, name = v[i]
            # sorted by start, longest first: the first holding t
            # walking back is the deepest
            if t < s - negdur or t == s:
                return (k[0], k[1], s, name)
            i -= 1
        return None

    starts, ends = {}, []
    for e in ev:
        ph = e.get("ph")
        if ph == "s":
            starts[(e.get("cat"), str(e.get("id")))] = e
        elif ph == "f":
            ends.append(e)
    want = []
    for e in ends:
        s = starts.get((e.get("cat"), str(e.get("id"))))
        if s is None:
            continue
        a, b = enclosing(s), enclosing(e)
        if a is None or b is None:
            continue
        want.append((a, b, e.get("name", ""), e.get("cat", "")))
    key = slice_keys(sl_csv)
    got = [(key[r["slice_out"]], key[r["slice_in"]], r["name"], r["category"])
           for r in rows(f_csv)]
    return report(sorted(got), sorted(want), "flows")


_db = sqlite3.connect(":memory:")


def cast_text(x):
    return _db.execute("SELECT CAST(? AS TEXT)", (x,)).fetchone()[0]


def flatten(v, flat, key, out, idx):
    """Perfetto's flattening of a JSON value (src/sql/argflat.h)."""
    if v is None:
        return
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(x, flat + "." + k, key + "." + k, out, idx)
        return
    if isinstance(v, list):
        i = 0
        for x in v:
            if x is None:
                continue
            flatten(x, flat, "%s[%d]" % (key, i), out, idx)
            i += 1
        return
    # the last field: display_value as Perfetto's args view computes it,
    # reals by this python's own SQLite (CAST(real AS TEXT))
    if isinstance(v, bool):
        out.append((flat, key, "bool", str(int(v)), "", "", "true" if v else "false"))
    elif isinstance(v, int) and -2**63 <= v < 2**63:
        out.append((flat, key, "int", str(v), "", "", str(v)))
    elif isinstance(v, (int, Decimal)):
        out.append((flat, key, "real", "", "", real(v), cast_text(float(v))))
    else:
        out.append((flat, key, "string", "", v, "", v))


def args(trace, a_csv, sl_csv):
    """The args of every X event, flattened, against the table's rows of
    the record that event's slice holds."""
    want = []
    xs = set()
    for e in load(trace):
        if e.get("ph") != "X" or not isinstance(e.get("args"), dict):
            continue
        out = []
        flatten(e["args"], "args", "args", out, None)
        k = (str(e.get("pid")), str(e.get("tid")), ns(e["ts"]), e.get("name", ""))
        xs.add(k)
        if out:
            want.append((k, tuple(sorted(out))))
    by_set = {}
    for r in rows(a_csv):
        by_set.setdefault(r["arg_set_id"], []).append(
            (r["flat_key"], r["key"], r["value_type"], r["int_value"], r["string_value"],
             "" if r["real_value"] == "" else real(r["real_value"]), r["display_value"]))
    got = []
    for r in rows(sl_csv):
        k = (r["pid"], r["tid"], int(r["ts"]), r["name"])
        if k in xs and r["arg_set_id"] in by_set:
            got.append((k, tuple(sorted(by_set[r["arg_set_id"]]))))
    return report(sorted(got), sorted(want), "args")


if __name__ == "__main__":
    cmd, argv = sys.argv[1], sys.argv[2:]
    bad = {"counters": counters, "flows": flows, "args": args}[cmd](*argv)
    if not bad:
        print("ok")
    sys.exit(bad)
