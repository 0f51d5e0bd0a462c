#!/usr/bin/env python3
"""nsys_scan_gen.py - Nsight Systems SQLite exports for nsys_scan.sh, each
written to lead the decoder's own reading of the file's pages
(src/decode/sqlite_scan.c) down one path: the plain case, deep b-trees
(512-byte pages), big pages, every integer width, NULLs, text names,
deleted rows, and the cases it must leave to SQLite (an index, a REAL,
text where an integer belongs, short records after ALTER TABLE, overflow
pages, UTF-16, a write-ahead log, generated columns, damaged pages).

usage: nsys_scan_gen.py DIR   writes DIR/NAME.sqlite, prints the names
"""
import os
import random
import sqlite3
import sys

# The tables the decoder reads, with nsys 2025.1's columns (real rows are
# this wide): INTEGER unless a type follows the name (its spaces as "_").
TABLES = {
    "StringIds": "id:INTEGER_PRIMARY_KEY value:TEXT",
    "PROCESSES": "globalPid pid name:TEXT",
    "ThreadNames": "globalTid nameId priority",
    "CUPTI_ACTIVITY_KIND_RUNTIME": "start end eventClass globalTid correlationId nameId "
                                   "returnValue callchainId",
    "CUPTI_ACTIVITY_KIND_KERNEL": "start end deviceId contextId greenContextId streamId "
                                  "correlationId globalPid demangledName shortName mangledName "
                                  "launchType cacheConfig registersPerThread gridX gridY gridZ "
                                  "blockX blockY blockZ staticSharedMemory dynamicSharedMemory "
                                  "localMemoryPerThread localMemoryTotal gridId "
                                  "sharedMemoryExecuted graphNodeId sharedMemoryLimitConfig",
    "CUPTI_ACTIVITY_KIND_MEMCPY": "start end deviceId contextId greenContextId streamId "
                                  "correlationId globalPid bytes copyKind deprecatedSrcId srcKind "
                                  "dstKind srcDeviceId srcContextId dstDeviceId dstContextId "
                                  "migrationCause graphNodeId virtualAddress",
    "CUPTI_ACTIVITY_KIND_MEMSET": "start end deviceId contextId greenContextId streamId "
                                  "correlationId globalPid value bytes graphNodeId memKind",
    "NVTX_EVENTS": "start end eventType rangeId category color text:TEXT globalTid endGlobalTid "
                   "textId domainId uint64Value int64Value doubleValue:REAL uint32Value "
                   "int32Value floatValue:REAL jsonTextId jsonText:TEXT binaryData:TEXT",
}


def schema(**cols):
    """CREATE TABLE statements of TABLES, a table's columns replaced by
    cols[table] where given."""
    out = []
    for name, spec in TABLES.items():
        spec = cols.get(name, spec)
        defs = [c.replace(":", " ").replace("_", " ") if ":" in c else c + " INTEGER"
                for c in spec.split()]
        out.append("CREATE TABLE %s (%s);" % (name, ", ".join(defs)))
    return "\n".join(out)


SCHEMA = schema()

NAMES = ["ampere_sgemm_128x64_nn", "void at::native::vectorized_elementwise_kernel<4>",
         "ncclKernel_AllReduce_RING_LL_Sum_float", "void cudnn::winograd_nonfused",
         "cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020", "python3", "step",
         "cudaMemsetAsync_v3020", "MPI Rank 3"]


