/* levels.h - one row of the timeline per (lane, depth): the events of one
 * nesting depth, which never overlap, with prefix sums of their durations.
 *
 * The lane's interval index (index/index.h) answers questions about the
 * union of all depths. A drawn row shows one depth, and because events of
 * one depth are disjoint and sorted by start (their ends are sorted too),
 * coverage of any time range is two lookups and a subtraction, and the
 * events touching a range are one contiguous run. A lane without nesting
 * needs nothing extra: its events are the row and its index's busy_upto
 * (the union length of events [0..i]) is already the prefix sum. Deeper
 * lanes get a position array and a prefix array per depth (12 bytes per
 * event), built once in O(n) when the view opens.
 *
 * Ownership: tt_levels borrows the trace (which must outlive it) and owns
 * its arrays. Library code: no I/O.
 */
#ifndef TT_TUI_LEVELS_H
#define TT_TUI_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

typedef struct tt_level {
    const tt_event *ev;    /* the lane's events */
    const uint32_t *pos;   /* lane positions of this depth's events; NULL = 0..n-1 */
    const tt_ns    *cum;   /* cum[i] = total duration of entries [0..i]; NULL = busy_upto */
    size_t          n;
} tt_level;

typedef struct tt_levels {
    const tt_trace *tr;
    uint32_t       *first;   /* lane -> index of its depth-0 level in lv */
    uint32_t       *depths;  /* lane -> number of depths (max_depth + 1) */
    tt_level       *lv;
    uint32_t        n_lv;
    uint32_t       *pos;     /* storage for all deep lanes */
    tt_ns          *cum;
} tt_levels;

/* Build the rows of every lane. NULL when out of memory. */
tt_levels *tt_levels_new(const tt_trace *tr);
void tt_levels_free(tt_levels *l);   /* NULL is a no-op */

/* Row of (lane, depth), or NULL when the lane has no such depth. */
const tt_level *tt_levels_get(const tt_levels *l, uint32_t lane, uint32_t depth);

/* Memory held, for budgets. */
size_t tt_levels_memory(const tt_levels *l);

static inline uint32_t tt_level_pos(const tt_level *l, size_t i)
{
    return l->pos ? l->pos[i] : (uint32_t)i;
}

static inline const tt_event *tt_level_ev(const tt_level *l, size_t i)
{
    return &l->ev[tt_level_pos(l, i)];
}

static inline tt_ns tt_level_start(const tt_level *l, size_t i)
{
    return tt_level_ev(l, i)->start;
}

static inline tt_ns tt_level_end(const tt_level *l, size_t i)
{
    const tt_event *e = tt_level_ev(l, i);
    return e->start + e->dur;
}

/* First i >= from with start(i) >= t (n when none). Gallops forward from
 * `from`, so a left-to-right sweep over a row costs O(log gap) per step. */
size_t tt_level_lower_bound(const tt_level *l, size_t from, tt_ns t);

/* The same lower bound, knowing it is >= from, searching outward from the
 * guess g (>= from): O(log |answer - g|). A sweep that guesses from the
 * density of the cells before mostly lands within a few entries. */
size_t tt_level_lower_bound_near(const tt_level *l, size_t from, size_t g, tt_ns t);

/* Total duration of the row before t, given lb = tt_level_lower_bound(t). */
tt_ns tt_level_cum_before(const tt_level *l, size_t lb, tt_ns t);

/* Index of the entry containing t (start <= t < end, or start == t for a
 * zero-length one), searching from `from`; -1 when none. */
int64_t tt_level_at(const tt_level *l, size_t from, tt_ns t);

/* Entries overlapping [a, b): [*first, *last) where lb_b is the lower bound
 * of b and lb_a that of a. */
static inline void tt_level_range(const tt_level *l, size_t lb_a, size_t lb_b, tt_ns a,
                                  size_t *first, size_t *last)
{
    size_t f = lb_a;
    if (f > 0 && tt_level_end(l, f - 1) > a)
        f--;
    *first = f;
    *last = lb_b > f ? lb_b : f;
}

/* Index in the row of the event at lane position `pos` (which must have
 * this row's depth), or -1. O(log n). */
int64_t tt_level_find(const tt_level *l, uint32_t pos);

#endif
