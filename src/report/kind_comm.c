/* kind_comm.c - the comm and comm-matrix report kinds: an Ascend rank's
 * communication.json and communication_matrix.json (decode/ascend_comm.h),
 * read from the directory of the trace file the rank was loaded from, or
 * an older MindSpore rank's hccl_raw_N.csv (decode/mindspore_hccl.h: no
 * Elapse, Synchronization, Idle or start there, so those cells are empty).
 *
 *   comm         Rank,Step,Type,Op,Group,Start (us),Elapse (ms),Transit (ms),
 *                Wait (ms),Synchronization (ms),Idle (ms),Wait Ratio,
 *                Synchronization Ratio
 *   comm-matrix  Rank,Step,Type,Op,Group,Src Rank,Dst Rank,Transport Type,
 *                Size (MB),Time (ms),Bandwidth (GB/s)
 *
 * One row per op (per op and link) as the files hold them, then per step
 * and group a "Total Op Info" row (one per link) summed as msprof-analyze
 * sums them (tt_comm_counts_in_total); --totals keeps only those. Wait
 * Ratio = Wait / (Wait + Transit), Synchronization Ratio = Synchronization
 * / (Synchronization + Transit), a total's bandwidth its size over its
 * time, as the Ascend documentation defines them.
 *
 * The tables borrow the comm data only while a trace's rows are written.
 */
#include "config.h"

#include "decode/ascend_comm.h"
#include "decode/mindspore_hccl.h"
#include "report/kind.h"
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOTAL_OP "Total Op Info"

static const tt_col comm_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Step", "step", TT_COL_TEXT, 0, false},
    {"Type", "type", TT_COL_TEXT, 0, false},
    {"Op", "op", TT_COL_TEXT, 0, false},
    {"Group", "group", TT_COL_TEXT, 0, false},
    {"Start (us)", "start_us", TT_COL_REAL, 3, false},
    {"Elapse (ms)", "elapse_ms", TT_COL_REAL, 6, false},
    {"Transit (ms)", "transit_ms", TT_COL_REAL, 6, false},
    {"Wait (ms)", "wait_ms", TT_COL_REAL, 6, false},
    {"Synchronization (ms)", "synchronization_ms", TT_COL_REAL, 6, false},
    {"Idle (ms)", "idle_ms", TT_COL_REAL, 6, false},
    {"Wait Ratio", "wait_ratio", TT_COL_REAL, 4, false},
    {"Synchronization Ratio", "synchronization_ratio", TT_COL_REAL, 4, false},
};
#define N_COMM (sizeof comm_cols / sizeof comm_cols[0])

static const tt_col matrix_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Step", "step", TT_COL_TEXT, 0, false},
    {"Type", "type", TT_COL_TEXT, 0, false},
    {"Op", "op", TT_COL_TEXT, 0, false},
    {"Group", "group", TT_COL_TEXT, 0, false},
    {"Src Rank", "src_rank", TT_COL_INT, 0, false},
    {"Dst Rank", "dst_rank", TT_COL_INT, 0, false},
    {"Transport Type", "transport_type", TT_COL_TEXT, 0, false},
    {"Size (MB)", "size_mb", TT_COL_REAL, 6, false},
    {"Time (ms)", "time_ms", TT_COL_REAL, 6, false},
    {"Bandwidth (GB/s)", "bandwidth_gbs", TT_COL_REAL, 4, false},
};
#define N_MATRIX (sizeof matrix_cols / sizeof matrix_cols[0])

/* The comm data beside the trace: 1 with *c set, 0 none (note said). */
static int load(const tt_kind_ctx *x, unsigned which, tt_kind_out *out, tt_comm **c,
                tt_error *err)
{
    char dir[4096];
    int rc;
    tt_comm_dirname(x->tr->source ? x->tr->source : ".", dir, sizeof dir);
    rc = tt_comm_load_beside(x->tr->source ? x->tr->source : ".", which, c, err);
    if (rc == TT_COMM_NONE)
        snprintf(out->note, out->note_cap, "no communication.json or communication_matrix.json "
                 "beside this trace (in %s): the Ascend profiler writes them into "
                 "ASCEND_PROFILER_OUTPUT/ with trace_view.json (older MindSpore: "
                 "hccl_raw_N.csv beside step_trace_raw_N_detail_time.csv)", dir);
    return rc;
}

