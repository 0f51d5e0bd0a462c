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

tap_done
