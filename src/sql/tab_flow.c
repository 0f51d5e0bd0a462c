/* tab_flow.c - SQL table `flow`: one row per flow between two events
 * (Chrome s/t/f flows, correlation links), shaped like Perfetto's flow
 * table.
 *
 *   id         the flow's index in tr->flows (TT_SQLCOL_ID)
 *   slice_out  the slice id of the event it leaves (tt_sql_slice_id)
 *   slice_in   the slice id of the event it enters
 *   arg_set_id Perfetto's column; tracetty keeps no arguments of flows:
 *              always NULL
 *   name       tracetty's: the flow's name (NULL when none)
 *   category   tracetty's: its category (NULL when none)
 *
 * Only flows whose both ends the source keeps (window, lanes). slice_out
 * = v and slice_in = v walk just that event's flows (tt_trace_flows_from,
 * tt_trace_flows_to: a binary search), id = v one flow.
 */
#include "config.h"

#include "sql/sqltab.h"

#include <string.h>

enum { BY_ALL = 0, BY_OUT, BY_IN };

typedef struct flow_cur {
    const tt_sql_src *s;
    int               by;        /* BY_*: positions index flows or flows_by_to */
    size_t            pos, end;  /* positions [pos, end) */
} flow_cur;

static const tt_sql_col cols[] = {
    {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"slice_out", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"slice_in", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"arg_set_id", "INTEGER", TT_SQLCOL_ID},
    {"name", "TEXT", 0},
    {"category", "TEXT", 0},
};

static size_t flow_at(const flow_cur *c)
{
    return c->by == BY_IN ? c->s->tr->flows_by_to[c->pos] : c->pos;
}

static bool kept(const tt_sql_src *s, const tt_flow *f)
{
    return tt_sql_src_keeps(s, f->from.lane, tt_trace_event(s->tr, f->from)) &&
           tt_sql_src_keeps(s, f->to.lane, tt_trace_event(s->tr, f->to));
}

static void settle(flow_cur *c)
{
    while (c->pos < c->end && !kept(c->s, &c->s->tr->flows[flow_at(c)]))
        c->pos++;
}

static int flow_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                      tt_error *err)
{
    (void)err;
    flow_cur *c = vc;
    const tt_trace *tr = s->tr;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->by = BY_ALL;
    c->end = tr->n_flows;
    for (size_t i = 0; i < n && c->pos < c->end; i++) {
        if (cons[i].op != TT_SQLOP_EQ || cons[i].col > 2)
            continue;
        int64_t v = cons[i].v;
        if (cons[i].col == 0) {
            if (c->by != BY_ALL)
                continue;   /* one narrowing is enough: SQLite checks the rest */
            if (v < 0 || v >= (int64_t)tr->n_flows) {
                c->pos = c->end;
            } else {
                c->pos = (size_t)v;
                c->end = c->pos + 1;
            }
            c->by = BY_OUT;   /* positions index tr->flows */
            continue;
        }
        if (c->by != BY_ALL)
            continue;
        tt_evref ev;
        if (!tt_sql_slice_ref(s, v, &ev)) {
            c->pos = c->end;
            continue;
        }
        size_t first, k = cons[i].col == 1 ? tt_trace_flows_from(tr, ev, &first)
                                           : tt_trace_flows_to(tr, ev, &first);
        c->by = cons[i].col == 1 ? BY_OUT : BY_IN;
        c->pos = first;
        c->end = first + k;
    }
    settle(c);
    return 0;
}

static int flow_next(void *vc, tt_error *err)
{
    (void)err;
    flow_cur *c = vc;
    c->pos++;
    settle(c);
    return 0;
}

static bool flow_eof(const void *vc)
{
    const flow_cur *c = vc;
    return c->pos >= c->end;
}

static int flow_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    flow_cur *c = vc;
    const tt_trace *tr = c->s->tr;
    size_t k = flow_at(c);
    const tt_flow *f = &tr->flows[k];
    switch (col) {
    case 0: tt_sql_set_int(v, tt_sql_id(c->s, (int64_t)k)); break;
    case 1: tt_sql_set_int(v, tt_sql_id(c->s, tt_sql_slice_id(c->s, f->from.lane, f->from.idx))); break;
    case 2: tt_sql_set_int(v, tt_sql_id(c->s, tt_sql_slice_id(c->s, f->to.lane, f->to.idx))); break;
    case 4: tt_sql_set_str(v, tr, f->name, true); break;
    case 5: tt_sql_set_str(v, tr, f->cat, true); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

static double flow_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cons[i].op == TT_SQLOP_EQ && cons[i].col <= 2)
            return 1;
    return (double)s->tr->n_flows;
}

const tt_sql_table tt_sqltab_flow = {
    .name = "flow",
    .help = "one row per flow between two slices: id, slice_out, slice_in (name, category: "
            "tracetty's)",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_FLOWS,
    .cur_size = sizeof(flow_cur),
    .first = flow_first,
    .next = flow_next,
    .eof = flow_eof,
    .column = flow_column,
    .estimate = flow_estimate,
};
