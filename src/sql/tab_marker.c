/* tab_marker.c - SQL table `marker` (tracetty's own): the markers of the
 * saved marker set the command named (--markers SET; tt_sql_src.markers),
 * none without one.
 *
 *   id        the marker's index in the set (time order), 0..
 *   set_name  the set's name
 *   name      the marker's name
 *   ts        its time, ns on the trace's clock (the trace's start plus
 *             the marker's offset), like every ts of the other tables
 *   note      its note, NULL when it has none
 *
 * Markers are points in time: only those within the source's window
 * (from <= ts < to).
 */
#include "config.h"

#include "sql/sqltab.h"

#include "markers/markers.h"

typedef struct marker_cur {
    const tt_sql_src *s;
    size_t            i, end;
} marker_cur;

static const tt_sql_col cols[] = {
    {"id", "INTEGER", TT_SQLCOL_KEY},
    {"set_name", "TEXT", 0},
    {"name", "TEXT", 0},
    {"ts", "INTEGER", 0},
    {"note", "TEXT", 0},
};

/* The marker's time on the trace's clock (offsets are clamped as typed
 * times are, so the sum cannot overflow). */
static tt_ns marker_ts(const tt_sql_src *s, const tt_marker *m)
{
    return s->tr->t0 + tt_time_clamp(m->t);
}

static void settle(marker_cur *c)
{
    const tt_sql_src *s = c->s;
    while (c->i < c->end) {
        tt_ns t = marker_ts(s, &s->markers->m[c->i]);
        if (t >= s->from && t < s->to)
            return;
        c->i++;
    }
}

static int marker_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                        tt_error *err)
{
    (void)err;
    marker_cur *c = vc;
    c->s = s;
    c->i = 0;
    c->end = s->markers ? s->markers->n : 0;
    tt_sql_cons_narrow_eq(cons, n, 0, 0, &c->i, &c->end);   /* id = v */
    settle(c);
    return 0;
}

static int marker_next(void *vc, tt_error *err)
{
    (void)err;
    marker_cur *c = vc;
    c->i++;
    settle(c);
    return 0;
}

static bool marker_eof(const void *vc)
{
    const marker_cur *c = vc;
    return c->i >= c->end;
}

static int marker_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    marker_cur *c = vc;
    const tt_markset *set = c->s->markers;
    const tt_marker *m = &set->m[c->i];
    switch (col) {
    case 0: tt_sql_set_int(v, (int64_t)c->i); break;
    case 1: tt_sql_set_text(v, set->name); break;
    case 2: tt_sql_set_text(v, m->name); break;
    case 3: tt_sql_set_int(v, marker_ts(c->s, m)); break;
    case 4:
        if (m->note && *m->note)
            tt_sql_set_text(v, m->note);
        else
            tt_sql_set_null(v);
        break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_marker = {
    .name = "marker",
    .help = "tracetty's: the markers of the set named with --markers: set_name, name, ts, note",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .cur_size = sizeof(marker_cur),
    .first = marker_first,
    .next = marker_next,
    .eof = marker_eof,
    .column = marker_column,
};
