/* tab_track.c - SQL table `track`: every track of the source, lanes
 * first (ids = lane index, slice.track_id), then counter series (ids
 * tt_sql_counter_track_id(), counter.track_id), shaped like Perfetto's
 * track table.
 *
 *   id     the track id
 *   name   a lane's thread_name metadata (NULL when none; an async lane
 *          without one: the key it groups by, e.g. its category); a
 *          counter's name, then a space and its series key when it has
 *          one, as Perfetto names the series of a Chrome counter event
 *          ("NAME id: ID KEY" for a counter with an id: sql/ctrname.h)
 *   type   'thread', 'async', 'process' or 'global' (instants of a process
 *          or of the whole trace: sql/lanewalk.h), or 'counter'
 *   upid   the process (`process`) the track belongs to
 * then tracetty's:
 *   key    the lane's source key (a tid, a stream, a category), or the
 *          counter's series key
 *
 * Ownership: the cursor owns the buffer a counter's name is composed in
 * (freed by close()).
 */
#include "config.h"

#include "sql/ctrname.h"
#include "sql/lanewalk.h"
#include "sql/sqltab.h"

#include <stdlib.h>
#include <string.h>

typedef struct track_cur {
    const tt_sql_src *s;
    int64_t           t, end;   /* the current track id; ids [.., end) */
    char             *buf;      /* a counter's composed name */
    size_t            cap;
} track_cur;

enum { C_ID, C_NAME, C_TYPE, C_UPID, C_KEY };

static const tt_sql_col cols[] = {
    [C_ID] = {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_NAME] = {"name", "TEXT", 0},
    [C_TYPE] = {"type", "TEXT", 0},
    [C_UPID] = {"upid", "INTEGER", TT_SQLCOL_ID},
    [C_KEY] = {"key", "TEXT", 0},
};

static int track_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                       tt_error *err)
{
    (void)err;
    track_cur *c = vc;
    c->s = s;
    c->t = 0;
    c->end = (int64_t)s->tr->n_lanes + s->tr->n_counters;
    for (size_t i = 0; i < n; i++) {   /* id = v: one row */
        if (cons[i].col != C_ID || cons[i].op != TT_SQLOP_EQ)
            continue;
        if (cons[i].v < c->t || cons[i].v >= c->end) {
            c->t = c->end;
        } else {
            c->t = cons[i].v;
            c->end = c->t + 1;
        }
    }
    return 0;
}

static int track_next(void *vc, tt_error *err)
{
    (void)err;
    track_cur *c = vc;
    c->t++;
    return 0;
}

static bool track_eof(const void *vc)
{
    const track_cur *c = vc;
    return c->t >= c->end;
}

static int track_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    track_cur *c = vc;
    const tt_sql_src *s = c->s;
    const tt_trace *tr = s->tr;
    if (c->t < (int64_t)tr->n_lanes) {
        const tt_lane *l = &tr->lanes[c->t];
        bool async = l->kind == TT_LANE_ASYNC;
        switch (col) {
        case C_ID: tt_sql_set_int(v, tt_sql_id(s, c->t)); break;
        case C_NAME:
            tt_sql_set_str(v, tr, l->name != TT_STR_NONE || !async ? l->name : l->key, true);
            break;
        case C_TYPE: tt_sql_set_text(v, tt_sql_lane_type(tr, (uint32_t)c->t)); break;
        case C_UPID: tt_sql_set_int(v, tt_sql_id(s, l->group)); break;
        case C_KEY: tt_sql_set_str(v, tr, l->key, false); break;
        default: tt_sql_set_null(v); break;
        }
        return 0;
    }
    const tt_counter *ct = &tr->counters[c->t - tr->n_lanes];
    switch (col) {
    case C_ID: tt_sql_set_int(v, tt_sql_id(s, c->t)); break;
    case C_NAME: return tt_sql_counter_name(tr, ct, true, &c->buf, &c->cap, v, err);
    case C_TYPE: tt_sql_set_text(v, "counter"); break;
    case C_UPID: tt_sql_set_int(v, tt_sql_id(s, ct->group)); break;
    case C_KEY: tt_sql_set_str(v, tr, ct->key, false); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

static void track_close(void *vc)
{
    track_cur *c = vc;
    free(c->buf);
    c->buf = NULL;
    c->cap = 0;
}

const tt_sql_table tt_sqltab_track = {
    .name = "track",
    .help = "every track: thread and async lanes, then counter series: id, name, type, upid, key",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_COUNTERS,
    .cur_size = sizeof(track_cur),
    .first = track_first,
    .next = track_next,
    .eof = track_eof,
    .column = track_column,
    .close = track_close,
};
