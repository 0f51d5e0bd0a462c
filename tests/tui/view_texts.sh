#!/bin/sh
# view_texts.sh - the view's short texts say what is true: singular and
# plural counts, and the name of a key that does nothing.
. "$srcdir/tests/lib.sh"

printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5}]}\n' \
    > "$TMPD/one.json"

# the group header of a process with one thread holding one event (j and
# k pass over an open group's header: Home is the first row)
"$TRACETTY" render --size 100x24 --disable all --keys '<Home>' "$TMPD/one.json" > "$TMPD/out"
is "$(tail -1 "$TMPD/out" | grep -o '[0-9]* lanes*, [0-9]* events*')" "1 lane, 1 event" \
    "a group of one lane with one event: singular"

# j from the last lane of a group goes to the next group's first lane,
# not its header; on folded groups (C) it steps header by header
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","name":"b","pid":2,"tid":2,"ts":0,"dur":5}]}\n' \
    > "$TMPD/two.json"
"$TRACETTY" render --size 100x24 --disable all --keys 'j' "$TMPD/two.json" > "$TMPD/out"
grep -q '^> tid 2 ' "$TMPD/out"
ok $? "j from a lane passes over the next open group's header"
"$TRACETTY" render --size 100x24 --disable all --keys 'jk' "$TMPD/two.json" > "$TMPD/out"
grep -q '^> tid 1 ' "$TMPD/out"
ok $? "k passes over it too, back to the lane"
"$TRACETTY" render --size 100x24 --disable all --keys 'Cj' "$TMPD/two.json" > "$TMPD/out"
grep -q '^>[-+] pid 2 ' "$TMPD/out"
ok $? "on folded groups j stops on the next header"

# a box whose breakdown has one row
"$TRACETTY" render --size 100x24 --disable all --keys 'vl<Enter>' "$TMPD/one.json" > "$TMPD/out"
matches "$TMPD/out" "sorted by total .{1,3} 1 row " "a breakdown of one row: singular"

# a key bound to nothing is named as a key ("Y does nothing" read as a
# sentence about another key)
"$TRACETTY" render --size 100x24 --disable all --keys 'u' "$TMPD/one.json" > "$TMPD/out"
matches "$TMPD/out" "^[Kk]ey u does nothing here; \? lists the keys" "an unbound u is called key u"

tap_done
