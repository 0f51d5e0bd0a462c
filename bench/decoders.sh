# bench/decoders.sh - the device-format decoders against issue 13's goal of
# at least 100 MB/s each. Sourced by bench/run.sh (after its own figures;
# it uses run.sh's measure() and environment). One line per format:
# `tracetty summary` of a large generated input, pinned to one core,
# BENCH_RUNS runs, median wall and CPU time, MB/s of the input's bytes by
# CPU time (the machine is shared: CPU time is the steadier figure), PASS
# or MISS. `summary` is the whole command (decode, finalize, statistics,
# rules), as a user meets it; the decode alone is a part of it.
#
# Inputs, generated once under $builddir/bench/out/decoders/ and reused
# (regenerated when gen-trace is newer):
#   neuron.json          gen-trace neuron --layers 5000       (~26 MB)
#   kernel_details.csv   gen-trace ascend-csv --steps 1500    (~31 MB)
#   cuda_gpu_trace.csv   gen-trace nsys-csv --iters 1500      (~29 MB)
#   prof.json            gen-trace hugectr --hosts 256 --gpus 16 (~14 MB,
#                        4096 GPUs: the format holds one average iteration
#                        per stream, so a file grows with the job, and at
#                        3.4 MB process start and summary's fixed costs
#                        were a fifth of the figure)
#   nsys.sqlite          an Nsight Systems SQLite export with the tables
#                        src/decode/nsys_sqlite.c reads, each with every
#                        column of nsys 2025.1's schema (real rows are that
#                        wide: a real kernel row carries 28 columns, the
#                        reader asks for 16), written by python3's
#                        sqlite3 (skipped without python3): 1M
#                        runtime calls, their kernels and copies, NVTX
#                        ranges around every 100 calls; calls follow each
#                        other on their thread, GPU work on its stream,
#                        NVTX ranges nest (~100 MB; regenerated when this
#                        script is newer)

dir="$builddir/bench/out/decoders"
mkdir -p "$dir"

# decoder NAME FILE: measure summary of FILE pinned, then its line
decoder() {
    measure pinned "$1" "$TRACETTY" summary "$2" || {
        status=1
        return 0
    }
    awk -v n="$1" -v w="$wall" -v c="$cpu" -v b="$(wc -c <"$2")" -v f="$flt" 'BEGIN {
        v = b / 1e6 / c
        printf "  %-22s %6.1f MB %8.3f s wall %8.3f s CPU %7.1f MB/s %6.1fk faults (goal >= 100)  %s\n",
            n, b / 1e6, w, c, v, f / 1000, (v >= 100 ? "PASS" : "MISS") }'
}

stale "$dir/neuron.json" && "$GEN_TRACE" neuron --layers 5000 -o "$dir/neuron.json"
stale "$dir/kernel_details.csv" && "$GEN_TRACE" ascend-csv --steps 1500 -o "$dir/kernel_details.csv"
stale "$dir/cuda_gpu_trace.csv" && "$GEN_TRACE" nsys-csv --iters 1500 -o "$dir/cuda_gpu_trace.csv"
stale "$dir/prof.json" && "$GEN_TRACE" hugectr --hosts 256 --gpus 16 -o "$dir/prof.json"
if [ -n "$PYTHON3" ] && { [ ! -s "$dir/nsys.sqlite" ] || [ "$srcdir/bench/decoders.sh" -nt "$dir/nsys.sqlite" ]; }; then
    rm -f "$dir/nsys.sqlite.tmp"
    "$PYTHON3" - "$dir/nsys.sqlite.tmp" <<'PY'
