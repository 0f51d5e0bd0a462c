#!/usr/bin/env python3
"""Write the seed corpus of the nsys-sqlite fuzz target
(tests/fuzz/corpus/nsys/): small SQLite databases shaped like
`nsys export --type sqlite` output, in the schemas of several nsys versions,
plus damaged and foreign ones. The files are checked in; rerun this after
changing it:  python3 tests/fuzz/make-nsys-corpus.py tests/fuzz/corpus/nsys
"""
import os
import sqlite3
import sys

PID = 4242
GPID = PID << 24
GTID = GPID | 4243


def make(path, sql):
    if os.path.exists(path):
        os.unlink(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size=512")
    db.execute("PRAGMA journal_mode=DELETE")
    db.executescript(sql)
    db.commit()
    db.execute("VACUUM")
    db.close()


COMMON = f"""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'cudaLaunchKernel_v7000'),
  (3, 'cudaMemcpyAsync_v3020'), (4, 'worker'), (5, 'step 1'), (6, 'nccl:all_reduce');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES ({GPID}, {PID}, '/usr/bin/python3');
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (4, 10, {GTID});
CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT);
INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA A100-SXM4-40GB');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 900, 0, {GTID}, 11, 2, 0),
  (950, 990, 0, {GTID}, 12, 3, 0);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT,
  textId INTEGER, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (10, NULL, 39, 'MPI Rank 3', NULL, {GTID}),
  (400, 1000, 59, NULL, 5, {GTID}), (420, 980, 60, 'async', NULL, {GTID}),
  (450, NULL, 34, 'mark', NULL, {GTID});
"""

NEW_KERNEL = f"""
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER,
  blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER, staticSharedMemory INTEGER,
  dynamicSharedMemory INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (1000, 3000, 0, 7, 11, {GPID}, 1, 1, 64, 1, 1, 256, 1, 1, 32, 0, 4096),
  (3100, 5000, 0, 13, 0, {GPID}, 6, 6, 1, 1, 1, 512, 1, 1, 64, 1024, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (3500, 3600, 0, 7, 12, {GPID}, 4096, 1, 0, 2),
  (3700, 3900, 0, 7, 0, {GPID}, 1048576, 2, 2, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  memKind INTEGER, value INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (4000, 4100, 0, 7, 0, {GPID}, 512, 2, 0);
"""

ENUMS = """
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'PAGEABLE', 'Pageable'), (1, 'PINNED', 'Pinned'),
  (2, 'DEVICE', 'Device');
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'HTOD', 'Host-to-Device'),
  (2, 'DTOH', 'Device-to-Host');
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.11.1'),
  ('EXPORT_PRODUCT_VERSION', '2024.2.1');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (0, '2024-03-01T10:00:00Z');
"""

OLD_KERNEL = f"""
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, name INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 3000, 0, 7, 11, {GPID}, 1);
"""

ODD_VALUES = f"""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'k' || char(27) || '[31m' || char(7));
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (5000, 1000, 0, 1, 1, 0, 1),
  ('12', 'x', NULL, NULL, -5, NULL, 'text name'),
  (9000000000000000000, 9100000000000000000, 2147483648, -1, 4294967296, -1, 99),
  (-9000000000000000000, 10, 9223372036854775807, 0, 1, 0, 1.5),
  (NULL, NULL, 0, 0, 0, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1, 2, -1, 99, -3, 15), (3, 4, 'big', NULL, 7, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (0, 5, -1, 1, 77), (6, 7, 0, 1, NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT,
  textId INTEGER, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (1, 0, 59, NULL, NULL, 1), (2, NULL, 60, 'open', NULL, 1),
  (3, 4, 39, 'MPI Rank -7', NULL, 1), (5, 6, 1000, 'other', NULL, 1);
"""

FOREIGN = """
CREATE TABLE other (x INTEGER, y TEXT);
INSERT INTO other VALUES (1, 'a'), (2, 'b');
"""

VIEWS = f"""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS
  WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
  SELECT x AS start, x + 1 AS end, 0 AS deviceId, 0 AS streamId FROM n;
"""


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/corpus/nsys"
    os.makedirs(out, exist_ok=True)
    make(f"{out}/current.sqlite", COMMON + NEW_KERNEL + ENUMS)
    make(f"{out}/old_schema.sqlite", COMMON + OLD_KERNEL)
    make(f"{out}/no_kernel_table.sqlite", COMMON)
    make(f"{out}/odd_values.sqlite", ODD_VALUES)
    make(f"{out}/foreign.sqlite", FOREIGN)
    make(f"{out}/views.sqlite", VIEWS)
    with open(f"{out}/current.sqlite", "rb") as f:
        whole = f.read()
    with open(f"{out}/truncated.sqlite", "wb") as f:
        f.write(whole[: len(whole) // 2])
    damaged = bytearray(whole)
    for i in range(600, len(damaged), 997):
        damaged[i] ^= 0x5A
    with open(f"{out}/damaged.sqlite", "wb") as f:
        f.write(bytes(damaged))
    with open(f"{out}/header_only.sqlite", "wb") as f:
        f.write(b"SQLite format 3\0")


if __name__ == "__main__":
    main()
