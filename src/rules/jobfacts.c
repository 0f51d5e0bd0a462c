/* jobfacts.c - per-rank facts for the cross-rank rules (see jobfacts.h),
 * and running those rules over them. */
#include "config.h"

#include "rules/jobfacts.h"

#include "analysis/overview.h"
#include "rules/rules_util.h"
#include "util/hash.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

static bool enabled(const tt_rules_config *cfg, const char *id)
{
    int i = tt_rule_index(id);
    return i >= 0 && cfg->enabled[i];
}

bool rule_jobfacts_wanted(const tt_rules_config *cfg)
{
    const tt_rule *const *r = tt_rules();
    for (size_t i = 0; r[i]; i++)
        if (r[i]->multi && cfg->enabled[i])
            return true;
    return false;
}

int rule_jobfacts_init(rule_jobfacts *f, size_t n, const tt_rules_config *cfg, tt_error *err)
{
    memset(f, 0, sizeof *f);
    tt_colls_init(&f->colls);
    f->n = n;
    f->want_colls = enabled(cfg, "straggler");
    f->want_cards = enabled(cfg, "slow-card");
    f->info = calloc(n + 1, sizeof *f->info);
    if (f->want_cards)
        f->cards = calloc(n + 1, sizeof *f->cards);
    if (!f->info || (f->want_cards && !f->cards)) {
        rule_jobfacts_fini(f);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    return 0;
}

void rule_jobfacts_fini(rule_jobfacts *f)
{
    for (size_t i = 0; i < f->n_steps; i++)
        free(f->steps[i].name);
    free(f->steps);
    free(f->info);
    free(f->cards);
    tt_colls_fini(&f->colls);
    memset(f, 0, sizeof *f);
}

/* The events named ProfilerStep#N of tr, in lane order. -1 OOM. */
static int add_steps(rule_jobfacts *f, size_t t, const tt_trace *tr)
{
    rule_names sn;
    if (rule_names_init(&sn, tr, rule_is_step_name))
        return -1;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const char *name = tt_str(tr, ln->ev[i].name);
            rule_step *s;
            if (!rule_names_match(&sn, ln->ev[i].name))
                continue;
            if (f->n_steps == f->cap_steps) {
                size_t nc = f->cap_steps ? f->cap_steps * 2 : 64;
                rule_step *nv = realloc(f->steps, nc * sizeof *nv);
                if (!nv)
                    goto oom;
                f->steps = nv;
                f->cap_steps = nc;
            }
            s = &f->steps[f->n_steps];
            if (!(s->name = strdup(name)))
                goto oom;
            s->key = tt_hash_bytes(name, strlen(name), 7);
            s->trace = (uint32_t)t;
            s->start = ln->ev[i].start;
            s->dur = ln->ev[i].dur;
            s->ev.lane = l;
            s->ev.idx = (uint32_t)i;
            f->n_steps++;
        }
    }
    rule_names_fini(&sn);
    return 0;
oom:
    rule_names_fini(&sn);
    return -1;
}

/* Rank t's mean Computing and Free per step from its overview. */
static int add_card(rule_jobfacts *f, size_t t, const tt_trace *tr, tt_error *err)
{
    tt_overview *o;
    tt_ns sc = 0, sf = 0;
    rule_card *c = &f->cards[t];
    if (tt_overview_compute(tr, TT_OVERVIEW_AUTO, &o, err))
        return -1;
    for (size_t i = 0; i < o->n; i++) {
        /* saturating: a side file's numbers can be anything */
        sc = tt_sat_add(sc, o->v[i].computing);
        sf = tt_sat_add(sf, o->v[i].free);
    }
    c->steps = o->n;
    if (o->n) {
        c->computing = sc / (tt_ns)o->n;
        c->free = sf / (tt_ns)o->n;
    }
    tt_overview_free(o);
    return 0;
}

int rule_jobfacts_add(rule_jobfacts *f, size_t t, const tt_trace *tr, tt_error *err)
{
    if (t >= f->n)
        return tt_error_set(err, TT_ERR_USAGE, "rules: rank %zu of a job of %zu", t, f->n);
    f->info[t].rank = tr->rank;
    f->info[t].t0 = tr->t0;
    f->info[t].t1 = tr->t1;
    if (f->want_colls && tt_colls_add(&f->colls, tr, t, 0, err))
        return -1;
    if (f->want_colls && add_steps(f, t, tr))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (f->want_cards && add_card(f, t, tr, err))
        return -1;
    return 0;
}

int rule_jobfacts_finish(rule_jobfacts *f, tt_error *err)
{
    return f->want_colls ? tt_colls_match(&f->colls, err) : 0;
}

int rule_run_multi(const tt_rules_config *cfg, const rule_jobfacts *f, tt_annotations *out,
                   tt_error *err)
{
    const tt_rule *const *r = tt_rules();
    if (f->n < 2)
        return 0;
    for (size_t i = 0; r[i]; i++) {
        tt_rule_ctx ctx;
        if (!r[i]->multi || !cfg->enabled[i])
            continue;
        memset(&ctx, 0, sizeof ctx);
        ctx.rule = r[i];
        ctx.cfg = cfg;
        ctx.n_traces = f->n;
        ctx.facts = f;
        ctx.out = out;
        ctx.err = err;
        if (r[i]->run(&ctx))
            return -1;
    }
    return 0;
}
