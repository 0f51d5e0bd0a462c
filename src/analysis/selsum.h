/* selsum.h - summary levels of a finalized trace for large selections.
 *
 * A box over the whole trace must not walk every event (DESIGN.md: "a
 * full-range box select under 50 ms"). Three kinds of summaries, each built
 * lazily the first time a large selection needs it and then kept with the
 * trace until tt_trace_free():
 *
 *   block sums   per lane, the sum of the durations of every
 *                TT_SS_BLOCK events in start order: the total of any
 *                position range is two lookups plus at most 2 blocks walked.
 *                8 bytes per TT_SS_BLOCK events.
 *   keyed sorts  per lane and grouping key (name, category, opcode, layer,
 *                lane), the lane's durations sorted by (group, duration),
 *                with each group's count, exact moments (dist.h), so its
 *                min, max and any k-th value, hence the exact median, are
 *                array lookups. 8 bytes per event per key asked for; keys
 *                that put every event of a lane in one group (the lane key,
 *                an opcode key on a trace without opcodes) share one array.
 *                Built by radix sort: linear in the lane's events.
 *   transfers    per lane, the positions of its events carrying a byte
 *                count: 4 bytes per transfer.
 *   lane unions  per set of lanes (the last TT_SS_UNIONS sets asked for),
 *                the union of their events as sorted disjoint runs with
 *                prefix lengths: busy time over the set in any window is
 *                two binary searches. 24 bytes per run.
 *
 * Arguments (arg:KEY) have no summaries: their values live in compressed
 * records, and decoding them all to sort them would cost what the walk
 * costs; stats.c walks for those keys.
 *
 * Threads: the trace is read-only after finalize and may be shared by
 * threads; the summaries are built and looked up under one mutex per
 * trace, published into the trace with an atomic compare-and-swap. What a
 * call hands out (arrays of a keyed sort) stays valid until the trace is
 * freed. Library code: no I/O.
 */
#ifndef TT_ANALYSIS_SELSUM_H
#define TT_ANALYSIS_SELSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/dist.h"
#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"

#define TT_SS_BLOCK 64
#define TT_SS_UNIONS 4

/* One group of a keyed sort: vals[off, off+n) of the lane's sorted array. */
typedef struct tt_ss_group {
    uint32_t   gid;     /* as tt_key_group() numbers it */
    size_t     off, n;
    tt_moments m;       /* of the group's durations */
} tt_ss_group;

typedef struct tt_ss_keyed {
    const int64_t     *vals;       /* the lane's durations by (group, value) */
    const tt_ss_group *groups;     /* by increasing gid */
    size_t             n_groups;
} tt_ss_keyed;

/* Sum of the durations of positions [a, b) of a lane. 0, or -1 on OOM. */
int tt_selsum_range_total(const tt_trace *tr, uint32_t lane, size_t a, size_t b, tt_ns *out);

/* Whether key kinds have keyed sorts (not arg:KEY). */
static inline bool tt_selsum_keyable(tt_key_kind k)
{
    return k != TT_KEY_ARG;
}

/* The keyed sort of a lane for a key kind (not TT_KEY_ARG), built on first
 * use. 0, or -1 on OOM. */
int tt_selsum_keyed(const tt_trace *tr, uint32_t lane, tt_key_kind kind, tt_ss_keyed *out);

/* Busy time (length of the union of the events) of the selection's lane
 * set inside [sel->from, sel->to). Answers from the set's cached union
 * (1); without one, builds it when `build` is set (1), else answers
 * nothing (0). -1 on OOM. */
int tt_selsum_union(const tt_trace *tr, const tt_sel *sel, bool build, tt_ns *busy);

/* The positions (increasing) of a lane's transfers, the events carrying a
 * byte count (transfers.h), so that a wide window lists them without
 * walking the other events. Built for every lane at once (4 bytes per
 * transfer) when `build` is set; without it, only answers once built.
 * 1 with *pos and *n set, 0 when not built, -1 on OOM. */
int tt_selsum_transfer_positions(const tt_trace *tr, uint32_t lane, bool build,
                                 const uint32_t **pos, size_t *n);

/* Other summaries kept with these by the analyses that own them (one slot
 * each): fn runs under the levels' lock with the slot (NULL until fn puts
 * something there), which the trace frees through its free_fn. fn's return
 * value, or -1 on OOM. */
typedef struct tt_ss_ext {
    void (*free_fn)(struct tt_ss_ext *ext);
    size_t (*memory_fn)(const struct tt_ss_ext *ext);   /* bytes held; may be NULL */
} tt_ss_ext;

enum { TT_SS_EXT_SETS, TT_SS_EXT_SELF, TT_SS_EXT_GPU, TT_SS_EXT_N };   /* setsum.h, selfsum.h,
                                                                          gpusum.h */

int tt_selsum_with_ext(const tt_trace *tr, int slot,
                       int (*fn)(const tt_trace *tr, tt_ss_ext **ext, void *ctx), void *ctx);

/* Bytes the trace's summaries hold now (0 before any large selection). */
size_t tt_selsum_memory(const tt_trace *tr);

#endif
