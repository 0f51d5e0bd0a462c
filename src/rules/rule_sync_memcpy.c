/* rule_sync_memcpy.c - `sync-memcpy`: synchronous copies and memsets
 * called from the host (cudaMemcpy, cudaMemset, ...): the host thread
 * stalls until the device has done them (Nsight Systems' cuda_memcpy_sync
 * and cuda_memset_sync rules). Calls on one thread closer than merge_gap
 * are one finding; a call nested in another counted call (the versioned
 * entry point of the same call, a driver call under a runtime call) is not
 * counted again. */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rule_host_calls.h"
#include "rules/rules_util.h"

static int flush(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, rule_span *sp,
                 const char *example)
{
    char a[32], b[32], tot[32];
    if (!sp->open)
        return 0;
    sp->open = false;
    return tt_rule_emit(ctx, ti, sp->start, sp->end, sp->lanes, sp->n_lanes, sp->ev, sp->n_ev,
                        sp->count,
                        "%llu synchronous copy/memset call%s (%s, %s in total) between %s and %s: "
                        "the host waits for each; use the Async variants",
                        (unsigned long long)sp->count, sp->count == 1 ? "" : "s", example,
                        tt_fmt_dur(tot, sizeof tot, sp->total, 3),
                        tt_rule_time(tr, sp->start, a, sizeof a),
                        tt_rule_time(tr, sp->end, b, sizeof b));
}

static int run(const tt_rule_ctx *ctx)
{
    tt_ns gap = (tt_ns)tt_rule_param_value(ctx, "merge_gap");
    tt_ns min_dur = (tt_ns)tt_rule_param_value(ctx, "min_duration");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        rule_names copies;
        uint32_t n_lanes = tr->n_lanes;
        int rc = 0;
        if (rule_names_init(&copies, tr, rule_is_sync_copy_call))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        /* no string names such a call: no event does */
        if (!rule_names_any(&copies, rule_devwork_names(ctx, t), RULE_NAME_SYNC_COPY))
            n_lanes = 0;
        for (uint32_t l = 0; rc == 0 && l < n_lanes; l++) {
            const tt_lane *ln = &tr->lanes[l];
            rule_span sp;
            const char *example = "";
            tt_ns outer_end = INT64_MIN;
            sp.open = false;
            for (size_t i = 0; rc == 0 && i < ln->n; i++) {
                const tt_event *e = &ln->ev[i];
                if (!rule_names_match(&copies, e->name) || rule_call_nested(&outer_end, e) ||
                    e->dur < min_dur)
                    continue;
                if (!rule_span_add(&sp, gap, e->start, tt_event_end(e), l, (uint32_t)i, -1)) {
                    if (flush(ctx, (int)t, tr, &sp, example))
                        rc = -1;
                    rule_span_start(&sp, e->start, tt_event_end(e), l, (uint32_t)i, -1);
                    example = tt_str(tr, e->name);
                }
            }
            if (rc == 0 && flush(ctx, (int)t, tr, &sp, example))
                rc = -1;
        }
        rule_names_fini(&copies);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_sync_memcpy = {
    .id = "sync-memcpy",
    .summary = "synchronous copy or memset calls (cudaMemcpy, cudaMemset) that stall the host",
    .params = {
        {"min_duration", TT_PARAM_DURATION, 0, "ignore calls shorter than this"},
        {"merge_gap", TT_PARAM_DURATION, 1000000, "calls closer than this form one finding"},
    },
    .n_params = 2,
    .run = run,
};
