/* rule_host_sync.c - `host-sync`: long device, stream, event or context
 * synchronize calls on the host: the CPU idles while the device drains its
 * queue, and the device then idles waiting for new work. A call nested in
 * another reported call (its versioned entry point, a driver call under the
 * runtime call) is the same wait and is not reported again. */
#include "config.h"

#include "rules/rule_host_calls.h"
#include "rules/rules_util.h"

static int run(const tt_rule_ctx *ctx)
{
    tt_ns min_dur = (tt_ns)tt_rule_param_value(ctx, "min_duration");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        rule_names sync;
        if (rule_names_init(&sync, tr, rule_is_sync_call))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            const tt_lane *ln = &tr->lanes[l];
            tt_ns outer_end = INT64_MIN;
            for (size_t i = 0; i < ln->n; i++) {
                const tt_event *e = &ln->ev[i];
                const char *name = tt_str(tr, e->name);
                char a[32], d[32], lane[256];
                tt_evref ref;
                if (!rule_names_match(&sync, e->name) || rule_call_nested(&outer_end, e) ||
                    e->dur < min_dur)
                    continue;
                ref.lane = l;
                ref.idx = (uint32_t)i;
                tt_lane_fullname(tr, l, lane, sizeof lane);
                if (tt_rule_emit(ctx, (int)t, e->start, tt_event_end(e), &l, 1, &ref, 1, 1,
                                 "%s blocks %s for %s at %s", name, lane,
                                 tt_fmt_dur(d, sizeof d, e->dur, 3),
                                 tt_rule_time(tr, e->start, a, sizeof a))) {
                    rule_names_fini(&sync);
                    return -1;
                }
            }
        }
        rule_names_fini(&sync);
    }
    return 0;
}

const tt_rule tt_rule_host_sync = {
    .id = "host-sync",
    .summary = "long device/stream/event synchronize calls on the host",
    .params = {
        {"min_duration", TT_PARAM_DURATION, 1000000, "shortest call reported"},
    },
    .n_params = 1,
    .run = run,
};
