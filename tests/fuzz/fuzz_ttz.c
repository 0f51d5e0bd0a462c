/* fuzz_ttz.c - libFuzzer target for the .ttz snapshot reader.
 *
 * An input is read two ways. As it is, it exercises the framing: magic,
 * version, checksums, sizes. Checksums make random content changes fail
 * early, so the input is also split into section payloads, which are
 * compressed and checksummed like the writer does (tt_snapshot_assemble)
 * and then decoded: that reaches every section parser with hostile
 * content. Layout of that reading: 10 little-endian u16 lengths, then the
 * payloads of sections 1..10 in order (short inputs give empty sections;
 * section 7, the event blocks, is stored as it is).
 * See fuzz_formats.h for the invariants checked on what loads.
 */
#include "config.h"

#include "fuzz_formats.h"

#include "snapshot/snapshot.h"

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
        free(file);
    }
    return 0;
}
