/* merge.h - join a trace fragment onto the end of a trace being built.
 *
 * A decoder that reads its input in chunks on several threads fills one
 * unfinalized tt_trace per chunk (a fragment) and appends the fragments to
 * the real trace in source order. The result is the trace a single pass
 * over the same input would have built, ids included: strings, groups,
 * lanes, counters and attribute tuples are created in a fragment in
 * first-seen order, so adding fragment 0's in their id order, then
 * fragment 1's new ones, reproduces the single pass's first-seen order.
 * Events are appended to their lane after those already there, counter
 * samples after the series' samples, flow points after the trace's (their
 * source sequence continued), argument handles shifted by the records
 * already stored (tt_args_append), problem counts added with the first
 * example kept.
 *
 * What is the decoder's own to carry over: its matching state (open
 * begins, marks), phase tallies, metadata (tr->meta, rank), and lane
 * scratch (lane->open, which must be empty in a fragment). Group and lane
 * display names and sort indexes set in the fragment are copied when set
 * (a non-zero name, has_sort); a decoder that can set a name back to ""
 * replays its own assignments.
 *
 * Ownership: tt_trace_merge() takes the fragment and frees it, whatever the
 * outcome; the map it fills is the caller's (tt_merge_map_fini).
 */
#ifndef TT_MODEL_MERGE_H
#define TT_MODEL_MERGE_H

#include "model/trace.h"

#include <stdbool.h>

/* Where the fragment's ids went in the trace, for the decoder to translate
 * the state it carries over. */
typedef struct tt_merge_map {
    uint32_t *str;        /* fragment string id -> trace string id */
    uint32_t  n_str;
    uint32_t *group;      /* fragment group -> trace group */
    uint32_t *lane;       /* fragment lane -> trace lane */
    size_t   *lane_base;  /* fragment lane -> events of the trace lane before the merge */
    uint32_t  n_lanes;
    uint32_t  args_base;  /* fragment argument handle h (h >= 1) is now args_base + h */
    size_t    flow_base;  /* flow points of the trace before the merge */
} tt_merge_map;

void tt_merge_map_fini(tt_merge_map *m);

/* Append frag (unfinalized, from tt_trace_new) to tr (unfinalized) and free
 * frag. Returns 0, or -1 when out of memory (err set; tr is then partly
 * merged and only fit to be freed). */
int tt_trace_merge(tt_trace *tr, tt_trace *frag, tt_merge_map *map, tt_error *err);

/* Recycling of fragments' event and flow point arrays while chunks are
 * decoded in parallel. Why: a fragment's lanes start empty and grow by
 * doubling, so each chunk copied its events once more into fresh memory
 * (realloc) before the merge copied them again (300k events: 1.2% of the
 * instructions, and the faults of the copies' fresh heap pages). While a
 * pool is open, tt_trace_merge() hands each merged fragment's lane arrays
 * to it, filed by lane index (a fragment's lanes are in first-seen order,
 * much alike from chunk to chunk), and its flow points; the first event
 * of lane i of a fragment built on a thread marked with
 * tt_merge_pool_thread() takes an array filed under i, already as long as
 * a previous chunk's lane i needed and already faulted in, and its first
 * flow point a pooled flow point array. Memory: the pool holds only arrays of
 * merged fragments, which would otherwise be freed into their arenas,
 * until a later fragment takes them or the last user closes it; a new
 * lane takes at most one, so a chunk with many lanes holds no more than
 * its lanes held before. Thread-safe; process-wide, shared by concurrent
 * loads (an array is only memory: every event pushed is written whole). */

/* Start / end using the pool; the last close frees what it holds. */
void tt_merge_pool_open(void);
void tt_merge_pool_close(void);
/* Whether fragments built on the calling thread from now on take pooled
 * arrays (a worker's decode), until called again with false. */
void tt_merge_pool_thread(bool take);
/* For tt_trace_push_event(), the first event of lane `lane` of a trace:
 * an array filed under that index with its capacity in *cap, or NULL
 * (none, no open pool, or a thread not marked). The caller owns it
 * (free()). */
tt_event *tt_merge_pool_take(uint32_t lane, size_t *cap);
/* The same for tt_trace_flow_point(), a trace's first flow point. */
tt_flow_point *tt_merge_pool_take_flows(size_t *cap);

#endif
