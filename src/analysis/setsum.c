/* setsum.c - cached results of whole lane sets (see setsum.h). */
#include "config.h"

#include "analysis/setsum.h"

#include "analysis/selsum.h"
#include "index/index.h"

#include <stdlib.h>
#include <string.h>

typedef struct ss_xfer {
    tt_key        key;
    tt_transfers *t;          /* NULL: no result for this slot */
    uint64_t      used;
} ss_xfer;

typedef struct ss_set {
    bool        set;          /* holds a lane set */
    bool        excl;         /* built without the instants at the lanes'
                                 last end (a window ending there, exclusive) */
    uint32_t   *lanes;        /* NULL: every lane */
    size_t      n_lanes;
    bool        has_gpu;
    tt_gpu_time gpu;          /* over every event of the lanes, unclipped */
    ss_xfer     xfer[TT_SETSUM_KEYS];
    uint64_t    used;         /* clock of the last use, for eviction */
} ss_set;

typedef struct ss_cache {
    tt_ss_ext ext;            /* first: selsum frees us through it */
    ss_set    sets[TT_SS_UNIONS];
    uint64_t  clock;
} ss_cache;

/* What one call asks, and what it answers with. */
typedef struct ss_ask {
    const tt_sel *sel;
    bool          holds_all;  /* the window holds every event of its lanes,
                                 but perhaps the instants at their last end */
    bool          excl;       /* ... and leaves those instants out */
    tt_sel        whole;      /* a window over exactly the events it holds */
    const tt_key *key;        /* NULL: the GPU time */
    tt_gpu_time  *gpu;
    tt_transfers **xfer;
    tt_error     *err;
} ss_ask;

static void set_clear(ss_set *s)
{
    free(s->lanes);
    for (int k = 0; k < TT_SETSUM_KEYS; k++)
        tt_transfers_free(s->xfer[k].t);
    memset(s, 0, sizeof *s);
}

static void cache_free(tt_ss_ext *ext)
{
    ss_cache *c = (ss_cache *)ext;
    for (int i = 0; i < TT_SS_UNIONS; i++)
        set_clear(&c->sets[i]);
    free(c);
}

static bool every_lane(const tt_trace *tr, const tt_sel *sel)
{
    return !sel->lanes || sel->n_lanes == tr->n_lanes;   /* sorted, no duplicates */
}

static bool same_lanes(const tt_trace *tr, const tt_sel *sel, bool excl, const ss_set *s)
{
    if (!s->set || s->excl != excl)
        return false;
    if (!s->lanes)
        return every_lane(tr, sel);
    return !every_lane(tr, sel) && sel->n_lanes == s->n_lanes &&
           memcmp(sel->lanes, s->lanes, s->n_lanes * sizeof *s->lanes) == 0;
}

static bool same_key(const tt_key *a, const tt_key *b)
{
    return a->kind == b->kind && (a->kind != TT_KEY_ARG || strcmp(a->arg, b->arg) == 0);
}

/* Whether the window selects every event in [first, last] whole. */
static bool holds(const tt_sel *sel, tt_ns first, tt_ns last)
{
    return sel->from < sel->to && sel->from <= first &&
           (last < sel->to || (last == sel->to && sel->to_inclusive));
}

/* A copy of t that owns its labels. NULL on OOM. */
static tt_transfers *transfers_copy(const tt_transfers *t)
{
    tt_transfers *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    tt_arena_init(&c->arena);
    c->key = t->key;
    c->n = t->n;
    c->all = t->all;   /* its label is a literal "" */
    if (!(c->rows = malloc((t->n ? t->n : 1) * sizeof *c->rows)))
        goto oom;
    for (size_t i = 0; i < t->n; i++) {
        c->rows[i] = t->rows[i];
        if (!(c->rows[i].label = tt_arena_strndup(&c->arena, t->rows[i].label,
                                                  strlen(t->rows[i].label))))
            goto oom;
    }
    return c;
oom:
    tt_transfers_free(c);
    return NULL;
}

/* The set's entry, made (least recently used replaced) when the window
 * holds all its events. NULL when there is none. */
static ss_set *find_set(const tt_trace *tr, ss_cache *c, const ss_ask *a, int *rc)
{
    ss_set *s = NULL;
    bool every = every_lane(tr, a->sel);
    *rc = 0;
    for (int i = 0; i < TT_SS_UNIONS && !s; i++)
        if (same_lanes(tr, a->sel, a->excl, &c->sets[i]))
            s = &c->sets[i];
    if (!s && a->holds_all) {
        s = &c->sets[0];
        for (int i = 1; i < TT_SS_UNIONS; i++)
            if (c->sets[i].used < s->used)
                s = &c->sets[i];
        set_clear(s);
        if (!every &&
            !(s->lanes = malloc((a->sel->n_lanes ? a->sel->n_lanes : 1) * sizeof *s->lanes))) {
            *rc = -1;
            return NULL;
        }
        if (!every)
            memcpy(s->lanes, a->sel->lanes, a->sel->n_lanes * sizeof *s->lanes);
        s->n_lanes = tt_sel_lane_count(tr, a->sel);
        s->set = true;
        s->excl = a->excl;
    }
    if (s)
        s->used = ++c->clock;
    return s;
}

