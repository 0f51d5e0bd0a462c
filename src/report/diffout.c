/* diffout.c - diff tables through the report writer (see diffout.h). */
#include "config.h"

#include "report/diffout.h"

#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tt_col name_cols[] = {
    {"Name", "name", TT_COL_TEXT, 0, false},
    {"Status", "status", TT_COL_TEXT, 0, false},
    {"Count A", "count_a", TT_COL_INT, 0, false},
    {"Count B", "count_b", TT_COL_INT, 0, false},
    {"Total A (ns)", "total_a_ns", TT_COL_INT, 0, false},
    {"Total B (ns)", "total_b_ns", TT_COL_INT, 0, false},
    {"Delta (ns)", "delta_ns", TT_COL_INT, 0, false},
    {"Delta (%)", "delta_percent", TT_COL_REAL, 2, false},
    {"Avg A", "avg_a_ns", TT_COL_REAL, 1, false},
    {"Avg B", "avg_b_ns", TT_COL_REAL, 1, false},
};
#define N_NAME_COLS (sizeof name_cols / sizeof name_cols[0])

static tt_cell real_or_none(double v)
{
    return isnan(v) ? tt_cell_none() : tt_cell_real(v);
}

/* A signed duration for the total line: "+1.20 ms", "-3 ns", "0 ns". */
static char *signed_dur(char *buf, size_t n, int64_t v)
{
    char d[48];
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    tt_fmt_dur(d, sizeof d, mag > INT64_MAX ? INT64_MAX : (int64_t)mag, 2);
    snprintf(buf, n, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", d);
    return buf;
}

char *tt_diffout_total_line(const tt_diff *d, char *buf, size_t cap)
{
    char ta[48], tb[48], td[64], pct[32];
    int64_t delta = d->sum_b - d->sum_a;
    tt_fmt_dur(ta, sizeof ta, d->sum_a, 2);
    tt_fmt_dur(tb, sizeof tb, d->sum_b, 2);
    signed_dur(td, sizeof td, delta);
    if (d->sum_a != 0)
        snprintf(pct, sizeof pct, " (%+.2f%%)", 100.0 * (double)delta / (double)d->sum_a);
    else
        pct[0] = '\0';
    snprintf(buf, cap,
             "Total: A %s, B %s, delta %s%s; %zu name%s: %zu added, %zu deleted, %zu increased, "
             "%zu decreased, %zu unchanged",
             ta, tb, td, pct, d->n, d->n == 1 ? "" : "s", d->n_status[TT_DIFF_ADDED],
             d->n_status[TT_DIFF_DELETED], d->n_status[TT_DIFF_INCREASED],
             d->n_status[TT_DIFF_DECREASED], d->n_status[TT_DIFF_UNCHANGED]);
    return buf;
}

static cJSON *head_of(const tt_diffout_opts *o)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return NULL;
    cJSON_AddStringToObject(doc, "kind", o->kind);
    if (o->by)
        cJSON_AddStringToObject(doc, "by", o->by);
    cJSON_AddStringToObject(doc, "a", o->a);
    cJSON_AddStringToObject(doc, "b", o->b);
    if (o->total_a && o->total_b) {
        cJSON_AddStringToObject(doc, "total_a", o->total_a);
        cJSON_AddStringToObject(doc, "total_b", o->total_b);
    }
    return doc;
}

/* A writer for one table of cols, its head and its one group begun. NULL
 * with err set. */
