/* tab_process.c - SQL table `process`: one row per group of the trace
 * (a process, device or rank), shaped like Perfetto's process table.
 *
 *   upid   the group's id (TT_SQLCOL_ID)
 *   pid    the group's source key when it is an integer (a Chrome pid),
 *          else NULL
 *   name   its display name (process_name metadata), NULL when none
 *   labels process_labels metadata, NULL when none (tracetty's)
 */
#include "sql/sqltab.h"


typedef struct process_cur {
    const tt_sql_src *s;
    uint32_t          g, end;
} process_cur;

static const tt_sql_col cols[] = {
    {"upid", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"pid", "INTEGER", 0},
    {"name", "TEXT", 0},
    {"labels", "TEXT", 0},
};

static int process_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                         tt_error *err)
{
    (void)err;
    process_cur *c = vc;
    c->s = s;
    c->g = 0;
    c->end = s->tr->n_groups;
    for (size_t i = 0; i < n; i++) {   /* upid = x: one row */
        if (cons[i].col != 0 || cons[i].op != TT_SQLOP_EQ)
            continue;
        if (cons[i].v < 0 || cons[i].v >= (int64_t)c->end) {
            c->g = c->end;
        } else {
            c->g = (uint32_t)cons[i].v;
            c->end = c->g + 1;
        }
    }
    return 0;
}

static int process_next(void *vc, tt_error *err)
{
    (void)err;
    process_cur *c = vc;
    c->g++;
    return 0;
}

static bool process_eof(const void *vc)
{
    const process_cur *c = vc;
    return c->g >= c->end;
}

static int process_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    process_cur *c = vc;
    const tt_trace *tr = c->s->tr;
    const tt_group *g = &tr->groups[c->g];
    switch (col) {
    case 0: tt_sql_set_int(v, tt_sql_id(c->s, c->g)); break;
    case 1: tt_sql_set_intkey(v, tt_str(tr, g->key)); break;
    case 2: tt_sql_set_str(v, tr, g->name, true); break;
    case 3: tt_sql_set_str(v, tr, g->labels, true); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_process = {
    .name = "process",
    .help = "one row per process, device or rank group: upid, pid, name",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .cur_size = sizeof(process_cur),
    .first = process_first,
    .next = process_next,
    .eof = process_eof,
    .column = process_column,
};
