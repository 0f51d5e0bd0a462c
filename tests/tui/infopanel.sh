#!/bin/sh
# infopanel.sh - the info panel: I shows the trace's metadata (top-level
# keys, deviceProperties, distributedInfo, a neuron summary), a trace
# without events opens on it, the views of several ranks show the focused
# rank's; F shows the selected event's full name whole, wrapped.
. "$srcdir/tests/lib.sh"

neuron="$(shared_traces)/neuron/summary_json_partial.json"
ranks="$srcdir/tests/data/tui/ranks"

# A neuron summary-only file: no events, 23 metrics. The panel is open at
# start and lists every key of the file with its value (the keys and
# values taken from the file itself).
if [ -f "$neuron" ]; then
    "$TRACETTY" render --size 120x60 "$neuron" > "$TMPD/screen"
    matches "$TMPD/screen" '^\+-Metadata-' "no events: the view opens on the metadata panel"
    "$TRACETTY" render --size 80x24 "$neuron" > "$TMPD/small"
    is "$(grep -n '^+-Metadata-' "$TMPD/small" | cut -d: -f1)" 3 \
        "no lanes to show: the panel takes the area below the ruler"
    tr ',{}' '\n\n\n' < "$neuron" | sed -n 's/^ *"\([a-z_]*\)": *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1 \2/p' > "$TMPD/pairs"
    is "$(wc -l < "$TMPD/pairs" | tr -d ' ')" 23 "the file holds 23 metrics"
    missing=0
    while read -r key val; do
        shown=$(sed -n "s/^| $key  *\(.*[^ ]\) *|\$/\1/p" "$TMPD/screen")
        case $val in
        [0-9]*) same=$(awk -v a="$shown" -v b="$val" 'BEGIN { d = a - b; if (d < 0) d = -d;
                        print (a != "" && d <= 1e-12 * (b < 0 ? -b : b)) ? 1 : 0 }') ;;
        *) same=$([ "$shown" = "$val" ] && echo 1 || echo 0) ;;
        esac
        [ "$same" = 1 ] || { missing=$((missing + 1)); echo "# $key: shown '$shown', in the file '$val'"; }
    done < "$TMPD/pairs"
    is "$missing" 0 "every metric is in the panel with its value"
else
    echo "# no shared traces: neuron part skipped"
fi

# a Chrome trace with deviceProperties and distributedInfo; I opens it
name=aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad_tiling_key_10000000000220130943_1
printf '{"traceEvents":[{"ph":"X","name":"%s","pid":1,"tid":1,"ts":0,"dur":5}],"deviceProperties":[{"id":0,"name":"NVIDIA A100","totalGlobalMem":85899345920}],"distributedInfo":{"backend":"nccl","rank":0,"world_size":2}}\n' \
    "$name" > "$TMPD/t.json"
"$TRACETTY" render --size 80x24 "$TMPD/t.json" > "$TMPD/screen"
if grep -q 'Metadata' "$TMPD/screen"; then ok 1 "a trace with events opens on the timeline"; else ok 0 "a trace with events opens on the timeline"; fi
"$TRACETTY" render --size 80x30 --keys 'I' "$TMPD/t.json" > "$TMPD/screen"
matches "$TMPD/screen" '^\+-Metadata-' "I opens the metadata panel"
matches "$TMPD/screen" '^\| deviceProperties  1 entry ' "deviceProperties: an array of one"
matches "$TMPD/screen" '^\|     totalGlobalMem  85899345920 ' "its members, nested"
matches "$TMPD/screen" '^\|   world_size  2 ' "distributedInfo's members"

# F: the full name, wrapped over the panel's lines, joined back whole
"$TRACETTY" render --size 60x24 --keys '<Tab>F' "$TMPD/t.json" > "$TMPD/screen"
matches "$TMPD/screen" '^\+-Full name \(110 bytes\)-' "F opens the full name, its size in the title"
got=$(sed -n '/Full name/,/^└/p' "$TMPD/screen" | sed -n 's/^| \(.*[^ ]\) *|$/\1/p' | tr -d '\n')
is "$got" "$name" "the name is shown whole"
# the cursor starts mid-window, between these two events
printf '{"traceEvents":[{"ph":"X","name":"x","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","name":"y","pid":1,"tid":1,"ts":10,"dur":5}]}\n' > "$TMPD/gap.json"
"$TRACETTY" render --size 60x24 --keys 'F' "$TMPD/gap.json" | tail -n 1 > "$TMPD/line"
matches "$TMPD/line" '^no event selected' "F without a selected event says so"

# several ranks: the focused rank's metadata
"$TRACETTY" render --size 100x40 --keys 'I' "$ranks" > "$TMPD/screen"
matches "$TMPD/screen" '-Metadata of rank 0-' "the combined view: the focused rank's"
matches "$TMPD/screen" '^\|   rank        0 ' "rank 0's distributedInfo"
"$TRACETTY" render --size 100x40 --keys '2I' "$ranks" > "$TMPD/screen"
matches "$TMPD/screen" '-Metadata of rank 2-' "a rank's tab: that rank's"
matches "$TMPD/screen" '^\|   rank        2 ' "rank 2's distributedInfo"

tap_done
