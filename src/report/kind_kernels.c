/* kind_kernels.c - per-kernel-name statistics and launchers (see
 * kind_kernels.h). */
#include "config.h"

#include "report/kind_kernels.h"

#include "report/kind.h"
#include "report/kind_operators.h"
#include "report/report.h"

#include "analysis/argvals.h"
#include "analysis/attrib.h"
#include "analysis/kernels.h"
#include "analysis/ncu_join.h"
#include "analysis/ncu_kernels.h"
#include "report/ncu_report.h"
#include "util/json.h"
#include "util/u64map.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const tt_col k_cols[] = {
    {"Calls", "calls", TT_COL_INT, 0, false},
    {"Total (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Mean (ns)", "mean_ns", TT_COL_REAL, 1, false},
    {"Min (ns)", "min_ns", TT_COL_INT, 0, false},
    {"Max (ns)", "max_ns", TT_COL_INT, 0, false},
    {"Total (%)", "total_percent", TT_COL_REAL, 1, false},
    {"Launch Op", "launch_op", TT_COL_TEXT, 0, false},
    {"Launch Op Calls", "launch_op_calls", TT_COL_INT, 0, false},
    {"Launch Ops", "launch_ops", TT_COL_INT, 0, false},
    {"Mean Blocks per SM", "mean_blocks_per_sm", TT_COL_REAL, 2, false},
    {"Mean Est. Achieved Occupancy (%)", "mean_est_achieved_occupancy_percent", TT_COL_REAL, 2,
     false},
    {"Tensor Cores Used", "tensor_cores_used", TT_COL_TEXT, 0, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
};
#define N_K_COLS (sizeof k_cols / sizeof k_cols[0])

/* TensorBoard's tensor_core.py TC_Allowlist (from NVIDIA PyProf): a
 * kernel whose name contains one of these uses tensor cores. */
static const char *const tc_patterns[] = {
    "h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma_implicit_gemm",
    "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm", "xmma_gemm", "xmma_sparse_gemm",
    "c1688",
};

bool tt_kernel_uses_tensor_cores(const char *name)
{
    for (size_t i = 0; i < sizeof tc_patterns / sizeof tc_patterns[0]; i++)
        if (strstr(name, tc_patterns[i]))
            return true;
    return false;
}

/* What the kernels report adds to a name's sums (analysis/kernels.h). */
typedef struct k_row {
    double   bps_w, occ_w;      /* sums of value * duration */
    bool     has_bps, has_occ;
    uint32_t top_op;            /* name id of the launch op launching most */
    uint64_t top_n, n_ops;
} k_row;

enum { A_BPS = 0, A_OCC, A_GRID, A_DEVICE, A_N };

/* numSms of device `id` from the trace's deviceProperties, or 0. */
static double sms_of(const tt_trace *tr, long long id)
{
    const cJSON *dp = tr->meta ? cJSON_GetObjectItemCaseSensitive(tr->meta, "deviceProperties")
                               : NULL, *d;
    cJSON_ArrayForEach(d, dp) {
        const cJSON *i = cJSON_GetObjectItemCaseSensitive(d, "id");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(d, "numSms");
        if (cJSON_IsNumber(i) && cJSON_IsNumber(s) && (long long)i->valuedouble == id)
            return s->valuedouble;
    }
    return 0;
}

/* Blocks in a "grid" argument "[x,y,z]", or -1. */
static double grid_blocks(const char *g)
{
    double p = 1;
    int n = 0;
    if (!g || *g != '[')
        return -1;
    for (const char *s = g + 1; *s && *s != ']';) {
        char *end;
        double v = strtod(s, &end);
        if (end == s)
            return -1;
        p *= v;
        n++;
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    return n ? p : -1;
}

static bool number_of(const tt_argvals *av, size_t i, int k, double *v)
{
    bool num;
    const char *s = tt_argvals_get(av, i, (size_t)k, &num);
    char *end;
    if (!s || !num)
        return false;
    *v = strtod(s, &end);
    return end != s;
}

/* Are the trace's launches CUDA's (cu*, not hip*)? Then the tensor core
 * list applies. */
static bool cuda_launches(const tt_trace *tr, const tt_attrib *a, const tt_evref *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tt_evref h = tt_attrib_launcher(a, k[i]);
        if (tt_evref_ok(h))
            return !strncmp(tt_str(tr, tt_trace_event(tr, h)->name), "cu", 2);
    }
    return false;
}

