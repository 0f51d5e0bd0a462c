#!/bin/sh
# lanes_many.sh - a trace of more lanes than tt_trace_lane() finds by a
# scan (model/laneix.h: past 32 the lanes are found through an index):
# a HugeCTR profile of 3 hosts x 12 devices x 3 streams, where one device
# lists a stream twice and one host lists a device twice (JSON objects
# with repeated member names), so that both visits must land on the same
# lane. Each lane's event count and first start / last end in
# `report --kind lanes` are checked against python3's own reading of the
# file. Skipped without python3.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

python3 - "$TMPD/prof.json" "$TMPD/want" <<'PY'
import json, sys

# the profile, written by hand so that member names may repeat
hosts = []
rows = {}   # (host, lane name) -> [events, first start, last end]
for h in range(3):
    hname = "node%d" % h
    devs = []
    for d in list(range(12)) + ([5] if h == 1 else []):
        streams = []
        for s in [0, 1, 2] + ([1] if d == 7 else []):
            evs = []
            for e in range(1 + (h * 7 + d * 3 + s) % 4):
                start = 1000 * (h + 1) + 977 * d + 131 * s + 5003 * e + (len(streams) * 17)
                dur = 250 + 11 * e + d
                evs.append('{"label": "k%d", "avg_measured_time_ns": %d, '
                           '"avg_iter_start_to_event_start_time_ns": %d}' % (e, dur, start))
                r = rows.setdefault((hname, "device %d stream %d" % (d, s)), [0, None, None])
                r[0] += 1
                r[1] = start if r[1] is None else min(r[1], start)
                r[2] = start + dur if r[2] is None else max(r[2], start + dur)
            streams.append('"stream_%d": [%s]' % (s, ", ".join(evs)))
        devs.append('"device_%d": {%s}' % (d, ", ".join(streams)))
    hosts.append('{"host_name": "%s", "avg_iter_time_ns": 90000, "timeline": {%s}}'
                 % (hname, ", ".join(devs)))
    rows[(hname, "iteration")] = [2, 0, 90000]
open(sys.argv[1], "w").write("[\n" + ",\n".join(hosts) + "\n]\n")
json.load(open(sys.argv[1]))   # a valid document
with open(sys.argv[2], "w") as f:
    for (h, l), (n, a, b) in sorted(rows.items()):
        f.write('"%s / %s",%d,%d,%d\n' % (h, l, n, a, b))
PY
ok $? "python3 writes the profile and its lanes"

"$TRACETTY" report --kind lanes --format csv "$TMPD/prof.json" >"$TMPD/out" 2>"$TMPD/err"
ok $? "report --kind lanes of $(grep -c . "$TMPD/want") lanes"
# Lane, Events, First, Last (Busy left out: it is checked elsewhere);
# CSV lines end in CRLF (RFC 4180)
sed 1d "$TMPD/out" | tr -d '\r' | awk -F, '{ print $1 "," $2 "," $5 "," $6 }' | sort >"$TMPD/got"
sort "$TMPD/want" >"$TMPD/want.sorted"
same_file "$TMPD/got" "$TMPD/want.sorted" "every lane's events, first start and last end"

tap_done
