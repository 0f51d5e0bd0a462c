#!/usr/bin/env python3
"""Write the seed corpus of the ttz fuzz target (tests/fuzz/corpus/ttz/):
three snapshots made by `tracetty convert` from inputs in the source tree
(in event blocks of 4, so that they hold several, and with their
attribution and argument templates stored however small they are), each
beside a .sections file (twelve little-endian u16 section lengths, then
the payloads of sections 1..12: decompressed, but the events' blocks as
stored) that the target
rebuilds snapshots from. v1-nsys.ttz is kept as it is: a format-1 file the
reader must refuse by name, and so are the v2-*.ttz files, of format 2,
which it still reads. Needs the zstd command. Rerun after a format change:
  python3 tests/fuzz/make-ttz-corpus.py ./tracetty . tests/fuzz/corpus/ttz
"""
import os
import struct
import subprocess
import sys

tt, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
inputs = {"counters_flows": ("tests/data", "counters_flows.json"),
          "neuron_kinds": ("tests/fuzz/corpus", "neuron/kinds.json"),
          "nsys": ("tests/fuzz/corpus", "csv/nsys.csv")}
for name, (d, path) in inputs.items():
    ttz = os.path.join(out, name + ".ttz")
    subprocess.run([tt, "convert", "--quiet", path, "-o", os.path.abspath(ttz)],
                   cwd=os.path.join(src, d), check=True,
                   env=dict(os.environ, TRACETTY_TTZ_BLOCK_EVENTS="4",
                            TRACETTY_TTZ_ATTRIB_FROM="0",
                            TRACETTY_TTZ_ARGTMPL_FROM="0"))
    f = open(ttz, "rb").read()
    nsec = struct.unpack_from("<I", f, 12)[0]
    raw = {}
    for i in range(nsec):
        sid, flags, off, stored, rawn, crc = struct.unpack_from("<IIQQQI", f, 32 + 36 * i)
        z = f[off:off + stored]
        if flags & 2:   # event blocks: stored as they are
            raw[sid] = z
            continue
        r = subprocess.run(["zstd", "-dc"], input=z, stdout=subprocess.PIPE, check=True).stdout
        assert len(r) == rawn
        raw[sid] = r
    body = b"".join(struct.pack("<H", len(raw.get(i, b""))) for i in range(1, 13))
    body += b"".join(raw.get(i, b"") for i in range(1, 13))
    open(os.path.join(out, name + ".sections"), "wb").write(body)
