#!/usr/bin/env python3
"""make-job-corpus.py - (re)make the seed corpora of the issue-16 fuzz
targets (tests/fuzzjob.mk) from the real files in ../shared/traces-next,
cut small: the first rows or members of each, plus a few broken variants
of them (cut mid-file, a bad number, a wrong type) so the fuzzer starts
next to the error paths. Run from the source tree root:

    python3 tests/fuzz/make-job-corpus.py [../shared/traces-next]

The regress programs only read the corpus; this script is how it was made.
"""
import csv
import io
import json
import os
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "../shared/traces-next"
job = os.path.join(src, "ascend/job_level1/rank0_ascend_pt")
out_root = "tests/fuzz/corpus"


def put(target, name, data):
    d = os.path.join(out_root, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- mindspore: the header with two ops, 3 steps and the averages row
rows = read(os.path.join(src, "ascend/mindspore_legacy_4rank/step_trace_raw_0_detail_time.csv")
            ).decode().splitlines()
hdr = rows[0].split(",")
keep = hdr[:9] + hdr[9:15]        # the step columns and two ops
idx = [hdr.index(h) for h in keep]
cut = [",".join(keep)] + [",".join(r.split(",")[i] for i in idx) for r in rows[1:4] + rows[-1:]]
real = "\n".join(cut) + "\n"
put("mindspore", "real_rank0.csv", real)
put("mindspore", "cut_mid_row.csv", real[: len(real) * 2 // 3])
put("mindspore", "bad_tick.csv", real.replace(cut[1].split(",")[1], "12x4", 1))
put("mindspore", "end_before_start.csv",
    "\n".join([cut[0], ",".join(["1", "200", "100"] + cut[1].split(",")[3:])]) + "\n")
put("mindspore", "op_missing_point.csv",
    "step_num,start_point,end_point,total,fp_point,bp_point,stream_1_0_AllReduce-op1,"
    "stream_1_0_AllReduce-op1_start_point\n1,0,100,100,10,90,5,20\n")
put("mindspore", "empty_op_cells.csv", ",".join(keep) + "\n" +
    ",".join(cut[1].split(",")[:9] + ["", "", "", "", "", ""]) + "\n")

# ---- ascend_comm: the first op of each file, and broken variants
comm = json.loads(read(os.path.join(job, "ASCEND_PROFILER_OUTPUT/communication.json")))
matrix = json.loads(read(os.path.join(job, "ASCEND_PROFILER_OUTPUT/communication_matrix.json")))


def first_ops(doc, n_ops, n_links=None):
    out = {}
    for step, types in doc.items():
        out[step] = {}
        for typ, ops in types.items():
            out[step][typ] = {}
            for k, (op, v) in enumerate(ops.items()):
                if k >= n_ops and op != "Total Op Info":
                    continue
                if n_links is not None and isinstance(v, dict):
                    v = dict(list(v.items())[:n_links])
                out[step][typ][op] = v
    return out


c_small = json.dumps(first_ops(comm, 2))
m_small = json.dumps(first_ops(matrix, 2, 4))
put("ascend_comm", "communication.json", c_small)
put("ascend_comm", "communication_matrix.json", m_small)
put("ascend_comm", "matrix_cut.json", m_small[: len(m_small) // 2])
put("ascend_comm", "matrix_bad_link.json", m_small.replace('"0-1"', '"0-x"', 1))
put("ascend_comm", "matrix_string_size.json",
    m_small.replace('"Transit Size(MB)": ', '"Transit Size(MB)": "', 1).replace(
        ', "Transit Time(ms)"', '", "Transit Time(ms)"', 1))
put("ascend_comm", "matrix_huge.json",
    '{"s": {"collective": {"a@g": {"0-1": {"Transport Type": "HCCS", "Transit Size(MB)": 1e308,'
    ' "Transit Time(ms)": 1e-308, "Bandwidth(GB/s)": -1e308}, "0-2": {"Transport Type": "HCCS",'
    ' "Transit Size(MB)": 1, "Transit Time(ms)": 1, "Bandwidth(GB/s)": 1}, "1-2": {"Transport '
    'Type": "HCCS", "Transit Size(MB)": 2, "Transit Time(ms)": 1, "Bandwidth(GB/s)": 2}}}}}')
put("ascend_comm", "time_huge_start.json",
    '{"s": {"collective": {"a@g": {"Communication Time Info": {"Start Timestamp(us)": 9e18,'
    ' "Elapse Time(ms)": 9e18, "Transit Time(ms)": 1, "Wait Time(ms)": 0, "Synchronization '
    'Time(ms)": 0, "Idle Time(ms)": -5}}}}}')
put("ascend_comm", "not_object.json", "[1, 2, 3]\n")
# both files in one input (fuzz_ascend_comm.c: split at a NUL byte): the
# real pair, and a pair where the slow-link rule fires on a link of an op
# whose start and elapse are huge
put("ascend_comm", "pair_real.bin", c_small + "\0" + m_small)
link = ('"%s": {"Transport Type": "HCCS", "Transit Size(MB)": %s, "Transit Time(ms)": 1, '
        '"Bandwidth(GB/s)": %s}')
put("ascend_comm", "pair_slow_huge_start.bin",
    '{"s": {"collective": {"a@g": {"Communication Time Info": {"Start Timestamp(us)": 9e18, '
    '"Elapse Time(ms)": 9e18, "Transit Time(ms)": 1, "Wait Time(ms)": 0, '
    '"Synchronization Time(ms)": 0, "Idle Time(ms)": 0}}}}}\0'
    '{"s": {"collective": {"a@g": {' + ", ".join(
        link % (k, v, v) for k, v in (("0-1", 10), ("0-2", 10), ("1-2", 10), ("2-0", 1))) +
    '}}}}')

# ---- profinfo: the real file, and broken ones
info = read(os.path.join(job, "profiler_info_0.json")).decode()
put("profinfo", "real_rank0.json", info)
put("profinfo", "cut.json", info[: len(info) // 2])
put("profinfo", "rank_string.json", '{"rank_id": "3"}')
put("profinfo", "rank_negative.json", '{"rank_id": -1, "config": {}}')
put("profinfo", "rank_huge.json", '{"rank_id": 1e300}')
put("profinfo", "array.json", "[]")
put("profinfo", "nul_inside.json", b'{"rank_id": 2}\x00{"x":1}')

# ---- sidetab: each of the three tables, cut to a few rows, and broken ones
stt = read(os.path.join(job, "ASCEND_PROFILER_OUTPUT/step_trace_time.csv")).decode()
ops = read(os.path.join(job, "ASCEND_PROFILER_OUTPUT/op_statistic.csv")).decode()
api = read(os.path.join(job, "ASCEND_PROFILER_OUTPUT/api_statistic.csv")).decode()
put("sidetab", "step_trace_time.csv", stt)
put("sidetab", "op_statistic.csv", "\n".join(ops.splitlines()[:5]) + "\n")
put("sidetab", "api_statistic.csv", "\n".join(api.splitlines()[:5]) + "\n")
put("sidetab", "step_short_row.csv", "\n".join([stt.splitlines()[0], "50,1,2"]) + "\n")
put("sidetab", "step_bad_number.csv", stt.replace("8873.756000000001", "8873.7.5", 1))
put("sidetab", "step_huge.csv", stt.splitlines()[0] + "\n" + "\n".join(
    "%d,9223372036854775.807,9e15,1,9223372036854775,9223372036854775,1,1,1,1" % i
    for i in range(3)) + "\n")
put("sidetab", "quote_open.csv", 'Step,Computing\n"50,1\n')

# ---- ncujoin: a details page whose launches are the fuzz timeline's
#      kernels (fuzz_ncujoin.c), the metric rows of a real ncu file
ncu_dir = os.path.join(src, "ncu/dsocr_rtx5090/ncu-v2")
kdir = sorted(d for d in os.listdir(ncu_dir) if d.startswith("kernel_"))[0]
lines = read(os.path.join(ncu_dir, kdir, "ncu.details.csv")).decode("utf-8-sig").splitlines()
head = [l for l in lines if l.startswith('"ID"')][0]
body = [l for l in lines if l.startswith('"0"') or l.startswith('"1"')]
cols = next(csv.reader([head]))
launches = [("cask_cudnn::computeOffsetsKernel(T1)", "(256, 1, 1)", "(50, 1, 1)"),
            ("void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor"
             "<float>, at::detail::Array<char *, (int)1>>(int, T2, T3)", "(128, 1, 1)",
             "(80, 1, 1)"),
            ("ampere_sgemm_128x64_nn", "(128, 1, 1)", "(4, 8, 1)")]
metric_rows = list(csv.reader(body))[:5]
name_i, blk_i, grd_i = cols.index("Kernel Name"), cols.index("Block Size"), cols.index("Grid Size")
out = ['==PROF== Connected to process 4242 (python3)', head]
for k, (name, blk, grd) in enumerate(launches):
    for r in metric_rows:
        r = list(r) + [""] * (len(cols) - len(r))
        r[0] = str(k)
        r[name_i], r[blk_i], r[grd_i] = name, blk, grd
        buf = io.StringIO()
        csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="").writerow(r)
        out.append(buf.getvalue())
details = "\r\n".join(out) + "\r\n"
put("ncujoin", "details_3_launches.csv", "\ufeff" + details)
put("ncujoin", "wrong_shape.csv", details.replace('"(50, 1, 1)"', '"(51, 1, 1)"'))
put("ncujoin", "cut.csv", details[: len(details) // 2])
put("ncujoin", "thousands.csv", details.replace('"12.0"', '"1,234,567.5"'))
