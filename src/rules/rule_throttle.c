/* rule_throttle.c - `throttle`: regions where the device throttles (power
 * or thermal), from a counter whose name or key mentions throttling (value
 * above zero) or from events named like it, merged into spans when closer
 * than merge_gap. */
#include "config.h"

#include "rules/rules_util.h"

#include <stdio.h>

#include <stdlib.h>

/* `what` says where the throttling was seen ("counter X, peak 2"). */
static int emit_span(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, const rule_span *sp,
                     const char *what)
{
    char a[32], b[32], d[32];
    return tt_rule_emit(ctx, ti, sp->start, sp->end, sp->lanes, sp->n_lanes, sp->ev, sp->n_ev,
                        sp->count, "throttling active for %s (%s) between %s and %s",
                        tt_fmt_dur(d, sizeof d, sp->end - sp->start, 3), what,
                        tt_rule_time(tr, sp->start, a, sizeof a),
                        tt_rule_time(tr, sp->end, b, sizeof b));
}

static int from_counters(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, tt_ns gap)
{
    for (uint32_t c = 0; c < tr->n_counters; c++) {
        const tt_counter *ct = &tr->counters[c];
        rule_span sp;
        double peak = 0;
        char what[240];
        if (!rule_icontains(tt_str(tr, ct->name), "throttl") &&
            !rule_icontains(tt_str(tr, ct->key), "throttl"))
            continue;
        sp.open = false;
        for (size_t i = 0; i < ct->n; i++) {
            /* a sample's value holds until the next sample */
            tt_ns s = ct->t[i], e = i + 1 < ct->n ? ct->t[i + 1] : tr->t1;
            if (!(ct->v[i] > 0))
                continue;
            if (!rule_span_add(&sp, gap, s, e, 0, 0, -1)) {
                snprintf(what, sizeof what, "counter %s, peak %.6g", tt_str(tr, ct->name), peak);
                if (sp.open && emit_span(ctx, ti, tr, &sp, what))
                    return -1;
                rule_span_start(&sp, s, e, 0, 0, -1);
                sp.n_lanes = sp.n_ev = 0;   /* a counter has no lane or event */
                peak = 0;
            } else {
                sp.n_lanes = sp.n_ev = 0;
            }
            if (ct->v[i] > peak)
                peak = ct->v[i];
        }
        snprintf(what, sizeof what, "counter %s, peak %.6g", tt_str(tr, ct->name), peak);
        if (sp.open && emit_span(ctx, ti, tr, &sp, what))
            return -1;
    }
    return 0;
}

static int emit_events(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, const rule_span *sp)
{
    char what[64];
    snprintf(what, sizeof what, "%llu throttle event%s", (unsigned long long)sp->count,
             sp->count == 1 ? "" : "s");
    return emit_span(ctx, ti, tr, sp, what);
}

static bool throttle_name(const char *name)
{
    return rule_icontains(name, "throttl");
}

static int from_events(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, tt_ns gap)
{
    rule_names names;
    int rc = 0;
    if (rule_names_init(&names, tr, throttle_name))
        return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; rc == 0 && l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        rule_span sp;
        sp.open = false;
        for (size_t i = 0; rc == 0 && i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (!rule_names_match(&names, e->name))
                continue;
            if (!rule_span_add(&sp, gap, e->start, tt_event_end(e), l, (uint32_t)i, -1)) {
                if (sp.open && emit_events(ctx, ti, tr, &sp))
                    rc = -1;
                rule_span_start(&sp, e->start, tt_event_end(e), l, (uint32_t)i, -1);
            }
        }
        if (rc == 0 && sp.open && emit_events(ctx, ti, tr, &sp))
            rc = -1;
    }
    rule_names_fini(&names);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    tt_ns gap = (tt_ns)tt_rule_param_value(ctx, "merge_gap");
    for (size_t t = 0; t < ctx->n_traces; t++)
        if (from_counters(ctx, (int)t, ctx->traces[t], gap) ||
            from_events(ctx, (int)t, ctx->traces[t], gap))
            return -1;
    return 0;
}

const tt_rule tt_rule_throttle = {
    .id = "throttle",
    .severity = TT_SEV_WARNING,
    .summary = "regions where a throttling counter or throttle events are active",
    .params = {
        {"merge_gap", TT_PARAM_DURATION, 0, "active stretches closer than this are merged"},
    },
    .n_params = 1,
    .run = run,
};
