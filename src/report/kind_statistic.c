/* kind_statistic.c - `report --kind op-statistic` and `--kind
 * api-statistic` (see kind_statistic.h): the file's rows under a Rank
 * column, in the file's order, every number as the file writes it. Two
 * rows of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind_statistic.h"

#include "report/kind.h"
#include "report/report.h"
#include "util/num.h"

#include <stdio.h>
#include <string.h>

const tt_stat_table tt_stat_op = {
    .file = "op_statistic.csv",
    .title = "Operators (op_statistic.csv)",
    .hdr = {"OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)",
            "Max Time(us)", "Ratio(%)"},
    .numeric = {false, false, true, true, true, true, true, true},
    .n = 8,
    .name_col = 0,
    .time_col = 3,
};

const tt_stat_table tt_stat_api = {
    .file = "api_statistic.csv",
    .title = "CANN APIs (api_statistic.csv)",
    .hdr = {"Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)",
            "Variance"},
    .numeric = {false, false, true, true, true, true, true, true},
    .n = 8,
    .name_col = 1,
    .time_col = 2,
};

int tt_stat_read(const tt_stat_table *d, const tt_trace *tr, tt_sidetab **out, int *map,
                 tt_error *err)
{
    char path[4096];
    tt_sidetab *t;
    *out = NULL;
    if (!tt_sidetab_beside(tr, d->file, path, sizeof path) || !tt_sidetab_exists(path))
        return 1;
    if (tt_sidetab_read(path, &t, err))
        goto bad;
    for (size_t k = 0; k < d->n; k++)
        if ((map[k] = tt_sidetab_col(t, d->hdr[k])) < 0) {
            tt_error_at_row(err, TT_ERR_FORMAT, 1, 1, "no \"%s\" column in the header",
                            d->hdr[k]);
            goto bad_t;
        }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t k = 0; k < d->n; k++) {
            const char *s = tt_sidetab_cell(t, r, (size_t)map[k]);
            double v;
            if (d->numeric[k] && tt_parse_double(s, strlen(s), &v) != TT_NUM_OK) {
                tt_error_at_row(err, TT_ERR_FORMAT, (int64_t)r + 2, (int64_t)map[k] + 1,
                                "%s: expected a number, got \"%.40s\"", d->hdr[k], s);
                goto bad_t;
            }
        }
    *out = t;
    return 0;
bad_t:
    tt_sidetab_free(t);
bad:
    tt_sidetab_error_in(err, path);
    return -1;
}

/* Rank, then the file's columns; numbers are text cells holding the
 * file's own text (JSON writes them as numbers). */
static const tt_col op_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"OP Type", "op_type", TT_COL_TEXT, 0, false},
    {"Core Type", "core_type", TT_COL_TEXT, 0, false},
    {"Count", "count", TT_COL_TEXT, 0, false},
    {"Total Time(us)", "total_time_us", TT_COL_TEXT, 0, false},
    {"Min Time(us)", "min_time_us", TT_COL_TEXT, 0, false},
    {"Avg Time(us)", "avg_time_us", TT_COL_TEXT, 0, false},
    {"Max Time(us)", "max_time_us", TT_COL_TEXT, 0, false},
    {"Ratio(%)", "ratio_percent", TT_COL_TEXT, 0, false},
};

static const tt_col api_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Level", "level", TT_COL_TEXT, 0, false},
    {"API Name", "api_name", TT_COL_TEXT, 0, false},
    {"Time(us)", "time_us", TT_COL_TEXT, 0, false},
    {"Count", "count", TT_COL_TEXT, 0, false},
    {"Avg(us)", "avg_us", TT_COL_TEXT, 0, false},
    {"Min(us)", "min_us", TT_COL_TEXT, 0, false},
    {"Max(us)", "max_us", TT_COL_TEXT, 0, false},
    {"Variance", "variance", TT_COL_TEXT, 0, false},
};

static int stat_rows(const tt_stat_table *d, const tt_kind_ctx *x, tt_kind_out *out,
                     tt_error *err)
{
    tt_sidetab *t;
    tt_cell c[1 + TT_STAT_MAX_COLS];
    int map[TT_STAT_MAX_COLS];
    int rc = tt_stat_read(d, x->tr, &t, map, err);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        snprintf(out->note, out->note_cap, "no %s beside this trace (the Ascend profiler "
                 "writes it in ASCEND_PROFILER_OUTPUT/)", d->file);
        return 0;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        c[0] = tt_cell_int(x->rank);
        for (size_t k = 0; k < d->n; k++) {
            const char *s = tt_sidetab_cell(t, r, (size_t)map[k]);
            c[1 + k] = d->numeric[k] ? tt_cell_number_text(s) : tt_cell_text(s);
        }
        if (tt_writer_row(x->w, c, 0)) {
            tt_sidetab_free(t);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
    }
    tt_sidetab_free(t);
    return 0;
}

static int op_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    return stat_rows(&tt_stat_op, x, out, err);
}

static int api_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    return stat_rows(&tt_stat_api, x, out, err);
}

const tt_report_kind tt_kind_op_statistic = {
    .name = "op-statistic",
    .help = "the Ascend profiler's op_statistic.csv beside the trace: per operator and core type",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE,
    /* reads only the side file: no event data at all */
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = op_cols,
    .n_cols = sizeof op_cols / sizeof op_cols[0],
    .rows = op_rows,
};

const tt_report_kind tt_kind_api_statistic = {
    .name = "api-statistic",
    .help = "the Ascend profiler's api_statistic.csv beside the trace: per CANN API and level",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = api_cols,
    .n_cols = sizeof api_cols / sizeof api_cols[0],
    .rows = api_rows,
};
