# nsys_flows_oracle.py - Nsight Systems exports whose correlation ids take
# every path of the flow linking (src/decode/nsys_flows.c), and the flows
# they must give, computed here on their own (tests/cli/nsys_flows.sh).
#
#   python3 nsys_flows_oracle.py write DB [--scrambled]
#   python3 nsys_flows_oracle.py expect DB
#
# write: a small export with calls and kernels of two processes: plain
# ids (one call, one or two kernels), an id with two calls, kernels
# stamped before their call, kernels whose id names no call, a call with
# no kernel, two identical calls of different ids, and 200 ordinary ids;
# --scrambled writes the ordinary ids' kernels in reverse time order (the
# decoder then leaves the lane's order to finalize and links nothing
# itself).
# expect: "flows F backward B unresolved U": per (pid, correlation id)
# the calls and kernels in time order (calls first at equal times); each
# kernel after a call links to the latest call; a kernel before any call
# waits for the next call, the last such one is linked from the id's last
# call, any other is unresolved; an id without calls leaves every kernel
# unresolved. An event that is identical to an earlier one of its lane
# (start, duration, name) stands for it. B: links to an event starting
# before their call.
import sqlite3, sys


def write(path, scrambled):
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
""")
    db.executemany("INSERT INTO StringIds VALUES (?, ?)",
                   [(1, "k"), (2, "cudaLaunchKernel"), (3, "k2")])
    p1, p2 = 100 << 24, 200 << 24
    g1, g2 = p1 | 101, p2 | 201
    api = [(1000, 1100, 0, g1, 1, 2, 0), (2000, 2100, 0, g1, 2, 2, 0),
           (3000, 3100, 0, g1, 3, 2, 0), (3050, 3150, 0, g1, 3, 2, 0),
           (4000, 4100, 0, g1, 4, 2, 0), (5000, 5100, 0, g2, 1, 2, 0),
           (6000, 6100, 0, g1, 6, 2, 0), (6000, 6100, 0, g1, 7, 2, 0),
           (8000, 8100, 0, g1, 9, 2, 0), (9000, 9100, 0, g1, 10, 2, 0)]
    kern = [(1200, 1300, 0, 7, 1, p1, 1), (2200, 2300, 0, 7, 2, p1, 1),
            (2400, 2500, 0, 8, 2, p1, 3), (3200, 3300, 0, 7, 3, p1, 1),
            (3900, 3950, 0, 7, 4, p1, 1), (3960, 3970, 0, 7, 4, p1, 1),
            (4200, 4300, 0, 7, 4, p1, 1), (5200, 5300, 0, 7, 1, p2, 1),
            (6200, 6300, 0, 7, 6, p1, 1), (6200, 6300, 0, 8, 7, p1, 1),
            (7000, 7100, 0, 7, 8, p1, 1), (9000, 9050, 0, 7, 10, p1, 3),
            (7200, 7300, 0, 7, 8, p1, 1)]
    more = []
    for c in range(20, 220):
        api.append((20000 + c * 100, 20000 + c * 100 + 50, 0, g1, c, 2, 0))
        more.append((20000 + c * 100 + 60, 20000 + c * 100 + 90, 0, 9, c, p1, 1 + c % 3))
    kern += more[::-1] if scrambled else more
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?)", api)
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,?,?,?)", kern)
    db.commit()
    db.close()


def expect(path):
    db = sqlite3.connect(path)
    names = dict(db.execute("SELECT id, value FROM StringIds"))
    ids = {}      # (pid, corr) -> [(start, phase, read order, event)]
    lanes = {}    # lane -> events (start, dur, name)
    order = 0
    rows = [("call", r) for r in db.execute(
        "SELECT start, end, globalTid >> 24, globalTid, correlationId, nameId "
        "FROM CUPTI_ACTIVITY_KIND_RUNTIME")]
    rows += [("kernel", r) for r in db.execute(
        "SELECT start, end, globalPid >> 24, 'gpu' || deviceId || '/' || streamId, "
        "correlationId, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL")]
    for what, (start, end, pid, lane, corr, name) in rows:
        ev = (lane, start, end - start, names.get(name))
        lanes.setdefault(lane, []).append(ev)
        ids.setdefault((pid, corr), []).append((start, 0 if what == "call" else 1, order, ev))
        order += 1
    first = {}    # an event -> the first identical one of its lane
    for evs in lanes.values():
        for ev in evs:
            first.setdefault(ev, ev)
    flows = backward = unresolved = 0
    for pts in ids.values():
        pts.sort()
        prev, early = None, None
        for start, phase, _, ev in pts + [(None, None, None, None)]:
            if ev is None or phase == 0:
                if prev is not None and early is not None:
                    flows += 1
                    backward += first[early][1] < first[prev][1]
                    early = None
                if ev is None:
                    break
                prev = ev
                continue
            if prev is not None:
                flows += 1
                backward += first[ev][1] < first[prev][1]
            else:
                unresolved += early is not None
                early = ev
        unresolved += early is not None
    print("flows %d backward %d unresolved %d" % (flows, backward, unresolved))


if sys.argv[1] == "write":
    write(sys.argv[2], "--scrambled" in sys.argv[3:])
else:
    expect(sys.argv[2])
