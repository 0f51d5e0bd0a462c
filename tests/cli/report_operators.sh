#!/bin/sh
# report_operators.sh - `report --kind operators` and `--kind kernels`
# against an independent computation (tests/cli/attrib_oracle.py: Python's
# json and sqlite3 modules, its own call stacks and correlation links) over
# the real Kineto traces and the nsys export in ../shared/traces: per
# operator calls, host self/total and device self/total; per kernel calls,
# total, min, max, the launch op launching it most, blocks per SM and
# occupancy. Then the text layout of PyTorch's key_averages().table()
# (rebuilt by Python from the CSV numbers), --sort, --by shape, a window, a
# directory of ranks, a .ttz, a trace without launch links (host tables,
# empty device cells, the note on stderr) and --by module over a fixture.
# A small trace with fixed numbers runs without the shared traces.
. "$srcdir/tests/lib.sh"

cd "$TMPD" || exit 1
py=${PYTHON3:-python3}

# A small trace, numbers by construction: step [0,100) > op [10,60) >
# cudaLaunchKernel [20,30) launching k1 (7 us) by correlation, and
# cudaLaunchKernel [40,45) launching k2 (5 us) by an ac2g flow.
cat >small.json <<'JSON'
{"traceEvents":[
{"ph":"X","name":"step","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","name":"op","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":50},
{"ph":"X","name":"cudaLaunchKernel","cat":"cuda_runtime","pid":1,"tid":1,"ts":20,"dur":10,"args":{"correlation":5}},
{"ph":"X","name":"cudaLaunchKernel","cat":"cuda_runtime","pid":1,"tid":1,"ts":40,"dur":5},
{"ph":"X","name":"k1","cat":"kernel","pid":0,"tid":7,"ts":30,"dur":7,"args":{"correlation":5,"grid":[160,1,1],"device":0,"est. achieved occupancy %":50}},
{"ph":"X","name":"k2","cat":"kernel","pid":0,"tid":7,"ts":50,"dur":5,"args":{"correlation":99}},
{"ph":"s","id":1,"cat":"ac2g","name":"ac2g","pid":1,"tid":1,"ts":41},
{"ph":"f","id":1,"cat":"ac2g","name":"ac2g","pid":0,"tid":7,"ts":50,"bp":"e"}
],"deviceProperties":[{"id":0,"numSms":80}]}
JSON
"$TRACETTY" report --kind operators small.json >small.csv 2>small.err
ok $? "operators of the small trace"
cat >small.want <<'EOF'
"Name","Calls","Host Self (ns)","Host Total (ns)","Device Self (ns)","Device Total (ns)","Host Self Avg (ns)","Host Total Avg (ns)","Device Self Avg (ns)","Device Total Avg (ns)","Host Self (%)","Host Total (%)","Device Self (%)","Device Total (%)"
"op",1,35000,50000,12000,12000,35000.0,50000.0,12000.0,12000.0,35.00,50.00,100.00,100.00
"cudaLaunchKernel",2,15000,15000,0,0,7500.0,7500.0,0.0,0.0,15.00,15.00,0.00,0.00
"step",1,50000,100000,0,12000,50000.0,100000.0,0.0,12000.0,50.00,100.00,0.00,100.00
EOF
tr -d '\r' <small.csv >small.lf
same_file small.lf small.want "self times, device self at the op, device totals up the stack"
"$TRACETTY" report --kind kernels small.json | tr -d '\r' >small_k.csv
matches small_k.csv '^1,7000,7000.0,7000,7000,58.3,"op",1,1,2.00,50.00,"No","k1"$' \
    "k1: launched by op, 160 blocks on 80 SMs, its occupancy"
matches small_k.csv '^1,5000,5000.0,5000,5000,41.7,"op",1,1,,,"No","k2"$' \
    "k2: linked by its flow, no blocks or occupancy recorded"