/* --metrics: the joined Nsight Compute columns, before Name. */
static size_t kernels_more_cols(const tt_report_opts *o, tt_col *out)
{
    if (!o->ncu_join)
        return 0;
    if (out)
        out[0] = (tt_col){"Profiled Calls", "profiled_calls", TT_COL_INT, 0, false};
    return 1 + tt_ncu_metric_cols(out ? out + 1 : NULL, o->metrics, o->n_metrics);
}

/* The means of the joined ncu metrics per kernel name: (*rows)[i] for
 * s->names[i] (before sorting), over the name's kernels in the selection
 * that have a profiled launch. 0, or -1 with err set. */
static int ncu_rows(const tt_trace *tr, const tt_report_opts *o, const tt_kernel_sums *s,
                    tt_u64map *at, tt_ncu_row **rows, tt_error *err)
{
    *rows = calloc(s->n ? s->n : 1, sizeof **rows);
    if (!*rows)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->n; i++)
        if (tt_u64map_put(at, s->names[i], (uint32_t)i) ||
            (o->n_metrics && !((*rows)[i].extra = calloc(o->n_metrics, sizeof *(*rows)[i].extra))))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->n_ev; i++) {
        const struct cJSON *k = tt_ncu_join_kernel(tr, s->ev[i]);
        tt_ncu_row *r;
        if (!k)
            continue;
        r = &(*rows)[*tt_u64map_get(at, tt_trace_event(tr, s->ev[i])->name)];
        r->calls++;
        tt_ncu_kernel_values(k, r, o->metrics, o->n_metrics);
    }
    return 0;
}

