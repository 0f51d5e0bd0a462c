/* evwalk.h - the walk over the events of one source that the SQL event
 * tables (slice, instant) share: lanes in order, then events by position,
 * narrowed by the integer constraints a table passes on its id, ts, dur
 * and track_id columns, and by the source's window and lanes.
 *
 * Cost: per visited lane, the ts constraints and the window become a
 * range of positions through the lane's sorted starts and its interval
 * index (index/index.h: binary searches), so `ts BETWEEN a AND b` walks
 * O(lanes x log n + k) events; an id or track_id constraint narrows the
 * lanes first (the slice ids are the lanes' prefix sums, sqltab.h). dur
 * and the event kinds only filter the range.
 *
 * Ownership: the walker lives inside a table's cursor and allocates
 * nothing; it borrows the source. Library code: no I/O.
 */
#ifndef TT_SQL_EVWALK_H
#define TT_SQL_EVWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/sqltab.h"

/* Where a table keeps the walk's keys: the index of its id, ts, dur and
 * track_id columns in its cols, -1 for a column it does not have. id is
 * the slice id (sqltab.h), track_id the lane index. */
typedef struct tt_sql_evkeys {
    int id, ts, dur, track;
} tt_sql_evkeys;

/* Which event kinds a table shows: bit (1u << tt_event_kind) per kind. */
#define TT_SQL_EVKINDS_ALL 0x1fu
#define TT_SQL_EVKINDS_INSTANT ((1u << TT_EV_INSTANT) | (1u << TT_EV_INSTANT_PROCESS) | \
                                (1u << TT_EV_INSTANT_GLOBAL))

typedef struct tt_sql_evwalk {
    const tt_sql_src *s;
    unsigned kinds;
    /* the constraints, as inclusive bounds (an empty walk: lo > hi) */
    int64_t  id_lo, id_hi, ts_lo, ts_hi, dur_lo, dur_hi;
    uint32_t lane, lane_end;   /* the current lane; lanes [.., lane_end) */
    uint32_t idx, idx_end;     /* the current event; positions [.., idx_end) */
} tt_sql_evwalk;

/* Position w on the first event of s meeting cons[0..n) (keys k say which
 * columns they name; constraints on other columns are ignored, SQLite
 * checks them) of one of the kinds. */
void tt_sql_evwalk_first(tt_sql_evwalk *w, const tt_sql_src *s, const tt_sql_evkeys *k,
                         const tt_sql_cons *cons, size_t n, unsigned kinds);
void tt_sql_evwalk_next(tt_sql_evwalk *w);
static inline bool tt_sql_evwalk_eof(const tt_sql_evwalk *w) { return w->lane >= w->lane_end; }
/* The current event (not at eof). */
static inline const tt_event *tt_sql_evwalk_event(const tt_sql_evwalk *w)
{
    return &w->s->tr->lanes[w->lane].ev[w->idx];
}
/* Its local slice id. */
static inline int64_t tt_sql_evwalk_id(const tt_sql_evwalk *w)
{
    return tt_sql_slice_id(w->s, w->lane, w->idx);
}

/* next() and eof() of a table whose cursor begins with its walker: they
 * need nothing else of the cursor. */
int tt_sql_evcur_next(void *cur, tt_error *err);
bool tt_sql_evcur_eof(const void *cur);

/* The arg_set_id of e: its argument set's id, NULL when it has none. */
static inline void tt_sql_set_args(tt_sql_val *v, const tt_sql_src *s, const tt_event *e)
{
    if (e->args)
        tt_sql_set_int(v, tt_sql_id(s, e->args));
    else
        tt_sql_set_null(v);
}

/* The events first() would range over for these constraints (before the
 * dur, kind and exact window filters), by binary searches only, halved
 * per dur constraint (a guess at what it keeps): the tables' estimate(). */
double tt_sql_evwalk_estimate(const tt_sql_src *s, const tt_sql_evkeys *k,
                              const tt_sql_cons *cons, size_t n);

#endif
