#!/usr/bin/env python3
"""nsys_args_oracle.py - an Nsight Systems SQLite export whose copy and
memory kind labels need JSON escapes (a quote, a backslash, a tab) or none,
and the argument values tracetty must read back from it (tests/cli/
nsys_args.sh).

  nsys_args_oracle.py write FILE   write the export
  nsys_args_oracle.py expect       print `query ... group by key, value`'s
                                   CSV as tracetty must print it
"""
import csv
import sqlite3
import sys

COPY = {1: "Host-to-Device", 2: 'Dev"ice\\to\tHost', 3: "Plain"}
MEM = {0: "Page\\able", 1: "Pinned", 2: 'De"vice'}
N_COPY, N_SET = 3000, 300


def copies():
    for i in range(N_COPY):
        yield i, [1, 1, 2, 3, 2][i % 5], i % 3, (i // 3) % 3, 4096 + i % 3


def write(path):
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER, name TEXT, label TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER,
  dstKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, bytes INTEGER NOT NULL, memKind INTEGER, value INTEGER);
""")
    db.executemany("INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (?, 'X', ?)", COPY.items())
    db.executemany("INSERT INTO ENUM_CUDA_MEM_KIND VALUES (?, 'X', ?)", MEM.items())
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,?,?,?,?,?,?,?)",
                   [(1000 + 200 * i, 1100 + 200 * i, 0, 7, None, 4242 << 24, b, ck, src, dst)
                    for i, ck, src, dst, b in copies()])
    t = 1000 + 200 * N_COPY
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,?,?,?,?,?)",
                   [(t + 200 * i, t + 200 * i + 50, 0, 8, None, 4242 << 24, 64, i % 3, 0)
                    for i in range(N_SET)])
    db.commit()
    db.close()


def expect():
    count = {}

    def add(key, value):
        count[(key, str(value))] = count.get((key, str(value)), 0) + 1

    for i, ck, src, dst, b in copies():
        add("args.copyKind", COPY[ck])
        add("args.srcKind", MEM[src])
        add("args.dstKind", MEM[dst])
        add("args.bytes", b)
        add("args.deviceId", 0)
        add("args.streamId", 7)
    for i in range(N_SET):
        add("args.bytes", 64)
        add("args.deviceId", 0)
        add("args.streamId", 8)
        add("args.value", 0)
    out = csv.writer(sys.stdout, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    out.writerow(["key", "display_value", "count(*)"])
    for (k, v), n in sorted(count.items()):
        out.writerow([k, v, n])


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        expect()