"$TRACETTY" report --kind operators --sort host-total small.json | tr -d '\r' | cut -d, -f1 >sorted.txt
is "$(tr '\n' ' ' <sorted.txt)" '"Name" "step" "op" "cudaLaunchKernel" ' "--sort host-total"
"$TRACETTY" report --kind operators --sort wrong small.json >/dev/null 2>bad.err
[ $? -ne 0 ] && grep -q "unknown --sort 'wrong'" bad.err
ok $? "an unknown --sort is a usage error"
"$TRACETTY" report --kind ops --sort calls small.json >/dev/null 2>bad.err
[ $? -ne 0 ] && grep -q "apply to --kind operators" bad.err
ok $? "--sort with another kind is a usage error"
"$TRACETTY" report --kind operators --format text small.json >small.txt
matches small.txt '^Self CPU time total: 100\.000us$' "text: Self CPU time total"
matches small.txt '^Self CUDA time total: 12\.000us$' "text: Self CUDA time total"

# no launch links: host tables, empty device cells and a note
nolink=$(shared_traces)/chrome-edge/viztracer_multithread.json
[ -f "$nolink" ] || nolink=small_nolink.json
sed '/ph":"s"/d; /ph":"f"/d; s/"correlation":5,//' small.json >small_nolink.json
"$TRACETTY" report --kind operators "$nolink" >nolink.csv 2>nolink.err
ok $? "a trace without launch links still gets its host table"
grep -q "no launch links in this trace" nolink.err
ok $? "the note says there are no launch links"
[ "$(tr -d '\r' <nolink.csv | sed -n 2p | cut -d, -f5,6)" = "," ]
ok $? "device cells are empty, not zero"
"$TRACETTY" report --kind operators --format text "$nolink" >nolink.txt 2>/dev/null
! grep -q "CUDA" nolink.txt && grep -q "^Self CPU time total" nolink.txt
ok $? "text without launch links has no device columns"

# --by module: one row per innermost nn.Module (the Python frames PyTorch
# writes with with_stack=True), over a fixture in the exact layout of
# Kineto's output (tests/data/report/modules.json; where its shape comes
# from: tests/data/report/README). Linear_0 by hand: two calls holding
# linear, t, addmm and cudaLaunchKernel, then linear, addmm and
# cudaLaunchKernel (7 calls), kernels of 40 and 35 us under addmm; the
# runtime calls' own Device Total is 0 (as in key_averages()). With
# Python frames on the lane, self times come from PyTorch's op tree
# without the frames: the operators outside any module (the step
# annotation, the optimizer) own the time their frames cover with no op
# below, 160 us more than frames-as-children would give.
mods="$srcdir/tests/data/report/modules.json"
"$TRACETTY" report --kind operators --by module "$mods" >mods.csv 2>mods.err
ok $? "--by module"
is "$(tr -d '\r' <mods.csv | cut -d, -f1-6 | tr '\n' ' ')" \
    '"Name","Calls","Host Self (ns)","Host Total (ns)","Device Self (ns)","Device Total (ns)" "Linear_0",7,300000,574000,75000,150000 "Linear_1",3,180000,348000,30000,60000 ,10,670000,1678000,27000,171000 "Net_0",3,50000,98000,5000,10000 ' \
    "--by module: a row per module, operators outside any module in the empty row"
is "$(cat mods.err)" "" "--by module on a trace with modules: no note"
if command -v "$py" >/dev/null 2>&1; then
    "$py" "$srcdir/tests/cli/attrib_oracle.py" --by-module "$mods" mods.csv >mods_oracle.txt
    tail -1 mods_oracle.txt | grep -q '^mismatches 0 rows 4 '
    ok $? "--by module: every number equals the independent computation ($(tail -1 mods_oracle.txt))" ||
        head -5 mods_oracle.txt | sed 's/^/# /'
