/* rule_straggler.c - `straggler` (several ranks): one rank holds the others
 * back.
 *
 * Collectives are matched across ranks by multi/collectives.h, whose
 * "last to arrive" this uses: the rank with the least in-kernel wait
 * (every other rank waits inside the kernel for its duration - the
 * shortest). Point-to-point kernels (SendRecv, Send, Recv) are left out: a
 * rank there waits for one peer, not for the job. A
 * rank that is the last to arrive at min_share percent or more of the
 * matched collectives, making the other ranks wait min_wait or more
 * (median over those collectives), is reported, with the span from its
 * first to its last late arrival. This needs no clock alignment.
 * That span is mostly time the job spends computing, not waiting for the
 * rank, so the finding's cost (rules/rank.h) is what the job lost to it:
 * at each collective it arrived last at, the others' median wait, summed.
 *
 * Both read the ranks' facts (rules/jobfacts.h: collectives matched, steps
 * listed), not the traces, so a job's ranks need not be loaded together.
 *
 * Steps: the same step (events named ProfilerStep#N) taking step_factor
 * times the median step of all ranks or more is reported on that rank;
 * its cost is its excess over the median.
 */
#include "config.h"

#include "multi/collectives.h"
#include "rules/jobfacts.h"
#include "rules/rules_util.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

typedef struct rank_late {
    uint64_t late;        /* collectives where this rank arrived last */
    uint64_t matched;     /* collectives it took part in with others */
    tt_ns    first, last; /* span of its late arrivals */
    tt_ns   *waits;       /* median wait it caused, per late collective */
    size_t   n_waits, cap_waits;
    tt_evref ev[TT_ANN_MAX_EVENTS];
    size_t   n_ev;
} rank_late;

