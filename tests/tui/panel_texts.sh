#!/bin/sh
# panel_texts.sh - what the panels print and how they act at any size:
# the collective panel's batch command names the job's files
# (shell-quoted), the status line's hints for the annotations panel say
# what its title says, and the ranks and annotations panels opened in a
# window too narrow to draw them act on the same lines as in a wide one.
. "$srcdir/tests/lib.sh"

export LC_ALL=C TZ=UTC

# a directory name the shell must quote: a space and a single quote
job="$TMPD/it's a job"
mkdir "$job"
cp "$srcdir"/tests/data/tui/ranks/rank-*.json "$job"/

"$TRACETTY" render --size 300x40 --keys 'Xj<Enter><End>' "$job" > "$TMPD/out" 2> "$TMPD/err"
is "$?" 0 "the collective panel renders"
cmd=$(grep -o "tracetty report --kind collectives --align .*(the rows" "$TMPD/out")
q="'$TMPD/it'\\''s a job"
case $cmd in
*" $q/rank-0.json' $q/rank-1.json' $q/rank-2.json' (the rows") ok 0 "the command names every rank's file, shell-quoted" ;;
*) ok 1 "the command names every rank's file, shell-quoted"; echo "#   got: $cmd" ;;
esac
is "$(grep -c " DIR " "$TMPD/out")" 0 "no placeholder word DIR"

# the annotations panel: the status line's hints as in its title
"$TRACETTY" render --size 250x30 --keys '!' "$job" > "$TMPD/out" 2> "$TMPD/err"
matches "$TMPD/out" "Enter detail/fold  f one rule  A on/off  Esc close" "the title's hint"
is "$(tail -1 "$TMPD/out" | grep -c "Enter detail/fold  f one rule  Esc close")" 1 \
    "the status line says detail/fold, as the title"
"$TRACETTY" render --size 250x30 --keys '!f' "$job" > "$TMPD/out" 2> "$TMPD/err"
is "$(tail -1 "$TMPD/out" | grep -c "Enter detail/fold  f all rules  Esc close")" 1 \
    "filtered to one rule: f shows all rules again, as the title says"

# opened in a 7-column window, then used: on the same line as in a wide
# one (the ranks panel opens on the rank shown: j Enter shows the next)
"$TRACETTY" render --size 100x24 --keys '<Resize:7x24>#j<Enter><Resize:100x24>' "$job" \
    > "$TMPD/out" 2> "$TMPD/err"
is "$?" 0 "the ranks panel in a 7-column window: exits 0"
is "$(head -1 "$TMPD/out" | grep -c "tracetty  rank 1 ")" 1 "j Enter in it shows rank 1"
"$TRACETTY" render --size 100x24 --keys '!j<Enter>' "$job" > "$TMPD/wide" 2> "$TMPD/err"
"$TRACETTY" render --size 100x24 --keys '<Resize:7x24>!j<Enter><Resize:100x24>' "$job" \
    > "$TMPD/narrow" 2> "$TMPD/err"
is "$?" 0 "the annotations panel in a 7-column window: exits 0"
matches "$TMPD/narrow" "Finding 1 of 1: " "j Enter in it opens the finding"
same_file "$TMPD/narrow" "$TMPD/wide" "the same screen as in a wide window"

tap_done
