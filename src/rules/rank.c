/* rank.c - findings grouped per (rule, trace) and ranked by cost (see
 * rank.h). */
#include "config.h"

#include "rules/rank.h"

#include "analysis/intervals.h"
#include "rules/rules_util.h"
#include "util/num.h"
#include "util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tt_rank_base_init(tt_rank_base *b, const tt_trace *tr)
{
    rule_names sn;
    tt_ivals_init(&b->steps);
    if (rule_names_init(&sn, tr, rule_is_step_name))
        return -1;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++)
            if (rule_names_match(&sn, ln->ev[i].name) &&
                tt_ivals_push(&b->steps, ln->ev[i].start, tt_event_end(&ln->ev[i]))) {
                rule_names_fini(&sn);
                return -1;
            }
    }
    rule_names_fini(&sn);
    if (tt_ivals_normalize(&b->steps))
        return -1;
    b->len = tt_ivals_length(&b->steps);
    b->by_steps = b->len > 0;
    if (!b->by_steps) {
        /* the whole trace is the reference: one interval, so the share is
         * computed the same way in both cases */
        b->steps.n = 0;
        if (tt_ivals_push(&b->steps, tr->t0, tr->t1))
            return -1;
        b->len = tr->t1 - tr->t0;
    }
    return 0;
}

typedef struct sort_ctx {
    const tt_annotations *a;
} sort_ctx;

tt_ns tt_annotation_cost(const tt_annotation *an)
{
    return an->cost > 0 ? an->cost : an->end - an->start;
}

/* Costliest finding first; then by time, for a stable listing. */
static int cmp_item(const void *pa, const void *pb, void *vctx)
{
    const sort_ctx *c = vctx;
    const tt_annotation *x = &c->a->v[*(const size_t *)pa], *y = &c->a->v[*(const size_t *)pb];
    tt_ns dx = tt_annotation_cost(x), dy = tt_annotation_cost(y);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static int cmp_group(const void *pa, const void *pb, void *vctx)
{
    const tt_rank_group *x = pa, *y = pb;
    int rx = tt_rule_index(x->rule), ry = tt_rule_index(y->rule);
    (void)vctx;
    if (x->first != y->first)
        return x->first ? -1 : 1;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->sev != y->sev)
        return x->sev > y->sev ? -1 : 1;
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->trace < y->trace ? -1 : x->trace > y->trace;
}

void tt_rank_base_fini(tt_rank_base *b)
{
    tt_ivals_fini(&b->steps);
}

tt_severity tt_rules_impact_severity(const tt_rules_config *cfg, size_t rule, double share)
{
    if (rule < 32 && cfg->severity_set[rule])
        return cfg->severity[rule];
    if (share > cfg->error_share)
        return TT_SEV_ERROR;
    if (share > cfg->warning_share)
        return TT_SEV_WARNING;
    return TT_SEV_INFO;
}

void tt_ranking_fini(tt_ranking *r)
{
    for (size_t g = 0; g < r->n_groups; g++)
        free(r->groups[g].items);
    free(r->groups);
    free(r->order);
    memset(r, 0, sizeof *r);
}

const char *tt_rank_impact(const tt_rank_group *g, char *buf, size_t n)
{
    char cost[32];
    /* two decimals below 1%, so a small share does not read as 0 */
    snprintf(buf, n, "%zu finding%s, %s affected, %.*f%% of the %s", g->n, g->n == 1 ? "" : "s",
             tt_fmt_dur(cost, sizeof cost, g->cost, 3), g->share < 1 ? 2 : 1, g->share,
             g->by_steps ? "step time" : "trace span");
    return buf;
}

/* Cost, share and severity of one group whose items are filled in. */
static int group_measure(tt_rank_group *g, const tt_annotations *a, const tt_rank_base *b,
                         const tt_rules_config *cfg)
{
    tt_ivals spans;
    tt_ns inside, stated = 0;   /* stated: the sum of the findings' own costs */
    int ri = tt_rule_index(g->rule);
    tt_ivals_init(&spans);
    g->sev = TT_SEV_INFO;
    for (size_t k = 0; k < g->n; k++) {
        const tt_annotation *an = &a->v[g->items[k]];
        if (an->sev > g->sev)
            g->sev = an->sev;
        if (an->cost > 0) {
            stated += an->cost;
            continue;
        }
        if (tt_ivals_push(&spans, an->start, an->end)) {
            tt_ivals_fini(&spans);
            return -1;
        }
    }
    if (tt_ivals_normalize(&spans)) {
        tt_ivals_fini(&spans);
        return -1;
    }
    g->cost = tt_ivals_length(&spans) + stated;
    /* a stated cost has no place in time: it counts whole, up to the base */
    inside = tt_ivals_overlap_length(&spans, &b->steps) + stated;
    tt_ivals_fini(&spans);
    g->base = b->len;
    g->by_steps = b->by_steps;
    g->share = b->len > 0 ? 100.0 * (double)(inside < b->len ? inside : b->len) / (double)b->len : 0;
    g->first = ri >= 0 && tt_rules()[ri]->ranks_first;
    if (cfg && ri >= 0) {
        g->sev = tt_rules_impact_severity(cfg, (size_t)ri, g->share);
        g->sev_explicit = cfg->severity_set[ri];
    }
    return 0;
}