def write(path, n=3000, seed=1, page_size=4096, pre="", widths=False, text_names=False,
          big_text=False, real=False, text_int=False, nulls=False, tables=None):
    """An export of n runtime calls with their GPU work and NVTX ranges
    (tables: the schema, SCHEMA when None)."""
    rnd = random.Random(seed)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size=%d" % page_size)
    if pre:
        db.executescript(pre)
    db.executescript(tables or SCHEMA)
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", list(enumerate(NAMES, 1)))
    pid = 4242
    gpid, gtid = pid << 24, (pid << 24) | 4243
    gtid2 = (pid << 24) | 4250
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, '/usr/bin/python3')", (gpid, pid))
    db.execute("INSERT INTO ThreadNames VALUES (?, 7, 0)", (gtid,))
    api, kern, copy, mset, nvtx = [], [], [], [], []
    t = 1000
    free = {7: 0, 8: 0, 9: 0}
    nvtx.append((500, None, 39, None, None, None, None, gtid2, None, 10, 0) + (None,) * 9)
    for i in range(n):
        corr = i + 1
        t += rnd.randint(900, 3000)
        tid = gtid if i % 7 else gtid2
        if i % 50 == 0:
            if len(nvtx) > 1:
                nvtx[-1] = nvtx[-1][:1] + (t - 50,) + nvtx[-1][2:]
            text = None
            if text_names:
                text = "range %d" % i
            if big_text and i == 100:
                text = "x" * 9000   # beyond a page: an overflow page
            nvtx.append((t - 50, None, 59, None, None, None, text, gtid, None, 8, 0)
                        + (None,) * 9)
        if i % 97 == 5:
            nvtx.append((t, t + 10, 60, None, None, None, "async %d" % i, gtid, None,
                         None, 0) + (None,) * 9)
            nvtx.append((t, t, 34, None, None, None, None, gtid, None, 8, 0) + (None,) * 9)
        if i % 11 == 3:
            api.append((t, t + 500, 0, tid, corr, 9, 0, None))
            s = max(t + 1500, free[9])
            free[9] = s + 400
            mset.append((s, s + 400, 0, 1, None, 9, corr, gpid, rnd.choice([0, 255]),
                         rnd.choice([4096, 1 << 20]), None, rnd.choice([0, 2, None])))
        elif i % 4 == 3:
            api.append((t, t + 800, 0, tid, corr, 6, 0, None))
            s = max(t + 2000, free[7])
            free[7] = s + 600
            copy.append((s, s + 600, 0, 1, 0, 7, corr, gpid, rnd.choice([4096, 65536, 1 << 20]),
                         rnd.choice([1, 2, 8]), None, rnd.choice([0, 1, 2]), 2, None, None,
                         None, None, None, None, None))
        else:
            api.append((t, t + 300, 0, tid, corr if i % 13 else None, 5, 0, None))
            k = rnd.randint(1, 4)
            st = 7 + k % 2
            s = max(t + 1000, free[st])
            free[st] = s + rnd.randint(800, 4000)
            grid = rnd.choice([64, 128, 1024])
            if widths:
                # every integer serial type: 0 and 1 constants, 1 to 8 bytes, negatives
                grid = rnd.choice([0, 1, -1, 127, -128, 300, -300, 70000, -70000, 1 << 20,
                                   1 << 30, -(1 << 31), 1 << 40, -(1 << 45), 1 << 50,
                                   (1 << 63) - 1, -(1 << 63)])
            shm = 4096
            if real and i == 200:
                shm = 4096.5
            dev = 0
            if text_int and i == 300:
                dev = "0"   # text in an integer column: SQLite converts it
            regs = None if (nulls and i % 5 == 0) else 64
            kern.append((s, free[st], dev, 1, 0, st, corr, gpid, k, k, None, 1, 1, regs,
                         grid, 1, 1, 256, 1, 1, 0, shm, 0, 155713536,
                         len(kern) + 1, 32768, None, 0))
    nvtx[-1] = nvtx[-1][:1] + (t + 1000,) + nvtx[-1][2:]
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", api)
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + ",".join("?" * 28) + ")",
                   kern)
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + ",".join("?" * 20) + ")",
                   copy)
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (" + ",".join("?" * 12) + ")",
                   mset)
    db.executemany("INSERT INTO NVTX_EVENTS VALUES (" + ",".join("?" * 20) + ")", nvtx)
    db.commit()
    return db


def damage(src, dst, seed):
    """A copy of src with a few bytes of its table pages changed."""
    rnd = random.Random(seed)
    data = bytearray(open(src, "rb").read())
    page = int.from_bytes(data[16:18], "big")
    npages = len(data) // page
    for _ in range(rnd.choice([1, 1, 2, 4])):
        pg = rnd.randrange(2, npages)   # not the schema's page
        off = pg * page + rnd.choice([0, 1, 3, 4, 5, 8, 9, 10, 11, 12, 13,
                                      rnd.randrange(page), rnd.randrange(page)])
        data[off] = rnd.choice([0, 1, 2, 5, 13, 0x7f, 0x80, 0xff, rnd.randrange(256)])
    open(dst, "wb").write(data)


