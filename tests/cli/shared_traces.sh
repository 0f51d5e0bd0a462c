#!/bin/sh
# shared_traces.sh - every real third-party Chrome trace under
# ../shared/traces (PyTorch/Kineto .json.gz, Ascend/MindSpore .json, the
# catapult/speedscope/viztracer edge cases) loads, and its counts agree
# with an independent count made by Python's json module:
#   - `phases` of `summary --format json` equals the number of events per
#     "ph" value (a multi-character phase counts as its first letter when
#     that is a known phase, as Perfetto reads it, else as "?");
#   - `events` equals the events that become timeline entries: X, B, the
#     instants i/I/R, async n and the async begins b/S, when they have a ts.
# The bare arrays left without their closing ']'
# (speedscope_simple-partial*.json) load without --lenient, keeping every
# event (the format makes the bracket optional).
#
# The CSV, SQLite and neuron files are other decoders' business. Skips
# when the traces are absent (plain clone, distcheck); the Python checks
# are skipped when python3 is absent.
. "$srcdir/tests/lib.sh"

traces=$(shared_traces)
[ -d "$traces" ] || skip_all "no shared traces at $traces"

py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || py=

cat >"$TMPD/count.py" <<'EOF'
import gzip, json, sys

TIMELINE = set("XBiIRnbS")
KNOWN = set("XBEiIRbSeFnCstfMTpPONDc()Vv")

def load_text(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="surrogateescape")

def tally(events):
    phases, timeline = {}, 0
    for e in events:
        if not isinstance(e, dict):
            continue
        ph = e.get("ph")
        if not isinstance(ph, str) or ph == "":
            continue
        key = ph if len(ph) == 1 or ph[0] in KNOWN else "?"
        phases[key] = phases.get(key, 0) + 1
        if key in TIMELINE and "ts" in e:
            timeline += 1
    return phases, timeline

def complete_events(text):
    # the complete objects of a cut-off bare array, one raw_decode at a time
    dec, out = json.JSONDecoder(), []
    i = text.index("[") + 1
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        try:
            obj, i = dec.raw_decode(text, i)
        except ValueError:
            return out
        out.append(obj)

def main():
    mode, trace, summary = sys.argv[1:4]
    text = load_text(trace)
    if mode == "partial":
        events = complete_events(text)
    else:
        doc = json.loads(text)
        events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    phases, timeline = tally(events)
    with open(summary) as f:
        got = json.load(f)
    problems = []
    if got["phases"] != phases:
        problems.append("phases %s, python counts %s" % (got["phases"], phases))
    if got["events"] != timeline:
        problems.append("events %d, python counts %d" % (got["events"], timeline))
    print("; ".join(problems) if problems else "agree (%d events, %d phases)" % (timeline, len(phases)))
    return 1 if problems else 0

sys.exit(main())
EOF

# check_counts MODE FILE OUT_JSON NAME
check_counts() {
    if [ -z "$py" ]; then
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $4: python3 not installed"
        return
    fi
    msg=$("$py" "$TMPD/count.py" "$1" "$2" "$3" 2>&1)
    ok $? "$4: counts $msg"
}

list=$(find "$traces/pytorch" -type f -name '*.json.gz' 2>/dev/null
       find "$traces/ascend" -type f -name '*.json' 2>/dev/null
       find "$traces/chrome-edge" -type f 2>/dev/null)
list=$(echo "$list" | grep -v '^$' | LC_ALL=C sort)
[ -n "$list" ] || skip_all "no Chrome traces under $traces"

for f in $list; do
    name=${f#"$traces"/}
    case $name in
    */speedscope_simple-partial*)
        # bare arrays without their ']' whose events are all complete: the
        # format makes the bracket optional, so no --lenient is needed
        "$TRACETTY" summary --quiet --format json "$f" >"$TMPD/out.json" 2>"$TMPD/err"
        ok $? "$name: no closing ']', every event complete: loads without --lenient"
        is "$(cat "$TMPD/err")" "" "$name: nothing on stderr"
        check_counts partial "$f" "$TMPD/out.json" "$name (complete events)"
        ;;
    *)
        "$TRACETTY" summary --quiet --format json "$f" >"$TMPD/out.json" 2>"$TMPD/err"
        rc=$?
        ok $rc "$name: loads"
        if [ $rc -ne 0 ]; then
            sed 's/^/#   /' "$TMPD/err"
            continue
        fi
        check_counts full "$f" "$TMPD/out.json" "$name"
        ;;
    esac
done

tap_done
