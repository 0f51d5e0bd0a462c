/* merge.c - join a trace fragment onto a trace being built (see merge.h). */
#include "config.h"

#include "model/merge.h"

#include "util/bigalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- pool */

/* Arrays filed under one lane index, at most this many: about one is
 * taken for each put once the chunks flow; more would be memory kept
 * for lanes that later chunks may not have. */
#define POOL_DEPTH 2

/* Arrays of more elements than this are not kept (they are freed as
 * before): a chunk's lane (a chunk is 1 MB of JSON, 4 MB at the most)
 * seldom grows that far, and a whole lane merged by another load while
 * the pool is open (a worker's captures) would only be held for some
 * later chunk's small lane to take. */
#define POOL_KEEP_MAX ((size_t)1 << 16)

/* Kept in the first bytes of a pooled array (an event is 64 bytes, a
 * flow point 48). */
typedef struct pool_link {
    void  *next;
    size_t cap;      /* in elements */
    size_t depth;    /* arrays in the list from this one on */
} pool_link;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned        pool_users;
static void          **pool_slot;    /* lane index -> list of event arrays */
static uint32_t        pool_n_slot;
static void           *pool_flows;   /* list of flow point arrays */
static _Thread_local bool pool_taker;

static void list_free(void *a)
{
    while (a) {
        pool_link link;
        memcpy(&link, a, sizeof link);
        free(a);
        a = link.next;
    }
}

/* Under pool_mu: the first array of list *head, its capacity in *cap. */
static void *list_take(void **head, size_t *cap)
{
    void *a = *head;
    pool_link link;
    if (a) {
        memcpy(&link, a, sizeof link);
        *head = link.next;
        *cap = link.cap;
    }
    return a;
}

/* Under pool_mu: array a of cap elements onto list *head; false when the
 * list is full or a is too large to keep (a stays the caller's). */
static bool list_put(void **head, void *a, size_t cap)
{
    pool_link link = {*head, cap, 1};
    if (cap > POOL_KEEP_MAX)
        return false;
    if (*head) {
        pool_link first;
        memcpy(&first, *head, sizeof first);
        if (first.depth >= POOL_DEPTH)
            return false;
        link.depth = first.depth + 1;
    }
    memcpy(a, &link, sizeof link);
    *head = a;
    return true;
}

void tt_merge_pool_open(void)
{
    pthread_mutex_lock(&pool_mu);
    pool_users++;
    pthread_mutex_unlock(&pool_mu);
}