fi
"$TRACETTY" report --kind operators --by module --format text "$mods" | sed -n 5p >mods_text.txt
matches mods_text.txt '^ *Linear_0  ' "--by module --format text: module names in PyTorch's table"
"$TRACETTY" convert "$mods" -o mods.ttz >/dev/null 2>&1 &&
    "$TRACETTY" report --kind operators --by module mods.ttz >mods_ttz.csv
ok $? "--by module on a .ttz"
cmp -s mods.csv mods_ttz.csv
ok $? "--by module: a .ttz gives the table of its source"
"$TRACETTY" report --kind operators --by module small.json >nomod.csv 2>nomod.err
ok $? "--by module on a trace without module events"
is "$(grep -c 'no nn.Module events in this trace' nomod.err)" 1 "... says so once on stderr"
is "$(tr -d '\r' <nomod.csv | sed 1d | cut -d, -f1,2)" ",4" "... one row, empty name, every call"
"$TRACETTY" report --kind ops --by module small.json >/dev/null 2>bad.err
is "$?" 2 "--by module with another kind: exit 2"
is "$(cat bad.err)" "tracetty: report: --by module applies to --kind operators" \
    "--by module with another kind is a usage error naming the kind it applies to"

traces=$(shared_traces)
if [ ! -d "$traces/pytorch" ] || ! command -v "$py" >/dev/null 2>&1; then
    echo "# skipping the real traces: no $traces or no python3"
    tap_done
    exit
fi

# every real trace against the oracle
for t in pytorch/resnet50_workers0.pt.trace.json.gz pytorch/resnet50_workers4.pt.trace.json.gz \
         pytorch/nccl_data.json.gz pytorch/two_ranks/rank-0.json.gz \
         pytorch/two_ranks/rank-1.json.gz pytorch/mi250_rocm.json.gz \
         pytorch/memcpy_queue_rank0.json.gz pytorch/cupti_counters.json.gz \
         nsys/saxpy_mpi.sqlite; do
    f="$traces/$t"
    [ -f "$f" ] || continue
    "$TRACETTY" report --kind operators "$f" >ops.csv 2>/dev/null &&
        "$TRACETTY" report --kind kernels "$f" >kern.csv 2>/dev/null
    ok $? "$t: operators and kernels"
    "$py" "$srcdir/tests/cli/attrib_oracle.py" "$f" ops.csv kern.csv >oracle.txt
    tail -1 oracle.txt | grep -q '^mismatches 0 '
    ok $? "$t: every number equals the independent computation ($(tail -1 oracle.txt))" ||
        head -5 oracle.txt | sed 's/^/# /'
done

r0="$traces/pytorch/resnet50_workers0.pt.trace.json.gz"
# PyTorch's table rebuilt from the CSV numbers: the same text
"$TRACETTY" report --kind operators "$r0" >r0.csv
"$TRACETTY" report --kind operators --format text "$r0" | sed 1d >r0.txt
"$py" - r0.csv >r0.want <<'PY'
import csv, sys
def t(ns):
    us = ns / 1000.0
    return "%.3fs" % (us / 1e6) if us >= 1e6 else "%.3fms" % (us / 1e3) if us >= 1e3 else "%.3fus" % us
def share(a, b):
    return "NaN" if b == 0 else "%.2f%%" % (a * 100.0 / b)
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
hs = sum(int(r["Host Self (ns)"]) for r in rows)
ds = sum(int(r["Device Self (ns)"]) for r in rows)
namew = min(max(len(r["Name"]) for r in rows) + 4, 55)
heads = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
         "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg", "# of Calls"]
fmt = "{: >%d}  " % namew + "{: >12}  " * 10
sep = "-" * namew + "  " + ("-" * 12 + "  ") * 10
out = [sep, fmt.format(*heads), sep]
for r in rows:
    n = int(r["Calls"])
    name = r["Name"] if len(r["Name"]) < 52 else r["Name"][:52] + "..."
    h, ht, d, dt = (int(r[k]) for k in ("Host Self (ns)", "Host Total (ns)",
                                         "Device Self (ns)", "Device Total (ns)"))
    out.append(fmt.format(name, share(h, hs), t(h), share(ht, hs), t(ht), t(ht / n),
                          t(d), share(d, ds), t(dt), t(dt / n), n))
