# sql_finding_job_cmp.py CHECK.csv FINDING.csv RANKS.csv - compare the SQL
# `finding` table over a job with `tracetty check --format csv` over the
# same traces, row for row in check's ranked order (its Rank column, the
# table's position): rank, rule, severity, span (check's is relative to
# the finding's trace's start, the table's on the trace's clock: t0 from
# the `rank` table), events and message. Prints "ok N" or what differs,
# then "rule RULE COUNT" per rule and "cost RULE RANK COST" for each
# finding whose cost is stated (not its span); a finding of another rule
# whose cost is not its span is reported as a difference.
import csv
import sys

check = list(csv.DictReader(open(sys.argv[1], newline="")))
got = list(csv.DictReader(open(sys.argv[2], newline="")))
ranks = {r["path"]: (int(r["rank"]), int(r["t0"]))
         for r in csv.DictReader(open(sys.argv[3], newline=""))}
t0 = {rank: t for rank, t in ranks.values()}
STATED = ("straggler", "slow-card", "slow-link")

want = []
for r in check:
    rank, base = ranks[r["Trace"]]
    want.append((int(r["Rank"]), rank, r["Rule"], r["Severity"], int(r["Start (ns)"]),
                 int(r["End (ns)"]), int(r["Events"]), r["Message"]))
want.sort()
have = []
bad = []
for r in got:
    rank, ts, dur = int(r["rank"]), int(r["ts"]), int(r["dur"])
    have.append((int(r["position"]), rank, r["rule"], r["severity"], ts - t0[rank],
                 ts + dur - t0[rank], int(r["events"]), r["message"]))
    if r["rule"] not in STATED and int(r["cost"]) != dur:
        bad.append("cost %s of %s is not its span %d" % (r["cost"], r["rule"], dur))
if have == want and not bad:
    print("ok %d" % len(want))
else:
    print("differ: %d rows, want %d" % (len(have), len(want)))
    for h, w in zip(have, want):
        if h != w:
            print("#   got:  %r\n#   want: %r" % (h, w))
            break
    for b in bad[:3]:
        print("#   " + b)
counts = {}
for w in want:
    counts[w[2]] = counts.get(w[2], 0) + 1
for rule in sorted(counts):
    print("rule %s %d" % (rule, counts[rule]))
for r in got:
    if r["rule"] in STATED:
        print("cost %s %s %s" % (r["rule"], r["rank"], r["cost"]))
