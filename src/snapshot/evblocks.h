/* evblocks.h - the events of a format-3 .ttz snapshot: each lane's events
 * in blocks of a fixed count, each block one zstd frame that decodes on
 * its own, and an index that says where each block lies in time and in
 * the file. Internal to src/snapshot/ (snapshot.c is the only user).
 *
 * Why blocks: a command that looks at a window or a few lanes decodes only
 * the blocks whose [first start, max end] meets the window on those lanes,
 * and a whole reopen decodes all blocks on every core. So nothing a block
 * holds depends on another: the delta state (last duration and category
 * per name, the list of correlation ids for matching, the numbering of new
 * argument records) starts afresh at every block, and depths are stored
 * (they depend on the events before the block).
 *
 * Index payload (zstd-compressed section, all varints; signed zigzag):
 *   events per block (B);
 *   per lane, in lane order: its time unit, its max depth;
 *   per block, lane after lane, time order (a lane of n events has
 *   ceil(n / B) blocks, all of B events but its last):
 *     first start (signed), last start - first start, max end - first
 *     start, stored bytes, raw bytes, crc32 of the stored bytes, argument
 *     records it introduces.
 * The blocks' stored bytes lie one after another in the events section,
 * in index order, filling it exactly.
 *
 * Block payload (one zstd frame): one byte of encodings (start | dur << 1
 * | corr << 2, as in format 2), then the columns start, dur, name, cat,
 * attrs, corr, args, bytes, kind, depth, each as its byte length and its
 * bytes. Starts and durations are in the lane's unit; the block's first
 * start is absolute. Argument handles: 0 none, 1 the next new record (the
 * block's first is the sum of the records earlier blocks introduce, plus
 * one), h + 1 a record an earlier event introduced.
 */
#ifndef TT_SNAPSHOT_EVBLOCKS_H
#define TT_SNAPSHOT_EVBLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "snapshot/argcols.h"
#include "snapshot/wire.h"

/* Events per block: a 1 ms window of a 10M-event trace decodes a few
 * blocks per lane (about 0.2 ms each); compression loses 3% against one
 * frame over everything. */
#define TT_EVB_EVENTS 8192u
/* Tests set TRACETTY_TTZ_BLOCK_EVENTS=N to write blocks of N events (the
 * reader takes the count from the index, whatever it is). */

typedef struct tt_evb_block {
    tt_ns    first, last, max_end;  /* first start, last start, max end */
    uint64_t offset;                /* in the events section */
    uint64_t stored, raw;
    uint32_t crc;
    uint32_t lane, n;               /* its lane; its events */
    uint32_t arg_base;              /* handle of its first new argument record */
    uint32_t new_args;              /* records it introduces */
    size_t   at;                    /* its first event's position in the whole lane */
} tt_evb_block;

typedef struct tt_evb_lane {
    int64_t  unit;
    uint32_t max_depth;
    uint32_t first, n_blocks;       /* blocks [first, first + n_blocks) */
} tt_evb_lane;

typedef struct tt_evb_index {
    uint32_t      per_block;
    tt_evb_lane  *lanes;
    uint32_t      n_lanes;
    tt_evb_block *blocks;
    size_t        n_blocks;
} tt_evb_index;

/* Reading correlation ids (format 2 over a lane, format 3 over a block):
 * a delta against the last id, or (match mode) either a new id as a delta
 * against the last new one, or the position of an id seen before. */
typedef struct tt_evb_corr {
    bool      match;      /* the match mode */
    uint32_t  last, last_new;
    int64_t   last_pos;
    uint32_t *seen;       /* match mode: the distinct ids, first seen first */
    size_t    n_seen;     /* (room for one per event read) */
} tt_evb_corr;

/* The next id from col into *corr (0: none); NULL or what is wrong. */
const char *tt_evb_read_corr(tt_evb_corr *st, tt_rd *col, uint32_t *corr);

/* An event's start and duration in unit u (both formats): the start
 * absolute (p NULL) or after p's start or end (start_mode 0 or 1), the
 * duration plain or against last_dur, the last of its name (dur_mode 0 or
 * 1); in range and in finalize's order after p. NULL or what is wrong. */
const char *tt_evb_read_time(tt_rd *starts, tt_rd *durs, unsigned start_mode, unsigned dur_mode,
                             const tt_event *p, int64_t u, tt_ns last_dur, tt_event *e);

/* The argument handle, bytes, kind and flags of e from columns col[6],
 * col[7] and col[8] (the same in both formats): a new record gets
 * *next_arg (below arg_end; hint, when not NULL, records e's corr and
 * name for it), an old one must be below it; no_args sets args to 0
 * after checking. NULL or what is wrong. */
const char *tt_evb_read_rest(tt_rd *col, uint32_t *next_arg, uint32_t arg_end,
                             tt_argcols_hint *hint, bool no_args, tt_event *e);

/* The events of tr: the frames into *events, one after another, and the
 * index payload into *index. arg_map[h] is the handle record h gets in the
 * snapshot (handles numbered in event order, lane by lane; 0 for none).
 * level: zstd level of the blocks. Blocks are encoded on up to `threads`
 * threads (0: one per core); the output does not depend on the count.
 * Returns 0, or -1 when out of memory. */
int tt_evb_encode(const tt_trace *tr, const uint32_t *arg_map, int level, unsigned threads,
                  tt_wbuf *events, tt_wbuf *index);

/* Parse an index payload for tr, whose lanes (kinds, event counts) are
 * read; events_size: bytes of the events section; n_args: argument
 * records of the snapshot. Everything the blocks will be checked against
 * is checked for consistency here (counts, offsets, the argument
 * numbering, starts in order between blocks). Returns 0; -1 when out of
 * memory; -2 when the index is bad, *what saying why (a static string).
 * On failure ix is freed. */
int tt_evb_index_read(const unsigned char *p, size_t len, const tt_trace *tr,
                      uint64_t events_size, uint32_t n_args, tt_evb_index *ix, const char **what);
void tt_evb_index_free(tt_evb_index *ix);

/* What decoding blocks needs from the rest of the snapshot. */
typedef struct tt_evb_decoding {
    const tt_evb_index  *ix;
    const unsigned char *events;    /* the events section's stored bytes */
    uint32_t             n_strings, n_attrs;
    bool                 no_args;   /* every event's args becomes 0 */
    tt_argcols_hint     *hint;      /* NULL, or filled for each new record */
    tt_trace            *tr;        /* lanes[l].ev allocated */
    unsigned             threads;
} tt_evb_decoding;

/* Decode blocks sel[0..n_sel) into tr->lanes[blk->lane].ev + dest[k], on
 * up to d->threads threads, each block checked against its index entry
 * (checksum, sizes, count, first and last start, max end, depths below the
 * lane's max, new argument records) and its events against each other
 * (order, ranges, ids). Returns 0; -1 when out of memory; -2 when a block
 * is bad, *bad_block its index and *what the reason (the first bad block
 * in sel order, whatever the thread count). */
int tt_evb_decode(const tt_evb_decoding *d, const size_t *sel, const size_t *dest, size_t n_sel,
                  size_t *bad_block, const char **what);

#endif
