/* fuzz_ttz.c - libFuzzer target for the .ttz snapshot reader.
 *
 * An input is read two ways. As it is, it exercises the framing: magic,
 * version, checksums, sizes. Checksums make random content changes fail
 * early, so the input is also split into section payloads, which are
 * compressed and checksummed like the writer does (tt_snapshot_assemble)
 * and then decoded: that reaches every section parser with hostile
 * content. Layout of that reading: 12 little-endian u16 lengths, then the
 * payloads of sections 1..12 in order (short inputs give empty sections;
 * section 7, the event blocks, is stored as it is). What loads that way
 * is also asked every attribution query (section 11 restores it), each
 * answer an event of the trace, a parent an earlier one of its lane.
 * See fuzz_formats.h for the invariants checked on what loads.
 */
#include "config.h"

#include "fuzz_formats.h"

#include "analysis/attrib.h"
#include "snapshot/snapshot.h"

static bool fuzz_ref_in(const tt_trace *tr, tt_evref r)
{
    return !tt_evref_ok(r) || (r.lane < tr->n_lanes && r.idx < tr->lanes[r.lane].n);
}

/* The attribution of a snapshot that decodes, restored from its section. */
static void fuzz_attrib(const unsigned char *file, size_t n)
{
    tt_trace *tr = tt_trace_new();
    const tt_attrib *a;
    tt_error err;
    tt_error_clear(&err);
    if (tr && tt_snapshot_decode(file, n, 1, tr, NULL, &err) == 0 && (a = tt_attrib_get(tr, &err)))
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
                tt_evref r = {l, i}, p = tt_attrib_parent(a, r);
                FCHECK(!tt_evref_ok(p) || (p.lane == l && p.idx < i));
                FCHECK(fuzz_ref_in(tr, tt_attrib_launcher(a, r)));
                FCHECK(fuzz_ref_in(tr, tt_attrib_launch_op(a, r)));
                (void)tt_attrib_self(a, r);
                (void)tt_attrib_device_self(a, r);
                (void)tt_attrib_device_total(a, r);
            }
    tt_trace_free(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const unsigned char *raw[TT_SNAPSHOT_SECTIONS];
    size_t len[TT_SNAPSHOT_SECTIONS], pos = 2 * (TT_SNAPSHOT_SECTIONS - 1);
    unsigned char *file;
    size_t n;
    tt_error err;

    fuzz_decoder(data, size, "ttz", NULL);
    (void)fuzz_load(data, size, false, NULL, NULL);

    memset(raw, 0, sizeof raw);
    memset(len, 0, sizeof len);
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++) {
        size_t want = 0;
        if (2 * id <= size)
            want = (size_t)data[2 * id - 2] | (size_t)data[2 * id - 1] << 8;
        if (pos > size)
            pos = size;
        if (want > size - pos)
            want = size - pos;
        raw[id] = data + pos;
        len[id] = want;
        pos += want;
    }
    tt_error_clear(&err);
    if (tt_snapshot_assemble(raw, len, &file, &n, &err) == 0) {
        fuzz_decoder(file, n, "ttz", NULL);
        fuzz_attrib(file, n);
        free(file);
    }
    return 0;
}
