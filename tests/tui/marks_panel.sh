#!/bin/sh
# marks_panel.sh - the markers panel with `render --keys`: its lines follow
# the markers and the saved sets at any window size, drawn or not.
. "$srcdir/tests/lib.sh"

cp "$srcdir/tests/data/tui/basic.json" "$TMPD/t.json"
t="$TMPD/t.json"

# add_set NAME: a saved set of one marker in the sidecar
add_set() {
    "$TRACETTY" markers add "$t" --set "$1" --at 1ms --name a > /dev/null 2>&1
}

# Deleting a set while the window is too narrow to draw the panel: the
# panel's lines (and the set indexes they hold) must still be rebuilt
# before the next key acts on them (a crash before).
add_set s1
"$TRACETTY" render --keys "'jj<Resize:7x24>xyx<Resize:80x24>" "$t" > "$TMPD/out" 2> "$TMPD/err"
is "$?" 0 "delete a set in a 7-column window, then x again: no crash"
matches "$TMPD/out" "none yet: S saves the markers as a set" "the panel lists no set"
is "$("$TRACETTY" markers list "$t")" "no marker sets" "the set is gone from the sidecar"

add_set s1
add_set s2
"$TRACETTY" render --keys "'jjj<Resize:7x24>xyxy<Resize:80x24>" "$t" > "$TMPD/out" 2> "$TMPD/err"
is "$?" 0 "two sets deleted one after the other in a 7-column window"
matches "$TMPD/out" "set 's1' deleted" "the second x acts on the set that is left"
is "$("$TRACETTY" markers list "$t")" "no marker sets" "both sets are gone"

add_set s1
add_set s2
"$TRACETTY" render --keys "'jjj<Resize:7x24>xyr<Resize:80x24>" "$t" > "$TMPD/out" 2> "$TMPD/err"
is "$?" 0 "rename after a delete in a 7-column window"
matches "$TMPD/out" "rename set to: s1" "r offers the set that is left"

# The panel opens on an item line (a marker, else a saved set), so a key
# acts on it at once.
rm -f "$t.markers.json"
add_set s1
"$TRACETTY" render --keys "'x" "$t" > "$TMPD/out" 2> "$TMPD/err"
matches "$TMPD/out" "delete the saved set 's1' for good\? y/n" "opened without markers: on the set"
"$TRACETTY" render --keys "mlllllm'x" "$t" > "$TMPD/out" 2> "$TMPD/err"
matches "$TMPD/out" "^[Mm]arker m1 deleted" "opened with markers: on the first marker"

# m on an event: a marker at its start; m again at once: moved to its end.
# The event the search selects, and its times, from python3.
rm -f "$t.markers.json"
"$TRACETTY" render --size 100x24 --disable all --keys "/gemm<Enter><Esc><Esc>" "$t" > "$TMPD/out"
start=$(tail -1 "$TMPD/out" | sed -n 's/.* start \([0-9.]* [mu]s\) .*/\1/p')
ends=$(python3 - "$t" "$start" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
t0 = min(e["ts"] for e in ev if "ts" in e and e.get("ph") != "M")
v, unit = sys.argv[2].split()
want = float(v) * (1000 if unit == "ms" else 1)
g = [e for e in ev if "gemm" in e.get("name", "") and abs(e["ts"] - t0 - want) < 1e-6]
e = g[0]
fmt = lambda us: ("%g ms" % (us / 1000)) if us >= 1000 else ("%g us" % us)
print(fmt(e["ts"] - t0) + "|" + fmt(e["ts"] - t0 + e["dur"]))
PY
)
"$TRACETTY" render --size 100x24 --disable all --keys "/gemm<Enter>m'" "$t" > "$TMPD/out"
matches "$TMPD/out" "^. +${ends%|*}  m1 " "m on the selected event: a marker at its start (${ends%|*})"
"$TRACETTY" render --size 100x24 --disable all --keys "/gemm<Enter>mm'" "$t" > "$TMPD/out"
matches "$TMPD/out" "^. +${ends#*|}  m1 " "m again: the marker moves to its end (${ends#*|})"
is "$(grep -c "  m[0-9] " "$TMPD/out")" 1 "m twice makes one marker"

# M in the panel moves the marker under its cursor to the timeline's
# cursor; a loaded set shows it changed
"$TRACETTY" markers add "$t" --set s1 --at 1ms --name a > /dev/null 2>&1
"$TRACETTY" render --size 100x24 --disable all --markers s1 --keys ":0.5ms<Enter>'M" "$t" \
    > "$TMPD/out"
matches "$TMPD/out" "^. +500 us  a " "M moves the marker to the cursor (0.5ms)"
matches "$TMPD/out" "set s1\*" "the set on screen is marked changed"

tap_done
