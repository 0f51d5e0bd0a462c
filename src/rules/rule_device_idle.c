/* rule_device_idle.c - `device-idle`: a device sits idle while its host is
 * busy: the device waits for the host (HTA's idle time analysis and Nsight
 * Systems' GPU gap rule report these).
 *
 * Per device (a group of lanes holding kernels, copies or memsets): the
 * union of its device work, the gaps between consecutive busy stretches,
 * and the median of those gaps. A gap is reported when it is at least
 * min_gap long, at least gap_factor times the median gap, and the host is
 * busy for at least host_busy percent of it.
 *
 * Host busy is the union, clipped to the gap, of the host work on the
 * lanes of the trace without device work, but for the process "Overlap
 * Analysis" of Ascend traces (its Computing, Communication and Free spans
 * summarize device time). Host work is every slice, at any depth, except
 * what only marks time:
 *   - instants, async spans and begins without an end;
 *   - the profiler's own spans (category Trace: "PyTorch Profiler (0)")
 *     and step spans (ProfilerStep#N, an Operator in the oldest Kineto
 *     schema);
 *   - synchronize calls (those host-sync reports): the host waits for the
 *     device there, it does not keep it waiting;
 *   - annotations (categories user_annotation, gpu_user_annotation, nvtx,
 *     cuda_profiler_range) that enclose other events: such a span marks a
 *     section ("## forward ##"), and the events inside it count instead.
 *     An annotation with nothing inside is code the profiler did not break
 *     down, e.g. enumerate(DataLoader)#...__next__ waiting for a batch, and
 *     counts.
 * So a stretch where the host only sits in the profiler's envelope or in
 * a step with no operator running is not busy.
 *
 * The message names the host activity that covers the most of the gap:
 * among host work not nested in other host work, the name with the
 * largest clipped time ("top: DataLoader.__next__, 57 ms").
 */
#include "config.h"

#include "analysis/intervals.h"
#include "index/index.h"
#include "rules/devwork.h"
#include "rules/rule_host_calls.h"
#include "rules/rules_util.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Categories of spans that label a section of code. */
static bool annotation_category(const char *cat)
{
    static const char *const cats[] = {
        "user_annotation", "gpu_user_annotation", "nvtx", "cuda_profiler_range",
    };
    for (size_t i = 0; i < sizeof cats / sizeof cats[0]; i++)
        if (strcasecmp(cat, cats[i]) == 0)
            return true;
    return false;
}

/* What is host work, answered per string id. */
typedef struct host_work {
    rule_names cats, steps, syncs;
    uint32_t   trace_cat;   /* string id of "Trace", TT_STR_ERROR when absent */
    uint32_t   overlap;     /* name id of "Overlap Analysis", TT_STR_ERROR when absent */
} host_work;

/* Event i of lane l is host work (see the top of the file). */
static bool is_host_work(host_work *hw, const tt_lane *l, size_t i)
{
    const tt_event *e = &l->ev[i];
    if (e->kind != TT_EV_SLICE || (e->flags & TT_EVF_UNCLOSED) || e->dur == 0 ||
        rule_names_match(&hw->steps, e->name) || rule_names_match(&hw->syncs, e->name))
        return false;
    if (e->cat == hw->trace_cat)
        return false;
    if (!e->cat || !rule_names_match(&hw->cats, e->cat))
        return true;
    /* an annotation: work when nothing nests in it (a child follows its
     * parent in lane order) */
    return !(i + 1 < l->n && l->ev[i + 1].start < tt_event_end(e) &&
             l->ev[i + 1].depth > e->depth);
}

/* Time per name of the outermost host work in a gap. */
typedef struct name_time {
    uint32_t name;
    tt_ns    t;
} name_time;

static int cmp_name_time(const void *pa, const void *pb, void *ctx)
{
    const name_time *a = pa, *b = pb;
    (void)ctx;
    return a->name < b->name ? -1 : a->name > b->name;
}

typedef struct gap_host {
    tt_ns    busy;       /* union of host work in the gap */
    uint32_t top;        /* name with the most outermost time, 0 = none */
    tt_ns    top_t;
} gap_host;

/* Host work during [s, e) (see the top of the file). 0, or -1 on OOM. */
static int host_busy(const tt_trace *tr, const rule_lanes *rl, host_work *hw, tt_ns s, tt_ns e,
                     gap_host *out)
{
    tt_ivals iv;
    tt_idxbuf buf;
    name_time *nt = NULL;
    size_t nn = 0, cap = 0;
    int rc = -1;
    memset(out, 0, sizeof *out);
    tt_ivals_init(&iv);
    tt_idxbuf_init(&buf);
    for (size_t h = 0; h < rl->n_host; h++) {
        const tt_lane *l = &tr->lanes[rl->host[h]];
        tt_ns outer_end = INT64_MIN;   /* end of the outermost host work so far */
        if (tr->groups[l->group].name == hw->overlap)
            continue;   /* Ascend's summary of device time, not the host */
        buf.n = 0;
        if (tt_index_overlap(l->ev, l->n, s, e, &buf))
            goto out;
        /* positions come in lane order: parents before what they enclose */
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *ev = &l->ev[buf.v[k]];
            tt_ns a = ev->start > s ? ev->start : s;
            tt_ns b = tt_event_end(ev) < e ? tt_event_end(ev) : e;
            if (b <= a || !is_host_work(hw, l, buf.v[k]))
                continue;
            if (tt_ivals_push(&iv, a, b))
                goto out;
            if (ev->start < outer_end)
                continue;
            outer_end = tt_event_end(ev);
            if (nn == cap) {
                size_t nc = cap ? cap * 2 : 64;
                name_time *nv = realloc(nt, nc * sizeof *nv);
                if (!nv)
                    goto out;
                nt = nv;
                cap = nc;
            }
            nt[nn].name = ev->name;
            nt[nn].t = b - a;
            nn++;
        }
    }
    if (tt_ivals_normalize(&iv) || tt_sort(nt, nn, sizeof *nt, cmp_name_time, NULL))
        goto out;
    out->busy = tt_ivals_length(&iv);
    for (size_t i = 0; i < nn;) {
        size_t j = i;
        tt_ns t = 0;
        for (; j < nn && nt[j].name == nt[i].name; j++)
            t += nt[j].t;
        if (t > out->top_t) {
            out->top = nt[i].name;
            out->top_t = t;
        }
        i = j;
    }
    rc = 0;
