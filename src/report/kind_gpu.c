/* kind_gpu.c - `report --kind gpu`: the GPU time breakdown of each trace
 * (analysis/gpu.h), HTA's temporal breakdown, one row per trace in one
 * table:
 *
 *   Rank,Total (ns),Busy (ns),Idle (ns),Computation (ns),
 *   Communication (ns),Exposed Communication (ns),Memcpy (ns),
 *   Exposed Memcpy (ns),Idle (%)
 *
 * A trace without any GPU event gets a note naming the categories it has
 * instead (tt_report_gpu_absent). One row of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/classify.h"
#include "analysis/gpu.h"

#include <stdlib.h>
#include <string.h>

static const tt_col gpu_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Total (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Busy (ns)", "busy_ns", TT_COL_INT, 0, false},
    {"Idle (ns)", "idle_ns", TT_COL_INT, 0, false},
    {"Computation (ns)", "computation_ns", TT_COL_INT, 0, false},
    {"Communication (ns)", "communication_ns", TT_COL_INT, 0, false},
    {"Exposed Communication (ns)", "exposed_communication_ns", TT_COL_INT, 0, false},
    {"Memcpy (ns)", "memcpy_ns", TT_COL_INT, 0, false},
    {"Exposed Memcpy (ns)", "exposed_memcpy_ns", TT_COL_INT, 0, false},
    {"Idle (%)", "idle_percent", TT_COL_REAL, 1, false},
    {"", "kernels", TT_COL_INT, 0, true},
    {"", "memcpys", TT_COL_INT, 0, true},
    {"", "memsets", TT_COL_INT, 0, true},
    {"", "collectives", TT_COL_INT, 0, true},
};
#define N_GPU_COLS (sizeof gpu_cols / sizeof gpu_cols[0])

static int gpu_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    tt_gpu_time g;
    tt_cell c[N_GPU_COLS];
    (void)out;
    if (tt_gpu_time_compute(x->tr, x->sel, &g, err))
        return -1;
    c[0] = tt_cell_int(x->rank);
    c[1] = tt_cell_int(g.total);
    c[2] = tt_cell_int(g.busy);
    c[3] = tt_cell_int(g.idle);
    c[4] = tt_cell_int(g.computation);
    c[5] = tt_cell_int(g.communication);
    c[6] = tt_cell_int(g.exposed_communication);
    c[7] = tt_cell_int(g.memcpy);
    c[8] = tt_cell_int(g.exposed_memcpy);
    c[9] = tt_cell_real(tt_kind_pct(g.idle, g.total));
    c[10] = tt_cell_int((int64_t)g.kernels);
    c[11] = tt_cell_int((int64_t)g.memcpys);
    c[12] = tt_cell_int((int64_t)g.memsets);
    c[13] = tt_cell_int((int64_t)g.collectives);
    if (tt_writer_row(x->w, c, tt_stats_util(g.busy, g.total)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

/* -------------------------------------------------------- no GPU events */

typedef struct cat_count {
    uint32_t cat;
    uint64_t n;
} cat_count;

static int cmp_cat_count(const void *a, const void *b)
{
    const cat_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return (x->cat > y->cat) - (x->cat < y->cat);
}

int tt_report_gpu_absent(const tt_trace *tr, char *buf, size_t cap)
{
    tt_classifier cl;
    uint32_t n_str = tt_strtab_count(tr->strings);
    cat_count *counts;
    size_t used, n_cats = 0;

    if (tt_classifier_init(&cl, tr))
        return -1;
    if (!(counts = calloc(n_str ? n_str : 1, sizeof *counts))) {
        tt_classifier_fini(&cl);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (tt_classifier_gpu(&cl, e) != TT_GPU_NONE) {
                free(counts);
                tt_classifier_fini(&cl);
                return 0;
            }
            if (e->cat && e->cat < n_str)
                counts[e->cat].n++;
        }
    }
    tt_classifier_fini(&cl);
    for (uint32_t id = 0; id < n_str; id++)
        if (counts[id].n) {
            counts[n_cats].cat = id;
            counts[n_cats++].n = counts[id].n;
        }
    qsort(counts, n_cats, sizeof *counts, cmp_cat_count);
    used = (size_t)snprintf(buf, cap, "no GPU kernels, memcpy or memset events: %s",
                            n_cats ? "the trace's categories are " : "its events have no category");
    for (size_t k = 0; k < n_cats && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", k ? ", " : "",
                                 tt_str(tr, counts[k].cat));
    free(counts);
    return 1;
}

const tt_report_kind tt_kind_gpu = {
    .name = "gpu",
    .help = "GPU time breakdown, one row per trace",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_MARKERS | TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .bar_title = "Busy",
    .cols = gpu_cols,
    .n_cols = N_GPU_COLS,
    .rows = gpu_rows,
    /* its note looks at every event: a .ttz loads them all (no WINDOW_ONLY) */
    .trace_note = tt_report_gpu_absent,
};
