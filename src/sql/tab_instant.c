/* tab_instant.c - SQL table `instant`: the events of instant kinds the
 * source keeps, in the shape of Perfetto's legacy instant table (ts,
 * track_id, name, arg_set_id) plus tracetty's scope and slice id. Each
 * is also a dur-0 row of `slice` (tab_slice.c), with the same id.
 *
 *   ts          ns on the trace's own clock
 *   track_id    the lane index
 *   name        the event's name
 *   arg_set_id  its argument set, NULL when none
 *   scope       'thread', 'process' or 'global' (Chrome's s field)
 *   slice_id    its id in `slice`
 *
 * Constraints on ts, track_id and slice_id narrow the walk
 * (sql/evwalk.h); the kind is a filter over what they leave.
 */
#include "config.h"

#include "sql/evwalk.h"
#include "sql/sqltab.h"

typedef struct instant_cur {
    tt_sql_evwalk w;   /* first: tt_sql_evcur_next() */
} instant_cur;

enum { C_TS, C_TRACK, C_NAME, C_ARGS, C_SCOPE, C_SLICE };

static const tt_sql_col cols[] = {
    [C_TS] = {"ts", "INTEGER", TT_SQLCOL_KEY},
    [C_TRACK] = {"track_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_NAME] = {"name", "TEXT", 0},
    [C_ARGS] = {"arg_set_id", "INTEGER", TT_SQLCOL_ID},
    [C_SCOPE] = {"scope", "TEXT", 0},
    [C_SLICE] = {"slice_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
};

/* only arg_set_id reads the arguments: other queries load without them */
static const unsigned col_needs[sizeof cols / sizeof cols[0]] = {[C_ARGS] = TT_SQLNEED_ARGS};

static const tt_sql_evkeys keys = {.id = C_SLICE, .ts = C_TS, .dur = -1, .track = C_TRACK};

static int instant_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                         tt_error *err)
{
    (void)err;
    instant_cur *c = vc;
    tt_sql_evwalk_first(&c->w, s, &keys, cons, n, TT_SQL_EVKINDS_INSTANT);
    return 0;
}

static const char *scope_name(uint8_t kind)
{
    switch (kind) {
    case TT_EV_INSTANT_PROCESS: return "process";
    case TT_EV_INSTANT_GLOBAL: return "global";
    default: return "thread";
    }
}

static int instant_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    instant_cur *c = vc;
    const tt_sql_src *s = c->w.s;
    const tt_event *e = tt_sql_evwalk_event(&c->w);
    switch (col) {
    case C_TS: tt_sql_set_int(v, e->start); break;
    case C_TRACK: tt_sql_set_int(v, tt_sql_id(s, c->w.lane)); break;
    case C_NAME: tt_sql_set_str(v, s->tr, e->name, false); break;
    case C_ARGS: tt_sql_set_args(v, s, e); break;
    case C_SCOPE: tt_sql_set_text(v, scope_name(e->kind)); break;
    case C_SLICE: tt_sql_set_int(v, tt_sql_id(s, tt_sql_evwalk_id(&c->w))); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

/* The walk visits every event of the range, instants or not. */
static double instant_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    return tt_sql_evwalk_estimate(s, &keys, cons, n);
}

const tt_sql_table tt_sqltab_instant = {
    .name = "instant",
    .help = "the instant events: ts, track_id, name, arg_set_id, scope, slice_id",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = 0,
    .col_needs = col_needs,
    .cur_size = sizeof(instant_cur),
    .first = instant_first,
    .next = tt_sql_evcur_next,
    .eof = tt_sql_evcur_eof,
    .column = instant_column,
    .estimate = instant_estimate,
};
