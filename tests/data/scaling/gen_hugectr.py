#!/usr/bin/env python3
"""gen_hugectr.py - the HugeCTR prof.json fixtures of tests/cli/diff_scaling.sh.

Three runs of one DLRM-like job on 1, 2 and 4 hosts (2 GPUs each), in the
layout HugeCTR's profiler result parser writes (tools/profiler in
NVIDIA-Merlin/HugeCTR): a list of hosts, each
  {"host_name", "timeline": {"device_N": {"stream_0x...": [
      {"label", "avg_measured_time_ms", "avg_iter_start_to_event_start_time_ms",
       "met_times_within_this_stream"}, ...]}}, "avg_iter_time_ms"}
  run1/prof.json        1 host
  run2/prof_0.json, run2/prof_1.json
                        2 hosts, one file per host (one prof.json per node)
  run4/prof.json        4 hosts in one file
Times have at most 6 decimals (whole ns), so the ns a reader makes of
them are exact. The numbers are made up but shaped like scaling: the
dense part shrinks with hosts, the all-reduce grows, and run4 has a
label the others lack ("allreduce.embedding"). Deterministic: rerun it
and the files come out byte for byte the same.

usage: gen_hugectr.py OUTDIR
"""
import json
import os
import sys

LABELS = [  # label, stream, base ms at 1 host, scaling exponent
    ("data_reader.read_a_batch", 0, 0.199820, 0.0),
    ("data_reader.copy_to_gpu", 0, 0.137675, 0.0),
    ("sparse_embedding.forward", 1, 0.880821, 0.6),
    ("bottom_mlp.fc1.fprop", 1, 0.132303, 1.0),
    ("bottom_mlp.fc2.fprop", 1, 0.096962, 1.0),
    ("interaction.fprop", 1, 0.256640, 0.9),
    ("top_mlp.fc1.fprop", 1, 0.341405, 1.0),
    ("sparse_embedding.backward", 1, 1.104417, 0.6),
    ("allreduce.dense_grads", 2, 0.415479, -0.5),
]
STREAMS = ["stream_0x55d4c2a1f3a0", "stream_0x55d4c2a1f5e0", "stream_0x55d4c2a20820"]


def ms(v):
    return round(v, 6)


def host(run_hosts, h):
    """One host of a run with run_hosts hosts."""
    timeline = {}
    iter_end = 0.0
    for dev in range(2):
        streams = {}
        t = 0.0123 + 0.0007 * dev + 0.0011 * h
        for i, (label, s, base, expo) in enumerate(LABELS):
            # each (host, device) a little different, as real GPUs are
            d = ms(base / (run_hosts ** expo) * (1 + 0.013 * ((i + 3 * h + 5 * dev) % 7)))
            streams.setdefault(STREAMS[s], []).append({
                "label": label, "avg_measured_time_ms": d,
                "avg_iter_start_to_event_start_time_ms": ms(t),
                "met_times_within_this_stream": 0})
            t += d + 0.0045
        if run_hosts == 4:
            d = ms(0.210113 * (1 + 0.02 * h + 0.01 * dev))
            streams[STREAMS[2]].append({
                "label": "allreduce.embedding", "avg_measured_time_ms": d,
                "avg_iter_start_to_event_start_time_ms": ms(t),
                "met_times_within_this_stream": 0})
            t += d
        timeline["device_%d" % dev] = streams
        iter_end = max(iter_end, t)
    return {"host_name": "dgx-a100-%02d" % (h + 1), "timeline": timeline,
            "avg_iter_time_ms": ms(iter_end + 0.0321)}


def write(path, hosts):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(hosts, f, indent=1)
        f.write("\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    write(os.path.join(out, "run1", "prof.json"), [host(1, 0)])
    for h in range(2):
        write(os.path.join(out, "run2", "prof_%d.json" % h), [host(2, h)])
    write(os.path.join(out, "run4", "prof.json"), [host(4, h) for h in range(4)])


if __name__ == "__main__":
    main()
