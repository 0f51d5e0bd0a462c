/* rule_device_idle.c - `device-idle`: a device sits idle while its host is
 * busy, i.e. the job is launch-bound (as HTA's idle time analysis and
 * Nsight Systems' GPU gap rule report).
 *
 * Per device (a group of lanes holding kernels, copies or memsets): the
 * union of its device work, the gaps between consecutive busy stretches,
 * and the median of those gaps. A gap is reported when it is at least
 * min_gap long, at least gap_factor times the median gap, and the host
 * lanes of the same trace are busy for at least host_busy percent of it.
 */
#include "config.h"

#include "analysis/intervals.h"
#include "index/index.h"
#include "rules/rules_util.h"

#include <stdlib.h>

/* Share of [s, e) during which any host lane runs something. */
static int host_busy(const tt_trace *tr, const rule_lanes *rl, tt_ns s, tt_ns e, tt_ns *busy)
{
    tt_ivals iv;
    tt_idxbuf buf;
    tt_ivals_init(&iv);
    tt_idxbuf_init(&buf);
    for (size_t h = 0; h < rl->n_host; h++) {
        const tt_lane *l = &tr->lanes[rl->host[h]];
        buf.n = 0;
        if (tt_index_overlap(l->ev, l->n, s, e, &buf))
            goto oom;
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *ev = &l->ev[buf.v[k]];
            tt_ns a = ev->start > s ? ev->start : s;
            tt_ns b = tt_event_end(ev) < e ? tt_event_end(ev) : e;
            /* nested events lie inside their parents: depth 0 is enough */
            if (ev->depth == 0 && tt_ivals_push(&iv, a, b))
                goto oom;
        }
    }
    if (tt_ivals_normalize(&iv))
        goto oom;
    *busy = tt_ivals_length(&iv);
    tt_ivals_fini(&iv);
    tt_idxbuf_fini(&buf);
    return 0;
oom:
    tt_ivals_fini(&iv);
    tt_idxbuf_fini(&buf);
    return -1;
}

static int idle_device(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, const rule_lanes *rl,
                       uint32_t group, tt_classifier *cls)
{
    tt_ns min_gap = (tt_ns)tt_rule_param_value(ctx, "min_gap");
    double factor = tt_rule_param_value(ctx, "gap_factor");
    double host_pct = tt_rule_param_value(ctx, "host_busy");
    tt_ivals iv;
    tt_ns *gaps = NULL, median;
    size_t ng = 0;
    uint32_t lanes[64];
    size_t nl = 0;
    int rc = -1;
    char gname[128], a[32], b[32], d[32], m[32];

    tt_ivals_init(&iv);
    for (size_t k = 0; k < rl->n_dev; k++) {
        const tt_lane *l = &tr->lanes[rl->dev[k]];
        if (l->group != group)
            continue;
        if (nl < sizeof lanes / sizeof lanes[0])
            lanes[nl++] = rl->dev[k];
        for (size_t i = 0; i < l->n; i++)
            if (tt_classifier_gpu(cls, &l->ev[i]) != TT_GPU_NONE &&
                tt_ivals_push(&iv, l->ev[i].start, tt_event_end(&l->ev[i])))
                goto out;
    }
    if (tt_ivals_normalize(&iv))
        goto out;
    if (iv.n < 2) {
        rc = 0;
        goto out;
    }
    gaps = malloc((iv.n - 1) * sizeof *gaps);
    if (!gaps)
        goto out;
    for (size_t i = 1; i < iv.n; i++)
        gaps[ng++] = iv.v[i].s - iv.v[i - 1].e;
    median = rule_median(gaps, ng);
    tt_group_label(tr, &tr->groups[group], gname, sizeof gname);
    for (size_t i = 1; i < iv.n; i++) {
        tt_ns s = iv.v[i - 1].e, e = iv.v[i].s, gap = e - s, busy;
        if (gap < min_gap || (double)gap < factor * (double)median)
            continue;
        if (host_busy(tr, rl, s, e, &busy))
            goto out;
        if (100.0 * (double)busy < host_pct * (double)gap)
            continue;
        if (tt_rule_emit(ctx, ti, s, e, lanes, nl, NULL, 0, 0,
                         "%s idle for %s (median gap %s) while the host was %.0f%% busy, "
                         "from %s to %s: launch-bound",
                         gname, tt_fmt_dur(d, sizeof d, gap, 3),
                         tt_fmt_dur(m, sizeof m, median, 3), 100.0 * (double)busy / (double)gap,
                         tt_rule_time(tr, s, a, sizeof a), tt_rule_time(tr, e, b, sizeof b)))
            goto out;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    free(gaps);
    tt_ivals_fini(&iv);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        tt_classifier cls;
        rule_lanes rl;
        bool *seen;
        int rc = 0;
        if (tt_classifier_init(&cls, tr))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        if (rule_lanes_init(&rl, tr, &cls)) {
            tt_classifier_fini(&cls);
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        }
        seen = calloc(tr->n_groups + 1, sizeof *seen);
        if (!seen)
            rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (size_t k = 0; rc == 0 && k < rl.n_dev; k++) {
            uint32_t g = tr->lanes[rl.dev[k]].group;
            if (seen[g])
                continue;
            seen[g] = true;
            rc = idle_device(ctx, (int)t, tr, &rl, g, &cls);
        }
        free(seen);
        rule_lanes_fini(&rl);
        tt_classifier_fini(&cls);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_device_idle = {
    .id = "device-idle",
    .severity = TT_SEV_WARNING,
    .summary = "a device is idle while its host is busy (launch-bound stretches)",
    .params = {
        {"min_gap", TT_PARAM_DURATION, 1000000, "shortest gap reported"},
        {"gap_factor", TT_PARAM_NUMBER, 10, "gap must be this many times the median gap"},
        {"host_busy", TT_PARAM_NUMBER, 50, "percent of the gap the host must be busy"},
    },
    .n_params = 3,
    .run = run,
};
