/* ncu_report.c - the kernels table of an Nsight Compute trace (see
 * ncu_report.h). */
#include "config.h"

#include "report/ncu_report.h"

#include "analysis/ncu_kernels.h"
#include "report/writer.h"
#include "util/json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const tt_col ncu_cols[] = {
    {"Calls", "calls", TT_COL_INT, 0, false},
    {"Mean Duration (ns)", "mean_duration_ns", TT_COL_REAL, 1, false},
    {"Min Duration (ns)", "min_duration_ns", TT_COL_REAL, 1, false},
    {"Max Duration (ns)", "max_duration_ns", TT_COL_REAL, 1, false},
    {"Compute (SM) Throughput (%)", "sm_throughput_percent", TT_COL_REAL, 2, false},
    {"Memory Throughput (%)", "memory_throughput_percent", TT_COL_REAL, 2, false},
    {"DRAM Bytes", "dram_bytes", TT_COL_REAL, 0, false},
    {"DRAM Bandwidth (GB/s)", "dram_gb_per_s", TT_COL_REAL, 2, false},
    {"Achieved Occupancy (%)", "achieved_occupancy_percent", TT_COL_REAL, 2, false},
    {"Registers Per Thread", "registers_per_thread", TT_COL_REAL, 1, false},
    {"Block Size", "block_size", TT_COL_REAL, 1, false},
    {"Grid Size", "grid_size", TT_COL_REAL, 1, false},
    {"Arithmetic Intensity (FLOP/byte)", "arithmetic_intensity", TT_COL_REAL, 3, false},
    {"Achieved FLOP/s (GFLOP/s)", "gflop_per_s", TT_COL_REAL, 3, false},
    {"Bound", "bound", TT_COL_TEXT, 0, false},
};
#define N_BASE (sizeof ncu_cols / sizeof ncu_cols[0])

struct tt_ncu_report {
    tt_writer          *w;
    tt_col             *cols;      /* base, one per metric, Name */
    size_t              ncols;
    const char *const  *metrics;
    size_t              n_metrics;
};

size_t tt_ncu_metric_cols(tt_col *out, const char *const *metrics, size_t n_metrics)
{
    if (out) {
        memcpy(out, ncu_cols + 1, (N_BASE - 1) * sizeof *out);
        for (size_t i = 0; i < n_metrics; i++)
            /* a metric's mean, titled by its ncu name */
            out[N_BASE - 1 + i] = (tt_col){metrics[i], metrics[i], TT_COL_REAL, 3, false};
    }
    return N_BASE - 1 + n_metrics;
}

tt_ncu_report *tt_ncu_report_new(FILE *f, const tt_report_opts *o, const char *const *metrics,
                                 size_t n_metrics)
{
    tt_ncu_report *r = calloc(1, sizeof *r);
    tt_writer_opts wo;
    cJSON *doc;
    if (!r)
        return NULL;
    r->metrics = metrics;
    r->n_metrics = n_metrics;
    r->ncols = N_BASE + n_metrics + 1;
    if (!(r->cols = calloc(r->ncols, sizeof *r->cols))) {
        free(r);
        return NULL;
    }
    r->cols[0] = ncu_cols[0];
    tt_ncu_metric_cols(r->cols + 1, metrics, n_metrics);
    r->cols[r->ncols - 1] = (tt_col){"Name", "name", TT_COL_TEXT, 0, false};
    memset(&wo, 0, sizeof wo);
    wo.format = o->format;
    wo.sanitize = o->sanitize;
    wo.utf8 = o->utf8;
    wo.trace_column = o->several;
    wo.bar_title = "Duration";
    if ((doc = cJSON_CreateObject())) {
        cJSON_AddStringToObject(doc, "kind", "kernels");
        cJSON_AddStringToObject(doc, "source", "ncu");
    }
    /* the writer takes doc, also when it fails */
    if (!doc || !(r->w = tt_writer_new(f, &wo, r->cols, r->ncols, doc))) {
        tt_ncu_report_free(r);
        return NULL;
    }
    return r;
}

static tt_cell mean_cell(const tt_ncu_stat *s)
{
    return tt_ncu_has(s) ? tt_cell_real(tt_ncu_mean(s)) : tt_cell_none();
}