import random, sqlite3, sys
rnd = random.Random(5)
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (globalTid INTEGER, nameId INTEGER, priority INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
  eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,
  gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER,
  sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
  copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER,
  srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER,
  migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
  endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,
  int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,
  floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
""")
kernels = ["ampere_sgemm_128x64_nn", "void at::native::vectorized_elementwise_kernel<4>",
           "ncclKernel_AllReduce_RING_LL_Sum_float", "void cudnn::winograd_nonfused"]
apis = ["cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020"]
# the kernels' short and mangled names follow (ids 9 to 16), as nsys
# writes all three
short = ["ampere_sgemm_128x64_nn", "vectorized_elementwise_kernel", "ncclKernel_AllReduce_RING_LL_Sum_float",
         "winograd_nonfused"]
mangled = ["_Z22ampere_sgemm_128x64_nnv", "_ZN2at6native29vectorized_elementwise_kernelILi4EEEvv",
           "_Z38ncclKernel_AllReduce_RING_LL_Sum_floatv", "_ZN5cudnn17winograd_nonfusedEv"]
names = kernels + apis + ["python3", "step"] + short + mangled
db.executemany("INSERT INTO StringIds VALUES (?, ?)", list(enumerate(names, 1)))
pid = 4242
gpid, gtid = pid << 24, (pid << 24) | 4243
db.execute("INSERT INTO PROCESSES VALUES (?, ?, 'python3')", (gpid, pid))
db.execute("INSERT INTO ThreadNames VALUES (?, 7, 0)", (gtid,))
api, kern, copy, nvtx = [], [], [], []
# As a real export is: calls on the thread one after another, GPU work on
# a stream one after another (queued behind the stream's previous work),
# NVTX push/pop ranges nested around the calls of a step, never crossing
# each other.
t = 1000
free = {7: 0, 8: 0}
for i in range(1000000):
    corr = i + 1
    t += rnd.randint(900, 3000)
    if i % 100 == 0:
        if nvtx:
            nvtx[-1] = nvtx[-1][:1] + (t - 50,) + nvtx[-1][2:]
        nvtx.append((t - 50, None, 59, None, None, None, None, gtid, None, 8, 0)
                    + (None,) * 9)
    if i % 4 == 3:
        api.append((t, t + 800, 0, gtid, corr, 6, 0, None))
        s = max(t + 2000, free[7])
        free[7] = s + 600
        copy.append((s, s + 600, 0, 1, 0, 7, corr, gpid, rnd.choice([4096, 65536, 1 << 20]),
                     1, None, 0, 2, None, None, None, None, None, None, None))
    else:
        api.append((t, t + 300, 0, gtid, corr, 5, 0, None))
        k = rnd.randint(1, 4)
        st = 7 + k % 2
        s = max(t + 1000, free[st])
        free[st] = s + rnd.randint(800, 4000)
        kern.append((s, free[st], 0, 1, 0, st, corr, gpid, k, 8 + k, 12 + k, 1, 1, 64,
                     rnd.choice([64, 128, 1024]), 1, 1, 256, 1, 1, 0, 4096, 0, 155713536,
                     len(kern) + 1, 32768, None, 0))
nvtx[-1] = nvtx[-1][:1] + (t + 1000,) + nvtx[-1][2:]
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", api)
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + ",".join("?" * 28) + ")", kern)
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + ",".join("?" * 20) + ")", copy)
db.executemany("INSERT INTO NVTX_EVENTS VALUES (" + ",".join("?" * 20) + ")", nvtx)
db.commit()
db.close()
PY
    mv "$dir/nsys.sqlite.tmp" "$dir/nsys.sqlite"
fi

echo "== Decoders: summary of a large input, pinned, MB/s by CPU time (goal >= 100 MB/s)"
decoder "neuron JSON" "$dir/neuron.json"
decoder "Ascend CSV" "$dir/kernel_details.csv"
decoder "Nsight Systems CSV" "$dir/cuda_gpu_trace.csv"
decoder "HugeCTR prof.json" "$dir/prof.json"
if [ -s "$dir/nsys.sqlite" ]; then
    decoder "Nsight Systems SQLite" "$dir/nsys.sqlite"
else
    printf '  %-20s skipped: no python3 to write the database\n' "Nsight Systems SQLite"
fi
