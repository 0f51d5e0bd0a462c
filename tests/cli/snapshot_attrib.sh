#!/bin/sh
# snapshot_attrib.sh - the attribution kept in a .ttz (format 4): reports
# that read it (operators, kernels, launch, summary) print the same from
# the .ttz, with the attribution stored (TRACETTY_TTZ_ATTRIB_FROM=0) and
# without (a small trace's default), as from the source, on the real
# Kineto traces in ../shared/traces (skipped when absent) and the generated
# one; a damaged attribution section is refused with a message naming it
# and a non-zero exit.
. "$srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is absent"
T=$(shared_traces)
GEN="$builddir/samples/gen-trace"

set --
[ -x "$GEN" ] && "$GEN" kineto --events 3000 -o "$TMPD/gen.json" && set -- "$TMPD/gen.json"
for f in resnet50_workers0.pt.trace.json.gz two_ranks/rank-0.json.gz; do
    [ -f "$T/pytorch/$f" ] && set -- "$@" "$T/pytorch/$f"
done
[ $# -gt 0 ] || skip_all "no Kineto trace at hand"

for f in "$@"; do
    b=$(basename "$f")
    TRACETTY_TTZ_ATTRIB_FROM=0 "$TRACETTY" convert --quiet "$f" -o "$TMPD/$b.kept.ttz"
    ok $? "$b: convert, its attribution stored"
    "$TRACETTY" convert --quiet "$f" -o "$TMPD/$b.ttz"
    ok $? "$b: convert with the default (a small trace stores none)"
    for kind in operators kernels launch; do
        "$TRACETTY" report --quiet --kind $kind "$f" >"$TMPD/a" 2>/dev/null
        for t in "$b.kept.ttz" "$b.ttz"; do
            "$TRACETTY" report --quiet --kind $kind "$TMPD/$t" >"$TMPD/b" 2>/dev/null
            same_file "$TMPD/b" "$TMPD/a" "$t: report --kind $kind as from the source"
        done
    done
    "$TRACETTY" summary "$f" 2>&1 | grep -v '^File' >"$TMPD/a"
    "$TRACETTY" summary "$TMPD/$b.kept.ttz" 2>&1 | grep -v '^File' >"$TMPD/b"
    same_file "$TMPD/b" "$TMPD/a" "$b.kept.ttz: summary (launch links) as from the source"
done

# a damaged byte inside the attribution section (id 11): refused by its
# checksum, naming the section
f=$1
b=$(basename "$f")
python3 - "$TMPD/$b.kept.ttz" "$TMPD/bad.ttz" <<'PY'
import struct, sys
f = bytearray(open(sys.argv[1], "rb").read())
n = struct.unpack_from("<I", f, 12)[0]
for i in range(n):
    sid, flags, off, stored, raw, crc = struct.unpack_from("<IIQQQI", f, 32 + 36 * i)
    if sid == 11:
        f[off + stored // 2] ^= 0x40
open(sys.argv[2], "wb").write(f)
PY
"$TRACETTY" report --quiet --kind operators "$TMPD/bad.ttz" >"$TMPD/out" 2>"$TMPD/err"
ok "$(test $? -ne 0; echo $?)" "a damaged attribution section: non-zero exit"
matches "$TMPD/err" "attribution section: checksum mismatch" "and a message naming it"

tap_done
