/* rule_low_utilization.c - `low-utilization`: stretches where an engine's
 * utilization stays below a threshold, from counters whose name or key
 * mentions utilization (neuron's TensorMatrix utilization, read or derived
 * by the decoder). Values up to 1 are taken as fractions, larger ones as
 * percent. A sample's value holds until the next sample. */
#include "config.h"

#include "rules/rules_util.h"

static int run(const tt_rule_ctx *ctx)
{
    double threshold = tt_rule_param_value(ctx, "threshold");
    tt_ns min_dur = (tt_ns)tt_rule_param_value(ctx, "min_duration");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        for (uint32_t c = 0; c < tr->n_counters; c++) {
            const tt_counter *ct = &tr->counters[c];
            double limit = ct->vmax <= 1.0 ? threshold / 100.0 : threshold;
            double scale = ct->vmax <= 1.0 ? 100.0 : 1.0;
            bool in = false;
            tt_ns s = 0;
            double sum = 0;
            tt_ns weight = 0;
            if (!rule_icontains(tt_str(tr, ct->name), "util") &&
                !rule_icontains(tt_str(tr, ct->key), "util"))
                continue;
            for (size_t i = 0; i <= ct->n; i++) {
                bool low = i < ct->n && ct->v[i] < limit;
                tt_ns at = i < ct->n ? ct->t[i] : tr->t1;
                if (low && !in) {
                    in = true;
                    s = at;
                    sum = 0;
                    weight = 0;
                } else if (!low && in) {
                    char a[32], b[32], d[32];
                    in = false;
                    if (at - s >= min_dur && at > s &&
                        tt_rule_emit(ctx, (int)t, s, at, NULL, 0, NULL, 0, 0,
                                     "%s.%s below %.6g%% for %s (avg %.1f%%) between %s and %s",
                                     tt_str(tr, ct->name), tt_str(tr, ct->key), threshold,
                                     tt_fmt_dur(d, sizeof d, at - s, 3),
                                     weight > 0 ? scale * sum / (double)weight : 0.0,
                                     tt_rule_time(tr, s, a, sizeof a),
                                     tt_rule_time(tr, at, b, sizeof b)))
                        return -1;
                }
                if (in && i + 1 <= ct->n) {
                    tt_ns next = i + 1 < ct->n ? ct->t[i + 1] : tr->t1;
                    if (next > ct->t[i]) {
                        sum += ct->v[i] * (double)(next - ct->t[i]);
                        weight += next - ct->t[i];
                    }
                }
            }
        }
    }
    return 0;
}

const tt_rule tt_rule_low_utilization = {
    .id = "low-utilization",
    .severity = TT_SEV_INFO,
    .summary = "an engine's utilization counter stays below a threshold",
    .params = {
        {"threshold", TT_PARAM_NUMBER, 30, "utilization in percent"},
        {"min_duration", TT_PARAM_DURATION, 1000000, "shortest stretch reported"},
    },
    .n_params = 2,
    .run = run,
};
