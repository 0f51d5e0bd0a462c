#!/bin/sh
# box_typed.sh - a box whose edges are typed (`:TIME`) is that window to
# the nanosecond, and the batch command the panel prints names the real
# file and gives the panel's numbers (checked against a python3 count).
. "$srcdir/tests/lib.sh"

src="$(shared_traces)/pytorch/resnet50_workers0.pt.trace.json.gz"
[ -f "$src" ] || skip_all "no shared trace $src"
command -v python3 > /dev/null 2>&1 || skip_all "no python3"

# a file name the shell must quote: a space and a single quote
t="$TMPD/it's a trace.json.gz"
cp "$src" "$t"

# start the box at a typed time, stretch it over the CPU threads' rows,
# then type its far edge; the panel's top (the numbers), then its end (the
# command)
keys=':176.302ms<Enter>vjjjjjjjjjjjj:350.363ms<Enter><Enter>'
"$TRACETTY" render --size 300x60 --keys "$keys" "$t" > "$TMPD/top" 2> "$TMPD/err"
is "$?" 0 "render exits 0"
"$TRACETTY" render --size 300x60 --keys "$keys<End>" "$t" > "$TMPD/screen" 2> "$TMPD/err"
matches "$TMPD/screen" "Box 176\.302 ms .{1,3} 350\.363 ms \(174\.061 ms\)" \
    "the box is the typed window, not the cursor columns'"

cmd=$(grep -o "tracetty report --kind ops .*" "$TMPD/screen" | sed 's/ *[|│]$//')
matches "$TMPD/screen" "--window 176\.302ms:350\.363ms " "the command repeats the typed times"
case $cmd in
*" '$TMPD/it'\\''s a trace.json.gz'") ok 0 "the command names the file, shell-quoted" ;;
*) ok 1 "the command names the file, shell-quoted"; echo "#   got: $cmd" ;;
esac

# run the command as printed (the program from the build tree)
eval "\"\$TRACETTY\"${cmd#tracetty} --format csv" > "$TMPD/ops.csv" 2> "$TMPD/err"
is "$?" 0 "the printed command runs"

python3 - "$t" "$TMPD/ops.csv" "$TMPD/top" > "$TMPD/py" <<'PY'
import csv, gzip, json, re, sys
from decimal import Decimal
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
ns = lambda v: int(Decimal(str(v)) * 1000)
t0 = min(ns(e["ts"]) for e in ev if "ts" in e and e.get("ph") != "M")
lo, hi = t0 + 176302000, t0 + 350363000
# the box's lanes: the two CPU threads and the profiler's own span
lanes = {("25738", "25738"), ("25738", "25772"), ("Traces", "PyTorch Profiler")}
n = clipped = 0
for e in ev:
    if (str(e.get("pid")), str(e.get("tid"))) not in lanes:
        continue
    s = ns(e["ts"])
    if e["ph"] == "X":
        end = s + ns(e["dur"])
        if s < hi and end > lo:
            n += 1
            clipped += min(end, hi) - max(s, lo)
    elif e["ph"] in ("i", "I") and lo <= s < hi:
        n += 1
rows = list(csv.DictReader(open(sys.argv[2])))
got_n = sum(int(r["Instances"]) for r in rows)
got_t = sum(int(r["Total Time (ns)"]) for r in rows)
screen = open(sys.argv[3], encoding="utf-8", errors="replace").read()
m = re.search(r"([0-9,]+) events? .{1,3} total [^(]*\(([0-9.]+) ms in the box\)", screen)
panel_n = int(m.group(1).replace(",", "")) if m else -1
panel_t = m.group(2) if m else "?"
print("command", got_n == n and got_t == clipped, got_n, n, got_t, clipped)
print("panel", panel_n == n and panel_t == "%.3f" % (clipped / 1e6), panel_n, panel_t)
PY
is "$(sed -n 's/^command \([A-Za-z]*\).*/\1/p' "$TMPD/py")" True \
    "the command's count and total time equal python's ($(head -1 "$TMPD/py"))"
is "$(sed -n 's/^panel \([A-Za-z]*\).*/\1/p' "$TMPD/py")" True \
    "the panel's count and time in the box equal python's ($(sed -n 2p "$TMPD/py"))"

# both edges typed first, then j stretches the box over lanes whose events
# do not cover the typed time: the cursor moves into those events within
# the column, and the edge must stay where it was typed
"$TRACETTY" render --size 120x50 --keys ':176.302ms<Enter>v:350.363ms<Enter>jjjjjjjj<Enter>' \
    "$t" > "$TMPD/rows" 2> "$TMPD/err"
matches "$TMPD/rows" "Box 176\.302 ms .{1,3} 350\.363 ms \(174\.061 ms\) . 2 lanes" \
    "j after the typed edges keeps them exact"

# a box over several ranks: one command per rank, each naming its file
"$TRACETTY" render --size 200x50 --disable all \
    --keys 'vjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjlllllllllllllll<Enter><End>' \
    "$srcdir/tests/data/tui/ranks" > "$TMPD/job" 2> "$TMPD/err"
for r in 0 1 2; do
    matches "$TMPD/job" "tracetty report --kind ops .* '[^']*tests/data/tui/ranks/rank-$r\.json' *[|│]" \
        "rank $r's command names its file, shell-quoted"
done

tap_done