static int answer_gpu(const tt_trace *tr, ss_set *s, ss_ask *a)
{
    const tt_gpu_time *g = &s->gpu;
    if (!s->has_gpu) {
        if (!a->holds_all)
            return 0;
        if (tt_gpu_time_compute_walk(tr, &a->whole, &s->gpu, a->err))
            return 0;   /* declined: the caller's walk fails the same way */
        s->has_gpu = true;
    }
    if (g->kernels + g->memcpys + g->memsets == 0) {
        memset(a->gpu, 0, sizeof *a->gpu);   /* no GPU events: zeros anywhere */
        return 1;
    }
    if (!a->holds_all && !holds(a->sel, g->first, g->last))
        return 0;   /* a window holding every GPU event whole answers too */
    *a->gpu = *g;
    return 1;
}

static int answer_transfers(const tt_trace *tr, ss_set *s, ss_ask *a, ss_cache *c)
{
    ss_xfer *x = NULL;
    if (!a->holds_all)
        return 0;   /* transfers answer only windows holding every event */
    for (int k = 0; k < TT_SETSUM_KEYS && !x; k++)
        if (s->xfer[k].t && same_key(&s->xfer[k].key, a->key))
            x = &s->xfer[k];
    if (!x) {
        x = &s->xfer[0];
        for (int k = 1; k < TT_SETSUM_KEYS; k++)
            if (s->xfer[k].used < x->used)
                x = &s->xfer[k];
        tt_transfers_free(x->t);
        x->t = NULL;
        if (tt_transfers_compute_walk(tr, &a->whole, a->key, &x->t, a->err))
            return 0;   /* declined: the caller's walk fails the same way */
        x->key = *a->key;
    }
    x->used = ++c->clock;
    if (!(*a->xfer = transfers_copy(x->t)))
        return -1;
    return 1;
}

static int lookup(const tt_trace *tr, tt_ss_ext **slot, void *ctx)
{
    ss_ask *a = ctx;
    ss_cache *c = (ss_cache *)*slot;
    ss_set *s;
    int rc;
    if (!c) {
        if (!a->holds_all)
            return 0;   /* nothing cached, and no reason to build */
        if (!(c = calloc(1, sizeof *c)))
            return -1;
        c->ext.free_fn = cache_free;
        *slot = &c->ext;
    }
    if (!(s = find_set(tr, c, a, &rc)))
        return rc;
    return a->key ? answer_transfers(tr, s, a, c) : answer_gpu(tr, s, a);
}

/* Fill the window over every event of the selection's lanes and ask. */
static int ask(const tt_trace *tr, ss_ask *a)
{
    size_t nl = tt_sel_lane_count(tr, a->sel);
    bool any = false;
    int rc;
    a->whole = *a->sel;
    a->whole.to_inclusive = true;
    /* the lanes' first start and last end: O(lanes log n) */
    for (size_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[tt_sel_lane(a->sel, li)];
        tt_ns s, t;
        if (ln->n == 0)
            continue;
        s = ln->ev[0].start;
        t = tt_index_prefix_max_end(ln->ev, ln->n, ln->n - 1);
        if (!any || s < a->whole.from)
            a->whole.from = s;
        if (!any || t > a->whole.to)
            a->whole.to = t;
        any = true;
    }
    /* A window ending exactly at the lanes' last end, exclusive, holds
     * every event whole but the instants there: the same events as the
     * window over them all with that end exclusive, so that window's
     * walk answers it (a TUI box over the whole trace ends so). */
    a->holds_all = any && holds(a->sel, a->whole.from, a->whole.to);
    if (!a->holds_all && any && a->sel->from < a->sel->to && a->sel->from <= a->whole.from &&
        a->sel->to == a->whole.to && !a->sel->to_inclusive) {
        a->holds_all = a->excl = true;
        a->whole.to_inclusive = false;
    }
    rc = tt_selsum_with_ext(tr, TT_SS_EXT_SETS, lookup, a);
    if (rc < 0)
        tt_error_set(a->err, TT_ERR_NOMEM, "out of memory");
    return rc;
}

int tt_setsum_gpu(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out, tt_error *err)
{
    ss_ask a = {.sel = sel, .gpu = out, .err = err};
    return ask(tr, &a);
}

int tt_setsum_transfers(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                        tt_transfers **out, tt_error *err)
{
    ss_ask a = {.sel = sel, .key = key, .xfer = out, .err = err};
    *out = NULL;
    return ask(tr, &a);
}
