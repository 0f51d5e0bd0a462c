#!/bin/sh
# input_limits.sh - what compressed input can make tracetty hold in memory.
# A few kilobytes of zstd or gzip can hold hundreds of megabytes of text:
#   - whitespace between two events (valid JSON) streams: 300 MB of it, more
#     than one value may take (256 MB), loads both events in little memory;
#   - one string value has a stated limit (256 MB): a 300 MB name is one
#     positioned error naming the limit, exit 2, and the memory stays near
#     the limit instead of several times the string.
# Both for Chrome JSON and for neuron-profile JSON's array elements.
# Memory is the process's peak RSS from Python's resource module; the
# bounds are skipped in sanitizer builds (shadow memory and quarantine),
# where the behaviour is still checked. Inputs are generated as streams
# and never stored decompressed.
. "$srcdir/tests/lib.sh"

py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || skip_all "python3 not installed"
command -v zstd >/dev/null 2>&1 || skip_all "zstd not installed"
cd "$TMPD" || exit 1

sanitized=no
grep -q __asan_init "$TRACETTY" 2>/dev/null && sanitized=yes

# peak_run OUT ERR ARGS...: run, print "STATUS PEAK_RSS_MB"
peak_run() {
    "$py" -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as o, open(sys.argv[2], "wb") as e:
    rc = subprocess.run(sys.argv[3:], stdout=o, stderr=e).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"
}

# spaces N: N bytes of blanks, newlines among them
spaces() { head -c "$1" /dev/zero | tr '\0' ' ' | fold -w 4096; }

mb=300      # more than one value may take
ws_mb=$mb   # under sanitizers the whitespace only shows it loads: less of it
[ $sanitized = no ] || ws_mb=64
ev1='{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 5}'
ev2='{"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 10, "dur": 5}'

{ printf '[%s,\n' "$ev1"; spaces $((ws_mb << 20)); printf '%s]\n' "$ev2"; } | zstd -q -1 >ws.json.zst
{ printf '{"traceEvents": [%s,' "$ev1"; spaces $((ws_mb << 20)); printf '%s]}\n' "$ev2"; } |
    gzip -1 >ws_object.json.gz
for f in ws.json.zst ws_object.json.gz; do
    set -- $(peak_run out err "$TRACETTY" summary --quiet "$f")
    is "$1" 0 "$f: $ws_mb MB of whitespace between two events loads"
    matches out '^Events    2 in the timeline; by phase: X 2$' "$f: both events"
    if [ $sanitized = no ]; then
        [ "$2" -lt 100 ]
        ok $? "$f: whitespace streams: peak RSS ${2} MB < 100 MB"
    fi
done

# the name's quote is byte 51 of line 1: [{"ph": "X", "pid": 1, "tid": 1, "ts": 0, "name": "
{ printf '[{"ph": "X", "pid": 1, "tid": 1, "ts": 0, "name": "'
  head -c $((mb << 20)) /dev/zero | tr '\0' 'a'
  printf '", "dur": 5}]\n'; } | zstd -q -1 >string.json.zst
set -- $(peak_run out err "$TRACETTY" summary --quiet string.json.zst)
is "$1" 2 "a $mb MB string: exit status 2"
is "$(cat err)" \
    "tracetty: string.json.zst: line 1, column 51: a string longer than 256 MB (the limit for one string value)" \
    "a $mb MB string: one positioned message naming the limit"
if [ $sanitized = no ]; then
    [ "$2" -lt 400 ]
    ok $? "a $mb MB string: peak RSS ${2} MB < 400 MB"
fi

# neuron-profile JSON: the same limits for its array elements
nhead='{"summary": [{"total_time": 0.001}], "instruction": ['
nev1='{"timestamp": 1000, "duration": 5, "label": "TensorMatrix", "opcode": "MATMUL"}'
nev2='{"timestamp": 2000, "duration": 5, "label": "TensorMatrix", "opcode": "ADD"}'
{ printf '%s%s,' "$nhead" "$nev1"; spaces $((ws_mb << 20)); printf '%s]}\n' "$nev2"; } |
    zstd -q -1 >nws.json.zst
set -- $(peak_run out err "$TRACETTY" summary --quiet nws.json.zst)
is "$1" 0 "neuron: $ws_mb MB of whitespace between two elements loads"
matches out '^Events    2 in the timeline; by phase: instruction 2$' "neuron: both elements"
if [ $sanitized = no ]; then
    [ "$2" -lt 100 ]
    ok $? "neuron: whitespace streams: peak RSS ${2} MB < 100 MB"
fi
npre="$nhead$nev1, {\"timestamp\": 2000, \"duration\": 5, \"label\": "
{ printf '%s"' "$npre"
  head -c $((mb << 20)) /dev/zero | tr '\0' 'a'
  printf '"}]}\n'; } | zstd -q -1 >nstring.json.zst
set -- $(peak_run out err "$TRACETTY" summary --quiet nstring.json.zst)
is "$1" 2 "neuron: a $mb MB string: exit status 2"
is "$(cat err)" \
    "tracetty: nstring.json.zst: line 1, column $(( ${#npre} + 1 )): a string longer than 256 MB (the limit for one string value)" \
    "neuron: a $mb MB string: one positioned message naming the limit"
if [ $sanitized = no ]; then
    [ "$2" -lt 400 ]
    ok $? "neuron: a $mb MB string: peak RSS ${2} MB < 400 MB"
fi
tap_done
