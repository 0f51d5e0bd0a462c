/* tab_rank.c - SQL table `rank` (tracetty's own): one row per source of
 * the query, a lone trace or each rank of a job; the adapter's rank
 * column (after these) says its rank.
 *
 *   path    the trace's file as the command found it
 *   format  the decoder that read it ("chrome-json", "nsys-sqlite", ...)
 *   t0, t1  its first start and last end, ns on its own clock
 *   events  its number of events (of the whole trace: --window and
 *           --lanes do not change it)
 */
#include "config.h"

#include "sql/sqltab.h"

typedef struct rank_cur {
    const tt_sql_src *s;
    bool              done;
} rank_cur;

static const tt_sql_col cols[] = {
    {"path", "TEXT", 0},
    {"format", "TEXT", 0},
    {"t0", "INTEGER", 0},
    {"t1", "INTEGER", 0},
    {"events", "INTEGER", 0},
};

static int rank_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                      tt_error *err)
{
    rank_cur *c = vc;
    (void)cons;
    (void)n;
    (void)err;
    c->s = s;
    c->done = false;
    return 0;
}

static int rank_next(void *vc, tt_error *err)
{
    (void)err;
    ((rank_cur *)vc)->done = true;
    return 0;
}

static bool rank_eof(const void *vc)
{
    return ((const rank_cur *)vc)->done;
}

static int rank_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    const rank_cur *c = vc;
    const tt_trace *tr = c->s->tr;
    (void)err;
    switch (col) {
    case 0: tt_sql_set_text(v, c->s->path); break;
    case 1: tt_sql_set_text(v, tr->format); break;
    case 2: tt_sql_set_int(v, tr->t0); break;
    case 3: tt_sql_set_int(v, tr->t1); break;
    case 4: tt_sql_set_int(v, (int64_t)tr->n_events); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

static double rank_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    (void)s;
    (void)cons;
    (void)n;
    return 1;
}

const tt_sql_table tt_sqltab_rank = {
    .name = "rank",
    .help = "one row per trace of the query (each rank of a job): path, format, t0, t1, events",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .cur_size = sizeof(rank_cur),
    .first = rank_first,
    .next = rank_next,
    .eof = rank_eof,
    .column = rank_column,
    .estimate = rank_estimate,
};
