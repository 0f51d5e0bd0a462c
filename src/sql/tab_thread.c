/* tab_thread.c - SQL table `thread`: one row per thread lane (a thread,
 * a GPU stream, an engine queue; sql/lanewalk.h), shaped like Perfetto's
 * thread table.
 *
 *   utid   the thread's id: the lane index (thread_track.utid)
 *   tid    the lane's source key when it is an integer (a Chrome tid),
 *          else NULL (a stream named by text)
 *   name   its thread_name metadata, NULL when none
 *   upid   its process (`process`): the group index
 */
#include "config.h"

#include "sql/lanewalk.h"
#include "sql/sqltab.h"

typedef struct thread_cur {
    tt_sql_lanewalk w;   /* first: tt_sql_lanecur_next() */
} thread_cur;

enum { C_UTID, C_TID, C_NAME, C_UPID };

static const tt_sql_col cols[] = {
    [C_UTID] = {"utid", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_TID] = {"tid", "INTEGER", 0},
    [C_NAME] = {"name", "TEXT", 0},
    [C_UPID] = {"upid", "INTEGER", TT_SQLCOL_ID},
};

static int thread_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                        tt_error *err)
{
    (void)err;
    thread_cur *c = vc;
    tt_sql_lanewalk_first(&c->w, s, cons, n, C_UTID);
    return 0;
}

static int thread_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    thread_cur *c = vc;
    const tt_sql_src *s = c->w.s;
    const tt_lane *l = &s->tr->lanes[c->w.lane];
    switch (col) {
    case C_UTID: tt_sql_set_int(v, tt_sql_id(s, c->w.lane)); break;
    case C_TID: tt_sql_set_intkey(v, tt_str(s->tr, l->key)); break;
    case C_NAME: tt_sql_set_str(v, s->tr, l->name, true); break;
    case C_UPID: tt_sql_set_int(v, tt_sql_id(s, l->group)); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_thread = {
    .name = "thread",
    .help = "one row per thread lane (thread, stream, queue): utid, tid, name, upid",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .cur_size = sizeof(thread_cur),
    .first = thread_first,
    .next = tt_sql_lanecur_next,
    .eof = tt_sql_lanecur_eof,
    .column = thread_column,
};
