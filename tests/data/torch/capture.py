#!/usr/bin/env python3
"""Capture a small real training run on a CUDA GPU for tracetty's tests.

  python3 capture.py OUTDIR            # torch.profiler run: trace + PyTorch's tables
  python3 capture.py --amp OUTDIR      # the same in bf16 autocast (a second run
                                       # for diff: other kernels, other times)
  python3 capture.py --stack OUTDIR    # the same with with_stack, with_modules and
                                       # profile_memory: Python frames, nn.Module
                                       # calls and [memory] events in the trace
  python3 capture.py --plain N         # the same steps unprofiled (under ncu)

What it writes in OUTDIR, all from ONE profiler session (one schedule cycle,
two active steps), so the trace and the tables describe the same events:
  train.pt.trace.json       prof.export_chrome_trace() (Kineto Chrome JSON)
  key_averages.json         every row of prof.key_averages(): key, count and
                            the CPU / device totals in us as floats
  key_averages.txt          prof.key_averages().table(sort_by=
                            "self_cuda_time_total", row_limit=-1)
  env.json                  torch / CUDA / GPU versions

The model is a small transformer-like stack (embedding, attention through
scaled_dot_product_attention, MLP, LayerNorm, cross entropy) trained with
AdamW, so the trace has forward, backward, optimizer, cuBLAS, flash/mem-
efficient attention and foreach kernels, plus a host-to-device copy per step.
Sizes are small so the trace stays a few MB.
"""
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DEV = "cuda"
VOCAB, DIM, HEADS, SEQ, BATCH, LAYERS = 1024, 256, 4, 128, 8, 2


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.ln2 = nn.LayerNorm(DIM)
        self.fc1 = nn.Linear(DIM, 4 * DIM)
        self.fc2 = nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(DIM, dim=2)
        q = q.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        k = k.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        v = v.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx):
        x = self.emb(idx)
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln(x))


def make():
    model = Model().to(DEV)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)
    data = torch.randint(0, VOCAB, (BATCH, SEQ + 1))   # on the host
    return model, opt, data


AMP = False
STACK = False


def step(model, opt, data):
    batch = data.to(DEV, non_blocking=False)
    idx, tgt = batch[:, :-1], batch[:, 1:]
    with torch.autocast(DEV, dtype=torch.bfloat16, enabled=AMP):
        logits = model(idx)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss


def plain(n):
    model, opt, data = make()
    for _ in range(n):
        step(model, opt, data)
    torch.cuda.synchronize()


def profiled(out):
    from torch.profiler import ProfilerActivity, profile, schedule

    os.makedirs(out, exist_ok=True)
    model, opt, data = make()

    def ready(p):
        p.export_chrome_trace(os.path.join(out, "train.pt.trace.json"))
        rows = []
        for e in p.key_averages():
            rows.append({
                "key": e.key,
                "count": e.count,
                "device_type": str(e.device_type),
                "cpu_time_total": e.cpu_time_total,
                "self_cpu_time_total": e.self_cpu_time_total,
                "device_time_total": e.device_time_total,
                "self_device_time_total": e.self_device_time_total,
            })
        with open(os.path.join(out, "key_averages.json"), "w") as f:
            json.dump(rows, f, indent=1)
        with open(os.path.join(out, "key_averages.txt"), "w") as f:
            f.write(p.key_averages().table(sort_by="self_cuda_time_total",
                                           row_limit=-1))
            f.write("\n")

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=2, active=2, repeat=1),
                 on_trace_ready=ready, record_shapes=True, with_stack=STACK,
                 with_modules=STACK, profile_memory=STACK) as p:
        for _ in range(6):
            step(model, opt, data)
            p.step()
    torch.cuda.synchronize()
    env = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(0),
        "model": dict(vocab=VOCAB, dim=DIM, heads=HEADS, seq=SEQ,
                      batch=BATCH, layers=LAYERS),
        "schedule": "wait=1 warmup=2 active=2 repeat=1, 6 steps",
        "amp": "bf16 autocast" if AMP else "off",
        "with_stack, with_modules, profile_memory": STACK,
    }
    with open(os.path.join(out, "env.json"), "w") as f:
        json.dump(env, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--plain":
        plain(int(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--amp":
        AMP = True
        profiled(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--stack":
        STACK = True
        profiled(sys.argv[2])
    elif len(sys.argv) == 2:
        profiled(sys.argv[1])
    else:
        sys.exit("usage: capture.py [--amp | --stack] OUTDIR | --plain N")
