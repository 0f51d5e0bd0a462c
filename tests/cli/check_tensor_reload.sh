#!/bin/sh
# check_tensor_reload.sh - `tensor-reload` on a trace whose events are not
# in time order (exporters do not promise it): the rule reads the source
# address and the source/destination of transfers from their arguments,
# which it fetches in storage order, not in the time order it walks. Every
# finding is recomputed by python (json module) from the same file.
. "$srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"

# A trace of 6000 events over 3 threads, shuffled: transfers named by a
# tensor argument or only by a source address (src_addr, source_address,
# src, address), stores out of on-chip memory by name or by arguments, and
# kernels with long arguments so the records fill many compressed blocks.
python3 - "$TMPD/shuffled.json" <<'PY'
import json, random, sys
rnd = random.Random(13)
ev = []
for i in range(6000):
    ts = 1000 + i * 7
    e = {"ph": "X", "pid": 1, "tid": 1 + i % 3, "ts": ts, "dur": 5, "name": "kernel",
         "args": {"note": "x" * rnd.randint(200, 600), "seq": i}}
    r = i % 10
    if r in (1, 2):
        e["name"] = "dma"
        e["args"] = {"tensor": "t%d" % rnd.randint(0, 40), "bytes": 4096}
    elif r in (3, 4, 5):
        key = rnd.choice(["src_addr", "source_address", "src", "address"])
        e["name"] = "Memcpy"
        e["args"] = {key: "0x%x" % (0x1000 * rnd.randint(0, 60)), "bytes": rnd.choice([256, 512])}
        if rnd.random() < 0.3:
            e["args"]["source"] = rnd.choice(["SBUF", "HBM", "psum", "state buffer 2"])
            e["args"][rnd.choice(["dest", "dst", "destination"])] = rnd.choice(["HBM", "SB"])
        if rnd.random() < 0.1:
            e["args"]["src_addr"] = ""   # empty: the next key names it
    elif r == 6:
        e["name"] = rnd.choice(["SBUF -> HBM", "HBM -> SBUF"])
        e["args"] = {"tensor": "t%d" % rnd.randint(0, 40), "bytes": 1024}
    ev.append(e)
rnd.shuffle(ev)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
ok $? "python writes a shuffled trace"

"$TRACETTY" check --quiet --disable all --enable tensor-reload --fail-on never --format csv \
    "$TMPD/shuffled.json" >"$TMPD/got.csv" 2>"$TMPD/err"
ok $? "check runs tensor-reload"
is "$(cat "$TMPD/err")" "" "no message"

python3 - "$TMPD/shuffled.json" "$TMPD/got.csv" >"$TMPD/cmp" <<'PY'
import csv, json, sys
ON_CHIP = ("sb", "sbuf", "psum", "sram")
def on_chip(m):
    m = m.lstrip(" \t")[:63]
    w = 0
    while w < len(m) and m[w].isalnum():
        w += 1
    low = m.lower()
    return low[:w] in ON_CHIP or "state buffer" in low or "statebuf" in low or "on-chip" in low
def first(a, keys, nonempty=False):
    for k in keys:
        if k in a and (not nonempty or a[k] != ""):
            return a[k]
    return None
ev = json.load(open(sys.argv[1]))["traceEvents"]
t0 = min(e["ts"] for e in ev) * 1000
groups = {}
for e in ev:
    a = e.get("args", {})
    if "bytes" not in a:
        continue
    if "tensor" in a:
        key, label = ("t", a["tensor"]), "tensor " + a["tensor"]
    else:
        addr = first(a, ["src_addr", "source_address", "src", "address"], True)
        if addr is None:
            continue
        key, label = ("a", addr, a["bytes"]), "data at %s (%d bytes)" % (addr, a["bytes"])
    if " -> " in e["name"]:
        s, d = e["name"].split(" -> ", 1)
        store = on_chip(s) and not on_chip(d)
    else:
        s = first(a, ["source", "src"])
        d = first(a, ["dest", "dst", "destination"])
        store = s is not None and on_chip(s) and (d is None or not on_chip(d))
    if store:
        continue
    g = groups.setdefault(key, [label, 0, None, None])
    g[1] += 1
    s, t = e["ts"] * 1000 - t0, (e["ts"] + e["dur"]) * 1000 - t0
    g[2] = s if g[2] is None else min(g[2], s)
    g[3] = t if g[3] is None else max(g[3], t)
want = sorted("%s loaded %d times|%d|%d" % (g[0], g[1], g[2], g[3])
              for g in groups.values() if g[1] > 2)
got = []
for r in csv.DictReader(open(sys.argv[2])):
    got.append("%s|%s|%s" % (r["Message"].split(" (")[0] if r["Message"].startswith("tensor")
                              else r["Message"].split(" times")[0] + " times",
                              r["Start (ns)"], r["End (ns)"]))
got.sort()
print(len(want), len(got), "same" if want == got else "differ")
for w, g in zip(want, got):
    if w != g:
        print("want", w, "got", g)
        break
PY
read nwant ngot verdict <"$TMPD/cmp"
ok $((nwant < 40)) "python finds many reloaded tensors and addresses ($nwant)"
is "$ngot" "$nwant" "one finding per tensor or address loaded more than twice"
is "$verdict" "same" "every finding's tensor, count, start and end as python computes them"
[ "$verdict" = same ] || sed 's/^/#   /' "$TMPD/cmp"
tap_done
