/* lanewalk.h - the walk over the thread lanes of one source that the SQL
 * tables of threads share (thread, thread_track): lanes in order, async
 * lanes and the lanes of process and global instants skipped (Perfetto
 * puts those on tracks of their own, not on threads), narrowed to one lane by `id = v` on the table's id column.
 *
 * Ownership: lives inside a table's cursor, borrows the source, allocates
 * nothing. Library code: no I/O.
 */
#ifndef TT_SQL_LANEWALK_H
#define TT_SQL_LANEWALK_H

#include "sql/sqltab.h"

typedef struct tt_sql_lanewalk {
    const tt_sql_src *s;
    uint32_t          lane, end;   /* the current lane; lanes [.., end) */
} tt_sql_lanewalk;

/* What Perfetto would call lane l's track: "async" for async lanes;
 * "global" / "process" for the lane a decoder makes (with an empty thread
 * key) for instants of the whole trace (Chrome's s "g") or of one process
 * (s "p"), which Perfetto puts on tracks of their own, not a thread's;
 * "thread" for every other lane. */
static inline const char *tt_sql_lane_type(const tt_trace *tr, uint32_t l)
{
    const tt_lane *ln = &tr->lanes[l];
    if (ln->kind == TT_LANE_ASYNC)
        return "async";
    if (ln->key == TT_STR_NONE && ln->n > 0) {
        if (ln->ev[0].kind == TT_EV_INSTANT_GLOBAL)
            return "global";
        if (ln->ev[0].kind == TT_EV_INSTANT_PROCESS)
            return "process";
    }
    return "thread";
}

/* Skip to the first thread lane at or after the current one. */
static inline void tt_sql_lanewalk_settle(tt_sql_lanewalk *w)
{
    while (w->lane < w->end && tt_sql_lane_type(w->s->tr, w->lane)[0] != 't')
        w->lane++;
}

/* Position w on the first thread lane of s; idcol: the column holding
 * the lane index (an EQ constraint on it leaves that lane alone). */
static inline void tt_sql_lanewalk_first(tt_sql_lanewalk *w, const tt_sql_src *s,
                                         const tt_sql_cons *cons, size_t n, int idcol)
{
    w->s = s;
    w->lane = 0;
    w->end = s->tr->n_lanes;
    for (size_t i = 0; i < n; i++) {
        if (cons[i].col != idcol || cons[i].op != TT_SQLOP_EQ)
            continue;
        if (cons[i].v < w->lane || cons[i].v >= w->end) {
            w->lane = w->end;
        } else {
            w->lane = (uint32_t)cons[i].v;
            w->end = w->lane + 1;
        }
    }
    tt_sql_lanewalk_settle(w);
}

static inline void tt_sql_lanewalk_next(tt_sql_lanewalk *w)
{
    w->lane++;
    tt_sql_lanewalk_settle(w);
}

static inline bool tt_sql_lanewalk_eof(const tt_sql_lanewalk *w) { return w->lane >= w->end; }

/* next() and eof() of a table whose cursor is a tt_sql_lanewalk (or
 * begins with one). */
static inline int tt_sql_lanecur_next(void *cur, tt_error *err)
{
    (void)err;
    tt_sql_lanewalk_next(cur);
    return 0;
}

static inline bool tt_sql_lanecur_eof(const void *cur) { return tt_sql_lanewalk_eof(cur); }

#endif
