/* rule_low_utilization.c - `low-utilization`: stretches where an engine or
 * device is used below threshold percent.
 *
 * From a utilization counter, when the device has one: a counter whose
 * name or key mentions utilization (neuron's TensorMatrix utilization, read
 * or derived by the decoder). A sample's value holds until the next one;
 * stretches below the threshold of at least min_duration are reported.
 * Values are percent (the decoders' unit "%", and the convention of
 * neuron-profile and nvidia-smi), unless the counter's unit, name or key
 * says ratio or fraction: then they are fractions of 1. The finding's lanes
 * are the lane the counter is about, else the device's lanes
 * (rule_counter_lanes).
 *
 * From the busy share, for every device (a group of lanes with kernels,
 * copies, memsets, instructions or collectives) without a utilization
 * counter: Kineto GPU streams, Ascend kernel tables, Nsight Systems. From
 * the device's first work to its last, cut into windows of `window`, the
 * share of each window during which any of its device lanes is busy (the
 * union of their work). At least min_windows consecutive windows each busy
 * less than threshold percent are one finding, with the device's lanes.
 * window 0 turns this half off.
 */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rules_util.h"

#include <stdlib.h>

#define MAX_LANES 64

/* Values of a utilization counter are fractions of 1 (else percent). */
static bool counter_is_fraction(const tt_trace *tr, const tt_counter *ct)
{
    const char *const texts[] = {tt_str(tr, ct->unit), tt_str(tr, ct->name),
                                 tt_str(tr, ct->key)};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (rule_icontains(texts[i], "ratio") || rule_icontains(texts[i], "fraction"))
            return true;
    return false;
}

static bool is_util_counter(const tt_trace *tr, const tt_counter *ct)
{
    return rule_icontains(tt_str(tr, ct->name), "util") ||
           rule_icontains(tt_str(tr, ct->key), "util");
}

static int from_counter(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, uint32_t c,
                        tt_classifier *cls)
{
    double threshold = tt_rule_param_value(ctx, "threshold");
    tt_ns min_dur = (tt_ns)tt_rule_param_value(ctx, "min_duration");
    const tt_counter *ct = &tr->counters[c];
    double scale = counter_is_fraction(tr, ct) ? 100.0 : 1.0;
    uint32_t lanes[MAX_LANES];
    size_t nl = 0;
    bool in = false;
    tt_ns s = 0, weight = 0;
    double sum = 0;
    for (size_t i = 0; i <= ct->n; i++) {
        bool low = i < ct->n && scale * ct->v[i] < threshold;
        tt_ns at = i < ct->n ? ct->t[i] : tr->t1;
        if (low && !in) {
            in = true;
            s = at;
            sum = 0;
            weight = 0;
        } else if (!low && in) {
            char a[32], b[32], d[32];
            in = false;
            if (at - s >= min_dur && at > s) {
                if (nl == 0)
                    nl = rule_counter_lanes(tr, cls, c, lanes, MAX_LANES);
                if (tt_rule_emit(ctx, ti, s, at, lanes, nl, NULL, 0, 0,
                                 "%s.%s below %.6g%% for %s (avg %.1f%%) between %s and %s",
                                 tt_str(tr, ct->name), tt_str(tr, ct->key), threshold,
                                 tt_fmt_dur(d, sizeof d, at - s, 3),
                                 weight > 0 ? scale * sum / (double)weight : 0.0,
                                 tt_rule_time(tr, s, a, sizeof a),
                                 tt_rule_time(tr, at, b, sizeof b)))
                    return -1;
            }
        }
        if (in && i < ct->n) {
            tt_ns next = i + 1 < ct->n ? ct->t[i + 1] : tr->t1;
            if (next > ct->t[i]) {
                sum += ct->v[i] * (double)(next - ct->t[i]);
                weight += next - ct->t[i];
            }
        }
    }
    return 0;
}

/* Report windows [k0, k1) of width w from t0, busy `busy` ns in all. */
static int emit_share(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, uint32_t group,
                      const uint32_t *lanes, size_t nl, tt_ns t0, tt_ns w, size_t k0,
                      size_t k1, tt_ns busy)
{
    tt_ns s = t0 + (tt_ns)k0 * w, e = t0 + (tt_ns)k1 * w;
    char g[128], a[32], b[32], d[32], wd[32];
    tt_group_label(tr, &tr->groups[group], g, sizeof g);
    return tt_rule_emit(ctx, ti, s, e, lanes, nl, NULL, 0, 0,
                        "%s busy %.1f%% of %s between %s and %s (under %.6g%% in each %s "
                        "window)",
                        g, 100.0 * (double)busy / (double)(e - s), tt_fmt_dur(d, sizeof d, e - s, 3),
                        tt_rule_time(tr, s, a, sizeof a), tt_rule_time(tr, e, b, sizeof b),
                        tt_rule_param_value(ctx, "threshold"), tt_fmt_dur(wd, sizeof wd, w, 3));
}