void tt_ncu_metric_cells(const struct tt_ncu_row *w, size_t n_extra, tt_cell *c)
{
    const tt_ncu_stat *v = w->v;
    const tt_ncu_stat *d = &v[TT_NCU_DURATION];
    bool roof = tt_ncu_has(&v[TT_NCU_FLOP]);
    c[0] = mean_cell(d);
    c[1] = tt_ncu_has(d) ? tt_cell_real(d->min) : tt_cell_none();
    c[2] = tt_ncu_has(d) ? tt_cell_real(d->max) : tt_cell_none();
    c[3] = mean_cell(&v[TT_NCU_SM_PCT]);
    c[4] = mean_cell(&v[TT_NCU_MEM_PCT]);
    c[5] = mean_cell(&v[TT_NCU_DRAM_BYTES]);
    c[6] = mean_cell(&v[TT_NCU_DRAM_BW]);
    c[7] = mean_cell(&v[TT_NCU_OCCUPANCY]);
    c[8] = mean_cell(&v[TT_NCU_REGISTERS]);
    c[9] = mean_cell(&v[TT_NCU_BLOCK]);
    c[10] = mean_cell(&v[TT_NCU_GRID]);
    c[11] = roof && tt_ncu_has(&v[TT_NCU_DRAM_BYTES]) && tt_ncu_mean(&v[TT_NCU_DRAM_BYTES]) > 0
                ? tt_cell_real(tt_ncu_mean(&v[TT_NCU_FLOP]) /
                               tt_ncu_mean(&v[TT_NCU_DRAM_BYTES]))
                : tt_cell_none();
    /* flop per ns is GFLOP/s */
    c[12] = roof && tt_ncu_has(&v[TT_NCU_FLOP_TIME]) && tt_ncu_mean(&v[TT_NCU_FLOP_TIME]) > 0
                ? tt_cell_real(tt_ncu_mean(&v[TT_NCU_FLOP]) /
                               tt_ncu_mean(&v[TT_NCU_FLOP_TIME]))
                : tt_cell_none();
    c[13] = tt_ncu_has(&v[TT_NCU_SM_PCT]) && tt_ncu_has(&v[TT_NCU_MEM_PCT])
                ? tt_cell_text(tt_ncu_mean(&v[TT_NCU_SM_PCT]) >=
                                       tt_ncu_mean(&v[TT_NCU_MEM_PCT])
                                   ? "compute"
                                   : "memory")
                : tt_cell_none();
    for (size_t m = 0; m < n_extra; m++)
        c[N_BASE - 1 + m] = mean_cell(&w->extra[m]);
}

int tt_ncu_report_add(tt_ncu_report *r, const tt_trace *tr, const char *name, tt_error *err)
{
    tt_ncu_table t;
    cJSON *fields;
    char title[600];
    double longest = 0;
    tt_cell *c;
    int rc = -1;

    if (tt_ncu_table_build(tr, r->metrics, r->n_metrics, &t, err))
        return -1;
    if (!(c = calloc(r->ncols, sizeof *c))) {
        tt_ncu_table_fini(&t);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    snprintf(title, sizeof title, "%s: Nsight Compute %s page, %zu profiled kernels, %zu names",
             name, t.page ? t.page : "?", t.n_kernels, t.n_rows);
    if ((fields = cJSON_CreateObject())) {
        tt_json_add_int(fields, "kernels", (int64_t)t.n_kernels);
        tt_json_add_int(fields, "metrics", (int64_t)t.n_metrics);
        cJSON_AddStringToObject(fields, "page", t.page ? t.page : "");
    }
    if (!fields || tt_writer_trace_begin(r->w, name, fields, title))
        goto oom;
    for (size_t i = 0; i < t.n_rows; i++)
        if (t.rows[i].v[TT_NCU_DURATION].sum > longest)
            longest = t.rows[i].v[TT_NCU_DURATION].sum;
    for (size_t i = 0; i < t.n_rows; i++) {
        const tt_ncu_row *w = &t.rows[i];
        const tt_ncu_stat *d = &w->v[TT_NCU_DURATION];
        c[0] = tt_cell_int((int64_t)w->calls);
        tt_ncu_metric_cells(w, r->n_metrics, c + 1);
        c[r->ncols - 1] = tt_cell_text(w->name);
        if (tt_writer_row(r->w, c, longest > 0 ? d->sum / longest : 0.0))
            goto oom;
    }
    if (tt_writer_trace_end(r->w, NULL, NULL))
        goto oom;
    rc = 0;
    goto out;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    free(c);
    tt_ncu_table_fini(&t);
    return rc;
}

int tt_ncu_report_finish(tt_ncu_report *r)
{
    return tt_writer_finish(r->w);
}

void tt_ncu_report_free(tt_ncu_report *r)
{
    if (!r)
        return;
    tt_writer_free(r->w);
    free(r->cols);
    free(r);
}