void tt_merge_pool_close(void)
{
    pthread_mutex_lock(&pool_mu);
    if (pool_users > 0 && --pool_users == 0) {
        for (uint32_t i = 0; i < pool_n_slot; i++)
            list_free(pool_slot[i]);
        free(pool_slot);
        pool_slot = NULL;
        pool_n_slot = 0;
        list_free(pool_flows);
        pool_flows = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
}

void tt_merge_pool_thread(bool take)
{
    pool_taker = take;
}

tt_event *tt_merge_pool_take(uint32_t lane, size_t *cap)
{
    tt_event *ev = NULL;
    if (!pool_taker)
        return NULL;
    pthread_mutex_lock(&pool_mu);
    if (lane < pool_n_slot)
        ev = list_take(&pool_slot[lane], cap);
    pthread_mutex_unlock(&pool_mu);
    return ev;
}

tt_flow_point *tt_merge_pool_take_flows(size_t *cap)
{
    tt_flow_point *p;
    if (!pool_taker)
        return NULL;
    pthread_mutex_lock(&pool_mu);
    p = list_take(&pool_flows, cap);
    pthread_mutex_unlock(&pool_mu);
    return p;
}

/* File a merged fragment's lane and flow point arrays (the fragment's no
 * longer), when a pool is open; those it does not keep are freed with
 * the fragment. */
static void pool_put(tt_trace *frag)
{
    pthread_mutex_lock(&pool_mu);
    if (pool_users == 0) {
        pthread_mutex_unlock(&pool_mu);
        return;
    }
    if (frag->n_lanes > pool_n_slot) {
        void **ns = realloc(pool_slot, frag->n_lanes * sizeof *ns);
        if (ns) {
            memset(ns + pool_n_slot, 0, (frag->n_lanes - pool_n_slot) * sizeof *ns);
            pool_slot = ns;
            pool_n_slot = frag->n_lanes;
        }
    }
    for (uint32_t i = 0; i < frag->n_lanes && i < pool_n_slot; i++) {
        tt_lane *fl = &frag->lanes[i];
        if (fl->ev && fl->cap > 0 && list_put(&pool_slot[i], fl->ev, fl->cap)) {
            fl->ev = NULL;
            fl->cap = 0;
            fl->n = 0;
        }
    }
    if (frag->flow_points && frag->cap_flow_points > 0 &&
        list_put(&pool_flows, frag->flow_points, frag->cap_flow_points)) {
        frag->flow_points = NULL;
        frag->cap_flow_points = 0;
        frag->n_flow_points = 0;
    }
    pthread_mutex_unlock(&pool_mu);
}

void tt_merge_map_fini(tt_merge_map *m)
{
    free(m->str);
    free(m->group);
    free(m->lane);
    free(m->lane_base);
    memset(m, 0, sizeof *m);
}

static int fail(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

/* Strings in the fragment's id order: its first-seen order. */
static int merge_strings(tt_trace *tr, const tt_trace *frag, tt_merge_map *m)
{
    uint32_t n = tt_strtab_count(frag->strings);
    if (!(m->str = malloc((size_t)n * sizeof *m->str)))
        return -1;
    m->n_str = n;
    m->str[0] = 0;
    for (uint32_t i = 1; i < n; i++) {
        m->str[i] = tt_strtab_intern(tr->strings, tt_strtab_get(frag->strings, i),
                                     tt_strtab_len(frag->strings, i));
        if (m->str[i] == TT_STR_ERROR)
            return -1;
    }
    return 0;
}

static int merge_groups(tt_trace *tr, const tt_trace *frag, tt_merge_map *m)
{
    if (!(m->group = malloc(((size_t)frag->n_groups + 1) * sizeof *m->group)))
        return -1;
    for (uint32_t i = 0; i < frag->n_groups; i++) {
        const tt_group *fg = &frag->groups[i];
        tt_group *g;
        uint32_t gi = tt_trace_group(tr, m->str[fg->key]);
        if (gi == TT_NO_LANE)
            return -1;
        g = &tr->groups[gi];
        if (fg->name)
            g->name = m->str[fg->name];
        if (fg->labels)
            g->labels = m->str[fg->labels];
        if (fg->has_sort) {
            g->sort_index = fg->sort_index;
            g->has_sort = true;
        }
        m->group[i] = gi;
    }
    return 0;
}

/* Each fragment lane's events after those of its trace lane, their ids
 * translated. */
static int merge_lanes(tt_trace *tr, const tt_trace *frag, tt_merge_map *m, const uint32_t *attrs)
{
    size_t n = (size_t)frag->n_lanes + 1;
    if (!(m->lane = malloc(n * sizeof *m->lane)) || !(m->lane_base = malloc(n * sizeof *m->lane_base)))
        return -1;
    m->n_lanes = frag->n_lanes;
    for (uint32_t i = 0; i < frag->n_lanes; i++) {
        const tt_lane *fl = &frag->lanes[i];
        tt_lane *l;
        uint32_t li = tt_trace_lane(tr, m->group[fl->group], m->str[fl->key],
                                    (tt_lane_kind)fl->kind);
        if (li == TT_NO_LANE)
            return -1;
        l = &tr->lanes[li];
        m->lane[i] = li;
        m->lane_base[i] = l->n;
        if (fl->name)
            l->name = m->str[fl->name];
        if (fl->has_sort) {
            l->sort_index = fl->sort_index;
            l->has_sort = true;
        }
        if (fl->n == 0)
            continue;
        if (l->n + fl->n > l->cap) {
            /* from 4 events, as tt_trace_push_event() grows them */
            size_t cap = l->cap ? l->cap : 4;
            tt_event *ne;
            while (cap < l->n + fl->n)
                cap *= 2;
            /* onto huge pages once big: util/bigalloc.h */
            if (l->n + fl->n >= UINT32_MAX - 1 ||
                !(ne = tt_bigrealloc(l->ev, l->n * sizeof *ne, cap * sizeof *ne)))
                return -1;
            l->ev = ne;
            l->cap = cap;
        }
        {
            /* copied and translated in one pass: the lane's storage is
             * written once, not copied into and then read back */
            const tt_event *src = fl->ev;
            tt_event *dst = l->ev + l->n;
            uint32_t args_base = m->args_base;
            for (size_t k = 0; k < fl->n; k++) {
                tt_event e = src[k];
                e.name = m->str[e.name];
                e.cat = m->str[e.cat];
                e.attrs = attrs[e.attrs];
                if (e.args)
                    e.args += args_base;
                dst[k] = e;
            }
        }
        l->n += fl->n;
    }
    return 0;
}

static int merge_counters(tt_trace *tr, const tt_trace *frag, const tt_merge_map *m)
{
    for (uint32_t i = 0; i < frag->n_counters; i++) {
        const tt_counter *fc = &frag->counters[i];
        tt_counter *c;
        uint32_t ci = tt_trace_counter(tr, m->group[fc->group], m->str[fc->name],
                                       m->str[fc->key]);
        if (ci == TT_NO_LANE)
            return -1;
        c = &tr->counters[ci];
        if (fc->unit)
            c->unit = m->str[fc->unit];
        c->derived = c->derived || fc->derived;
        if (c->n + fc->n > c->cap) {
            size_t cap = c->cap ? c->cap : 64;
            tt_ns *nt;
            double *nv;
            while (cap < c->n + fc->n)
                cap *= 2;
            if (!(nt = realloc(c->t, cap * sizeof *nt)))
                return -1;
            c->t = nt;
            if (!(nv = realloc(c->v, cap * sizeof *nv)))
                return -1;
            c->v = nv;
            c->cap = cap;
        }
        memcpy(c->t + c->n, fc->t, fc->n * sizeof *fc->t);
        memcpy(c->v + c->n, fc->v, fc->n * sizeof *fc->v);
        c->n += fc->n;
    }
    return 0;
}

static int merge_flow_points(tt_trace *tr, const tt_trace *frag, const tt_merge_map *m)
{
    size_t n = tr->n_flow_points + frag->n_flow_points;
    if (frag->n_flow_points == 0)
        return 0;
    if (n > tr->cap_flow_points) {
        size_t cap = tr->cap_flow_points ? tr->cap_flow_points : 256;
        tt_flow_point *np;
        while (cap < n)
            cap *= 2;
        if (!(np = tt_bigrealloc(tr->flow_points, tr->n_flow_points * sizeof *np,
                                 cap * sizeof *np)))
            return -1;
        tr->flow_points = np;
        tr->cap_flow_points = cap;
    }
    for (size_t i = 0; i < frag->n_flow_points; i++) {
        tt_flow_point p = frag->flow_points[i];
        p.lane = m->lane[p.lane];
        p.name = m->str[p.name];
        p.cat = m->str[p.cat];
        p.seq = (uint32_t)(tr->n_flow_points);   /* as tt_trace_flow_point numbers them */
        tr->flow_points[tr->n_flow_points++] = p;
    }
    return 0;
}

static void merge_problems(tt_trace *tr, const tt_trace *frag)
{
    for (int k = 0; k < TT_PROB__COUNT; k++) {
        tt_problem *p = &tr->problems[k];
        const tt_problem *fp = &frag->problems[k];
        if (fp->count == 0)
            continue;
        if (p->count == 0)
            memcpy(p->example, fp->example, sizeof p->example);
        p->count += fp->count;
    }
}

int tt_trace_merge(tt_trace *tr, tt_trace *frag, tt_merge_map *m, tt_error *err)
{
    uint32_t *attrs = NULL;
    uint32_t n_attrs = frag->attrs->count ? frag->attrs->count : 1;
    int rc = -1;
    memset(m, 0, sizeof *m);
    m->flow_base = tr->n_flow_points;
    if (merge_strings(tr, frag, m))
        goto out;
    /* attribute tuples in id order (first-seen), their strings translated */
    if (!(attrs = malloc((size_t)n_attrs * sizeof *attrs)))
        goto out;
    attrs[0] = 0;
    for (uint32_t i = 1; i < n_attrs; i++) {
        tt_attr_tuple t = frag->attrs->tuple[i];
        t.opcode = m->str[t.opcode];
        t.layer = m->str[t.layer];
        t.operand = m->str[t.operand];
        if ((attrs[i] = tt_attrs_intern(tr->attrs, t)) == UINT32_MAX)
            goto out;
    }
    m->args_base = tt_args_count(tr->args);
    if (tt_args_append(tr->args, frag->args)) {
        frag->args = NULL;
        goto out;
    }
    frag->args = NULL;
    if (merge_groups(tr, frag, m) || merge_lanes(tr, frag, m, attrs) ||
        merge_counters(tr, frag, m) || merge_flow_points(tr, frag, m))
        goto out;
    merge_problems(tr, frag);
    for (uint32_t i = 0; i < frag->n_phases; i++) {
        uint32_t id = frag->phases[i].name;
        if (tt_trace_tally_phase(tr, tt_str(frag, id), tt_strtab_len(frag->strings, id),
                                 frag->phases[i].count))
            goto out;
    }
    rc = 0;
    pool_put(frag);
out:
    free(attrs);
    tt_trace_free(frag);
    if (rc)
        fail(err);
    return rc;
}
