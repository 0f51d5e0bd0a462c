/* kind_ops.c - `report --kind ops`: time by name or another key, the
 * columns of `nsys stats` summaries (analysis/stats.h's breakdown):
 *
 *   Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),
 *   Max (ns),StdDev (ns),Name
 *
 * sorted by total time descending. One row of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

#include "util/json.h"

#include <cjson/cJSON.h>

static const tt_col ops_cols[] = {
    {"Time (%)", "time_percent", TT_COL_REAL, 1, false},
    {"Total Time (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Instances", "instances", TT_COL_INT, 0, false},
    {"Avg (ns)", "avg_ns", TT_COL_REAL, 1, false},
    {"Med (ns)", "med_ns", TT_COL_REAL, 1, false},
    {"Min (ns)", "min_ns", TT_COL_INT, 0, false},
    {"Max (ns)", "max_ns", TT_COL_INT, 0, false},
    {"StdDev (ns)", "stddev_ns", TT_COL_REAL, 1, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
};
#define N_OPS_COLS (sizeof ops_cols / sizeof ops_cols[0])

static int ops_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    tt_breakdown *b;
    tt_cell c[N_OPS_COLS];
    if (tt_breakdown_compute(x->tr, x->sel, &x->o->keys[0], &b, err))
        return -1;
    for (size_t i = 0; i < b->n; i++) {
        const tt_brk_row *row = &b->rows[i];
        c[0] = tt_cell_real(row->share);
        c[1] = tt_cell_int(row->d.total);
        c[2] = tt_cell_int((int64_t)row->d.n);
        c[3] = tt_cell_real(row->d.avg);
        c[4] = tt_cell_real(row->d.median);
        c[5] = tt_cell_int(row->d.min);
        c[6] = tt_cell_int(row->d.max);
        c[7] = tt_cell_real(row->d.stddev);
        c[8] = row->none ? tt_cell_none() : tt_cell_text(row->label);
        if (tt_writer_row(x->w, c, row->share / 100.0)) {
            tt_breakdown_free(b);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
    }
    if ((out->extra = cJSON_CreateObject()))
        tt_json_add_int(out->extra, "sum_total_ns", b->sum_total);
    tt_breakdown_free(b);
    return 0;
}

const tt_report_kind tt_kind_ops = {
    .name = "ops",
    .help = "time by name or another key (--by), nsys stats columns",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_BY | TT_KIND_BY_ONE | TT_KIND_BY_NAME | TT_KIND_MARKERS |
             TT_KIND_WINDOW_ONLY,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .bar_title = "Time",
    .cols = ops_cols,
    .n_cols = N_OPS_COLS,
    .rows = ops_rows,
};
