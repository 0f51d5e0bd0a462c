/* tab_thread_track.c - SQL table `thread_track`: one track per thread
 * lane (sql/lanewalk.h: async lanes are in `track` only), shaped like
 * Perfetto's thread_track.
 *
 *   id     the track id: the lane index (slice.track_id)
 *   name   the lane's thread_name metadata, NULL when none
 *   utid   its thread (`thread`): the lane index too
 *   upid   its process (`process`): the group index
 */
#include "config.h"

#include "sql/lanewalk.h"
#include "sql/sqltab.h"

typedef struct thread_track_cur {
    tt_sql_lanewalk w;   /* first: tt_sql_lanecur_next() */
} thread_track_cur;

enum { C_ID, C_NAME, C_UTID, C_UPID };

static const tt_sql_col cols[] = {
    [C_ID] = {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_NAME] = {"name", "TEXT", 0},
    [C_UTID] = {"utid", "INTEGER", TT_SQLCOL_ID},
    [C_UPID] = {"upid", "INTEGER", TT_SQLCOL_ID},
};

static int thread_track_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                              tt_error *err)
{
    (void)err;
    thread_track_cur *c = vc;
    tt_sql_lanewalk_first(&c->w, s, cons, n, C_ID);
    return 0;
}

static int thread_track_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    thread_track_cur *c = vc;
    const tt_sql_src *s = c->w.s;
    const tt_lane *l = &s->tr->lanes[c->w.lane];
    switch (col) {
    case C_ID:
    case C_UTID: tt_sql_set_int(v, tt_sql_id(s, c->w.lane)); break;
    case C_NAME: tt_sql_set_str(v, s->tr, l->name, true); break;
    case C_UPID: tt_sql_set_int(v, tt_sql_id(s, l->group)); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_thread_track = {
    .name = "thread_track",
    .help = "one track per thread lane: id (slice.track_id), name, utid, upid",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .cur_size = sizeof(thread_track_cur),
    .first = thread_track_first,
    .next = tt_sql_lanecur_next,
    .eof = tt_sql_lanecur_eof,
    .column = thread_track_column,
};
