/* rule_ncu_underused.c - `ncu-underused`: heavy kernels that Nsight Compute
 * says use the GPU poorly, from the metrics joined with --metrics
 * (analysis/ncu_join.h); nothing without them.
 *
 * Per kernel name (the timeline's kernels, kernels.h): its share of the
 * trace's kernel time, and the means of its profiled launches (ncu's
 * values as analysis/ncu_kernels.h reads them). A name whose share is at
 * least min_share percent is reported when
 *   - both its Compute (SM) and Memory Throughput are below
 *     max_throughput percent of peak: latency-bound (ncu's Speed Of Light
 *     rule says the same below 60%: neither unit is busy, the warps
 *     wait), or
 *   - its achieved occupancy is below min_occupancy percent: too few
 *     warps to hide latency.
 * One finding per name, spanning its first to its last launch; its cost
 * is the name's kernel time (what better use of the GPU would shrink).
 */
#include "config.h"

#include "analysis/attrib.h"
#include "analysis/kernels.h"
#include "analysis/ncu_join.h"
#include "analysis/ncu_kernels.h"
#include "rules/rules_util.h"
#include "util/grow.h"
#include "util/u64map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct name_acc {
    uint32_t   name;
    tt_ns      total, first, last;
    uint64_t   n;
    tt_evref   ev[TT_ANN_MAX_EVENTS];
    size_t     n_ev;
    uint32_t   lanes[16];
    size_t     n_lanes;
    tt_ncu_row row;          /* means of its profiled launches */
} name_acc;

static bool applies(const tt_trace *tr)
{
    return tt_ncu_join_stats_of(tr) != NULL;
}

static int emit(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, const name_acc *a,
                double share)
{
    const tt_ncu_stat *sm = &a->row.v[TT_NCU_SM_PCT], *mem = &a->row.v[TT_NCU_MEM_PCT],
                      *occ = &a->row.v[TT_NCU_OCCUPANCY];
    double max_tp = tt_rule_param_value(ctx, "max_throughput");
    double min_occ = tt_rule_param_value(ctx, "min_occupancy");
    bool latency = tt_ncu_has(sm) && tt_ncu_has(mem) && tt_ncu_mean(sm) < max_tp &&
                   tt_ncu_mean(mem) < max_tp;
    bool low_occ = tt_ncu_has(occ) && tt_ncu_mean(occ) < min_occ;
    char what[200] = "", a1[32], a2[32];
    size_t w = 0;
    if (!latency && !low_occ)
        return 0;
    if (latency)
        w += (size_t)snprintf(what + w, sizeof what - w,
                              "SM %.1f%% and memory %.1f%% of peak: latency-bound",
                              tt_ncu_mean(sm), tt_ncu_mean(mem));
    if (low_occ)
        snprintf(what + w, sizeof what - w, "%sachieved occupancy %.1f%%: too few warps",
                 latency ? "; " : "", tt_ncu_mean(occ));
    if (tt_rule_emit(ctx, ti, a->first, a->last, a->lanes, a->n_lanes, a->ev, a->n_ev, a->n,
                     "kernel %s: %.1f%% of kernel time (%llu launches, %zu profiled, between %s "
                     "and %s); ncu: %s",
                     tt_str(tr, a->name), share, (unsigned long long)a->n, a->row.calls,
                     tt_rule_time(tr, a->first, a1, sizeof a1),
                     tt_rule_time(tr, a->last, a2, sizeof a2), what))
        return -1;
    ctx->out->v[ctx->out->n - 1].cost = a->total > 0 ? a->total : 1;
    return 0;
}

static int run_trace(const tt_rule_ctx *ctx, int ti, const tt_trace *tr)
{
    const tt_attrib *at;
    tt_sel sel;
    tt_evref *ev = NULL;
    size_t n = 0, n_acc = 0, cap = 0;
    name_acc *acc = NULL;
    tt_u64map by_name;
    tt_ns sum = 0;
    double min_share = tt_rule_param_value(ctx, "min_share");
    int rc = -1;

    if (!(at = tt_attrib_get(tr, ctx->err)))
        return -1;
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    tt_u64map_init(&by_name);
    if (tt_kernels_collect(tr, at, &sel, &ev, &n, ctx->err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        const tt_event *e = tt_trace_event(tr, ev[i]);
        const struct cJSON *k = tt_ncu_join_kernel(tr, ev[i]);
        uint32_t *slot = tt_u64map_get(&by_name, e->name);
        name_acc *a;
        if (!slot) {
            /* one per distinct name: few, but each holds its events */
            if (tt_u64map_put(&by_name, e->name, (uint32_t)n_acc) ||
                tt_grow_one((void **)&acc, &cap, n_acc, sizeof *acc))
                goto oom;
            a = &acc[n_acc++];
            memset(a, 0, sizeof *a);
            a->name = e->name;
            a->first = e->start;
        } else {
            a = &acc[*slot];
        }
        sum += e->dur;
        a->total += e->dur;
        a->n++;
        if (e->start < a->first)
            a->first = e->start;
        if (tt_event_end(e) > a->last)
            a->last = tt_event_end(e);
        if (a->n_ev < TT_ANN_MAX_EVENTS)
            a->ev[a->n_ev++] = ev[i];
        rule_lane_add(a->lanes, &a->n_lanes, sizeof a->lanes / sizeof a->lanes[0], ev[i].lane);
        if (k) {
            a->row.calls++;
            tt_ncu_kernel_values(k, &a->row, NULL, 0);
        }
    }
    rc = 0;
    for (size_t i = 0; i < n_acc && rc == 0; i++) {
        double share = sum > 0 ? 100.0 * (double)acc[i].total / (double)sum : 0.0;
        if (acc[i].row.calls && share >= min_share)
            rc = emit(ctx, ti, tr, &acc[i], share);
    }
    goto out;
oom:
    tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
out:
    tt_u64map_fini(&by_name);
    free(acc);
    free(ev);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    for (size_t t = 0; t < ctx->n_traces; t++)
        if (applies(ctx->traces[t]) && run_trace(ctx, (int)t, ctx->traces[t]))
            return -1;
    return 0;
}

const tt_rule tt_rule_ncu_underused = {
    .id = "ncu-underused",
    .summary = "heavy kernels Nsight Compute (--metrics) finds latency-bound or at low occupancy",
    .params = {
        {"min_share", TT_PARAM_NUMBER, 5, "percent of the kernel time a name must take"},
        {"max_throughput", TT_PARAM_NUMBER, 60,
         "SM and memory throughput (% of peak) both below this: latency-bound"},
        {"min_occupancy", TT_PARAM_NUMBER, 25, "achieved occupancy (%) below this is low"},
    },
    .n_params = 3,
    .run = run,
    .applies = applies,
};
