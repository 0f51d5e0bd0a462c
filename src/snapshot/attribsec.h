/* attribsec.h - the attribution section of a .ttz (format 4): the
 * attribution of analysis/attrib.h, saved by the writer so that a reopen
 * restores it instead of rebuilding it (issue 14: built once at load, and
 * kept in the .ttz). Internal to src/snapshot/.
 *
 * Layout (decompressed; integers little-endian, varints as in wire.h):
 *   varint  layout: 2 (packed, store version 2) or 1 (store version 1, the
 *           totals as byte planes: still read); of another number, the
 *           section is skipped and the attribution rebuilt when asked
 *   varint  1: stored; 0: not (a trace of fewer than 65536 events, whose
 *           rebuild costs less than its bytes would; tests set
 *           TRACETTY_TTZ_ATTRIB_FROM=N to store from N events), nothing
 *           follows
 *   varint  lane count, string count, links, device events, dangling
 *   varint  (layout 2) the bytes of the arena that holds every lane array
 *           once restored, each array on a 64-byte boundary, in the order
 *           below (rank words last in a lane: u32 per bitmap word)
 *   bytes   the string flags, one per string id
 *   per lane: byte what it holds (1 device lane, 2 slots, 4 launchers,
 *           8 device time), then
 *     slots:       varint escapes; u16 slot per event as two byte planes
 *                  (every low byte, then every high one); u32 escape
 *                  index and u32 escape value per escape
 *     launchers:   per event a varint: 0 none, else the zigzag of the
 *                  launcher less the previous one, plus 1
 *     device time: varint entries, long totals, other selves; u64 bitmap
 *                  words ((events + 63) / 64); per entry its total less
 *                  the next entry's (mod 2^32): layout 2, after a varint
 *                  first total, the sizes in two bits each (0, 1, 2 or 4
 *                  bytes), four to a byte, then a varint length and the
 *                  bytes; layout 1, as four byte planes; u64
 *                  self == total words ((entries + 63) / 64); u32 entry and
 *                  i64 value per long total; the same per other self
 * (attrib_store.h says what each holds.) Nothing else follows.
 *
 * Library code: no I/O. Ownership: the writer's buffer and the reader's
 * trace stay the caller's; the restored attribution is the trace's.
 */
#ifndef TT_SNAPSHOT_ATTRIBSEC_H
#define TT_SNAPSHOT_ATTRIBSEC_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "snapshot/wire.h"
#include "util/error.h"

/* Append tr's attribution (built now when it was not yet) to b. 0, or -1
 * with err (out of memory: b->oom is set instead when b ran out). */
int tt_attribsec_encode(const tt_trace *tr, tt_wbuf *b, tt_error *err);

/* Restore the attribution of tr (the whole trace the section was written
 * with, finalized) from the section's decompressed bytes p[0..n): checked
 * entirely (attrib_store.h, tt_attrib_store_adopt) before tr holds it.
 * 0 (also when the section is of another store version: nothing is
 * restored); -1 with *why (a corrupt section) or, *why NULL, with err set
 * (out of memory). */
int tt_attribsec_decode(const unsigned char *p, size_t n, const tt_trace *tr, const char **why,
                        tt_error *err);

#endif
