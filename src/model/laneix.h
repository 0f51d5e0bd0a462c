/* laneix.h - the index tt_trace_lane() finds lanes by.
 *
 * Why: a decoder asks for a lane by (group, key, kind) and the model used
 * to answer by scanning every lane, newest first. That is free for the
 * few lanes of most traces and quadratic for formats that make thousands
 * (a HugeCTR profile: 64 hosts x 16 GPUs x streams, 3136 lanes, where the
 * scan was the decode's largest single cost). Past TT_LANEIX_FROM lanes
 * the trace keeps this index instead: one exact map per lane kind from
 * (group << 32 | key) to the lane.
 *
 * The index covers lanes [0, n) of the trace; lanes appended since (by
 * tt_trace_lane() or by a reader filling tr->lanes itself) are added on
 * the next lookup, later lanes replacing earlier ones with the same
 * triple, as the newest-first scan chose. tt_trace_finalize() reorders
 * lanes and renumbers groups, so it drops the index (tt_laneix_free());
 * a later lookup builds it again. A hit is still checked against the
 * lane it names, and a mismatch answers by a scan: a stale entry can
 * cost time, never a wrong lane.
 *
 * Ownership: the trace owns its index (tt_trace.lane_ix) and frees it.
 * Not thread-safe, like the rest of the builder.
 */
#ifndef TT_MODEL_LANEIX_H
#define TT_MODEL_LANEIX_H

#include <stdint.h>

struct tt_trace;
struct tt_laneix;

/* Lanes below this count are found by the scan: it is cheaper than
 * hashing for a handful. */
#define TT_LANEIX_FROM 32

/* The lane (group, key, kind) of tr, its index or TT_NO_LANE when there
 * is none: by a scan below TT_LANEIX_FROM lanes, else by the index. When
 * the index cannot grow (out of memory) the answer comes from a scan and
 * is still right. */
uint32_t tt_laneix_find(struct tt_trace *tr, uint32_t group, uint32_t key, uint8_t kind);

/* Drop the index (NULL is a no-op); tr->lane_ix is left NULL. */
void tt_laneix_free(struct tt_trace *tr);

#endif