out:
    free(nt);
    tt_ivals_fini(&iv);
    tt_idxbuf_fini(&buf);
    return rc;
}

static int idle_device(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, const rule_lanes *rl,
                       uint32_t group, host_work *hw)
{
    tt_ns min_gap = (tt_ns)tt_rule_param_value(ctx, "min_gap");
    double factor = tt_rule_param_value(ctx, "gap_factor");
    double host_pct = tt_rule_param_value(ctx, "host_busy");
    const tt_ivals *iv;   /* shared with other rules (rules/devwork.h) */
    tt_ns *gaps = NULL, median;
    size_t ng = 0;
    uint32_t lanes[64];
    size_t nl = 0;
    int rc = -1;
    char gname[128], a[32], b[32], d[32], m[32], tt[32];

    if (rule_devwork_group(ctx, (size_t)ti, group, &iv, lanes, sizeof lanes / sizeof lanes[0],
                           &nl))
        goto out;
    if (iv->n < 2) {
        rc = 0;
        goto out;
    }
    gaps = malloc((iv->n - 1) * sizeof *gaps);
    if (!gaps)
        goto out;
    for (size_t i = 1; i < iv->n; i++)
        gaps[ng++] = iv->v[i].s - iv->v[i - 1].e;
    median = rule_median(gaps, ng);
    tt_group_label(tr, &tr->groups[group], gname, sizeof gname);
    for (size_t i = 1; i < iv->n; i++) {
        tt_ns s = iv->v[i - 1].e, e = iv->v[i].s, gap = e - s;
        gap_host gh;
        if (gap < min_gap || (double)gap < factor * (double)median)
            continue;
        if (host_busy(tr, rl, hw, s, e, &gh))
            goto out;
        if (gh.busy == 0 || 100.0 * (double)gh.busy < host_pct * (double)gap)
            continue;
        if (tt_rule_emit(ctx, ti, s, e, lanes, nl, NULL, 0, 0,
                         "%s idle for %s (median gap %s) from %s to %s while the host was "
                         "%.0f%% busy (top: %.80s, %s): the device waits for the host",
                         gname, tt_fmt_dur(d, sizeof d, gap, 3),
                         tt_fmt_dur(m, sizeof m, median, 3), tt_rule_time(tr, s, a, sizeof a),
                         tt_rule_time(tr, e, b, sizeof b), 100.0 * (double)gh.busy / (double)gap,
                         tt_str(tr, gh.top), tt_fmt_dur(tt, sizeof tt, gh.top_t, 3)))
            goto out;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    free(gaps);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        const rule_lanes *rl = rule_devwork_lanes(ctx, t);
        host_work hw;
        bool *seen;
        int rc = 0;
        if (!rl)
            return -1;
        memset(&hw, 0, sizeof hw);
        hw.trace_cat = tt_strtab_find(tr->strings, "Trace", 5);
        hw.overlap = tt_strtab_find(tr->strings, "Overlap Analysis", 16);
        seen = calloc(tr->n_groups + 1, sizeof *seen);
        if (!seen || rule_names_init(&hw.cats, tr, annotation_category) ||
            rule_names_init(&hw.steps, tr, rule_is_step_name) ||
            rule_names_init(&hw.syncs, tr, rule_is_sync_call))
            rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (size_t k = 0; rc == 0 && k < rl->n_dev; k++) {
            uint32_t g = tr->lanes[rl->dev[k]].group;
            if (seen[g])
                continue;
            seen[g] = true;
            rc = idle_device(ctx, (int)t, tr, rl, g, &hw);
        }
        free(seen);
        rule_names_fini(&hw.cats);
        rule_names_fini(&hw.steps);
        rule_names_fini(&hw.syncs);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_device_idle = {
    .id = "device-idle",
    .devwork = true,
    .summary = "a device is idle while its host is busy (the device waits for the host)",
    .params = {
        {"min_gap", TT_PARAM_DURATION, 1000000, "shortest gap reported"},
        {"gap_factor", TT_PARAM_NUMBER, 10, "gap must be this many times the median gap"},
        {"host_busy", TT_PARAM_NUMBER, 50, "percent of the gap the host must be busy"},
    },
    .n_params = 3,
    .run = run,
};
