/* kind_overview.c - `report --kind overview`: MindStudio Insight's
 * overview (analysis/overview.h), one row per rank and step and an
 * Average row per rank:
 *
 *   Rank,Step,Source,Computing (ns),Communication (Not Overlapped) (ns),
 *   Overlapped (ns),Communication (ns),Free (ns),Stage (ns),Bubble (ns),
 *   Preparing (ns)
 *
 * (text output shows the durations in human units, "8.874 ms", under
 * the same titles less " (ns)"; CSV and JSON keep exact ns). Source says
 * where a row's numbers come from: "file" (the profiler's
 * step_trace_time.csv beside the trace, or an older MindSpore step trace)
 * or "timeline" (computed from the device events). A column the source
 * does not give is empty. --window and --lanes select as
 * tt_overview_compute_sel() says (the timeline's steps cut at the window,
 * the file's steps meeting it). The environment variable
 * TRACETTY_OVERVIEW_SOURCE=file|timeline|auto forces one source (auto,
 * the default: the file when it is there); the test that holds the
 * computed overview to the profiler's own uses it.
 *
 * One row of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/overview.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOURCE_ENV "TRACETTY_OVERVIEW_SOURCE"
#define NCOLS 11

static const tt_col overview_cols[NCOLS] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Step", "step", TT_COL_TEXT, 0, false},
    {"Source", "source", TT_COL_TEXT, 0, false},
    {"Computing (ns)", "computing_ns", TT_COL_DUR, 0, false},
    {"Communication (Not Overlapped) (ns)", "communication_not_overlapped_ns", TT_COL_DUR, 0,
     false},
    {"Overlapped (ns)", "overlapped_ns", TT_COL_DUR, 0, false},
    {"Communication (ns)", "communication_ns", TT_COL_DUR, 0, false},
    {"Free (ns)", "free_ns", TT_COL_DUR, 0, false},
    {"Stage (ns)", "stage_ns", TT_COL_DUR, 0, false},
    {"Bubble (ns)", "bubble_ns", TT_COL_DUR, 0, false},
    {"Preparing (ns)", "preparing_ns", TT_COL_DUR, 0, false},
};

/* The source asked for in the environment. 0, or -1 (TT_ERR_USAGE). */
static int wanted_source(tt_overview_source *out, tt_error *err)
{
    const char *s = getenv(SOURCE_ENV);
    if (!s || !*s || strcmp(s, "auto") == 0)
        *out = TT_OVERVIEW_AUTO;
    else if (strcmp(s, "file") == 0)
        *out = TT_OVERVIEW_FILE;
    else if (strcmp(s, "timeline") == 0)
        *out = TT_OVERVIEW_TIMELINE;
    else
        return tt_error_set(err, TT_ERR_USAGE, "%s=%.40s: expected file, timeline or auto",
                            SOURCE_ENV, s), -1;
    return 0;
}

static int64_t avg_round(int64_t sum, size_t n)
{
    return tt_sat_add(sum, (int64_t)(n / 2)) / (int64_t)n;
}

/* The step's cells (optional ones empty when unknown); sum adds them up. */
static void step_cells(const tt_overview_step *s, tt_cell *c, int64_t *sum, unsigned *has_all)
{
    const tt_ns v[8] = {s->computing, s->comm_not_overlapped, s->overlapped, s->communication,
                        s->free, s->stage, s->bubble, s->preparing};
    const unsigned need[8] = {0, 0, TT_OV_OVERLAPPED, 0, 0, TT_OV_STAGE, TT_OV_BUBBLE,
                              TT_OV_PREPARING};
    for (int k = 0; k < 8; k++) {
        bool known = !need[k] || (s->has & need[k]);
        c[3 + k] = known ? tt_cell_int(v[k]) : tt_cell_none();
        sum[k] = tt_sat_add(sum[k], v[k]);   /* the file's numbers can be anything */
    }
    *has_all &= s->has;
}

static int overview_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    static const unsigned need[8] = {0, 0, TT_OV_OVERLAPPED, 0, 0, TT_OV_STAGE, TT_OV_BUBBLE,
                                     TT_OV_PREPARING};
    tt_overview_source want;
    tt_overview *o;
    tt_cell c[NCOLS];
    int64_t sum[8] = {0};
    unsigned has_all = ~0u;
    const char *src;

    if (wanted_source(&want, err) || tt_overview_compute_sel(x->tr, want, x->sel, &o, err))
        return -1;
    src = tt_overview_source_name(o->source);
    for (size_t i = 0; i < o->n; i++) {
        c[0] = tt_cell_int(x->rank);
        c[1] = tt_cell_text(o->v[i].name);
        c[2] = tt_cell_text(src);
        step_cells(&o->v[i], c, sum, &has_all);
        if (tt_writer_row(x->w, c, 0))
            goto nomem;
    }
    if (o->n) {
        c[0] = tt_cell_int(x->rank);
        c[1] = tt_cell_text("Average");
        c[2] = tt_cell_text(src);
        for (int k = 0; k < 8; k++)
            c[3 + k] = !need[k] || (has_all & need[k]) ? tt_cell_int(avg_round(sum[k], o->n))
                                                       : tt_cell_none();
        if (tt_writer_row(x->w, c, 0))
            goto nomem;
    } else if (x->sel && (x->sel->from > x->tr->t0 || x->sel->to < x->tr->t1)) {
        snprintf(out->note, out->note_cap, "no step meets the window");
    } else {
        snprintf(out->note, out->note_cap, "%s lists no steps", o->path ? o->path : "the trace");
    }
    if ((out->extra = cJSON_CreateObject())) {
        cJSON_AddStringToObject(out->extra, "overview_source", src);
        if (o->path)
            cJSON_AddStringToObject(out->extra, "overview_file", o->path);
        tt_json_add_int(out->extra, "steps", (int64_t)o->n);
    }
    tt_overview_free(o);
    return 0;
nomem:
    tt_overview_free(o);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

const tt_report_kind tt_kind_overview = {
    .name = "overview",
    .help = "per rank and step: Computing, Communication, Overlapped, Free (MindStudio's overview)",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE,
    .skip = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,   /* Step Id is an argument */
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = overview_cols,
    .n_cols = NCOLS,
    .rows = overview_rows,
};