static int kernels_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    static const char *const keys[A_N] = {"blocks per SM", "est. achieved occupancy %", "grid",
                                          "device"};
    const tt_trace *tr = x->tr;
    const tt_attrib *a = tt_attrib_get(tr, err);
    uint32_t n_str = tt_strtab_count(tr->strings);
    tt_kernel_sums ks;
    const tt_event **evs = NULL;
    k_row *rows = NULL;
    tt_ncu_row *nrows = NULL;   /* --metrics: per name (ncu_at) */
    tt_u64map ncu_at;
    size_t n, nmore = kernels_more_cols(x->o, NULL);
    tt_cell *c = NULL;
    tt_argvals av;
    tt_u64map pairs;   /* (kernel name, launch op name) -> kernels */
    tt_ns sum;
    bool links, cuda;
    int rc = -1;

    memset(&av, 0, sizeof av);
    memset(&ks, 0, sizeof ks);
    tt_u64map_init(&pairs);
    tt_u64map_init(&ncu_at);
    if (!a)
        return -1;
    links = tt_attrib_has_links(a);
    /* calls, totals, min and max: the sums diff compares too */
    if (tt_kernel_sums_compute(tr, a, x->sel, &ks, err))
        goto out;
    n = ks.n_ev;
    sum = ks.sum;
    cuda = cuda_launches(tr, a, ks.ev, n);
    if (!(evs = malloc((n ? n : 1) * sizeof *evs)) ||
        !(rows = calloc(n_str ? n_str : 1, sizeof *rows)) ||
        !(c = calloc(N_K_COLS + nmore, sizeof *c))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        evs[i] = tt_trace_event(tr, ks.ev[i]);
    if (tt_argvals_fetch(tr, evs, n, keys, A_N, true, &av, err))
        goto out;
    for (size_t i = 0; i < n; i++) {
        const tt_event *e = evs[i];
        k_row *r = &rows[e->name];
        tt_evref op;
        double v, g, dev;
        if (number_of(&av, i, A_BPS, &v)) {
            r->bps_w += v * (double)e->dur;
            r->has_bps = true;
        } else if ((g = grid_blocks(tt_argvals_get(&av, i, A_GRID, NULL))) >= 0 &&
                   number_of(&av, i, A_DEVICE, &dev) && (v = sms_of(tr, (long long)dev)) > 0) {
            r->bps_w += g / v * (double)e->dur;
            r->has_bps = true;
        }
        if (number_of(&av, i, A_OCC, &v)) {
            r->occ_w += v * (double)e->dur;
            r->has_occ = true;
        }
        op = tt_attrib_launch_op(a, ks.ev[i]);
        if (tt_evref_ok(op)) {
            uint64_t key = (uint64_t)e->name << 32 | tt_trace_event(tr, op)->name;
            uint32_t *cnt = tt_u64map_get(&pairs, key);
            if (cnt)
                (*cnt)++;
            else if (tt_u64map_put(&pairs, key, 1)) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                goto out;
            }
        }
    }
    /* each name's launch ops: the most frequent and how many */
    for (size_t s = 0; pairs.used && s <= pairs.mask; s++) {
        k_row *r;
        uint32_t opname, cnt;
        if (!pairs.used[s])
            continue;
        r = &rows[pairs.keys[s] >> 32];
        opname = (uint32_t)pairs.keys[s];
        cnt = pairs.vals[s];
        r->n_ops++;
        if (cnt > r->top_n ||
            (cnt == r->top_n && strcmp(tt_str(tr, opname), tt_str(tr, r->top_op)) < 0)) {
            r->top_n = cnt;
            r->top_op = opname;
        }
    }
    if (nmore && ncu_rows(tr, x->o, &ks, &ncu_at, &nrows, err))
        goto out;
    if (tt_kernel_sums_sort(tr, &ks, err))
        goto out;
    for (size_t i = 0; i < ks.n; i++) {
        const k_row *r = &rows[ks.names[i]];
        const tt_kernel_sum *k = &ks.by_name[ks.names[i]];
        const char *nm = tt_str(tr, ks.names[i]);
        double wsum = (double)k->total;
        c[0] = tt_cell_int((int64_t)k->calls);
        c[1] = tt_cell_int(k->total);
        c[2] = tt_cell_real((double)k->total / (double)k->calls);
        c[3] = tt_cell_int(k->min);
        c[4] = tt_cell_int(k->max);
        c[5] = tt_cell_real(sum > 0 ? 100.0 * (double)k->total / (double)sum : 0.0);
        c[6] = links && r->top_n ? tt_cell_text(tt_str(tr, r->top_op)) : tt_cell_none();
        c[7] = links ? tt_cell_int((int64_t)r->top_n) : tt_cell_none();
        c[8] = links ? tt_cell_int((int64_t)r->n_ops) : tt_cell_none();
        c[9] = r->has_bps ? tt_cell_real(wsum > 0 ? r->bps_w / wsum : 0.0) : tt_cell_none();
        c[10] = r->has_occ ? tt_cell_real(wsum > 0 ? r->occ_w / wsum : 0.0) : tt_cell_none();
        c[11] = cuda ? tt_cell_text(tt_kernel_uses_tensor_cores(nm) ? "Yes" : "No")
                     : tt_cell_none();
        if (nmore) {
            const tt_ncu_row *w = &nrows[*tt_u64map_get(&ncu_at, ks.names[i])];
            c[12] = tt_cell_int((int64_t)w->calls);
            tt_ncu_metric_cells(w, x->o->n_metrics, c + 13);
        }
        c[N_K_COLS - 1 + nmore] = tt_cell_text(nm);
        if (tt_writer_row(x->w, c, sum > 0 ? (double)k->total / (double)sum : 0.0)) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
    }
    if ((out->extra = cJSON_CreateObject())) {
        tt_json_add_int(out->extra, "sum_total_ns", sum);
        cJSON_AddBoolToObject(out->extra, "launch_links", links);
    }
    rc = 0;
out:
    tt_u64map_fini(&pairs);
    tt_u64map_fini(&ncu_at);
    if (nrows)
        for (size_t i = 0; i < ks.n; i++)
            free(nrows[i].extra);
    free(nrows);
    free(c);
    tt_argvals_fini(&av);
    tt_kernel_sums_fini(&ks);
    free(evs);
    free(rows);
    return rc;
}

const tt_report_kind tt_kind_kernels = {
    .name = "kernels",
    .help = "per kernel name: time, launching operator, blocks per SM, occupancy",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_MARKERS,
    /* launch links come from flows, and kernels read their arguments */
    .skip = 0,
    .skip_arg = 0,
    .bar_title = "Total",
    .cols = k_cols,
    .n_cols = N_K_COLS,
    .more_cols = kernels_more_cols,
    .rows = kernels_rows,
    .trace_note = tt_kind_attrib_note,
};