out += [sep, "Self CPU time total: " + t(hs), "Self CUDA time total: " + t(ds)]
print("\n".join(out))
PY
same_file r0.txt r0.want "text: PyTorch's key_averages().table() layout, row for row"

# --by shape: the same calls per name, split by Input Dims
"$TRACETTY" report --kind operators --by shape "$r0" >shape.csv
"$py" - r0.csv shape.csv <<'PY' >shape.txt
import csv, collections, sys
a = {r["Name"]: int(r["Calls"]) for r in csv.DictReader(open(sys.argv[1], newline=""))}
b = collections.Counter()
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
for r in rows:
    b[r["Name"]] += int(r["Calls"])
print(a == dict(b), len(rows) > len(a), any(r["Input Shapes"].startswith("[[") for r in rows))
PY
is "$(cat shape.txt)" "True True True" "--by shape splits each name's calls by its input shapes"
"$TRACETTY" report --kind operators --by shape --format text "$r0" | sed -n 3p >shape_head.txt
matches shape_head.txt '# of Calls  +Input Shapes  $' "text --by shape: an Input Shapes column"

# --by module on a real trace recorded without with_stack: one row, the
# independent computation's, and the note
"$TRACETTY" report --kind operators --by module "$r0" >r0mod.csv 2>r0mod.err
"$py" "$srcdir/tests/cli/attrib_oracle.py" --by-module "$r0" r0mod.csv >r0mod.txt
tail -1 r0mod.txt | grep -q '^mismatches 0 rows 1 '
ok $? "--by module on a trace without modules equals the independent computation ($(tail -1 r0mod.txt))"
is "$(grep -c 'no nn.Module events in this trace' r0mod.err)" 1 "... and says why once"

# a window holds fewer calls; a .ttz gives the same table as its source
"$TRACETTY" report --kind operators --window 0:100ms "$r0" >win.csv
"$py" -c '
import csv, sys
a = {r["Name"]: int(r["Calls"]) for r in csv.DictReader(open(sys.argv[1]))}
b = {r["Name"]: int(r["Calls"]) for r in csv.DictReader(open(sys.argv[2]))}
print(sum(b.values()) < sum(a.values()) and all(b[k] <= a.get(k, 0) for k in b))' r0.csv win.csv >win.txt
is "$(cat win.txt)" "True" "--window: only the operators in the window"
"$TRACETTY" convert "$r0" -o r0.ttz >/dev/null 2>&1 &&
    "$TRACETTY" report --kind operators r0.ttz >ttz.csv && "$TRACETTY" report --kind kernels r0.ttz >ttzk.csv &&
    "$TRACETTY" report --kind kernels "$r0" >r0k.csv
ok $? "operators and kernels of a .ttz"
cmp -s r0.csv ttz.csv && cmp -s r0k.csv ttzk.csv
ok $? "a .ttz gives the tables of its source"

# a directory of ranks: a Trace column, one table per rank, JSON too
"$TRACETTY" report --kind operators --format json "$traces/pytorch/two_ranks" >ranks.json
"$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["kind"], len(d["traces"]), all(t["rows"] and t["launch_links"] for t in d["traces"]))' ranks.json >ranks.txt
is "$(cat ranks.txt)" "operators 2 True" "a directory of ranks: one table per rank"

# Ascend: HostToDevice flows link the NPU tasks; the table says NPU
asc="$traces/ascend/trace_view.json"
if [ -f "$asc" ]; then
    "$TRACETTY" report --kind operators --format text "$asc" | sed -n 3p >asc.txt
    matches asc.txt 'Self NPU +Self NPU % +NPU total +NPU time avg +# of Calls  $' \
        "Ascend: NPU instead of CUDA in the text table"
fi

tap_done
