/* kind_events.c - `report --kind events`: one row per event of the
 * selection, lane by lane in start order:
 *
 *   Start (ns),Duration (ns),Lane,Name,Category,Bytes
 *
 * and one column per --by key (report.c adds their titles). One row of the
 * kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/argvals.h"
#include "index/index.h"

#include <stdlib.h>
#include <string.h>

static const tt_col events_cols[] = {
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"Duration (ns)", "duration_ns", TT_COL_INT, 0, false},
    {"Lane", "lane", TT_COL_TEXT, 0, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
    {"Category", "category", TT_COL_TEXT, 0, false},
    {"Bytes", "bytes", TT_COL_INT, 0, false},
};
#define N_EVENTS_FIXED (sizeof events_cols / sizeof events_cols[0])

/* Value of an extra key column for one event. An argument value comes
 * from av, fetched before the rows (fetch_key_args): the i-th event's
 * value of argument slot `slot`, borrowed from av, which outlives the
 * row. */
static void key_cell(const tt_trace *tr, const tt_key *k, const tt_event *e, const char *lname,
                     const tt_argvals *av, size_t i, size_t slot, tt_cell *c)
{
    uint32_t id;
    switch (k->kind) {
    case TT_KEY_LANE:
        *c = tt_cell_text(lname);
        return;
    case TT_KEY_ARG: {
        bool number;
        const char *v = tt_argvals_get(av, i, slot, &number);
        if (!v)
            *c = tt_cell_none();
        else
            *c = number ? tt_cell_number_text(v) : tt_cell_text(v);
        return;
    }
    default:
        id = tt_key_string_id(tr, k, e);
        *c = id ? tt_cell_text(tt_str(tr, id)) : tt_cell_none();
        return;
    }
}

/* The argument values the key columns need, for the selection's events in
 * row order: read up front in storage order (analysis/argvals.h), since
 * reading each row's record in time order decompresses a block per row in
 * a file not in time order. Slot i of av is the i-th argument key of
 * o->keys. An empty av when no key is an argument. */
static int fetch_key_args(const tt_report_opts *o, const tt_trace *tr, const tt_sel *sel,
                          tt_argvals *av, tt_error *err)
{
    const char *keys[TT_REPORT_MAX_KEYS];
    const tt_event **ev = NULL;
    size_t n = 0, n_keys = 0;
    int rc;
    memset(av, 0, sizeof *av);
    for (size_t i = 0; i < o->n_keys; i++)
        if (o->keys[i].kind == TT_KEY_ARG)
            keys[n_keys++] = o->keys[i].arg;
    if (n_keys == 0)
        return 0;
    if (tt_argvals_sel_events(tr, sel, false, &ev, &n, err))
        return -1;
    rc = tt_argvals_fetch(tr, ev, n, keys, n_keys, true, av, err);
    free(ev);
    return rc ? -1 : 0;
}

static int events_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    const tt_report_opts *o = x->o;
    const tt_trace *tr = x->tr;
    const tt_sel *sel = x->sel;
    size_t nl = tt_sel_lane_count(tr, sel), row = 0;
    tt_cell *c = calloc(N_EVENTS_FIXED + o->n_keys, sizeof *c);
    tt_idxbuf buf;
    tt_argvals av;
    char lname[600];
    int rc = 0;
    (void)out;
    if (!c)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    if (fetch_key_args(o, tr, sel, &av, err)) {
        free(c);
        return -1;
    }
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            break;
        }
        tt_lane_fullname(tr, lane, lname, sizeof lname);
        for (size_t k = 0; k < buf.n && rc == 0; k++, row++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            c[0] = tt_cell_int(e->start - tr->t0);
            c[1] = tt_cell_int(e->dur);
            c[2] = tt_cell_text(lname);
            c[3] = tt_cell_text(tt_str(tr, e->name));
            c[4] = e->cat ? tt_cell_text(tt_str(tr, e->cat)) : tt_cell_none();
            c[5] = e->bytes >= 0 ? tt_cell_int(e->bytes) : tt_cell_none();
            for (size_t i = 0, slot = 0; i < o->n_keys; i++)
                key_cell(tr, &o->keys[i], e, lname, &av, row,
                         o->keys[i].kind == TT_KEY_ARG ? slot++ : 0, &c[N_EVENTS_FIXED + i]);
            if (tt_writer_row(x->w, c, 0))
                rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
    }
    tt_argvals_fini(&av);
    tt_idxbuf_fini(&buf);
    free(c);
    return rc ? -1 : 0;
}

const tt_report_kind tt_kind_events = {
    .name = "events",
    .help = "one row per event, a column per --by key",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_BY | TT_KIND_KEY_COLUMNS | TT_KIND_MARKERS | TT_KIND_WINDOW_ONLY,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = events_cols,
    .n_cols = N_EVENTS_FIXED,
    .rows = events_rows,
};
