#!/bin/sh
# gen_counts.sh - `tracetty summary --format json samples/demo.json` agrees
# exactly with what the generator says it wrote (gen-trace --stats), and,
# when python3 is installed, with python3's own count of the file; python3
# also checks the invariants a real profile has (nesting per thread, no
# overlap per stream, flows bound to event starts, kernels after launches).
. "$srcdir/tests/lib.sh"

GEN="$builddir/samples/gen-trace"
demo="$srcdir/samples/demo.json"
[ -x "$GEN" ] || skip_all "samples/gen-trace is not built"
[ -f "$demo" ] || skip_all "samples/demo.json is missing"
tab=$(printf '\t')

"$GEN" kineto --stats -o "$TMPD/demo.json" 2> "$TMPD/stats"
ok $? "gen-trace kineto --stats runs"
same_file "$TMPD/demo.json" "$demo" "--stats does not change the output"
"$TRACETTY" summary --format json "$demo" > "$TMPD/sum.json"
ok $? "tracetty summary --format json loads the demo"

st() { awk -v k="$1" '$1 == k { print $2 }' "$TMPD/stats"; }
# top-level numbers of the summary (cJSON_Print: one key per line, tabs)
top() { sed -n "s/^$tab\"$1\":$tab\([-0-9.e+]*\),\{0,1\}\$/\1/p" "$TMPD/sum.json" | head -1; }
phase() { sed -n "/^$tab\"phases\":/,/^$tab}/s/^$tab$tab\"$1\":$tab\([0-9]*\),\{0,1\}\$/\1/p" "$TMPD/sum.json"; }

# --------------------------------------------- tracetty vs gen-trace --stats
is "$(top events)" "$(st timeline)" "timeline events (X and instants)"
for p in X s f M C i; do
    is "$(phase "$p")" "$(st "ph.$p")" "events with ph $p"
done
is "$(top flows)" "$(st flows)" "flows (every s/f pair resolved)"
is "$(top total_time_ns)" "$(st span_ns)" "span from first start to last end, in ns"
is "$(top rank)" 0 "rank 0"
matches "$TMPD/sum.json" "^$tab\"problems\":$tab\\[\\],\$" "no problems found in the demo"
samples=$(sed -n "s/^$tab$tab$tab\"samples\":$tab\([0-9]*\),\$/\1/p" "$TMPD/sum.json" | tr '\n' ' ')
is "$samples" "$(st counter_events) $(st counter_events) " \
    "two counter series (allocated, reserved), one sample per C event each"
lanes_tt=$(sed -n "/^$tab\"lanes\":/,/^$tab}\\],/s/^$tab$tab$tab\"events\":$tab\([0-9]*\),\$/\1/p" \
    "$TMPD/sum.json" | sort -n | tr '\n' ' ')
lanes_gen=$(awk '$1 ~ /^lane\./ { print $2 }' "$TMPD/stats" | sort -n | tr '\n' ' ')
is "$lanes_tt" "$lanes_gen" "events per lane"

# -------------------------------------------------------- python3's count
if ! command -v python3 >/dev/null 2>&1; then
    tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP python3 not installed"
    tap_done
    exit $?
fi

python3 - "$demo" > "$TMPD/py" 2> "$TMPD/pyerr" <<'PY'
# Independent count of a Kineto trace: same keys as gen-trace --stats, plus
# invariant checks printed as "check.NAME ok|<what is wrong>".
import collections, decimal, json, sys

d = json.load(open(sys.argv[1]), parse_float=decimal.Decimal)
ev = d["traceEvents"]

def ns(v):
    return int(decimal.Decimal(v) * 1000)

out = collections.OrderedDict()
out["events"] = len(ev)
ph = collections.Counter(e["ph"] for e in ev)
for p in "XsfMCi":
    out["ph." + p] = ph.get(p, 0)
cats = collections.Counter(e.get("cat") for e in ev if "cat" in e)
for c in ("cpu_op", "user_annotation", "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset",
          "ac2g", "fwdbwd", "Trace"):
    out["cat." + c] = cats.get(c, 0)
tl = [e for e in ev if e["ph"] in ("X", "i")]
out["timeline"] = len(tl)
starts = collections.Counter((e["cat"], e["id"]) for e in ev if e["ph"] == "s")
ends = collections.Counter((e["cat"], e["id"]) for e in ev if e["ph"] == "f")
out["flows"] = sum(1 for k in ends if starts.get(k) == 1 and ends[k] == 1)
cev = [e for e in ev if e["ph"] == "C"]
out["counter_events"] = len(cev)
out["counter_samples"] = sum(len(e["args"]) for e in cev)
lanes = collections.Counter()
for e in tl:
    if e["ph"] == "i" and e.get("s") == "g":
        lanes["global"] += 1
    elif e["pid"] == "Spans":
        lanes["Spans.PyTorch_Profiler"] += 1
    else:
        lanes["%s.%s" % (e["pid"], e["tid"])] += 1