/* The busy-share half for one device (see the top of the file). */
static int from_busy_share(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, uint32_t group)
{
    double threshold = tt_rule_param_value(ctx, "threshold");
    tt_ns w = (tt_ns)tt_rule_param_value(ctx, "window");
    size_t min_windows = (size_t)tt_rule_param_value(ctx, "min_windows");
    uint32_t lanes[MAX_LANES];
    size_t nl, nw, run = 0, j = 0;
    const tt_ivals *dw;   /* shared with other rules (rules/devwork.h) */
    tt_ivals iv;
    tt_ns t0, run_busy = 0;
    int rc = 0;
    if (min_windows < 1)
        min_windows = 1;
    if (rule_devwork_group(ctx, (size_t)ti, group, &dw, lanes, MAX_LANES, &nl))
        return -1;
    iv = *dw;   /* a read-only view: not finished here */
    if (iv.n == 0 || (iv.v[iv.n - 1].e - iv.v[0].s) / w < (tt_ns)min_windows)
        return 0;
    t0 = iv.v[0].s;
    nw = (size_t)((iv.v[iv.n - 1].e - t0) / w);   /* whole windows only */
    /* Windows that no interval touches (busy 0) or that one interval covers
     * (busy w) come in stretches, each taken in one step: the cost grows
     * with the intervals, not with the span (a stray timestamp years away
     * makes billions of windows). */
    for (size_t k = 0; k < nw && rc == 0;) {
        tt_ns ws = t0 + (tt_ns)k * w, we = ws + w, busy = 0;
        size_t count = 1;
        bool low;
        while (j < iv.n && iv.v[j].e <= ws)
            j++;
        if (j == iv.n || iv.v[j].s >= we) {
            size_t next = j == iv.n ? nw : (size_t)((iv.v[j].s - t0) / w);
            count = (next < nw ? next : nw) - k;
        } else if (iv.v[j].s <= ws && iv.v[j].e >= we) {
            size_t past = (size_t)((iv.v[j].e - t0) / w);
            count = (past < nw ? past : nw) - k;
            busy = w;
        } else {
            /* union intervals are sorted and disjoint: walk them once */
            for (size_t q = j; q < iv.n && iv.v[q].s < we; q++)
                busy += (iv.v[q].e < we ? iv.v[q].e : we) - (iv.v[q].s > ws ? iv.v[q].s : ws);
        }
        low = 100.0 * (double)busy < threshold * (double)w;
        if (low) {
            run += count;
            run_busy += busy * (tt_ns)count;
        } else {
            if (run >= min_windows)
                rc = emit_share(ctx, ti, tr, group, lanes, nl, t0, w, k - run, k, run_busy);
            run = 0;
            run_busy = 0;
        }
        k += count;
    }
    if (rc == 0 && run >= min_windows)
        rc = emit_share(ctx, ti, tr, group, lanes, nl, t0, w, nw - run, nw, run_busy);
    return rc;
}

static int run_trace(const tt_rule_ctx *ctx, int ti, const tt_trace *tr)
{
    tt_classifier cls;
    const rule_lanes *rl = NULL;
    bool *counted = NULL;    /* per group: has a utilization counter, or is done */
    int rc = -1;
    if (tt_classifier_init(&cls, tr))
        return -1;
    if (!(counted = calloc(tr->n_groups + 1, sizeof *counted)))
        goto out;
    for (uint32_t c = 0; c < tr->n_counters; c++) {
        if (!is_util_counter(tr, &tr->counters[c]))
            continue;
        counted[tr->counters[c].group] = true;
        if (from_counter(ctx, ti, tr, c, &cls))
            goto out;
    }
    if (tt_rule_param_value(ctx, "window") >= 1) {
        if (!(rl = rule_devwork_lanes(ctx, (size_t)ti)))
            goto out;
        for (size_t k = 0; k < rl->n_dev; k++) {
            uint32_t g = tr->lanes[rl->dev[k]].group;
            if (counted[g])
                continue;
            counted[g] = true;
            if (from_busy_share(ctx, ti, tr, g))
                goto out;
        }
    }
    rc = 0;
out:
    free(counted);
    tt_classifier_fini(&cls);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    for (size_t t = 0; t < ctx->n_traces; t++)
        if (run_trace(ctx, (int)t, ctx->traces[t])) {
            if (ctx->err->code == TT_OK)
                tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
            return -1;
        }
    return 0;
}

const tt_rule tt_rule_low_utilization = {
    .id = "low-utilization",
    .summary = "an engine's utilization counter, or a device's busy share, stays below a threshold",
    .params = {
        {"threshold", TT_PARAM_NUMBER, 30, "utilization or busy share in percent"},
        {"min_duration", TT_PARAM_DURATION, 1000000, "shortest stretch of a counter reported"},
        {"window", TT_PARAM_DURATION, 10000000, "busy share is measured per window (0: off)"},
        {"min_windows", TT_PARAM_NUMBER, 10, "fewest consecutive low windows reported"},
    },
    .n_params = 4,
    .run = run,
};