/* The ranking over the annotations a about n_traces traces, with bases[t]
 * the reference time of trace t, or NULL: traces[t]'s, computed here for
 * the traces that have findings. */
static int ranking_build(tt_ranking *r, const tt_annotations *a, const tt_trace *const *traces,
                         const tt_rank_base *given, size_t n_traces, const tt_rules_config *cfg,
                         tt_error *err)
{
    size_t nr = tt_rules_count(), ng = 0, pos = 0;
    size_t *slot = NULL;   /* (trace, rule) -> group index + 1 */
    tt_rank_base *bases = NULL;
    sort_ctx sc;
    memset(r, 0, sizeof *r);
    r->n_ann = a->n;
    if (a->n == 0)
        return 0;
    /* (+ 1: no traces still gives a pointer to tell from a failure) */
    slot = calloc(n_traces * nr + 1, sizeof *slot);
    bases = given ? NULL : calloc(n_traces + 1, sizeof *bases);
    r->order = calloc(a->n, sizeof *r->order);
    r->groups = calloc(a->n, sizeof *r->groups);   /* at most one per finding */
    if (!slot || (!given && !bases) || !r->order || !r->groups)
        goto oom;
    for (size_t t = 0; !given && t < n_traces; t++)
        tt_ivals_init(&bases[t].steps);
    /* count the findings of each group, then fill */
    for (size_t i = 0; i < a->n; i++) {
        int ri = tt_rule_index(a->v[i].rule);
        size_t t = (size_t)a->v[i].trace, *s;
        if (ri < 0 || a->v[i].trace < 0 || t >= n_traces)
            continue;   /* not from the table or about no loaded trace: unranked */
        s = &slot[t * nr + (size_t)ri];
        if (!*s) {
            *s = ++ng;
            r->groups[ng - 1].rule = tt_rules()[ri]->id;
            r->groups[ng - 1].trace = (int)t;
        }
        r->groups[*s - 1].n++;
    }
    r->n_groups = ng;
    for (size_t g = 0; g < ng; g++) {
        if (!(r->groups[g].items = malloc(r->groups[g].n * sizeof(size_t))))
            goto oom;
        r->groups[g].n = 0;
    }
    for (size_t i = 0; i < a->n; i++) {
        int ri = tt_rule_index(a->v[i].rule);
        size_t t = (size_t)a->v[i].trace;
        tt_rank_group *g;
        if (ri < 0 || a->v[i].trace < 0 || t >= n_traces)
            continue;
        g = &r->groups[slot[t * nr + (size_t)ri] - 1];
        g->items[g->n++] = i;
    }
    sc.a = a;
    for (size_t t = 0; !given && t < n_traces; t++) {
        bool used = false;
        for (size_t k = 0; k < nr; k++)
            used |= slot[t * nr + k] != 0;
        if (used && tt_rank_base_init(&bases[t], traces[t]))
            goto oom;
    }
    for (size_t g = 0; g < ng; g++) {
        tt_rank_group *gr = &r->groups[g];
        if (tt_sort(gr->items, gr->n, sizeof *gr->items, cmp_item, &sc) ||
            group_measure(gr, a, given ? &given[gr->trace] : &bases[gr->trace], cfg))
            goto oom;
    }
    if (tt_sort(r->groups, ng, sizeof *r->groups, cmp_group, NULL))
        goto oom;
    for (size_t g = 0; g < ng; g++)
        for (size_t k = 0; k < r->groups[g].n; k++)
            r->order[r->groups[g].items[k]] = ++pos;
    for (size_t t = 0; bases && t < n_traces; t++)
        tt_rank_base_fini(&bases[t]);
    free(bases);
    free(slot);
    return 0;
oom:
    if (bases)
        for (size_t t = 0; t < n_traces; t++)
            tt_rank_base_fini(&bases[t]);
    free(bases);
    free(slot);
    tt_ranking_fini(r);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

int tt_ranking_build(tt_ranking *r, const tt_annotations *a, const tt_trace *const *traces,
                     size_t n_traces, const tt_rules_config *cfg, tt_error *err)
{
    return ranking_build(r, a, traces, NULL, n_traces, cfg, err);
}

int tt_ranking_build_bases(tt_ranking *r, const tt_annotations *a, const tt_rank_base *bases,
                           size_t n_traces, const tt_rules_config *cfg, tt_error *err)
{
    return ranking_build(r, a, NULL, bases, n_traces, cfg, err);
}

int tt_rank_apply_severity(tt_annotations *a, const tt_trace *const *traces, size_t n_traces,
                           const tt_rules_config *cfg, tt_error *err)
{
    return tt_rank_apply_severity_bases(a, traces, NULL, n_traces, cfg, err);
}

int tt_rank_apply_severity_bases(tt_annotations *a, const tt_trace *const *traces,
                                 const tt_rank_base *bases, size_t n_traces,
                                 const tt_rules_config *cfg, tt_error *err)
{
    tt_ranking r;
    if (ranking_build(&r, a, traces, bases, n_traces, cfg, err))
        return -1;
    for (size_t g = 0; g < r.n_groups; g++)
        for (size_t k = 0; k < r.groups[g].n; k++)
            a->v[r.groups[g].items[k]].sev = r.groups[g].sev;
    tt_ranking_fini(&r);
    return 0;
}