static tt_writer *table_start(FILE *f, const tt_diffout_opts *o, const tt_col *cols, size_t n,
                              tt_error *err)
{
    tt_writer_opts wo;
    tt_writer *w;
    memset(&wo, 0, sizeof wo);
    wo.format = o->format;
    wo.sanitize = o->sanitize;
    wo.utf8 = o->utf8;
    /* the writer takes the head, also when it fails */
    if (!(w = tt_writer_new(f, &wo, cols, n, head_of(o))) ||
        tt_writer_trace_begin(w, "diff", NULL, NULL)) {
        tt_writer_free(w);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return w;
}

/* End the table (extra: JSON fields after the rows, taken; text: the line
 * under a text table) and free w. rc: the rows' result so far. */
static int table_end(tt_writer *w, int rc, cJSON *extra, const char *text, tt_error *err)
{
    if (rc || tt_writer_trace_end(w, extra, text)) {
        tt_writer_free(w);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    rc = tt_writer_finish(w);
    tt_writer_free(w);
    if (rc)
        return tt_error_set(err, TT_ERR_IO, "cannot write the output"), -1;
    return 0;
}

int tt_diffout_names(FILE *f, const tt_diffout_opts *o, const tt_diff *d, tt_error *err)
{
    tt_writer *w;
    cJSON *extra = NULL, *st;
    char line[400];
    int rc = 0;

    if (!(w = table_start(f, o, name_cols, N_NAME_COLS, err)))
        return -1;
    for (size_t i = 0; i < d->n && !rc; i++) {
        const tt_diff_row *r = &d->rows[i];
        tt_cell c[N_NAME_COLS];
        c[0] = r->name ? tt_cell_text(r->name) : tt_cell_none();
        c[1] = tt_cell_text(tt_diff_status_name(r->status));
        c[2] = tt_cell_int((int64_t)r->count_a);
        c[3] = tt_cell_int((int64_t)r->count_b);
        c[4] = tt_cell_int(r->total_a);
        c[5] = tt_cell_int(r->total_b);
        c[6] = tt_cell_int(r->delta);
        c[7] = real_or_none(r->delta_pct);
        c[8] = real_or_none(r->avg_a);
        c[9] = real_or_none(r->avg_b);
        rc = tt_writer_row(w, c, 0);
    }
    if (!rc && (extra = cJSON_CreateObject())) {
        tt_json_add_int(extra, "sum_a_ns", d->sum_a);
        tt_json_add_int(extra, "sum_b_ns", d->sum_b);
        tt_json_add_int(extra, "delta_ns", d->sum_b - d->sum_a);
        tt_json_add_int(extra, "count_a", (int64_t)d->count_a);
        tt_json_add_int(extra, "count_b", (int64_t)d->count_b);
        if ((st = cJSON_AddObjectToObject(extra, "rows_by_status")))
            for (int s = 0; s < TT_DIFF_N_STATUS; s++)
                tt_json_add_int(st, tt_diff_status_name((tt_diff_status)s),
                                (int64_t)d->n_status[s]);
    }
    return table_end(w, rc, extra,
                     o->format == TT_OUT_TEXT ? tt_diffout_total_line(d, line, sizeof line) : NULL,
                     err);
}

/* ------------------------------------------------------------------ gpu */

static const tt_col gpu_cols[] = {
    {"Metric", "metric", TT_COL_TEXT, 0, false},
    {"A", "a", TT_COL_INT, 0, false},
    {"B", "b", TT_COL_INT, 0, false},
    {"Delta", "delta", TT_COL_INT, 0, false},
    {"Delta (%)", "delta_percent", TT_COL_REAL, 2, false},
};
#define N_GPU_COLS (sizeof gpu_cols / sizeof gpu_cols[0])

/* One metric row: A, B, B - A and its share of A (empty when A is 0). */
static int metric_row(tt_writer *w, const char *name, int64_t a, int64_t b)
{
    tt_cell c[N_GPU_COLS];
    c[0] = tt_cell_text(name);
    c[1] = tt_cell_int(a);
    c[2] = tt_cell_int(b);
    c[3] = tt_cell_int(b - a);
    c[4] = a != 0 ? tt_cell_real(100.0 * (double)(b - a) / (double)a) : tt_cell_none();
    return tt_writer_row(w, c, 0);
}

int tt_diffout_gpu(FILE *f, const tt_diffout_opts *o, const tt_gpu_time *a,
                   const tt_gpu_time *b, tt_error *err)
{
    /* the columns of report --kind gpu, then its event counts */
    const struct {
        const char *name;
        int64_t     a, b;
    } m[] = {
        {"Total (ns)", a->total, b->total},
        {"Busy (ns)", a->busy, b->busy},
        {"Idle (ns)", a->idle, b->idle},
        {"Computation (ns)", a->computation, b->computation},
        {"Communication (ns)", a->communication, b->communication},
        {"Exposed Communication (ns)", a->exposed_communication, b->exposed_communication},
        {"Memcpy (ns)", a->memcpy, b->memcpy},
        {"Exposed Memcpy (ns)", a->exposed_memcpy, b->exposed_memcpy},
        {"Kernels", (int64_t)a->kernels, (int64_t)b->kernels},
        {"Memcpys", (int64_t)a->memcpys, (int64_t)b->memcpys},
        {"Memsets", (int64_t)a->memsets, (int64_t)b->memsets},
        {"Collectives", (int64_t)a->collectives, (int64_t)b->collectives},
    };
    tt_writer *w = table_start(f, o, gpu_cols, N_GPU_COLS, err);
    int rc = 0;
    if (!w)
        return -1;
    for (size_t i = 0; i < sizeof m / sizeof m[0] && !rc; i++)
        rc = metric_row(w, m[i].name, m[i].a, m[i].b);
    return table_end(w, rc, NULL, NULL, err);
}

/* ---------------------------------------------------------------- steps */

static const tt_col step_cols[] = {
    {"Position", "position", TT_COL_INT, 0, false},
    {"Step A", "step_a", TT_COL_TEXT, 0, false},
    {"Step B", "step_b", TT_COL_TEXT, 0, false},
    {"Step Time A (ns)", "step_a_ns", TT_COL_INT, 0, false},
    {"Step Time B (ns)", "step_b_ns", TT_COL_INT, 0, false},
    {"Delta (ns)", "delta_ns", TT_COL_INT, 0, false},
    {"Delta (%)", "delta_percent", TT_COL_REAL, 2, false},
};
#define N_STEP_COLS (sizeof step_cols / sizeof step_cols[0])

int tt_diffout_steps(FILE *f, const tt_diffout_opts *o, const tt_steps *a, const tt_steps *b,
                     tt_error *err)
{
    size_t n = a->n > b->n ? a->n : b->n, both = a->n < b->n ? a->n : b->n;
    int64_t sum_a = 0, sum_b = 0;
    tt_writer *w = table_start(f, o, step_cols, N_STEP_COLS, err);
    cJSON *extra = NULL;
    char line[300];
    int rc = 0;
    if (!w)
        return -1;
    for (size_t i = 0; i < n && !rc; i++) {
        const tt_step *sa = i < a->n ? &a->v[i] : NULL, *sb = i < b->n ? &b->v[i] : NULL;
        int64_t ta = sa ? sa->end - sa->start : 0, tb = sb ? sb->end - sb->start : 0;
        tt_cell c[N_STEP_COLS];
        c[0] = tt_cell_int((int64_t)i + 1);
        c[1] = sa ? tt_cell_text(sa->name) : tt_cell_none();
        c[2] = sb ? tt_cell_text(sb->name) : tt_cell_none();
        c[3] = sa ? tt_cell_int(ta) : tt_cell_none();
        c[4] = sb ? tt_cell_int(tb) : tt_cell_none();
        c[5] = sa && sb ? tt_cell_int(tb - ta) : tt_cell_none();
        c[6] = sa && sb && ta != 0 ? tt_cell_real(100.0 * (double)(tb - ta) / (double)ta)
                                   : tt_cell_none();
        if (i < both) {
            sum_a += ta;
            sum_b += tb;
        }
        rc = tt_writer_row(w, c, 0);
    }
    line[0] = '\0';
    if (both) {
        /* the means over the positions both have */
        double ma = (double)sum_a / (double)both, mb = (double)sum_b / (double)both;
        char da[48], db[48];
        if (!rc && (extra = cJSON_CreateObject())) {
            tt_json_add_int(extra, "matched", (int64_t)both);
            cJSON_AddNumberToObject(extra, "mean_a_ns", ma);
            cJSON_AddNumberToObject(extra, "mean_b_ns", mb);
        }
        tt_fmt_dur(da, sizeof da, (int64_t)(ma + 0.5), 2);
        tt_fmt_dur(db, sizeof db, (int64_t)(mb + 0.5), 2);
        snprintf(line, sizeof line, "Mean step time over %zu position%s: A %s, B %s (%+.2f%%)",
                 both, both == 1 ? "" : "s", da, db, ma > 0 ? 100.0 * (mb - ma) / ma : 0.0);
    }
    return table_end(w, rc, extra, o->format == TT_OUT_TEXT && line[0] ? line : NULL, err);
}
