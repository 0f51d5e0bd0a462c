/* rule_slow_card.c - `slow-card` (several ranks): MindStudio Insight's
 * slow-card finding, a rank whose Computing or Free time per step is far
 * above the other ranks'.
 *
 * Each rank's overview (analysis/overview.h: the profiler's
 * step_trace_time.csv beside the trace when it is there, else computed
 * from the device events; this reads that file, the one input a rule
 * reads besides the traces) gives its mean Computing and mean Free per
 * step. A rank whose mean is at least min_excess percent above the median
 * of all ranks, and at least min_diff above it, is reported: more
 * Computing means a slower device (or more work given to it), more Free
 * means it waits on its host (launches, data loading). With two ranks the
 * median is their mean. The finding spans the rank's trace; its cost
 * (rules/rank.h) is the excess over the median, times the steps. The means
 * are the ranks' facts (rules/jobfacts.h), taken as each rank loads.
 */
#include "config.h"

#include "rules/jobfacts.h"
#include "rules/rules_util.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

static int flag(const tt_rule_ctx *ctx, size_t t, const rule_card *c, tt_ns value, tt_ns med,
                size_t n_ranks, const char *what, const char *why)
{
    const rule_rankinfo *tr = &ctx->facts->info[t];
    double min_excess = tt_rule_param_value(ctx, "min_excess");
    tt_ns min_diff = (tt_ns)tt_rule_param_value(ctx, "min_diff");
    char a[32], m[32];
    /* saturating: a side file's numbers can be anything (fuzzing found
     * INT64_MAX values overflowing the sums) */
    tt_ns excess = tt_sat_sub(value, med);
    if (excess < min_diff || (double)excess * 100.0 < min_excess * (double)med)
        return 0;
    if (tt_rule_emit(ctx, (int)t, tr->t0, tr->t1, NULL, 0, NULL, 0, 0,
                     "rank %lld: %s %s per step, %.2fx the median %s of %zu ranks (slow card: %s)",
                     (long long)(tr->rank >= 0 ? tr->rank : (int64_t)t), what,
                     tt_fmt_dur(a, sizeof a, value, 3),
                     med > 0 ? (double)value / (double)med : 0.0, tt_fmt_dur(m, sizeof m, med, 3),
                     n_ranks, why))
        return -1;
    /* the time it adds over the median, every step (at least 1 ns) */
    ctx->out->v[ctx->out->n - 1].cost =
        excess > INT64_MAX / (tt_ns)(c->steps ? c->steps : 1) ? INT64_MAX
                                                               : excess * (tt_ns)c->steps;
    return 0;
}

static int run(const tt_rule_ctx *ctx)
{
    const rule_card *c = ctx->facts->cards;
    tt_ns *v;
    size_t n = 0;
    int rc = -1;
    if (ctx->n_traces < 2 || !c)
        return 0;
    v = malloc(ctx->n_traces * sizeof *v);
    if (!v) {
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < ctx->n_traces; t++)
        n += c[t].steps != 0;
    if (n >= 2) {
        tt_ns med_c, med_f;
        size_t k = 0;
        for (size_t t = 0; t < ctx->n_traces; t++)
            if (c[t].steps)
                v[k++] = c[t].computing;
        med_c = rule_median(v, k);
        k = 0;
        for (size_t t = 0; t < ctx->n_traces; t++)
            if (c[t].steps)
                v[k++] = c[t].free;
        med_f = rule_median(v, k);
        for (size_t t = 0; t < ctx->n_traces; t++) {
            if (!c[t].steps)
                continue;
            if (flag(ctx, t, &c[t], c[t].computing, med_c, n, "Computing",
                     "its device computes slower, or was given more work") ||
                flag(ctx, t, &c[t], c[t].free, med_f, n, "Free",
                     "its device waits more for its host: launches, data loading"))
                goto out;
        }
    }
    rc = 0;
out:
    free(v);
    return rc;
}

const tt_rule tt_rule_slow_card = {
    .id = "slow-card",
    .multi = true,
    .ranks_first = true,
    .summary = "with several ranks: a rank whose Computing or Free per step is far above the "
               "median rank's",
    .params = {
        {"min_excess", TT_PARAM_NUMBER, 20, "percent above the median of the ranks"},
        {"min_diff", TT_PARAM_DURATION, 1000000, "and at least this far above it"},
    },
    .n_params = 2,
    .run = run,
};