static int collectives(const tt_rule_ctx *ctx)
{
    double min_share = tt_rule_param_value(ctx, "min_share");
    tt_ns min_wait = (tt_ns)tt_rule_param_value(ctx, "min_wait");
    const tt_colls *cl = &ctx->facts->colls;
    rank_late *rk = calloc(ctx->n_traces, sizeof *rk);
    tt_ns *w = malloc(ctx->n_traces * sizeof *w);
    int rc = -1;
    if (!rk || !w)
        goto out;
    for (size_t i = 0; i < cl->n;) {
        size_t j = i, late = i, nw = 0;
        while (j < cl->n && cl->v[j].name == cl->v[i].name && cl->v[j].seq == cl->v[i].seq)
            j++;
        if (j - i >= 2 && !tt_coll_name_is_p2p(tt_coll_name(cl, &cl->v[i]))) {
            for (size_t k = i; k < j; k++) {
                rk[cl->v[k].rank].matched++;
                if (cl->v[k].last)
                    late = k;
            }
            for (size_t k = i; k < j; k++)
                if (k != late)
                    w[nw++] = cl->v[k].wait;
            {
                rank_late *r = &rk[cl->v[late].rank];
                const tt_coll *x = &cl->v[late];
                if (r->n_waits == r->cap_waits) {
                    size_t nc = r->cap_waits ? r->cap_waits * 2 : 64;
                    tt_ns *nwv = realloc(r->waits, nc * sizeof *nwv);
                    if (!nwv)
                        goto out;
                    r->waits = nwv;
                    r->cap_waits = nc;
                }
                r->waits[r->n_waits++] = rule_median(w, nw);
                if (r->late++ == 0 || x->start < r->first)
                    r->first = x->start;
                if (x->start + x->dur > r->last)
                    r->last = x->start + x->dur;
                if (r->n_ev < TT_ANN_MAX_EVENTS)
                    r->ev[r->n_ev++] = x->ev;
            }
        }
        i = j;
    }
    for (size_t t = 0; t < ctx->n_traces; t++) {
        rank_late *r = &rk[t];
        const rule_rankinfo *tr = &ctx->facts->info[t];
        tt_ns med, lost = 0;
        char a[32], b[32], d[32], l[32];
        uint32_t lanes[16];
        size_t nl = 0;
        if (!r->late || 100.0 * (double)r->late < min_share * (double)r->matched)
            continue;
        for (size_t k = 0; k < r->n_waits; k++)
            lost += r->waits[k];
        med = rule_median(r->waits, r->n_waits);
        if (med < min_wait)
            continue;
        for (size_t k = 0; k < r->n_ev; k++)
            rule_lane_add(lanes, &nl, 16, r->ev[k].lane);
        if (tt_rule_emit(ctx, (int)t, r->first, r->last, lanes, nl, r->ev, r->n_ev, r->late,
                         "rank %lld arrived last at %llu of %llu collectives, making the other "
                         "ranks wait %s (median) each time, %s in all, between %s and %s",
                         (long long)(tr->rank >= 0 ? tr->rank : (int64_t)t),
                         (unsigned long long)r->late, (unsigned long long)r->matched,
                         tt_fmt_dur(d, sizeof d, med, 3), tt_fmt_dur(l, sizeof l, lost, 3),
                         tt_fmt_dur(a, sizeof a, r->first - tr->t0, 3),
                         tt_fmt_dur(b, sizeof b, r->last - tr->t0, 3)))
            goto out;
        /* (at least 1 ns: 0 would mean "the span") */
        ctx->out->v[ctx->out->n - 1].cost = lost > 0 ? lost : 1;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    if (rk)
        for (size_t t = 0; t < ctx->n_traces; t++)
            free(rk[t].waits);
    free(rk);
    free(w);
    return rc;
}

/* ---------------------------------------------------------------- steps */

static int cmp_step(const void *pa, const void *pb, void *ctx)
{
    const rule_step *a = pa, *b = pb;
    (void)ctx;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->trace < b->trace ? -1 : a->trace > b->trace;
}

static int steps(const tt_rule_ctx *ctx)
{
    double factor = tt_rule_param_value(ctx, "step_factor");
    size_t n = ctx->facts->n_steps;
    /* sorted here: the facts are the job's, read-only */
    rule_step *v = malloc((n ? n : 1) * sizeof *v);
    tt_ns *d = malloc(ctx->n_traces * sizeof *d);
    int rc = -1;
    if (!d || !v)
        goto out;
    if (n)
        memcpy(v, ctx->facts->steps, n * sizeof *v);
    if (tt_sort(v, n, sizeof *v, cmp_step, NULL))
        goto out;
    for (size_t i = 0; i < n;) {
        size_t j = i, nd = 0;
        tt_ns med;
        while (j < n && v[j].key == v[i].key)
            j++;
        if (j - i >= 2) {
            for (size_t k = i; k < j; k++)
                d[nd++] = v[k].dur;
            med = rule_median(d, nd);
            for (size_t k = i; k < j; k++) {
                const rule_rankinfo *tr = &ctx->facts->info[v[k].trace];
                char a[32], m[32];
                if (med <= 0 || (double)v[k].dur < factor * (double)med)
                    continue;
                if (tt_rule_emit(ctx, (int)v[k].trace, v[k].start, v[k].start + v[k].dur,
                                 &v[k].ev.lane, 1, &v[k].ev, 1, 1,
                                 "rank %lld: %s took %s, %.2fx the median %s of %zu ranks",
                                 (long long)(tr->rank >= 0 ? tr->rank : (int64_t)v[k].trace),
                                 v[k].name,
                                 tt_fmt_dur(a, sizeof a, v[k].dur, 3),
                                 (double)v[k].dur / (double)med, tt_fmt_dur(m, sizeof m, med, 3),
                                 j - i))
                    goto out;
                /* the time the slow step added, not the whole step */
                ctx->out->v[ctx->out->n - 1].cost = v[k].dur - med > 0 ? v[k].dur - med : 1;
            }
        }
        i = j;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    free(d);
    free(v);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    if (ctx->n_traces < 2)
        return 0;
    return collectives(ctx) || steps(ctx) ? -1 : 0;
}

const tt_rule tt_rule_straggler = {
    .id = "straggler",
    .multi = true,
    .ranks_first = true,
    .summary = "with several ranks: one rank arrives last at collectives or has slow steps",
    .params = {
        {"min_share", TT_PARAM_NUMBER, 50, "percent of matched collectives the rank is last at"},
        {"min_wait", TT_PARAM_DURATION, 100000, "median wait it causes the other ranks"},
        {"step_factor", TT_PARAM_NUMBER, 1.25, "a step this many times the median is slow"},
    },
    .n_params = 3,
    .run = run,
};