static bool same(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* ------------------------------------------------------------------ comm */

static int comm_row(const tt_kind_ctx *x, const tt_comm_op *o, const char *op, double elapse,
                    double transit, double wait, double sync, double idle, bool start)
{
    tt_cell c[N_COMM];
    c[0] = tt_cell_int(x->rank);
    c[1] = tt_cell_text(o->step);
    c[2] = tt_cell_text(o->type);
    c[3] = tt_cell_text(op);
    c[4] = tt_cell_text(o->group);
    c[5] = start && o->has_start ? tt_cell_real(o->start_us) : tt_cell_none();
    c[6] = o->has_elapse ? tt_cell_real(elapse) : tt_cell_none();
    c[7] = tt_cell_real(transit);
    c[8] = tt_cell_real(wait);
    c[9] = o->has_elapse ? tt_cell_real(sync) : tt_cell_none();
    c[10] = o->has_elapse ? tt_cell_real(idle) : tt_cell_none();
    c[11] = tt_cell_real(tt_comm_ratio(wait, wait + transit));
    c[12] = o->has_elapse ? tt_cell_real(tt_comm_ratio(sync, sync + transit)) : tt_cell_none();
    return tt_writer_row(x->w, c, 0);
}

static int comm_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    tt_comm *cm;
    int rc = load(x, TT_COMM_TIME, out, &cm, err);
    bool *done;
    if (rc <= 0)
        return rc;
    if (!cm->has_time) {
        snprintf(out->note, out->note_cap, "no communication.json beside this trace");
        tt_comm_free(cm);
        return 0;
    }
    rc = 0;
    if (!(done = calloc(cm->n_ops + 1, sizeof *done))) {
        tt_comm_free(cm);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    /* per step, type and group (in file order): its ops, then its total */
    for (size_t i = 0; i < cm->n_ops && rc == 0; i++) {
        const tt_comm_op *o = &cm->ops[i];
        double s[5] = {0};
        if (done[i])
            continue;
        for (size_t k = i; k < cm->n_ops && rc == 0; k++) {
            const tt_comm_op *p = &cm->ops[k];
            if (!same(p->step, o->step) || !same(p->type, o->type) || !same(p->group, o->group))
                continue;
            done[k] = true;
            if (!x->o->totals && comm_row(x, p, p->op, p->elapse_ms, p->transit_ms, p->wait_ms,
                                          p->sync_ms, p->idle_ms, true))
                rc = -1;
            if (!tt_comm_counts_in_total(p->op))
                continue;
            s[0] += p->elapse_ms;
            s[1] += p->transit_ms;
            s[2] += p->wait_ms;
            s[3] += p->sync_ms;
            s[4] += p->idle_ms;
        }
        if (rc == 0 && comm_row(x, o, TOTAL_OP, s[0], s[1], s[2], s[3], s[4], false))
            rc = -1;
    }
    free(done);
    tt_comm_free(cm);
    if (rc)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

const tt_report_kind tt_kind_comm = {
    .name = "comm",
    .help = "one row per communication op of each step (Ascend communication.json, "
            "MindSpore hccl_raw_N.csv): Elapse, Transit, Wait, Synchronization, Idle and "
            "their ratios, and totals",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE | TT_KIND_TOTALS,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = comm_cols,
    .n_cols = N_COMM,
    .rows = comm_rows,
};

/* ----------------------------------------------------------- comm-matrix */

static int matrix_row(const tt_kind_ctx *x, const tt_comm_link *l, const char *op, double size,
                      double time, double bw)
{
    tt_cell c[N_MATRIX];
    c[0] = tt_cell_int(x->rank);
    c[1] = tt_cell_text(l->step);
    c[2] = tt_cell_text(l->type);
    c[3] = tt_cell_text(op);
    c[4] = tt_cell_text(l->group);
    c[5] = tt_cell_int(l->src);
    c[6] = tt_cell_int(l->dst);
    c[7] = tt_cell_text(l->transport);
    c[8] = tt_cell_real(size);
    c[9] = tt_cell_real(time);
    c[10] = tt_cell_real(bw);
    return tt_writer_row(x->w, c, 0);
}

static bool same_group(const tt_comm_link *a, const tt_comm_link *b)
{
    return same(a->step, b->step) && same(a->type, b->type) && same(a->group, b->group);
}

static int matrix_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    tt_comm *cm;
    tt_comm_total *t;
    size_t nt, j = 0;
    int rc = load(x, TT_COMM_MATRIX, out, &cm, err);
    if (rc <= 0)
        return rc;
    if (!cm->has_matrix) {
        snprintf(out->note, out->note_cap, "no communication_matrix.json beside this trace");
        tt_comm_free(cm);
        return 0;
    }
    if (tt_comm_link_totals(cm, &t, &nt)) {
        tt_comm_free(cm);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    rc = 0;
    /* per step, type and group: its links op by op, then its totals
     * (t[] holds the groups in the order of their first link) */
    for (size_t i = 0; i < cm->n_links && rc == 0; i++) {
        const tt_comm_link *g = &cm->links[i];
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = !same_group(&cm->links[k], g);
        if (!first)
            continue;
        for (size_t k = i; k < cm->n_links && !x->o->totals && rc == 0; k++) {
            const tt_comm_link *l = &cm->links[k];
            if (same_group(l, g) &&
                matrix_row(x, l, l->op, l->size_mb, l->time_ms, l->bw_gbs))
                rc = -1;
        }
        for (; j < nt && t[j].group == g && rc == 0; j++) {
            tt_comm_link l = *g;
            l.src = t[j].src;
            l.dst = t[j].dst;
            l.transport = (char *)t[j].transport;
            if (matrix_row(x, &l, TOTAL_OP, t[j].size_mb, t[j].time_ms, t[j].bw_gbs))
                rc = -1;
        }
    }
    free(t);
    tt_comm_free(cm);
    if (rc)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

const tt_report_kind tt_kind_comm_matrix = {
    .name = "comm-matrix",
    .help = "one row per link of each communication op and step (Ascend "
            "communication_matrix.json, MindSpore hccl_raw_N.csv): transport, size, time, "
            "bandwidth, and totals",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_RANK_COLUMN | TT_KIND_ONE_TABLE | TT_KIND_TOTALS,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .cols = matrix_cols,
    .n_cols = N_MATRIX,
    .rows = matrix_rows,
};