def main():
    out = sys.argv[1]
    names = []

    def p(name):
        names.append(name)
        path = os.path.join(out, name + ".sqlite")
        for suffix in ("", "-journal", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        return path

    def variant(name, *sql, **kw):
        """An export of write(**kw), then statements sql run on it."""
        db = write(p(name), **kw)
        for q in sql:
            db.execute(q)
        db.commit()
        db.close()

    write(p("plain")).close()
    write(p("small_pages"), n=4000, page_size=512).close()
    write(p("big_pages"), page_size=65536).close()
    write(p("widths"), widths=True).close()
    write(p("text_names"), text_names=True, nulls=True).close()
    variant("deleted", "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId % 3 = 0",
            "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId % 5 = 0")
    variant("empty_tables", n=0)
    # left to SQLite
    variant("index", "CREATE INDEX k ON CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId)")
    write(p("real"), real=True).close()
    # whole numbers in columns of REAL affinity: stored as integers, read
    # back as REAL (gridX, bytes, srcKind, an NVTX end; eventType 39.0
    # still names a thread, as the query's eventType IN (39, 72) took it)
    real_cols = dict(TABLES)
    for t, a, b in (("CUPTI_ACTIVITY_KIND_KERNEL", "gridX ", "gridX:REAL "),
                    ("CUPTI_ACTIVITY_KIND_MEMCPY", "bytes ", "bytes:FLOAT "),
                    ("CUPTI_ACTIVITY_KIND_MEMCPY", "srcKind ", "srcKind:DOUBLE "),
                    ("NVTX_EVENTS", "start end eventType", "start end:REAL eventType:REAL")):
        real_cols[t] = real_cols[t].replace(a, b)
    write(p("real_affinity"), n=300, tables=schema(**real_cols)).close()
    # an index whose sqlite_master tbl_name differs from the table's name
    # in case (SQLite takes the table from its SQL): SQLite reads the NVTX
    # rows in eventType order, "Worker B" (39) before "Worker A" (72)
    db = write(p("index_case"), n=300)
    cols = "start, end, eventType, text, globalTid"
    gtid = (4242 << 24) | 4243
    db.execute("INSERT INTO NVTX_EVENTS (%s) VALUES (100, NULL, 72, 'Worker A', ?)" % cols,
               (gtid,))
    db.execute("INSERT INTO NVTX_EVENTS (%s) VALUES (101, NULL, 39, 'Worker B', ?)" % cols,
               (gtid,))
    db.execute("CREATE INDEX nvtx_type ON NVTX_EVENTS (eventType)")
    db.commit()
    db.execute("PRAGMA writable_schema=ON")
    db.execute("UPDATE sqlite_master SET tbl_name='nvtx_events' WHERE name='nvtx_type'")
    db.commit()
    db.close()
    write(p("text_int"), text_int=True).close()
    write(p("overflow"), big_text=True).close()
    write(p("utf16"), pre="PRAGMA encoding='UTF-16le';").close()
    variant("wal", "PRAGMA journal_mode=WAL",
            "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId % 2 = 0")
    variant("altered", "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN extra INTEGER DEFAULT 7",
            "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN gridX2 INTEGER DEFAULT 5")
    db = sqlite3.connect(p("altered_missing"))
    db.executescript(schema(CUPTI_ACTIVITY_KIND_RUNTIME="start end eventClass globalTid "
                                                        "correlationId"))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 2000, 0, 1, 1)")
    db.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN nameId INTEGER DEFAULT 5")
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (3000, 4000, 0, 1, 2, 6)")
    db.commit()
    db.close()
    db = sqlite3.connect(p("generated"))
    db.executescript(SCHEMA.replace(
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER,",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (shifted INTEGER GENERATED ALWAYS AS "
        "(start + 1) VIRTUAL, start INTEGER,"))
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", list(enumerate(NAMES, 1)))
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
                   "correlationId, nameId, returnValue) VALUES (?, ?, 0, 17, ?, 5, 0)",
                   [(1000 * i, 1000 * i + 500, i) for i in range(1, 200)])
    db.commit()
    db.close()
    # damaged copies of small exports of small and big pages
    write(p("to_damage"), n=600, page_size=512).close()
    write(p("to_damage_big"), n=600).close()
    for seed in range(60):
        src = "to_damage" if seed % 2 else "to_damage_big"
        damage(os.path.join(out, src + ".sqlite"), p("damaged_%d" % seed), seed)
    print("\n".join(names))


if __name__ == "__main__":
    main()
