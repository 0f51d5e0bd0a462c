/* rule_tiny_kernels.c - `tiny-kernels`: long runs of kernels shorter than
 * max_duration on one stream or engine, where launch overhead dominates and
 * the device mostly waits for the next launch. A run is at least min_run
 * consecutive kernels of the lane each shorter than max_duration (copies
 * and memsets in between do not break it), none starting more than max_gap
 * after the device work before it on the lane ended: a longer wait is not
 * the cost of a launch but the host doing something else (device-idle's
 * business), so it ends the run. */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rules_util.h"

#include <stdlib.h>

static int report(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, uint32_t lane,
                  const size_t *run_idx, size_t n, tt_ns busy)
{
    const tt_lane *ln = &tr->lanes[lane];
    tt_ns s = ln->ev[run_idx[0]].start, e = tt_event_end(&ln->ev[run_idx[n - 1]]);
    tt_evref ev[TT_ANN_MAX_EVENTS];
    size_t ne = n < TT_ANN_MAX_EVENTS ? n : TT_ANN_MAX_EVENTS;
    char a[32], b[32], avg[32], lim[32], lname[256];
    for (size_t k = 0; k < ne; k++) {
        ev[k].lane = lane;
        ev[k].idx = (uint32_t)run_idx[k];
    }
    tt_lane_fullname(tr, lane, lname, sizeof lname);
    return tt_rule_emit(ctx, ti, s, e, &lane, 1, ev, ne, n,
                        "%zu kernels shorter than %s in a row on %s (avg %s, device busy %.0f%% "
                        "of the stretch) between %s and %s: launch overhead dominates",
                        n, tt_fmt_dur(lim, sizeof lim, (tt_ns)tt_rule_param_value(ctx, "max_duration"), 3),
                        lname, tt_fmt_dur(avg, sizeof avg, busy / (tt_ns)n, 3),
                        e > s ? 100.0 * (double)busy / (double)(e - s) : 100.0,
                        tt_rule_time(tr, s, a, sizeof a), tt_rule_time(tr, e, b, sizeof b));
}

/* Report the run idx[0..n) when it is long enough; 0 or -1. */
static int end_run(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, uint32_t lane,
                   const size_t *idx, size_t n, tt_ns busy, size_t min_run)
{
    return n >= min_run ? report(ctx, ti, tr, lane, idx, n, busy) : 0;
}

static int run(const tt_rule_ctx *ctx)
{
    tt_ns max_dur = (tt_ns)tt_rule_param_value(ctx, "max_duration");
    tt_ns max_gap = (tt_ns)tt_rule_param_value(ctx, "max_gap");
    size_t min_run = (size_t)tt_rule_param_value(ctx, "min_run");
    if (min_run < 1)
        min_run = 1;
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        /* a kernel is device work: lanes without any (most of a trace's
         * events, on the host threads) have no run (rules/devwork.h) */
        const rule_lanes *rl = rule_devwork_lanes(ctx, t);
        tt_classifier cls;
        int rc = 0;
        if (!rl)
            return -1;
        if (tt_classifier_init(&cls, tr))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (uint32_t l = 0; rc == 0 && l < tr->n_lanes; l++) {
            const tt_lane *ln = &tr->lanes[l];
            size_t *idx = NULL, n = 0, cap = 0;
            tt_ns busy = 0, work_end = INT64_MIN;   /* end of the lane's device work so far */
            if (!rl->device[l])
                continue;
            for (size_t i = 0; rc == 0 && i < ln->n; i++) {
                const tt_event *e = &ln->ev[i];
                tt_cat_class cc = tt_classifier_category(&cls, e);
                bool late = n > 0 && e->start - work_end > max_gap;
                if (cc != TT_CAT_OTHER && tt_event_end(e) > work_end)
                    work_end = tt_event_end(e);
                if (cc != TT_CAT_KERNEL)
                    continue;
                if (e->dur >= max_dur || late) {
                    /* a long kernel, or a wait longer than a launch, ends the run */
                    rc = end_run(ctx, (int)t, tr, l, idx, n, busy, min_run);
                    n = 0;
                    busy = 0;
                    if (e->dur >= max_dur)
                        continue;
                }
                if (n == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    size_t *ni = realloc(idx, nc * sizeof *ni);
                    if (!ni) {
                        rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
                        break;
                    }
                    idx = ni;
                    cap = nc;
                }
                idx[n++] = i;
                busy += e->dur;
            }
            if (rc == 0)
                rc = end_run(ctx, (int)t, tr, l, idx, n, busy, min_run);
            free(idx);
        }
        tt_classifier_fini(&cls);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_tiny_kernels = {
    .id = "tiny-kernels",
    .devwork = true,
    .summary = "long runs of very short kernels where launch overhead dominates",
    .params = {
        {"max_duration", TT_PARAM_DURATION, 10000, "a kernel shorter than this is tiny"},
        {"min_run", TT_PARAM_NUMBER, 20, "fewest consecutive tiny kernels reported"},
        {"max_gap", TT_PARAM_DURATION, 100000, "a longer wait before a kernel ends the run"},
    },
    .n_params = 3,
    .run = run,
};
