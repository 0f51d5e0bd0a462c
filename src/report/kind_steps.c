/* kind_steps.c - the steps report kind (see kind_steps.h). */
#include "config.h"

#include "report/kind_steps.h"

#include "report/kind.h"
#include "report/report.h"

#include "util/json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

/* Cells before the role columns: Rank, Step, Start, Step Time. */
#define LEAD 4
#define NCOLS (LEAD + 2 * TT_ROLE__COUNT)

static const tt_col steps_cols[NCOLS] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Step", "step", TT_COL_TEXT, 0, false},
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"Step Time (ns)", "step_ns", TT_COL_INT, 0, false},
    {"Kernel (ns)", "kernel_ns", TT_COL_INT, 0, false},
    {"Memcpy (ns)", "memcpy_ns", TT_COL_INT, 0, false},
    {"Memset (ns)", "memset_ns", TT_COL_INT, 0, false},
    {"Runtime (ns)", "runtime_ns", TT_COL_INT, 0, false},
    {"DataLoader (ns)", "dataloader_ns", TT_COL_INT, 0, false},
    {"CPU Exec (ns)", "cpu_exec_ns", TT_COL_INT, 0, false},
    {"Other (ns)", "other_ns", TT_COL_INT, 0, false},
    {"Kernel (%)", "kernel_percent", TT_COL_REAL, 1, false},
    {"Memcpy (%)", "memcpy_percent", TT_COL_REAL, 1, false},
    {"Memset (%)", "memset_percent", TT_COL_REAL, 1, false},
    {"Runtime (%)", "runtime_percent", TT_COL_REAL, 1, false},
    {"DataLoader (%)", "dataloader_percent", TT_COL_REAL, 1, false},
    {"CPU Exec (%)", "cpu_exec_percent", TT_COL_REAL, 1, false},
    {"Other (%)", "other_percent", TT_COL_REAL, 1, false},
};

static double share(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* sum / n to the nearest integer, halves away from zero (sums are >= 0). */
static int64_t avg_round(int64_t sum, size_t n)
{
    return (sum + (int64_t)(n / 2)) / (int64_t)n;
}

static const char *source_name(tt_steps_source s)
{
    switch (s) {
    case TT_STEPS_GIVEN: return "intervals";
    case TT_STEPS_PROFILER: return "ProfilerStep";
    case TT_STEPS_STEP_ID: return "Step Id";
    default: return "none";
    }
}

int tt_kind_steps_rows(tt_writer *w, const tt_trace *tr, const tt_sel *sel,
                       const tt_step_spans *given, int64_t rank, cJSON **extra, char *note,
                       size_t cap, tt_error *err)
{
    tt_steps *s;
    tt_cell c[NCOLS];
    int64_t sum_total = 0, sum[TT_ROLE__COUNT] = {0};

    *extra = NULL;
    note[0] = '\0';
    if (tt_steps_compute(tr, sel, given, &s, err))
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        const tt_step *st = &s->v[i];
        tt_ns total = st->end - st->start;
        c[0] = tt_cell_int(rank);
        c[1] = tt_cell_text(st->name);
        c[2] = tt_cell_int(st->start - tr->t0);
        c[3] = tt_cell_int(total);
        for (int r = 0; r < TT_ROLE__COUNT; r++) {
            c[LEAD + r] = tt_cell_int(st->part[r]);
            c[LEAD + TT_ROLE__COUNT + r] = tt_cell_real(share((double)st->part[r], (double)total));
            sum[r] += st->part[r];
        }
        sum_total += total;
        if (tt_writer_row(w, c, total > 0 ? (double)st->part[TT_ROLE_KERNEL] / (double)total : 0))
            goto nomem;
    }
    if (s->n) {
        c[0] = tt_cell_int(rank);
        c[1] = tt_cell_text("Average");
        c[2] = tt_cell_none();
        c[3] = tt_cell_int(avg_round(sum_total, s->n));
        for (int r = 0; r < TT_ROLE__COUNT; r++) {
            c[LEAD + r] = tt_cell_int(avg_round(sum[r], s->n));
            c[LEAD + TT_ROLE__COUNT + r] = tt_cell_real(share((double)sum[r], (double)sum_total));
        }
        if (tt_writer_row(w, c, sum_total > 0 ? (double)sum[TT_ROLE_KERNEL] / (double)sum_total
                                              : 0))
            goto nomem;
    }
    if ((*extra = cJSON_CreateObject())) {
        cJSON_AddStringToObject(*extra, "steps_from", source_name(s->source));
        tt_json_add_int(*extra, "steps", (int64_t)s->n);
        tt_json_add_int(*extra, "dropped_steps", (int64_t)s->dropped);
        tt_json_add_int(*extra, "steps_outside_window", (int64_t)s->outside);
        if (s->n) {
            cJSON *a = cJSON_AddObjectToObject(*extra, "average");
            if (a) {
                cJSON_AddNumberToObject(a, "step_ns", (double)sum_total / (double)s->n);
                for (int r = 0; r < TT_ROLE__COUNT; r++)
                    cJSON_AddNumberToObject(a, steps_cols[LEAD + r].json,
                                            (double)sum[r] / (double)s->n);
            }
        }
    }
    if (s->source == TT_STEPS_NONE)
        snprintf(note, cap, "no steps in this trace (no ProfilerStep#N events, no Step Id "
                            "argument): mark them and use --markers SET --per-interval");
    else if (s->n == 0)
        snprintf(note, cap, "none of the %zu steps lies in the window", s->outside);
    else if (s->dropped)
        snprintf(note, cap, "left out the last %zu step%s: %s launched no device work, or "
                            "much less than the step before (the profiler may have missed "
                            "kernels), as TensorBoard does", s->dropped,
                 s->dropped == 1 ? "" : "s", s->dropped == 1 ? "it" : "they");
    tt_steps_free(s);
    return 0;
nomem:
    tt_steps_free(s);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* ------------------------------------------------------ the table's row */

static int steps_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    return tt_kind_steps_rows(x->w, x->tr, x->sel, x->spans, x->rank, &out->extra, out->note,
                              out->note_cap, err);
}

const tt_report_kind tt_kind_steps = {
    .name = "steps",
    .help = "one row per training step, its time split as TensorBoard's overview",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_MARKERS | TT_KIND_STEP_SPANS | TT_KIND_RANK_COLUMN,
    .skip = TT_TRACE_NO_FLOWS,   /* Step Id is an argument */
    .skip_arg = TT_TRACE_NO_FLOWS,
    .bar_title = "Kernel",
    .cols = steps_cols,
    .n_cols = NCOLS,
    .rows = steps_rows,
};
