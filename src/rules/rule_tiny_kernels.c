/* rule_tiny_kernels.c - `tiny-kernels`: long runs of kernels shorter than
 * max_duration on one stream or engine, where launch overhead dominates and
 * the device mostly waits for the next launch. A run is at least min_run
 * consecutive kernels of the lane each shorter than max_duration (copies
 * and memsets in between do not break it). */
#include "config.h"

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

static int run(const tt_rule_ctx *ctx)
{
    tt_ns max_dur = (tt_ns)tt_rule_param_value(ctx, "max_duration");
    size_t min_run = (size_t)tt_rule_param_value(ctx, "min_run");
    if (min_run < 1)
        min_run = 1;
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        tt_classifier cls;
        if (tt_classifier_init(&cls, tr))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            const tt_lane *ln = &tr->lanes[l];
            size_t *idx = NULL, n = 0, cap = 0;
            tt_ns busy = 0;
            for (size_t i = 0; i <= ln->n; i++) {
                bool tiny = false, kernel = false;
                if (i < ln->n) {
                    tt_cat_class cc = tt_classifier_category(&cls, &ln->ev[i]);
                    kernel = cc == TT_CAT_KERNEL;
                    if (!kernel)
                        continue;
                    tiny = ln->ev[i].dur < max_dur;
                }
                if (tiny) {
                    if (n == cap) {
                        size_t nc = cap ? cap * 2 : 64;
                        size_t *ni = realloc(idx, nc * sizeof *ni);
                        if (!ni) {
                            free(idx);
                            tt_classifier_fini(&cls);
                            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
                        }
                        idx = ni;
                        cap = nc;
                    }
                    idx[n++] = i;
                    busy += ln->ev[i].dur;
                    continue;
                }
                if (n >= min_run && report(ctx, (int)t, tr, l, idx, n, busy)) {
                    free(idx);
                    tt_classifier_fini(&cls);
                    return -1;
                }
                n = 0;
                busy = 0;
            }
            free(idx);
        }
        tt_classifier_fini(&cls);
    }
    return 0;
}

const tt_rule tt_rule_tiny_kernels = {
    .id = "tiny-kernels",
    .severity = TT_SEV_INFO,
    .summary = "long runs of very short kernels where launch overhead dominates",
    .params = {
        {"max_duration", TT_PARAM_DURATION, 10000, "a kernel shorter than this is tiny"},
        {"min_run", TT_PARAM_NUMBER, 20, "fewest consecutive tiny kernels reported"},
    },
    .n_params = 2,
    .run = run,
};
