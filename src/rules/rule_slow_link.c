/* rule_slow_link.c - `slow-link`: a communication link whose bandwidth is
 * far below that of its transport type, from the Ascend profiler's
 * communication_matrix.json beside the rank's trace file
 * (decode/ascend_comm.h; a trace without one has no findings).
 *
 * The links are the matrix's per-step totals ("Total Op Info", summed as
 * msprof-analyze sums them: tt_comm_link_totals), as MindStudio Insight's
 * slow-link analysis reads them. For each transport type (HCCS, PCIE,
 * RDMA, SDMA, SIO, LOCAL) with at least min_links links carrying data in
 * the rank's file, a link whose bandwidth is below max_ratio times the
 * median bandwidth of that type is reported. A card's copy within itself
 * (SRC == DST: Ascend's LOCAL links, and older MindSpore's hccl_raw_N.csv,
 * which calls in-card copies SDMA like the copies between cards) is
 * compared only with such copies, being no link between cards. Its span is its step's
 * communication ops (communication.json: first start to last end; the
 * whole trace without it); its cost (rules/rank.h) is the time the link
 * took beyond what the median bandwidth would have needed.
 *
 * This reads the side file (I/O, like a decoder); nothing is printed.
 */
#include "config.h"

#include "decode/ascend_comm.h"
#include "decode/mindspore_hccl.h"
#include "rules/rules_util.h"
#include "util/sort.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb, void *ctx)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    (void)ctx;
    return a < b ? -1 : a > b;
}

/* Median bandwidth of the links of transport type tt carrying data,
 * within one card (src == dst) when self, else between cards; *n how many
 * there are. -1 OOM. */
static int type_median(const tt_comm_total *t, size_t nt, const char *tt, bool self, double *med,
                       size_t *n)
{
    double *v = malloc((nt + 1) * sizeof *v);
    size_t k = 0;
    if (!v)
        return -1;
    for (size_t i = 0; i < nt; i++)
        if (strcmp(t[i].transport, tt) == 0 && t[i].time_ms > 0 && t[i].size_mb > 0 &&
            (t[i].src == t[i].dst) == self)
            v[k++] = t[i].bw_gbs;
    *n = k;
    *med = 0;
    if (k) {
        if (tt_sort(v, k, sizeof *v, cmp_double, NULL)) {
            free(v);
            return -1;
        }
        *med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
    free(v);
    return 0;
}

/* v (a file's us or ms) times scale as ns, when that is a time a trace
 * can hold (model/trace.h): the files' numbers can be anything (fuzzing
 * found a Start Timestamp of 9e18 us overflowing the span's end). */
static bool file_ns(double v, double scale, tt_ns *out)
{
    double ns = v * scale;
    if (!(ns >= -(double)TT_TIME_LIMIT && ns <= (double)TT_TIME_LIMIT))
        return false;
    *out = (tt_ns)llround(ns);
    return true;
}

/* The span of the ops of the link's step and group in communication.json,
 * absolute ns; false when the file has none. */
static bool step_span(const tt_comm *c, const tt_comm_link *g, tt_ns *s, tt_ns *e)
{
    bool any = false;
    for (size_t i = 0; i < c->n_ops; i++) {
        const tt_comm_op *o = &c->ops[i];
        tt_ns a, b, d;
        if (!o->has_start || strcmp(o->step, g->step) || strcmp(o->group, g->group) ||
            !file_ns(o->start_us, 1e3, &a) || !file_ns(o->elapse_ms, 1e6, &d) || d < 0)
            continue;   /* an op without a usable span */
        b = a + d;      /* both within TT_TIME_LIMIT: no overflow */
        if (!any || a < *s)
            *s = a;
        if (!any || b > *e)
            *e = b;
        any = true;
    }
    return any;
}

static int run(const tt_rule_ctx *ctx)
{
    const tt_trace *tr = ctx->traces[0];
    double max_ratio = tt_rule_param_value(ctx, "max_ratio");
    size_t min_links = (size_t)tt_rule_param_value(ctx, "min_links");
    tt_comm *c = NULL;
    tt_comm_total *t = NULL;
    size_t nt = 0;
    int rc;
    rc = tt_comm_load_beside(tr->source ? tr->source : ".", TT_COMM_TIME | TT_COMM_MATRIX, &c,
                             ctx->err);
    if (rc <= 0)
        return rc;
    rc = -1;
    if (tt_comm_link_totals(c, &t, &nt))
        goto out;
    for (size_t i = 0; i < nt; i++) {
        double med, need_ms;
        size_t n;
        tt_ns s = tr->t0, e = tr->t1, cost;
        int64_t rank = tr->rank >= 0 ? tr->rank : 0;
        if (t[i].time_ms <= 0 || t[i].size_mb <= 0)
            continue;
        bool self = t[i].src == t[i].dst;
        if (type_median(t, nt, t[i].transport, self, &med, &n))
            goto out;
        if (n < min_links || n < 2 || med <= 0 || t[i].bw_gbs >= max_ratio * med)
            continue;
        step_span(c, t[i].group, &s, &e);
        need_ms = t[i].size_mb / med;
        if (!file_ns(t[i].time_ms - need_ms, 1e6, &cost))
            cost = t[i].time_ms > need_ms ? TT_TIME_LIMIT : 1;
        if (tt_rule_emit(ctx, 0, s, e, NULL, 0, NULL, 0, 0,
                         "rank %lld, %s: link %lld->%lld (%s) ran at %.4f GB/s, %.2fx the "
                         "median %.4f GB/s of %zu %s%s links (%.6f MB in %.6f ms)",
                         (long long)rank, t[i].group->step, (long long)t[i].src,
                         (long long)t[i].dst, t[i].transport, t[i].bw_gbs, t[i].bw_gbs / med,
                         med, n, self ? "in-card " : "", t[i].transport, t[i].size_mb,
                         t[i].time_ms))
            goto out;
        ctx->out->v[ctx->out->n - 1].cost = cost > 0 ? cost : 1;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    free(t);
    tt_comm_free(c);
    return rc;
}

const tt_rule tt_rule_slow_link = {
    .id = "slow-link",
    .multi = false,
    .summary = "Ascend communication matrix: a link far slower than the median of its "
               "transport type",
    .params = {
        {"max_ratio", TT_PARAM_NUMBER, 0.5,
         "a link below this fraction of its type's median bandwidth is slow"},
        {"min_links", TT_PARAM_NUMBER, 3, "links of a type needed for a median"},
    },
    .n_params = 2,
    .run = run,
};