for k, v in sorted(lanes.items()):
    out["lane." + k] = v
t0 = min(ns(e["ts"]) for e in tl)
t1 = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in tl)
out["start_ns"], out["end_ns"], out["span_ns"] = t0, t1, t1 - t0

def check(name, problem):
    out["check." + name] = "ok" if not problem else problem.replace(" ", "_")[:120]

# CPU threads: X events nest (no partial overlap) on every thread
by_thread = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X" and e.get("cat") in ("cpu_op", "user_annotation", "cuda_runtime"):
        by_thread[(e["pid"], e["tid"])].append((ns(e["ts"]), -ns(e["dur"]), e["name"]))
bad = None
for key, xs in by_thread.items():
    xs.sort()
    stack = []
    for s, negd, name in xs:
        end = s - negd
        while stack and stack[-1] <= s:
            stack.pop()
        if stack and end > stack[-1]:
            bad = "%s crosses its parent's end" % name
            break
        stack.append(end)
check("nesting", bad)

# GPU streams: activities never overlap
bad = None
streams = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        streams[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["dur"])))
for key, xs in streams.items():
    xs.sort()
    for (a, da), (b, db) in zip(xs, xs[1:]):
        if a + da > b:
            bad = "overlap on stream %s at %d" % (key[1], b)
            break
check("streams", bad)

# flows: s and f sit on the start of an X event of their thread; a GPU
# activity starts after its runtime call started
xstart = set((e["pid"], e["tid"], ns(e["ts"])) for e in ev if e["ph"] == "X")
bad = None
for e in ev:
    if e["ph"] in ("s", "f") and (e["pid"], e["tid"], ns(e["ts"])) not in xstart:
        bad = "flow %s %s not at an event start" % (e["cat"], e["id"])
        break
check("flow_binding", bad)
rt = {e["args"]["correlation"]: ns(e["ts"]) for e in ev
      if e["ph"] == "X" and e.get("cat") == "cuda_runtime"}
bad = None
for e in ev:
    if e["ph"] == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        c = e["args"]["correlation"]
        if c not in rt:
            bad = "no runtime call for correlation %s" % c
            break
        if ns(e["ts"]) <= rt[c]:
            bad = "correlation %s runs before its launch" % c
            break
check("launch_order", bad)
# memcpy/memset bandwidth is bytes / duration
bad = None
for e in ev:
    if e["ph"] == "X" and e.get("cat") in ("gpu_memcpy", "gpu_memset"):
        want = e["args"]["bytes"] / (ns(e["dur"]))
        if abs(float(e["args"]["memory bandwidth (GB/s)"]) - want) > 1e-9 * want:
            bad = "bandwidth of correlation %s" % e["args"]["correlation"]
            break
check("bandwidth", bad)
# tiny kernels (< 5 us) in a row: the launch-bound optimizer
run = best = 0
for s, dur in sorted(streams[(0, 7)]):
    run = run + 1 if dur < 5000 else 0
    best = max(best, run)
check("tiny_kernel_run", None if best >= 100 else "longest run %d" % best)
for k, v in out.items():
    print(k, v)
PY
ok $? "python3 counts the demo"
sed 's/^/# /' "$TMPD/pyerr" | head -5
py() { awk -v k="$1" '$1 == k { print $2 }' "$TMPD/py"; }

is "$(py events)" "$(st events)" "python3: events in traceEvents = --stats"
is "$(py events)" "$(sed -n "/^$tab\"phases\":/,/^$tab}/s/^$tab$tab\"[A-Za-z]\":$tab\([0-9]*\),\{0,1\}\$/\1/p" \
    "$TMPD/sum.json" | awk '{ s += $1 } END { print s + 0 }')" "python3: events = tracetty's phase tally"
for k in ph.X ph.s ph.f ph.M ph.C ph.i cat.cpu_op cat.user_annotation cat.cuda_runtime cat.kernel \
         cat.gpu_memcpy cat.gpu_memset cat.ac2g cat.fwdbwd cat.Trace timeline flows \
         counter_events counter_samples start_ns end_ns span_ns; do
    is "$(py "$k")" "$(st "$k")" "python3 = --stats: $k"
done
for k in $(awk '$1 ~ /^lane\./ { print $1 }' "$TMPD/stats"); do
    is "$(py "$k")" "$(st "$k")" "python3 = --stats: $k"
done
is "$(py timeline)" "$(top events)" "python3 = tracetty: timeline events"
is "$(py flows)" "$(top flows)" "python3 = tracetty: flows"
is "$(py span_ns)" "$(top total_time_ns)" "python3 = tracetty: span"
for c in nesting streams flow_binding launch_order bandwidth tiny_kernel_run; do
    is "$(py "check.$c")" ok "invariant: $c"
done

tap_done
