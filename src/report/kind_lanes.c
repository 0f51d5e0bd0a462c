/* kind_lanes.c - `report --kind lanes`: busy time per lane of the
 * selection (analysis/stats.h's summary):
 *
 *   Lane,Events,Busy (ns),Busy (%),First (ns),Last (ns)
 *
 * One row of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

static const tt_col lanes_cols[] = {
    {"Lane", "lane", TT_COL_TEXT, 0, false},
    {"Events", "events", TT_COL_INT, 0, false},
    {"Busy (ns)", "busy_ns", TT_COL_INT, 0, false},
    {"Busy (%)", "busy_percent", TT_COL_REAL, 1, false},
    {"First (ns)", "first_ns", TT_COL_INT, 0, false},
    {"Last (ns)", "last_ns", TT_COL_INT, 0, false},
    {"", "total_ns", TT_COL_INT, 0, true},
    {"", "total_clipped_ns", TT_COL_INT, 0, true},
};
#define N_LANES_COLS (sizeof lanes_cols / sizeof lanes_cols[0])

static int lanes_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    const tt_summary *s = x->summary;
    tt_cell c[N_LANES_COLS];
    char name[600];
    tt_ns window = s->to - s->from;
    (void)out;
    for (size_t i = 0; i < s->n_lanes; i++) {
        const tt_lane_stat *ls = &s->lanes[i];
        c[0] = tt_cell_text(tt_lane_fullname(x->tr, ls->lane, name, sizeof name));
        c[1] = tt_cell_int((int64_t)ls->events);
        c[2] = tt_cell_int(ls->busy);
        c[3] = tt_cell_real(tt_kind_pct(ls->busy, window));
        c[4] = ls->events ? tt_cell_int(ls->first - x->tr->t0) : tt_cell_none();
        c[5] = ls->events ? tt_cell_int(ls->last - x->tr->t0) : tt_cell_none();
        c[6] = tt_cell_int(ls->total);
        c[7] = tt_cell_int(ls->total_clipped);
        if (tt_writer_row(x->w, c, tt_stats_util(ls->busy, window)))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    return 0;
}

const tt_report_kind tt_kind_lanes = {
    .name = "lanes",
    .help = "busy time per lane",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_MARKERS | TT_KIND_WINDOW_ONLY,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .bar_title = "Busy",
    .cols = lanes_cols,
    .n_cols = N_LANES_COLS,
    .rows = lanes_rows,
};
