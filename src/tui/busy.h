/* busy.h - the union of many events' intervals: how much of [a, b) is busy.
 *
 * A rank's summary lane in the combined view shows how busy its device
 * was in each cell: the union of the kernels, copies and memsets of all
 * its device lanes. Streams overlap, so neither the sum of the lanes nor
 * the busiest lane is that number. The union is computed once, when the
 * view first needs it, as sorted disjoint intervals with running totals,
 * so the busy time of any range is two binary searches, O(log n), at any
 * zoom.
 *
 * Memory: 24 bytes per interval of the union; at most one per event kept,
 * fewer when events touch or overlap. Zero-length events add nothing.
 *
 * Ownership: tt_busy owns its arrays. Library code: no I/O.
 */
#ifndef TT_TUI_BUSY_H
#define TT_TUI_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

typedef struct tt_busy {
    tt_ns  *s, *e;   /* disjoint, sorted, e[i] > s[i], e[i] < s[i + 1] */
    tt_ns  *cum;     /* cum[i]: total length of the intervals before i */
    size_t  n;
    tt_ns   total;
} tt_busy;

/* Which events count: true to keep e (of lane `lane`). */
typedef bool (*tt_busy_keep_fn)(void *ctx, uint32_t lane, const tt_event *e);

void tt_busy_init(tt_busy *b);
void tt_busy_fini(tt_busy *b);

/* The union of the events of lanes[0..n) of tr that keep() accepts (all
 * when keep is NULL). Replaces what b held. 0, or -1 when out of memory
 * (b is then empty). O(events x log lanes). */
int tt_busy_build(tt_busy *b, const tt_trace *tr, const uint32_t *lanes, size_t n,
                  tt_busy_keep_fn keep, void *ctx);

/* Busy time before t: the length of the union inside (-inf, t). */
tt_ns tt_busy_before(const tt_busy *b, tt_ns t);

/* Busy time inside [from, to) (0 when to <= from). */
static inline tt_ns tt_busy_in(const tt_busy *b, tt_ns from, tt_ns to)
{
    return to > from ? tt_busy_before(b, to) - tt_busy_before(b, from) : 0;
}

/* Bytes held. */
static inline size_t tt_busy_memory(const tt_busy *b)
{
    return b->n * 3 * sizeof(tt_ns);
}

#endif
