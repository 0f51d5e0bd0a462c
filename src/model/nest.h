/* nest.h - the nesting of a lane's events, one event at a time.
 *
 * The one statement of how an event's depth follows from the events
 * before it in a lane sorted as finalize sorts (by start, longer first):
 * a thread lane nests as a call stack, an async lane packs its events
 * into the first free row (see trace.h). tt_lane_nest() runs it over a
 * lane; the .ttz reader runs it inside its one pass over a reopened lane,
 * where it checks the stored depths against it (snapshot.c
 * nest_index_span()). The step is inline because that pass reads each of
 * millions of events once and a call per event was a measurable part of
 * it.
 *
 * Library code: no I/O. Ownership: a tt_nest owns its row array, from
 * tt_nest_init() to tt_nest_fini().
 */
#ifndef TT_MODEL_NEST_H
#define TT_MODEL_NEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/trace.h"

typedef struct tt_nest {
    tt_ns  *row_end;   /* thread: the call stack's ends, innermost last;
                        * async: each row's end */
    size_t  rows, cap;
    bool    async;
} tt_nest;

/* row_end grown to twice cap, or NULL when out of memory (row_end kept). */
tt_ns *tt_nest_grow(tt_ns *row_end, size_t cap);

/* For a lane of this kind (tt_lane_kind). 0, or -1 when out of memory.
 * Inline, as are the rest: a tt_nest whose address goes to no call lives
 * in registers through the caller's loop. */
static inline int tt_nest_init(tt_nest *nz, unsigned kind)
{
    nz->rows = 0;
    nz->cap = 64;
    nz->async = kind == TT_LANE_ASYNC;
    nz->row_end = malloc(nz->cap * sizeof *nz->row_end);
    return nz->row_end ? 0 : -1;
}

static inline void tt_nest_fini(tt_nest *nz)
{
    free(nz->row_end);
    nz->row_end = NULL;
}

/* Room for one row past rows. 0, or -1 when out of memory. */
static inline int tt_nest_room(tt_nest *nz, size_t rows)
{
    tt_ns *grown;
    if (rows < nz->cap)
        return 0;
    if (!(grown = tt_nest_grow(nz->row_end, nz->cap)))
        return -1;
    nz->row_end = grown;
    nz->cap *= 2;
    return 0;
}

/* The depth of the next event of the lane, [s, end), in the lane's order:
 * clamped to UINT16_MAX as tt_event.depth holds it; -1 when out of
 * memory. */
static inline int32_t tt_nest_step(tt_nest *nz, tt_ns s, tt_ns end)
{
    size_t d, rows = nz->rows;
    if (nz->async) {
        /* the first row free by s */
        for (d = 0; d < rows; d++)
            if (nz->row_end[d] <= s)
                break;
        if (d == rows) {
            if (tt_nest_room(nz, rows))
                return -1;
            nz->rows = rows + 1;
        }
        /* a row stays taken past a zero-length event's start, so the
         * next event at that time takes another row */
        nz->row_end[d] = end <= s ? s + 1 : end;
    } else {
        /* the calls that ended by s return; this one goes on top */
        while (rows > 0 && nz->row_end[rows - 1] <= s)
            rows--;
        d = rows;
        if (tt_nest_room(nz, rows))
            return -1;
        nz->row_end[rows] = end;
        nz->rows = rows + 1;
    }
    return d > UINT16_MAX ? UINT16_MAX : (int32_t)d;
}

#endif
