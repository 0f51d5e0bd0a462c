/* tab_counter_track.c - SQL table `counter_track`: one row per counter
 * series of the trace, shaped like Perfetto's counter_track (with the
 * upid of its process_counter_track).
 *
 *   id       the track id: n_lanes + counter index (tt_sql_counter_track_id,
 *            TT_SQLCOL_ID), what counter.track_id holds
 *   name     the track's name as the timeline labels it: the series name,
 *            plus " KEY" when the series key is not "value" (a Chrome C
 *            event with several keys is several series); a Chrome
 *            counter with an id: Perfetto's "NAME id: ID KEY"
 *            (sql/ctrname.h)
 *   unit     "%", "B/s", ...; NULL when unknown
 *   upid     the group (process, device) it belongs to (TT_SQLCOL_ID)
 *   key      tracetty's: the series key inside the track ("value", ...)
 *   derived  tracetty's: 1 when tracetty computed the series, 0 when read
 *
 * The cursor owns the composed name (valid until the next row).
 */
#include "config.h"

#include "sql/ctrname.h"
#include "sql/sqltab.h"

#include <stdlib.h>
#include <string.h>

typedef struct ctrack_cur {
    const tt_sql_src *s;
    size_t            c, end;
    char             *name;   /* "name key", grown as needed */
    size_t            cap;
} ctrack_cur;

static const tt_sql_col cols[] = {
    {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"name", "TEXT", 0},
    {"unit", "TEXT", 0},
    {"upid", "INTEGER", TT_SQLCOL_ID},
    {"key", "TEXT", 0},
    {"derived", "INTEGER", 0},
};

static int ctrack_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                        tt_error *err)
{
    (void)err;
    ctrack_cur *c = vc;
    c->s = s;
    c->c = 0;
    c->end = s->tr->n_counters;
    /* id = v: one row (track ids of counters start after the lanes') */
    tt_sql_cons_narrow_eq(cons, n, 0, (int64_t)s->tr->n_lanes, &c->c, &c->end);
    return 0;
}

static int ctrack_next(void *vc, tt_error *err)
{
    (void)err;
    ((ctrack_cur *)vc)->c++;
    return 0;
}

static bool ctrack_eof(const void *vc)
{
    const ctrack_cur *c = vc;
    return c->c >= c->end;
}

static int ctrack_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    ctrack_cur *c = vc;
    const tt_trace *tr = c->s->tr;
    const tt_counter *k = &tr->counters[c->c];
    switch (col) {
    case 0: tt_sql_set_int(v, tt_sql_id(c->s, tt_sql_counter_track_id(c->s, (uint32_t)c->c))); break;
    case 1:
        /* as the timeline's label, with Perfetto's name for a series of
         * a counter with an id (sql/ctrname.h) */
        return tt_sql_counter_name(tr, k, false, &c->name, &c->cap, v, err);
    case 2: tt_sql_set_str(v, tr, k->unit, true); break;
    case 3: tt_sql_set_int(v, tt_sql_id(c->s, k->group)); break;
    case 4: tt_sql_set_str(v, tr, k->key, true); break;
    case 5: tt_sql_set_int(v, k->derived ? 1 : 0); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

static void ctrack_close(void *vc)
{
    ctrack_cur *c = vc;
    free(c->name);
    memset(c, 0, sizeof *c);
}

const tt_sql_table tt_sqltab_counter_track = {
    .name = "counter_track",
    .help = "one row per counter series: id, name, unit, upid (key, derived: tracetty's)",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_COUNTERS,
    .cur_size = sizeof(ctrack_cur),
    .first = ctrack_first,
    .next = ctrack_next,
    .eof = ctrack_eof,
    .column = ctrack_column,
    .close = ctrack_close,
};
