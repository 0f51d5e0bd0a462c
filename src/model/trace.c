/* trace.c - trace model: builder and finalize (see trace.h). */
#include "config.h"

#include "model/trace.h"

#include "index/index.h"
#include "model/laneix.h"
#include "model/merge.h"
#include "model/nest.h"
#include "util/bigalloc.h"
#include "util/hash.h"
#include "util/natcmp.h"
#include "util/parallel.h"
#include "util/scratch.h"
#include "util/sort.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ life */

tt_trace *tt_trace_new(void)
{
    tt_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->strings = tt_strtab_new();
    tr->args = tt_args_new();
    tr->attrs = tt_attrs_new();
    tr->meta = cJSON_CreateObject();
    tr->rank = -1;
    tr->format = "unknown";
    tr->compression = "none";
    if (!tr->strings || !tr->args || !tr->attrs || !tr->meta) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

void tt_trace_free(tt_trace *tr)
{
    if (!tr)
        return;
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        free(tr->lanes[i].ev);
        free(tr->lanes[i].open);
    }
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        free(tr->counters[i].t);
        free(tr->counters[i].v);
    }
    free(tr->lanes);
    tt_laneix_free(tr);
    free(tr->groups);
    free(tr->counters);
    free(tr->flows);
    free(tr->flows_by_to);
    free(tr->flow_points);
    free(tr->phases);
    free(tr->source);
    cJSON_Delete(tr->meta);
    tt_strtab_free(tr->strings);
    tt_args_free(tr->args);
    tt_attrs_free(tr->attrs);
    if (tr->aux)
        tr->aux->free_fn(tr->aux);
    if (tr->aux_attrib)
        tr->aux_attrib->free_fn(tr->aux_attrib);
    if (tr->aux_ncu)
        tr->aux_ncu->free_fn(tr->aux_ncu);
    free(tr);
}

/* Grow *arr (element size sz) so that index n is valid. Big arrays (the
 * lanes' events, the flow points) move to huge pages as they grow:
 * tt_bigrealloc(). */
static int grow(void **arr, size_t sz, size_t n, size_t *cap, size_t min_cap)
{
    size_t nc;
    void *na;
    if (n < *cap)
        return 0;
    nc = *cap ? *cap * 2 : min_cap;
    while (nc <= n)
        nc *= 2;
    na = tt_bigrealloc(*arr, *cap * sz, nc * sz);
    if (!na)
        return -1;
    *arr = na;
    *cap = nc;
    return 0;
}

static int grow32(void **arr, size_t sz, uint32_t n, uint32_t *cap, size_t min_cap)
{
    size_t c = *cap;
    if (n == UINT32_MAX - 1)
        return -1;
    if (grow(arr, sz, n, &c, min_cap))
        return -1;
    *cap = c > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)c;
    return 0;
}

/* --------------------------------------------------------------- builder */

uint32_t tt_trace_intern_cstr(tt_trace *tr, const char *s)
{
    return tt_strtab_intern(tr->strings, s, strlen(s));
}

uint32_t tt_trace_group(tt_trace *tr, uint32_t key)
{
    tt_group *g;
    /* Traces have few groups; the decoder caches the last lookup. */
    for (uint32_t i = tr->n_groups; i-- > 0;)
        if (tr->groups[i].key == key)
            return i;
    if (grow32((void **)&tr->groups, sizeof *tr->groups, tr->n_groups, &tr->cap_groups, 8))
        return TT_NO_LANE;
    g = &tr->groups[tr->n_groups];
    memset(g, 0, sizeof *g);
    g->key = key;
    return tr->n_groups++;
}

uint32_t tt_trace_lane(tt_trace *tr, uint32_t group, uint32_t key, tt_lane_kind kind)
{
    tt_lane *l;
    uint32_t have = tt_laneix_find(tr, group, key, (uint8_t)kind);
    if (have != TT_NO_LANE)
        return have;
    if (grow32((void **)&tr->lanes, sizeof *tr->lanes, tr->n_lanes, &tr->cap_lanes, 16))
        return TT_NO_LANE;
    l = &tr->lanes[tr->n_lanes];
    memset(l, 0, sizeof *l);
    l->group = group;
    l->key = key;
    l->kind = (uint8_t)kind;
    return tr->n_lanes++;
}

int64_t tt_trace_push_event(tt_trace *tr, uint32_t lane)
{
    tt_lane *l = &tr->lanes[lane];
    tt_event *e;
    if (l->n == l->cap) {
        /* A chunk fragment's new lane: the array of a merged one's, when
         * pooled (model/merge.h). Else geometric growth, onto huge
         * pages once big (see grow()), from 4 events: from 64, a trace
         * of many lanes with few events held 4 KiB for each (300k
         * threads of one event: 1.28 GB peak for a 19 MB file, now 151
         * MB); a lane that grows big pays four more small reallocs. */
        if (l->cap == 0 && (l->ev = tt_merge_pool_take(lane, &l->cap))) {
            /* taken */
        } else if (l->n >= UINT32_MAX - 1 ||
            grow((void **)&l->ev, sizeof *l->ev, l->n, &l->cap, 4))
            return -1;
    }
    e = &l->ev[l->n];
    memset(e, 0, sizeof *e);
    e->bytes = -1;
    return (int64_t)l->n++;
}

uint32_t tt_trace_counter(tt_trace *tr, uint32_t group, uint32_t name, uint32_t key)
{
    tt_counter *c;
    for (uint32_t i = tr->n_counters; i-- > 0;) {
        c = &tr->counters[i];
        if (c->group == group && c->name == name && c->key == key)
            return i;
    }
    if (grow32((void **)&tr->counters, sizeof *tr->counters, tr->n_counters,
               &tr->cap_counters, 8))
        return TT_NO_LANE;
    c = &tr->counters[tr->n_counters];
    memset(c, 0, sizeof *c);
    c->group = group;
    c->name = name;
    c->key = key;
    return tr->n_counters++;
}

int tt_trace_counter_push(tt_trace *tr, uint32_t counter, tt_ns t, double v)
{
    tt_counter *c = &tr->counters[counter];
    if (c->n == c->cap) {
        size_t cap_t = c->cap, cap_v = c->cap;
        if (grow((void **)&c->t, sizeof *c->t, c->n, &cap_t, 64) ||
            grow((void **)&c->v, sizeof *c->v, c->n, &cap_v, 64))
            return -1;
        c->cap = cap_t < cap_v ? cap_t : cap_v;
    }
    c->t[c->n] = t;
    c->v[c->n] = v;
    c->n++;
    return 0;
}

int tt_trace_flow_point(tt_trace *tr, const tt_flow_point *p)
{
    /* a chunk fragment's first: a merged one's array, when pooled
     * (model/merge.h) */
    if (tr->cap_flow_points == 0 &&
        (tr->flow_points = tt_merge_pool_take_flows(&tr->cap_flow_points))) {
        /* taken */
    } else if (grow((void **)&tr->flow_points, sizeof *tr->flow_points, tr->n_flow_points,
             &tr->cap_flow_points, 256))
        return -1;
    tr->flow_points[tr->n_flow_points] = *p;
    tr->flow_points[tr->n_flow_points].seq = (uint32_t)tr->n_flow_points;
    tr->n_flow_points++;
    return 0;
}

void tt_trace_problem(tt_trace *tr, tt_problem_kind kind, const char *fmt, ...)
{
    tt_problem *p = &tr->problems[kind];
    if (p->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->example, sizeof p->example, fmt, ap);
        va_end(ap);
    }
}

int tt_trace_tally_phase(tt_trace *tr, const char *name, size_t n, uint64_t add)
{
    uint32_t id = tt_trace_intern(tr, name, n);
    if (id == TT_STR_ERROR)
        return -1;
    for (uint32_t i = 0; i < tr->n_phases; i++)
        if (tr->phases[i].name == id) {
            tr->phases[i].count += add;
            return 0;
        }
    if (grow32((void **)&tr->phases, sizeof *tr->phases, tr->n_phases, &tr->cap_phases, 8))
        return -1;
    tr->phases[tr->n_phases].name = id;
    tr->phases[tr->n_phases].count = add;
    tr->n_phases++;
    return 0;
}

/* -------------------------------------------------------------- labels */

static bool is_number_text(const char *s)
{
    if (*s == '-')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

const char *tt_group_label(const tt_trace *tr, const tt_group *g, char *buf, size_t n)
{
    const char *name = tt_str(tr, g->name), *labels = tt_str(tr, g->labels);
    const char *key = tt_str(tr, g->key);
    if (*name && *labels)
        snprintf(buf, n, "%s (%s)", name, labels);
    else if (*name)
        snprintf(buf, n, "%s", name);
    else if (*labels)
        snprintf(buf, n, "%s", labels);
    else if (!*key)
        snprintf(buf, n, "(global)");
    else if (is_number_text(key))
        snprintf(buf, n, "pid %s", key);
    else
        snprintf(buf, n, "%s", key);
    return buf;
}

const char *tt_lane_label(const tt_trace *tr, const tt_lane *l, char *buf, size_t n)
{
    const char *name = tt_str(tr, l->name), *key = tt_str(tr, l->key);
    const char *suffix = l->kind == TT_LANE_ASYNC ? " (async)" : "";
    if (*name)
        snprintf(buf, n, "%s%s", name, suffix);
    else if (l->kind == TT_LANE_ASYNC)
        snprintf(buf, n, "%s%s", *key ? key : "events", suffix);
    else if (!*key)
        snprintf(buf, n, "(process)");
    else if (is_number_text(key))
        snprintf(buf, n, "tid %s", key);
    else
        snprintf(buf, n, "%s", key);
    return buf;
}

const char *tt_lane_fullname(const tt_trace *tr, uint32_t lane, char *buf, size_t n)
{
    char g[128], l[128];
    const tt_lane *ln = &tr->lanes[lane];
    tt_group_label(tr, &tr->groups[ln->group], g, sizeof g);
    tt_lane_label(tr, ln, l, sizeof l);
    snprintf(buf, n, "%s / %s", g, l);
    return buf;
}

const char *tt_problem_name(tt_problem_kind k)
{
    static const char *names[TT_PROB__COUNT] = {
        [TT_PROB_UNCLOSED_BEGIN] = "unclosed begin",
        [TT_PROB_UNMATCHED_END] = "unmatched end",
        [TT_PROB_MISMATCHED_END] = "end name differs from begin",
        [TT_PROB_UNKNOWN_PHASE] = "unknown phase",
        [TT_PROB_NEGATIVE_DURATION] = "end before begin",
        [TT_PROB_BAD_EVENT] = "skipped event",
        [TT_PROB_UNRESOLVED_FLOW] = "unresolved flow",
        [TT_PROB_DROPPED_TAIL] = "dropped incomplete data",
    };
    return (unsigned)k < TT_PROB__COUNT ? names[k] : "?";
}

uint64_t tt_trace_problem_total(const tt_trace *tr)
{
    uint64_t t = 0;
    for (int k = 0; k < TT_PROB__COUNT; k++)
        t += tr->problems[k].count;
    return t;
}

size_t tt_trace_memory(const tt_trace *tr)
{
    size_t m = sizeof *tr + tt_strtab_bytes(tr->strings) + tt_args_memory(tr->args);
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        m += tr->lanes[i].cap * sizeof(tt_event);
    for (uint32_t i = 0; i < tr->n_counters; i++)
        m += tr->counters[i].cap * (sizeof(tt_ns) + sizeof(double));
    m += tr->cap_flows * sizeof(tt_flow) + tr->n_flows * sizeof(uint32_t);
    m += (size_t)tr->cap_lanes * sizeof(tt_lane) + (size_t)tr->cap_groups * sizeof(tt_group);
    m += (size_t)tr->attrs->cap * sizeof(tt_attr_tuple);
    return m;
}

/* -------------------------------------------------------------- finalize */

/* Order of groups and lanes: explicit sort index first (ascending), then
 * entries without one; then by label in natural order ("GPU 2" < "GPU 10"),
 * then by source key. */
typedef struct order_ctx {
    const tt_trace *tr;
} order_ctx;

static int cmp_sort_hint(bool ha, int64_t a, bool hb, int64_t b)
{
    if (ha != hb)
        return ha ? -1 : 1;
    if (ha && a != b)
        return a < b ? -1 : 1;
    return 0;
}

static int cmp_groups(const void *pa, const void *pb, void *ctx)
{
    const tt_trace *tr = ((order_ctx *)ctx)->tr;
    const tt_group *a = &tr->groups[*(const uint32_t *)pa];
    const tt_group *b = &tr->groups[*(const uint32_t *)pb];
    char la[256], lb[256];
    int c;
    /* the global group (instants without a process) goes last */
    if ((a->key == 0) != (b->key == 0))
        return a->key == 0 ? 1 : -1;
    c = cmp_sort_hint(a->has_sort, a->sort_index, b->has_sort, b->sort_index);
    if (c)
        return c;
    c = tt_natcmp(tt_group_label(tr, a, la, sizeof la), tt_group_label(tr, b, lb, sizeof lb));
    if (c)
        return c;
    return tt_natcmp(tt_str(tr, a->key), tt_str(tr, b->key));
}

static int cmp_lanes(const void *pa, const void *pb, void *ctx)
{
    const tt_trace *tr = ((order_ctx *)ctx)->tr;
    const tt_lane *a = &tr->lanes[*(const uint32_t *)pa];
    const tt_lane *b = &tr->lanes[*(const uint32_t *)pb];
    char la[256], lb[256];
    int c;
    if ((a->n == 0) != (b->n == 0))
        return a->n == 0 ? 1 : -1;             /* empty lanes last, then dropped */
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;   /* groups renumbered first */
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;     /* threads before async */
    c = cmp_sort_hint(a->has_sort, a->sort_index, b->has_sort, b->sort_index);
    if (c)
        return c;
    c = tt_natcmp(tt_lane_label(tr, a, la, sizeof la), tt_lane_label(tr, b, lb, sizeof lb));
    if (c)
        return c;
    return tt_natcmp(tt_str(tr, a->key), tt_str(tr, b->key));
}

static int cmp_counters(const void *pa, const void *pb, void *ctx)
{
    const tt_trace *tr = ((order_ctx *)ctx)->tr;
    const tt_counter *a = pa, *b = pb;
    int c;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    c = tt_natcmp(tt_str(tr, a->name), tt_str(tr, b->name));
    if (c)
        return c;
    return tt_natcmp(tt_str(tr, a->key), tt_str(tr, b->key));
}

/* Renumber groups and lanes into display order. */
static int order_lanes(tt_trace *tr)
{
    uint32_t *gperm = NULL, *gnew = NULL, *lperm = NULL, *lnew = NULL;
    tt_group *groups = NULL;
    tt_lane *lanes = NULL;
    order_ctx ctx = {tr};
    int rc = -1;

    gperm = malloc((tr->n_groups + 1) * sizeof *gperm);
    gnew = malloc((tr->n_groups + 1) * sizeof *gnew);
    lperm = malloc((tr->n_lanes + 1) * sizeof *lperm);
    lnew = malloc((tr->n_lanes + 1) * sizeof *lnew);
    groups = malloc((tr->n_groups + 1) * sizeof *groups);
    lanes = malloc((tr->n_lanes + 1) * sizeof *lanes);
    if (!gperm || !gnew || !lperm || !lnew || !groups || !lanes)
        goto out;

    for (uint32_t i = 0; i < tr->n_groups; i++)
        gperm[i] = i;
    tt_sort(gperm, tr->n_groups, sizeof *gperm, cmp_groups, &ctx);
    for (uint32_t i = 0; i < tr->n_groups; i++) {
        gnew[gperm[i]] = i;
        groups[i] = tr->groups[gperm[i]];
    }
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        tr->lanes[i].group = gnew[tr->lanes[i].group];
    for (uint32_t i = 0; i < tr->n_counters; i++)
        tr->counters[i].group = gnew[tr->counters[i].group];
    if (tr->n_groups)   /* groups is NULL in an empty trace: no memcpy(NULL) */
        memcpy(tr->groups, groups, tr->n_groups * sizeof *groups);

    for (uint32_t i = 0; i < tr->n_lanes; i++)
        lperm[i] = i;
    tt_sort(lperm, tr->n_lanes, sizeof *lperm, cmp_lanes, &ctx);
    {
        /* Lanes that only ever got metadata (a thread_name without events)
         * are dropped: they would be empty rows. */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < tr->n_lanes; i++) {
            tt_lane *l = &tr->lanes[lperm[i]];
            if (l->n == 0) {
                lnew[lperm[i]] = TT_NO_LANE;
                free(l->ev);
                free(l->open);
                continue;
            }
            lnew[lperm[i]] = kept;
            lanes[kept++] = *l;
        }
        if (kept)
            memcpy(tr->lanes, lanes, kept * sizeof *lanes);
        tr->n_lanes = kept;
    }
    for (size_t i = 0; i < tr->n_flow_points; i++)
        tr->flow_points[i].lane = lnew[tr->flow_points[i].lane];
    for (size_t i = 0; i < tr->n_flows; i++) {   /* tt_trace_flow_resolved()'s */
        tr->flows[i].from.lane = lnew[tr->flows[i].from.lane];
        tr->flows[i].to.lane = lnew[tr->flows[i].to.lane];
    }

    for (uint32_t i = 0; i < tr->n_groups; i++)
        tr->groups[i].n_lanes = 0;
    for (uint32_t i = tr->n_lanes; i-- > 0;) {
        tt_group *g = &tr->groups[tr->lanes[i].group];
        g->first_lane = i;
        g->n_lanes++;
    }
    {
        /* Groups that only got metadata (process_name of an idle GPU) and
         * hold neither lanes nor counters are dropped too. */
        uint32_t kept = 0;
        bool *has_counter = calloc(tr->n_groups + 1, sizeof *has_counter);
        if (!has_counter)
            goto out;
        for (uint32_t i = 0; i < tr->n_counters; i++)
            has_counter[tr->counters[i].group] = true;
        for (uint32_t i = 0; i < tr->n_groups; i++) {
            if (tr->groups[i].n_lanes == 0 && !has_counter[i]) {
                gnew[i] = TT_NO_LANE;
                continue;
            }
            gnew[i] = kept;
            tr->groups[kept++] = tr->groups[i];
        }
        free(has_counter);
        tr->n_groups = kept;
        for (uint32_t i = 0; i < tr->n_lanes; i++)
            tr->lanes[i].group = gnew[tr->lanes[i].group];
        for (uint32_t i = 0; i < tr->n_counters; i++)
            tr->counters[i].group = gnew[tr->counters[i].group];
    }
    tt_sort(tr->counters, tr->n_counters, sizeof *tr->counters, cmp_counters, &ctx);
    rc = 0;
out:
    free(gperm);
    free(gnew);
    free(lperm);
    free(lnew);
    free(groups);
    free(lanes);
    return rc;
}

/* Sort one lane's events by (start, longer first, source order). Most lanes
 * arrive sorted, so check first; otherwise radix-sort keys of (start,
 * index), order each run of equal starts by duration, and apply the
 * permutation in place, so a big lane never needs a second copy of its
 * events. The lane pass (nesting, index) runs over the events as they
 * are placed, or over the lane as it came when it was sorted. */
typedef struct ev_key {
    tt_ns    start;
    tt_ns    dur;
    uint32_t idx;
} ev_key;

static int cmp_ev_key(const void *pa, const void *pb, void *ctx)
{
    const ev_key *a = pa, *b = pb;
    (void)ctx;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* idx[0..k): events sharing a start, in source order: put longer events
 * first, keeping source order among equals. */
static int sort_equal_starts(const tt_lane *l, uint32_t *idx, size_t k)
{
    ev_key small[16], *run = small;
    if (k > sizeof small / sizeof small[0] && !(run = malloc(k * sizeof *run)))
        return -1;
    for (size_t i = 0; i < k; i++) {
        run[i].start = 0;
        run[i].dur = l->ev[idx[i]].dur;
        run[i].idx = idx[i];
    }
    if (tt_sort(run, k, sizeof *run, cmp_ev_key, NULL)) {
        if (run != small)
            free(run);
        return -1;
    }
    for (size_t i = 0; i < k; i++)
        idx[i] = run[i].idx;
    if (run != small)
        free(run);
    return 0;
}

/* Bits to hold any value below n (at least 1). */
static int bits_below(uint64_t n)
{
    return n > 1 ? 64 - __builtin_clzll(n - 1) : 1;
}

/* The pass over a lane's sorted events that nests them (tt_lane_nest())
 * and builds their index (tt_index_build()), run a stretch at a time as
 * the events are placed, so that a lane past the cache is read once
 * rather than once more for each. */
typedef struct lane_pass {
    tt_nest          nz;
    tt_index_builder ib;
    uint16_t         maxd;
} lane_pass;

static int lane_pass_init(lane_pass *p, const tt_lane *l)
{
    p->maxd = 0;
    tt_index_builder_init(&p->ib);
    return tt_nest_init(&p->nz, l->kind);
}

/* Events from .. to - 1, after from .. 0. 0, or -1 out of memory. */
static int lane_pass_run(lane_pass *p, tt_event *ev, size_t from, size_t to)
{
    /* copies, so that they live in registers through the loop */
    tt_nest nz = p->nz;
    tt_index_builder ib = p->ib;
    uint16_t maxd = p->maxd;
    int rc = 0;
    for (size_t i = from; i < to; i++) {
        tt_event *e = &ev[i];
        int32_t d = tt_nest_step(&nz, e->start, e->start + e->dur);
        if (d < 0) {
            rc = -1;
            break;
        }
        e->depth = (uint16_t)d;
        if (e->depth > maxd)
            maxd = e->depth;
        tt_index_add(&ib, ev, i);
    }
    p->nz = nz;
    p->ib = ib;
    p->maxd = maxd;
    return rc;
}

/* After lane_pass_run() of every event (or a failure: then l is left). */
static void lane_pass_end(lane_pass *p, tt_lane *l, bool done)
{
    tt_nest_fini(&p->nz);
    if (done) {
        tt_index_finish(l->ev, l->n);
        l->max_depth = p->maxd;
    }
}

/* The most a lane's placing ring may take (util/sort.h tt_perm_ring):
 * 128k events, past any window of a shuffled trace we know, so that a
 * permutation that moves events further back takes the cycle walk. */
#define LANE_RING_MAX ((size_t)8 << 20)
/* Events placed before the lane pass runs over them: 16 KB, in L1. */
#define LANE_STRETCH 256

/* Put the lane's events in the order of perm (tt_apply_perm()'s), and
 * run the pass over them. */
static int place_lane(tt_lane *l, uint32_t *perm, size_t n, lane_pass *pass, tt_scratch *pool)
{
    tt_perm_ring ring;
    int rc = tt_perm_ring_init(&ring, perm, n, sizeof *l->ev, LANE_RING_MAX, pool);
    if (rc < 0)
        return -1;
    if (rc > 0)
        return tt_apply_perm(l->ev, n, sizeof *l->ev, perm) ||
               lane_pass_run(pass, l->ev, 0, n);
    for (size_t i = 0; i < n && rc == 0; i += LANE_STRETCH) {
        size_t to = n - i < LANE_STRETCH ? n : i + LANE_STRETCH;
        tt_perm_ring_apply(&ring, l->ev, n, perm, i, to);
        rc = lane_pass_run(pass, l->ev, i, to);
    }
    tt_perm_ring_fini(&ring);
    return rc;
}

/* After the radix sort of a lane's keys: each run of equal starts ordered
 * by duration, and the order applied to the events (place_lane()). keys: n packed keys
 * (ib > 0: start << ib | index) or n (start, index) pairs (ib == 0),
 * overwritten by the indexes as 32-bit positions, packed into their front
 * (position j's 4 bytes lie in key j / 2 or pair j / 4: read before they
 * are written; memcpy() stores, ordered with the reads of the keys). */
static int apply_lane_order(tt_lane *l, void *keys, size_t n, int ib, lane_pass *pass,
                            tt_scratch *pool)
{
    const uint64_t *k64 = keys;
    const tt_kv *kv = keys;
    uint32_t *perm = keys;
    uint64_t mask = ((uint64_t)1 << ib) - 1;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t start = ib ? k64[i] >> ib : kv[i].key;
        for (j = i; j < n && (ib ? k64[j] >> ib : kv[j].key) == start; j++) {
            uint32_t v = (uint32_t)(ib ? k64[j] & mask : kv[j].val);
            memcpy((char *)keys + j * sizeof v, &v, sizeof v);
        }
        if (j - i > 1 && sort_equal_starts(l, perm + i, j - i))
            return -1;
    }
    return place_lane(l, perm, n, pass, pool);
}

static int lane_sort_events(tt_lane *l, tt_scratch *pool, lane_pass *pass)
{
    size_t n = l->n, i, size;
    void *keys;
    tt_ns smin, smax;
    int sorted = 1, ib, rc;
    for (i = 1; i < n && sorted; i++) {
        const tt_event *a = &l->ev[i - 1], *b = &l->ev[i];
        if (a->start > b->start || (a->start == b->start && a->dur < b->dur))
            sorted = 0;
    }
    if (sorted)
        return lane_pass_run(pass, l->ev, 0, n);
    /* a lane of 2^32 events would hold 256 GiB of them */
    if (n >= UINT32_MAX)
        return -1;
    /* the starts, copied into what will be the packed keys (8 bytes an
     * event) as they are scanned for the smallest and largest: the keys
     * are then made from the copy, so the events are read once here, not
     * twice (a lane past the cache comes from memory each time) */
    size = n * sizeof(uint64_t);
    if (!(keys = tt_scratch_get(pool, size)))
        return -1;
    {
        uint64_t *k64 = keys;
        smin = smax = l->ev[0].start;
        for (i = 0; i < n; i++) {
            tt_ns s = l->ev[i].start;
            k64[i] = (uint64_t)s;
            if (s < smin)
                smin = s;
            if (s > smax)
                smax = s;
        }
    }
    /* starts are within TT_TIME_LIMIT of 0 (checked before), so the
     * distance to the smallest fits in 63 bits. Where it fits beside the
     * index, (start - smin) << ib | index keys of 8 bytes (2^20 events
     * spanning up to 4.8 hours, 2^16 up to 78): 8 bytes of key and 8 of
     * the radix sort's buffer per event, where (start, index) pairs take
     * 16 and 16, and the two biggest lanes of a load, sorted at once,
     * made its peak. The index in the low bits keeps equal starts in
     * source order, as the pairs' stable sort does. */
    ib = bits_below(n);
    if ((uint64_t)(smax - smin) >> (64 - ib) != 0)
        ib = 0;
    if (ib) {
        uint64_t *k64 = keys;
        for (i = 0; i < n; i++)
            k64[i] = ((uint64_t)((tt_ns)k64[i] - smin)) << ib | i;
        rc = tt_radix_sort64_in(k64, n, ib, pool);
    } else {
        tt_kv *kv;
        tt_scratch_put(pool, keys, size);
        size = n * sizeof(tt_kv);
        if (!(keys = tt_scratch_get(pool, size)))
            return -1;
        kv = keys;
        for (i = 0; i < n; i++) {
            kv[i].key = (uint64_t)(l->ev[i].start - smin);
            kv[i].val = i;
        }
        rc = tt_radix_sort_in(kv, n, pool);
    }
    if (rc == 0)
        rc = apply_lane_order(l, keys, n, ib, pass, pool);
    tt_scratch_put(pool, keys, size);
    return rc;
}

/* Depth of each event: call-stack nesting for thread lanes, first free row
 * for async lanes (model/nest.h states the rule). */
int tt_lane_nest(tt_lane *l)
{
    tt_event *ev = l->ev;
    size_t n = l->n;
    tt_nest nz;
    uint16_t maxd = 0;
    if (tt_nest_init(&nz, l->kind))
        return -1;
    for (size_t i = 0; i < n; i++) {
        tt_event *e = &ev[i];
        int32_t d = tt_nest_step(&nz, e->start, e->start + e->dur);
        if (d < 0) {
            tt_nest_fini(&nz);
            return -1;
        }
        e->depth = (uint16_t)d;
        if (e->depth > maxd)
            maxd = e->depth;
    }
    l->max_depth = maxd;
    tt_nest_fini(&nz);
    return 0;
}

/* ---------------------------------------------------------------- flows */

static int cmp_flow_points(const void *pa, const void *pb, void *ctx)
{
    const tt_flow_point *a = pa, *b = pb;
    (void)ctx;
    /* one id's points in time order; at equal times start < step < end */
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->phase != b->phase)
        return a->phase < b->phase ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The event a flow endpoint attaches to, or -1. lb: the first position of
 * its lane whose start is >= p->ts. */
static int64_t flow_bind(const tt_trace *tr, const tt_flow_point *p, size_t lb)
{
    const tt_lane *l = &tr->lanes[p->lane];
    switch ((tt_flow_bind)p->bind) {
    case TT_BIND_ENCLOSING: {
        /* Fast path: flows usually point at the start of their event (a
         * launch call, a kernel). Among events starting exactly at ts the
         * deepest is the deepest enclosing one, since anything nested
         * deeper would have to start inside it, at ts as well. */
        size_t i = lb;
        int64_t best = -1;
        for (; i < l->n && l->ev[i].start == p->ts; i++)
            if (best < 0 || l->ev[i].depth >= l->ev[best].depth)
                best = (int64_t)i;
        if (best >= 0 && (l->ev[best].dur > 0 || l->kind == TT_LANE_ASYNC))
            return best;
        {
            int64_t d = tt_index_deepest_at(l->ev, l->n, p->ts);
            if (d >= 0)
                return d;
        }
        /* a zero-length slice at ts, when nothing contains ts */
        return best;
    }
    case TT_BIND_NEXT: {
        size_t i = lb;
        while (i < l->n && l->ev[i].kind != TT_EV_SLICE && l->ev[i].kind != TT_EV_ASYNC)
            i++;
        return i < l->n ? (int64_t)i : -1;
    }
    case TT_BIND_EXACT: {
        size_t i = lb;
        for (; i < l->n && l->ev[i].start == p->ts; i++)
            if (l->ev[i].dur == p->dur && l->ev[i].name == p->name)
                return (int64_t)i;
        return -1;
    }
    }
    return -1;
}

/* The first position of ev[0..n) whose start is >= t, knowing that every
 * position before `from` starts before t: a search that widens from
 * `from`, so a walk through increasing times stays near where it was. */
static size_t lower_bound_from(const tt_event *ev, size_t n, size_t from, tt_ns t)
{
    size_t lo = from, step = 1, hi;
    while (lo + step <= n && ev[lo + step - 1].start < t) {
        lo += step;
        step *= 2;
    }
    hi = lo + step - 1 < n ? lo + step - 1 : n;
    return lo + tt_index_lower_bound(ev + lo, hi - lo, t);
}

/* Points order[from, to) (in lane and time order) bound into pos[]. */
typedef struct bind_job {
    const tt_trace      *tr;
    const tt_flow_point *fp;
    const uint32_t      *order;
    size_t               n, piece;
    int64_t             *pos;
} bind_job;

static void bind_piece(void *ctx, size_t job)
{
    bind_job *j = ctx;
    const tt_flow_point *fp = j->fp;
    const uint32_t *order = j->order;
    size_t from = job * j->piece, to = from + j->piece < j->n ? from + j->piece : j->n;
    for (size_t i = from, lb = 0; i < to; i++) {
        const tt_flow_point *p = &fp[order[i]];
        const tt_lane *l;
        /* the points are read in lane and time order, not where they
         * lie: fetch ahead */
        if (i + 8 < j->n)
            __builtin_prefetch(&fp[order[i + 8]]);
        if (p->lane >= j->tr->n_lanes) {
            j->pos[order[i]] = -1;
            continue;
        }
        /* a piece starts its search at the lane's start: any position
         * satisfies lower_bound_from()'s promise there */
        if (i == from || fp[order[i - 1]].lane != p->lane)
            lb = 0;
        l = &j->tr->lanes[p->lane];
        lb = lower_bound_from(l->ev, l->n, lb, p->ts);
        j->pos[order[i]] = flow_bind(j->tr, p, lb);
    }
}

/* flow_bind_order() where lane, time and index fit one 64-bit key (lane
 * << (tb + ib) | (ts - tmin) << ib | index: the same order as its pairs'
 * sorts, in half their memory): 0, 1 where they do not fit (nothing
 * done), -1 out of memory. */
static int bind_order_packed(const tt_flow_point *fp, size_t n, uint32_t n_lanes, tt_ns tmin,
                             tt_ns tmax, tt_scratch *pool, uint32_t **out)
{
    int ib = bits_below(n), lb = bits_below((uint64_t)n_lanes + 1), tb;
    uint64_t span = (uint64_t)tmax - (uint64_t)tmin, *keys;
    uint32_t *order;
    tb = span ? 64 - __builtin_clzll(span) : 0;
    if (lb + tb + ib > 64)
        return 1;
    if (!(keys = tt_scratch_get(pool, n * sizeof *keys)))
        return -1;
    for (size_t k = 0; k < n; k++) {
        uint64_t lane = fp[k].lane < n_lanes ? fp[k].lane : n_lanes;
        keys[k] = (lane << tb | ((uint64_t)fp[k].ts - (uint64_t)tmin)) << ib | k;
    }
    if (tt_radix_sort64_in(keys, n, ib, pool) ||
        !(order = tt_scratch_get(pool, n * sizeof *order))) {
        tt_scratch_put(pool, keys, n * sizeof *keys);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        order[k] = (uint32_t)(keys[k] & (((uint64_t)1 << ib) - 1));
    tt_scratch_put(pool, keys, n * sizeof *keys);
    *out = order;
    return 0;
}

/* The points' order for binding, into *out (n indexes; the caller puts
 * it back to the pool): by lane, then time, then source order, points of
 * no lane last. Binding searches the point's lane; in the order the
 * points are resolved (by flow id) those searches jump all over memory
 * and cost more than the rest of resolving, so they run in this order,
 * each search starting where the previous one ended. Needs only the
 * points and the lanes' final numbers, not their sorted events: it runs
 * beside the lanes' sorts (finish_lanes). */
static int flow_bind_order(const tt_flow_point *fp, size_t n, uint32_t n_lanes,
                           tt_scratch *pool, uint32_t **out)
{
    tt_kv *by_time;
    uint32_t *order;
    size_t *start;
    tt_ns tmin = INT64_MAX, tmax = INT64_MIN;
    int rc;
    if (n > UINT32_MAX)
        return -1;   /* indexes are 32-bit below (seq is, too) */
    for (size_t k = 0; k < n; k++) {
        if (fp[k].ts < tmin)
            tmin = fp[k].ts;
        if (fp[k].ts > tmax)
            tmax = fp[k].ts;
    }
    if (n && (rc = bind_order_packed(fp, n, n_lanes, tmin, tmax, pool, out)) <= 0)
        return rc;
    by_time = tt_scratch_get(pool, n * sizeof *by_time);
    order = tt_scratch_get(pool, n * sizeof *order);
    start = calloc((size_t)n_lanes + 2, sizeof *start);
    if (!by_time || !order || !start)
        goto oom;
    for (size_t k = 0; k < n; k++) {
        /* exact for any int64 ts >= tmin, however far apart; the lane
         * rides along in the high half, so that grouping by lane below
         * does not read the points again */
        by_time[k].key = (uint64_t)fp[k].ts - (uint64_t)tmin;
        by_time[k].val = (uint64_t)(fp[k].lane < n_lanes ? fp[k].lane : n_lanes) << 32 | k;
    }
    if (tt_radix_sort_in(by_time, n, pool))
        goto oom;
    /* stable counting sort by lane; points of no lane (n_lanes) last */
    for (size_t k = 0; k < n; k++)
        start[(by_time[k].val >> 32) + 1]++;
    for (uint32_t l = 0; l <= n_lanes; l++)
        start[l + 1] += start[l];
    for (size_t k = 0; k < n; k++)
        order[start[by_time[k].val >> 32]++] = (uint32_t)by_time[k].val;
    tt_scratch_put(pool, by_time, n * sizeof *by_time);
    free(start);
    *out = order;
    return 0;
oom:
    tt_scratch_put(pool, by_time, n * sizeof *by_time);
    tt_scratch_put(pool, order, n * sizeof *order);
    free(start);
    return -1;
}

/* flow_bind() of every point, into pos[] (-1: nothing to attach to), in
 * flow_bind_order()'s order, in pieces on up to `threads` threads (each
 * point's binding depends on nothing else). */
static void bind_flow_points(const tt_trace *tr, const tt_flow_point *fp, size_t n,
                             const uint32_t *order, int64_t *pos, unsigned threads)
{
    bind_job j;
    if (n == 0)
        return;
    j.tr = tr;
    j.fp = fp;
    j.order = order;
    j.n = n;
    j.pos = pos;
    /* a few pieces per thread, so that one slow piece does not hold the
     * others up; one piece when serial */
    j.piece = threads > 1 ? n / (4 * (size_t)threads) + 1 : n;
    if (j.piece < 4096)
        j.piece = 4096;
    tt_parallel_run((n + j.piece - 1) / j.piece, threads, bind_piece, &j);
}

static int push_flow(tt_trace *tr, tt_evref from, tt_evref to, uint32_t name, uint32_t cat)
{
    if (grow((void **)&tr->flows, sizeof *tr->flows, tr->n_flows, &tr->cap_flows, 256))
        return -1;
    tr->flows[tr->n_flows].from = from;
    tr->flows[tr->n_flows].to = to;
    tr->flows[tr->n_flows].name = name;
    tr->flows[tr->n_flows].cat = cat;
    tr->n_flows++;
    return 0;
}

int tt_trace_flow_resolved(tt_trace *tr, tt_evref from, tt_evref to, uint32_t name,
                           uint32_t cat)
{
    return push_flow(tr, from, to, name, cat);
}

static int cmp_evref(tt_evref a, tt_evref b)
{
    if (a.lane != b.lane)
        return a.lane < b.lane ? -1 : 1;
    return a.idx < b.idx ? -1 : a.idx > b.idx;
}

static uint64_t evref_key(tt_evref r)
{
    return (uint64_t)r.lane << 32 | r.idx;   /* ordered as cmp_evref() */
}

/* Sort the flows by (from, to) and fill flows_by_to with their indexes by
 * (to, from); equal pairs keep the order they were found in. The first is
 * two stable radix sorts, by to and then by from; the flows are then in
 * from order, so one more by to gives the second. index_flows() where the
 * trace's events cannot be numbered in 32 bits. */
static int index_flows_evref(tt_trace *tr, tt_scratch *pool)
{
    size_t n = tr->n_flows;
    /* fresh arrays of n: huge pages fault once per 2 MiB (bigalloc.h;
     * half of a 1M-call nsys export's faults were these three); the
     * scratch one from the pool, where resolve_flows() left its own */
    tt_kv *kv = tt_scratch_get(pool, (n ? n : 1) * sizeof *kv);
    tr->flows_by_to = tt_bigalloc((n + 1) * sizeof *tr->flows_by_to);
    if (!kv || !tr->flows_by_to)
        goto oom;
    for (size_t k = 0; k < n; k++)
        kv[k] = (tt_kv){evref_key(tr->flows[k].to), k};
    if (tt_radix_sort_in(kv, n, pool))
        goto oom;
    for (size_t k = 0; k < n; k++)
        kv[k].key = evref_key(tr->flows[kv[k].val].from);
    if (tt_radix_sort_in(kv, n, pool))
        goto oom;
    {
        /* flows are found in id order, which is random in from order: a
         * copy read ahead costs less than moving them in place (and the
         * flow points, larger, are gone by now) */
        tt_flow *sorted = tt_bigalloc((n ? n : 1) * sizeof *sorted);
        if (!sorted)
            goto oom;
        for (size_t k = 0; k < n; k++) {
            if (k + 16 < n)
                __builtin_prefetch(&tr->flows[kv[k + 16].val]);
            sorted[k] = tr->flows[kv[k].val];
        }
        free(tr->flows);
        tr->flows = sorted;
        tr->cap_flows = n;
    }
    /* the flows are in from order now: one stable pass by to */
    for (size_t k = 0; k < n; k++)
        kv[k] = (tt_kv){evref_key(tr->flows[k].to), k};
    if (tt_radix_sort_in(kv, n, pool))
        goto oom;
    for (size_t k = 0; k < n; k++)
        tr->flows_by_to[k] = (uint32_t)kv[k].val;
    tt_scratch_put(pool, kv, (n ? n : 1) * sizeof *kv);
    return 0;
oom:
    tt_scratch_put(pool, kv, (n ? n : 1) * sizeof *kv);
    return -1;
}

/* index_flows()'s two sorts, one a job. */
typedef struct flow_sorts {
    tt_kv      *kv[2];
    size_t      n;
    tt_scratch *pool;
    atomic_int  failed;
} flow_sorts;

static void flow_sort_job(void *ctx, size_t job)
{
    flow_sorts *j = ctx;
    if (tt_radix_sort_in(j->kv[job], j->n, j->pool))
        atomic_store(&j->failed, 1);
}

/* index_flows_evref()'s result with events numbered across the trace
 * (lane by lane, as cmp_evref() orders them), so that a pair of events
 * is one 64-bit key: one sort by (from, to) and one by (to, from),
 * independent of each other, on two threads where there are two. Ties
 * keep the order the flows were found in, in both, as there. */
static int index_flows(tt_trace *tr, unsigned threads, tt_scratch *pool)
{
    size_t n = tr->n_flows, total = 0;
    uint32_t *base;
    flow_sorts j;
    tt_flow *sorted;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        total += tr->lanes[l].n;
    if (total > UINT32_MAX || n < 2)
        return index_flows_evref(tr, pool);
    if (!(base = malloc(((size_t)tr->n_lanes + 1) * sizeof *base)))
        return -1;
    total = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        base[l] = (uint32_t)total;
        total += tr->lanes[l].n;
    }
    j.n = n;
    j.pool = pool;
    atomic_init(&j.failed, 0);
    j.kv[0] = tt_scratch_get(pool, n * sizeof *j.kv[0]);
    j.kv[1] = tt_scratch_get(pool, n * sizeof *j.kv[1]);
    /* fresh arrays of n: huge pages fault once per 2 MiB (bigalloc.h) */
    tr->flows_by_to = tt_bigalloc((n + 1) * sizeof *tr->flows_by_to);
    sorted = tt_bigalloc(n * sizeof *sorted);
    if (!j.kv[0] || !j.kv[1] || !tr->flows_by_to || !sorted)
        goto oom;
    for (size_t k = 0; k < n; k++) {
        tt_evref f = tr->flows[k].from, t = tr->flows[k].to;
        uint64_t from, to;
        if (f.lane >= tr->n_lanes || t.lane >= tr->n_lanes) {
            /* not an event of the trace: the sorts by (lane, index) keep
             * such a flow in order without numbering it */
            tt_scratch_put(pool, j.kv[0], n * sizeof *j.kv[0]);
            tt_scratch_put(pool, j.kv[1], n * sizeof *j.kv[1]);
            free(tr->flows_by_to);
            tr->flows_by_to = NULL;
            free(sorted);
            free(base);
            return index_flows_evref(tr, pool);
        }
        from = (uint64_t)base[f.lane] + f.idx;
        to = (uint64_t)base[t.lane] + t.idx;
        j.kv[0][k] = (tt_kv){from << 32 | to, k};
        j.kv[1][k] = (tt_kv){to << 32 | from, k};
    }
    tt_parallel_run(2, threads, flow_sort_job, &j);
    if (atomic_load(&j.failed))
        goto oom;
    {
        /* flows are found in id order, which is random in from order: a
         * copy read ahead costs less than moving them in place. Each
         * flow's new position goes into the key it no longer needs. */
        tt_kv *by_from = j.kv[0];
        for (size_t k = 0; k < n; k++) {
            if (k + 16 < n)
                __builtin_prefetch(&tr->flows[by_from[k + 16].val]);
            sorted[k] = tr->flows[by_from[k].val];
            by_from[by_from[k].val].key = k;
        }
        for (size_t k = 0; k < n; k++)
            tr->flows_by_to[k] = (uint32_t)by_from[j.kv[1][k].val].key;
    }
    free(tr->flows);
    tr->flows = sorted;
    tr->cap_flows = n;
    tt_scratch_put(pool, j.kv[0], n * sizeof *j.kv[0]);
    tt_scratch_put(pool, j.kv[1], n * sizeof *j.kv[1]);
    free(base);
    return 0;
oom:
    tt_scratch_put(pool, j.kv[0], n * sizeof *j.kv[0]);
    tt_scratch_put(pool, j.kv[1], n * sizeof *j.kv[1]);
    free(sorted);
    free(base);
    return -1;
}

static int cmp_point_at(const void *pa, const void *pb, void *ctx)
{
    const tt_flow_point *fp = ctx;
    return cmp_flow_points(&fp[*(const uint32_t *)pa], &fp[*(const uint32_t *)pb], NULL);
}

/* The flow points' order by cmp_flow_points(), into *out (n indexes; the
 * caller puts it back to the pool): radix by id, then each id's few
 * points by time, phase and source order. The radix sort's keys are the
 * id's top bits over the point's index (half the memory of (id, index)
 * pairs, and of their sort's buffer: this job's scratch made the load's
 * peak); ids sharing those bits form one run, which cmp_flow_points(),
 * comparing whole ids first, orders as the pairs' sort did. The points
 * themselves stay where they are: moving 48-byte records to an order that
 * is random in memory cost more than reading them there, ahead of
 * need. */
static int sort_flow_points(const tt_flow_point *fp, size_t n, tt_scratch *pool, uint32_t **out)
{
    int ib = bits_below(n);
    uint64_t *keys, mask = ((uint64_t)1 << ib) - 1;
    uint32_t *ord;
    if (n >= UINT32_MAX)
        return -1;   /* indexes are 32-bit (seq is, too) */
    if (!(keys = tt_scratch_get(pool, n * sizeof *keys)))
        return -1;
    for (size_t k = 0; k < n; k++)
        keys[k] = (fp[k].key & ~mask) | k;
    if (tt_radix_sort64_in(keys, n, ib, pool) || !(ord = tt_scratch_get(pool, n * sizeof *ord))) {
        tt_scratch_put(pool, keys, n * sizeof *keys);
        return -1;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        for (; j < n && (keys[j] ^ keys[i]) <= mask; j++)
            ord[j] = (uint32_t)(keys[j] & mask);
        for (size_t k = i; k < j && k + 32 < n; k++)
            __builtin_prefetch(&fp[keys[k + 32] & mask]);
        if (j - i <= 8) {
            /* an id has a start and an end or a few steps: insertion */
            for (size_t k = i + 1; k < j; k++) {
                uint32_t x = ord[k];
                size_t m = k;
                for (; m > i && cmp_flow_points(&fp[ord[m - 1]], &fp[x], NULL) > 0; m--)
                    ord[m] = ord[m - 1];
                ord[m] = x;
            }
        } else if (tt_sort(ord + i, j - i, sizeof *ord, cmp_point_at, (void *)fp)) {
            tt_scratch_put(pool, keys, n * sizeof *keys);
            tt_scratch_put(pool, ord, n * sizeof *ord);
            return -1;
        }
        i = j;
    }
    tt_scratch_put(pool, keys, n * sizeof *keys);
    *out = ord;
    return 0;
}

/* resolve_flows()'s order and bindings of n points back to the pool. */
static void put_resolve_scratch(tt_scratch *pool, uint32_t *ord, int64_t *bound, size_t n)
{
    tt_scratch_put(pool, ord, n * sizeof *ord);
    tt_scratch_put(pool, bound, n * sizeof *bound);
}

/* The flow points' two orders, made beside the lanes' sorts: ord by
 * sort_flow_points(), order by flow_bind_order() (NULL when there are
 * no points, or on failure). */
typedef struct flow_prep {
    uint32_t *ord;
    uint32_t *order;
} flow_prep;

/* The flows and the problem resolve_flows()'s walk finds in ord[from, to)
 * (whole ids: an id's points are never split), kept apart so that pieces
 * run on several threads and are joined in order: the flows in the order
 * one walk pushes them, the problem counted and its first example what
 * one walk's tt_trace_problem() keeps. */
typedef struct resolve_piece {
    size_t      from, to;
    tt_flow    *flows;
    size_t      n_flows, cap_flows;
    tt_problem  prob;     /* TT_PROB_UNRESOLVED_FLOW */
    bool        failed;
} resolve_piece;

typedef struct resolve_job {
    const tt_trace      *tr;
    const tt_flow_point *fp;
    const uint32_t      *ord;
    const int64_t       *bound;
    size_t               n;
    resolve_piece       *piece;
} resolve_job;

/* As tt_trace_problem(), into the piece's count. */
static void piece_problem(resolve_piece *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void piece_problem(resolve_piece *r, const char *fmt, ...)
{
    if (r->prob.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->prob.example, sizeof r->prob.example, fmt, ap);
        va_end(ap);
    }
}

static int piece_flow(resolve_piece *r, tt_evref from, tt_evref to, uint32_t name, uint32_t cat)
{
    /* the piece's array has room for a flow a point (resolve_flows) */
    if (r->n_flows == r->cap_flows &&
        grow((void **)&r->flows, sizeof *r->flows, r->n_flows, &r->cap_flows, 256))
        return -1;
    r->flows[r->n_flows].from = from;
    r->flows[r->n_flows].to = to;
    r->flows[r->n_flows].name = name;
    r->flows[r->n_flows].cat = cat;
    r->n_flows++;
    return 0;
}

static void flow_no_start(const tt_trace *tr, resolve_piece *r, const tt_flow_point *p)
{
    piece_problem(r, "flow '%s' ends at %.3f ms (from start) with no start",
                  tt_str(tr, p->name), (double)(p->ts - tr->t0) / 1e6);
}

/* Points of one id are visited in time order: s (t...) f, possibly
 * repeated. An end stamped before its start is real data, not a broken
 * flow: Ascend stamps HostToDevice ends with the device clock, often
 * microseconds before the host-side start. Such an end is held back and
 * closes the next chain that would otherwise stay open, so the flow is
 * kept as stamped (a negative lag) instead of counted as unresolved. */
static void resolve_piece_run(void *ctx, size_t job)
{
    resolve_job *jb = ctx;
    resolve_piece *r = &jb->piece[job];
    const tt_trace *tr = jb->tr;
    const tt_flow_point *fp = jb->fp;
    const uint32_t *ord = jb->ord;
    const int64_t *bound = jb->bound;
    size_t i = r->from, n = jb->n, end = r->to;
    while (i < end) {
        size_t j = i;
        int have_prev = 0;
        tt_evref prev = {0, 0};
        const tt_flow_point *early_end = NULL;  /* an end seen before any start */
        tt_evref early_at = {0, 0};
        while (j < end && fp[ord[j]].key == fp[ord[i]].key)
            j++;
        for (size_t k = i; k <= j; k++) {
            const tt_flow_point *p = k < j ? &fp[ord[k]] : NULL;
            int64_t pos;
            tt_evref here;
            if (k + 32 < n) {
                __builtin_prefetch(&fp[ord[k + 32]]);
                __builtin_prefetch(&bound[ord[k + 32]]);
            }
            /* a chain left open (by the next start, or the id's last
             * point) takes the end that came before it */
            if ((k == j || p->phase == TT_FLOW_START) && have_prev && early_end) {
                if (cmp_evref(prev, early_at) != 0 &&
                    piece_flow(r, prev, early_at, early_end->name, early_end->cat)) {
                    r->failed = true;
                    return;
                }
                early_end = NULL;
            }
            if (k == j)
                break;
            pos = bound[ord[k]];
            if (p->phase == TT_FLOW_START)
                have_prev = 0;
            if (pos < 0) {
                piece_problem(r, "flow '%s' point at %.3f ms (from start) has no event to attach to",
                              tt_str(tr, p->name), (double)(p->ts - tr->t0) / 1e6);
                if (p->phase == TT_FLOW_END)
                    have_prev = 0;
                continue;
            }
            here.lane = p->lane;
            here.idx = (uint32_t)pos;
            if (p->phase != TT_FLOW_START) {
                if (have_prev) {
                    if (cmp_evref(prev, here) != 0 && piece_flow(r, prev, here, p->name, p->cat)) {
                        r->failed = true;
                        return;
                    }
                } else if (p->phase == TT_FLOW_END) {
                    if (early_end)
                        flow_no_start(tr, r, early_end);
                    early_end = p;
                    early_at = here;
                    continue;
                } else {
                    flow_no_start(tr, r, p);
                }
            }
            /* an end closes its arrow, not its start: a start may fan out
             * to several ends (Kineto's one launch, several kernels), so
             * a later end of the id still comes from it */
            if (p->phase != TT_FLOW_END) {
                prev = here;
                have_prev = 1;
            }
        }
        if (early_end)
            flow_no_start(tr, r, early_end);
        i = j;
    }
}

/* The pieces' flows after the trace's, their problems counted, in piece
 * order: what one walk over all of them leaves. The first piece's array
 * becomes the trace's where the trace has none yet (one thread: no copy
 * at all). 0, or -1 out of memory. */
static int join_pieces(tt_trace *tr, resolve_piece *piece, size_t n_pieces)
{
    size_t total = 0, first = 0;
    tt_problem *tp = &tr->problems[TT_PROB_UNRESOLVED_FLOW];
    for (size_t p = 0; p < n_pieces; p++)
        if (piece[p].prob.count) {
            if (tp->count == 0)
                memcpy(tp->example, piece[p].prob.example, sizeof tp->example);
            tp->count += piece[p].prob.count;
        }
    if (tr->n_flows == 0 && piece[0].flows) {
        free(tr->flows);
        tr->flows = piece[0].flows;
        tr->n_flows = piece[0].n_flows;
        tr->cap_flows = piece[0].cap_flows;
        piece[0].flows = NULL;
        piece[0].n_flows = 0;
        first = 1;
    }
    for (size_t p = first; p < n_pieces; p++)
        total += piece[p].n_flows;
    if (total == 0)
        return 0;
    if (tr->n_flows + total > tr->cap_flows) {
        size_t cap = tr->n_flows + total;
        tt_flow *nf = tt_bigrealloc(tr->flows, tr->n_flows * sizeof *nf, cap * sizeof *nf);
        if (!nf)
            return -1;
        tr->flows = nf;
        tr->cap_flows = cap;
    }
    for (size_t p = first; p < n_pieces; p++) {
        if (piece[p].n_flows)
            memcpy(tr->flows + tr->n_flows, piece[p].flows, piece[p].n_flows * sizeof *tr->flows);
        tr->n_flows += piece[p].n_flows;
        free(piece[p].flows);
        piece[p].flows = NULL;
        piece[p].n_flows = 0;
    }
    return 0;
}

/* Pieces of the walk: one a thread (each has an array of its own); below
 * this many points, one */
#define RESOLVE_PIECE_MIN ((size_t)1 << 14)

/* Resolve the flow points into flows (their ids' points walked in ord's
 * order, in pieces of whole ids on up to `threads` threads), free the
 * points, and index the flows. The orders of prep are the pool's again
 * when it returns. */
static int resolve_flows(tt_trace *tr, unsigned threads, tt_scratch *pool, flow_prep *prep)
{
    size_t n = tr->n_flow_points, n_pieces = 1;
    const tt_flow_point *fp = tr->flow_points;
    uint32_t *ord = prep->ord;   /* the points in resolving order */
    int64_t *bound;
    resolve_piece *piece;
    resolve_job jb;
    int rc = 0;
    if (n && !(bound = tt_scratch_get(pool, n * sizeof *bound))) {
        put_resolve_scratch(pool, ord, NULL, n);
        tt_scratch_put(pool, prep->order, n * sizeof *prep->order);
        return -1;
    }
    if (n) {
        bind_flow_points(tr, fp, n, prep->order, bound, threads);
        tt_scratch_put(pool, prep->order, n * sizeof *prep->order);
    } else {
        bound = NULL;
    }
    prep->ord = NULL;
    prep->order = NULL;
    /* the sorts' buffers, kept, would sit resident beside the flows that
     * grow below and add to the load's peak; ord and bound come back for
     * index_flows() */
    tt_scratch_trim(pool);
    if (threads > 1 && n >= RESOLVE_PIECE_MIN)
        n_pieces = threads;
    if (!(piece = calloc(n_pieces, sizeof *piece))) {
        put_resolve_scratch(pool, ord, bound, n);
        return -1;
    }
    for (size_t p = 0; p < n_pieces; p++) {
        /* cut at the first id boundary at or after an even share */
        size_t at = p == 0 ? 0 : n / n_pieces * p;
        if (p > 0 && at < piece[p - 1].from)
            at = piece[p - 1].from;
        while (at > 0 && at < n && fp[ord[at]].key == fp[ord[at - 1]].key)
            at++;
        piece[p].from = at;
        if (p > 0)
            piece[p - 1].to = at;
    }
    piece[n_pieces - 1].to = n;
    for (size_t p = 0; p < n_pieces; p++) {
        /* each point adds at most one flow (its own arrow, or a held-back
         * end's): room for all at once, on huge pages once big, where
         * only what is written becomes resident (util/bigalloc.h). The
         * first piece's array, which becomes the trace's (join_pieces),
         * has room for every point's */
        size_t m = p == 0 && tr->n_flows == 0 ? n : piece[p].to - piece[p].from;
        if (m && !(piece[p].flows = tt_bigalloc(m * sizeof *piece[p].flows)))
            rc = -1;
        piece[p].cap_flows = m;
    }
    jb.tr = tr;
    jb.fp = fp;
    jb.ord = ord;
    jb.bound = bound;
    jb.n = n;
    jb.piece = piece;
    if (n && rc == 0)
        tt_parallel_run(n_pieces, threads, resolve_piece_run, &jb);
    for (size_t p = 0; p < n_pieces; p++)
        if (piece[p].failed)
            rc = -1;
    /* the points are done with: gone before the flows are joined */
    put_resolve_scratch(pool, ord, bound, n);
    if (rc == 0) {
        free(tr->flow_points);
        tr->flow_points = NULL;
        tr->n_flow_points = tr->cap_flow_points = 0;
        rc = join_pieces(tr, piece, n_pieces);
    }
    for (size_t p = 0; p < n_pieces; p++)
        free(piece[p].flows);
    free(piece);
    if (rc)
        return -1;

    return index_flows(tr, threads, pool);
}

size_t tt_trace_flows_from(const tt_trace *tr, tt_evref ev, size_t *first)
{
    size_t lo = 0, hi = tr->n_flows, end;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_evref(tr->flows[mid].from, ev) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (end = lo; end < tr->n_flows && cmp_evref(tr->flows[end].from, ev) == 0; end++)
        ;
    *first = lo;
    return end - lo;
}

size_t tt_trace_flows_to(const tt_trace *tr, tt_evref ev, size_t *first)
{
    size_t lo = 0, hi = tr->n_flows, end;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_evref(tr->flows[tr->flows_by_to[mid]].to, ev) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (end = lo; end < tr->n_flows && cmp_evref(tr->flows[tr->flows_by_to[end]].to, ev) == 0;
         end++)
        ;
    *first = lo;
    return end - lo;
}

size_t tt_trace_flows_backward(const tt_trace *tr)
{
    size_t n = 0;
    for (size_t k = 0; k < tr->n_flows; k++)
        n += tt_trace_event(tr, tr->flows[k].to)->start <
             tt_trace_event(tr, tr->flows[k].from)->start;
    return n;
}

/* ------------------------------------------------------------- counters */

typedef struct sample {
    tt_ns  t;
    double v;
    size_t i;
} sample;

static int cmp_sample(const void *pa, const void *pb, void *ctx)
{
    const sample *a = pa, *b = pb;
    (void)ctx;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* counter_finalize()'s sort where time and index fit one 64-bit key,
 * (t - tmin) << ib | index: a radix sort, the same stable order by time
 * as cmp_sample()'s merge sort (26k samples of a 1M-event load: 4.5 ms
 * of comparisons, on finalize's serial path). 0, 1 where the keys do
 * not fit (nothing done), -1 out of memory. */
static int counter_sort_packed(tt_counter *c)
{
    size_t n = c->n;
    int ib = bits_below(n), rc = 0;
    tt_ns lo = c->t[0], hi = lo;
    uint64_t tmin, *keys;
    tt_ns *t;
    double *v;
    if (n >= UINT32_MAX)
        return 1;
    for (size_t i = 1; i < n; i++) {
        if (c->t[i] < lo)
            lo = c->t[i];
        if (c->t[i] > hi)
            hi = c->t[i];
    }
    /* the times are not checked yet: any int64 span, unsigned */
    tmin = (uint64_t)lo;
    if (((uint64_t)hi - tmin) >> (64 - ib) != 0)
        return 1;
    keys = malloc(n * sizeof *keys);
    t = malloc(n * sizeof *t);
    v = malloc(n * sizeof *v);
    if (!keys || !t || !v) {
        rc = -1;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = ((uint64_t)c->t[i] - tmin) << ib | i;
    if (tt_radix_sort64_in(keys, n, ib, NULL)) {
        rc = -1;
        goto out;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = (size_t)(keys[k] & (((uint64_t)1 << ib) - 1));
        t[k] = c->t[i];
        v[k] = c->v[i];
    }
    memcpy(c->t, t, n * sizeof *t);
    memcpy(c->v, v, n * sizeof *v);
out:
    free(keys);
    free(t);
    free(v);
    return rc;
}

static int counter_finalize(tt_counter *c)
{
    int sorted = 1, rc = 0;
    for (size_t i = 1; i < c->n && sorted; i++)
        if (c->t[i] < c->t[i - 1])
            sorted = 0;
    if (!sorted && (rc = counter_sort_packed(c)) < 0)
        return -1;
    if (!sorted && rc == 1) {
        sample *s = malloc(c->n * sizeof *s);
        if (!s)
            return -1;
        for (size_t i = 0; i < c->n; i++)
            s[i] = (sample){c->t[i], c->v[i], i};
        tt_sort(s, c->n, sizeof *s, cmp_sample, NULL);
        for (size_t i = 0; i < c->n; i++) {
            c->t[i] = s[i].t;
            c->v[i] = s[i].v;
        }
        free(s);
    }
    c->vmin = c->n ? c->v[0] : 0;
    c->vmax = c->n ? c->v[0] : 0;
    for (size_t i = 1; i < c->n; i++) {
        if (c->v[i] < c->vmin)
            c->vmin = c->v[i];
        if (c->v[i] > c->vmax)
            c->vmax = c->v[i];
    }
    return 0;
}

/* ------------------------------------------------------ parallel finalize
 *
 * Finalize's work over the events is lane by lane, and lanes share
 * nothing: the time scan, and the sort, nesting and index of each lane run
 * on the load's threads (tt_parallel_run). Every result is the serial
 * one: the scan's pieces are combined in lane and event order, and each
 * lane is sorted exactly as alone. */

/* The time scan of events [from, to) of a lane: first start, last end,
 * and the first event out of the time limits (SIZE_MAX: none). */
typedef struct scan_piece {
    uint32_t lane;
    size_t   from, to;
    tt_ns    t0, t1;
    size_t   bad;
} scan_piece;

/* Pieces of at most this many events: a big lane is scanned by several
 * threads, a small piece costs one job. */
#define SCAN_PIECE ((size_t)1 << 15)

typedef struct scan_job {
    const tt_trace *tr;
    scan_piece     *p;
} scan_job;

static void scan_one(void *ctx, size_t job)
{
    scan_job *j = ctx;
    scan_piece *p = &j->p[job];
    const tt_event *ev = j->tr->lanes[p->lane].ev;
    tt_ns t0 = INT64_MAX, t1 = INT64_MIN;
    p->bad = SIZE_MAX;
    for (size_t k = p->from; k < p->to; k++) {
        const tt_event *e = &ev[k];
        /* the decoders keep to the limit; this keeps a slip from
         * overflowing every computation downstream */
        if (!tt_time_ok(e->start) || !tt_dur_ok(e->dur)) {
            p->bad = k;
            break;
        }
        if (e->start < t0)
            t0 = e->start;
        if (!(e->flags & TT_EVF_UNCLOSED) && tt_event_end(e) > t1)
            t1 = tt_event_end(e);
        if (e->start > t1)
            t1 = e->start;
    }
    p->t0 = t0;
    p->t1 = t1;
}

/* First start and last end of every event into *t0, *t1 (INT64_MAX and
 * INT64_MIN when there is none); 0, -1 out of memory, or -2 with err set
 * for the first event (in lane and event order) out of the limits. */
static int scan_events(const tt_trace *tr, unsigned threads, tt_ns *t0, tt_ns *t1, tt_error *err)
{
    size_t n = 0, k = 0;
    scan_job j;
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        n += (tr->lanes[i].n + SCAN_PIECE - 1) / SCAN_PIECE;
    *t0 = INT64_MAX;
    *t1 = INT64_MIN;
    if (n == 0)
        return 0;
    if (!(j.p = malloc(n * sizeof *j.p)))
        return -1;
    j.tr = tr;
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        for (size_t from = 0; from < tr->lanes[i].n; from += SCAN_PIECE) {
            j.p[k].lane = i;
            j.p[k].from = from;
            j.p[k].to = tr->lanes[i].n - from > SCAN_PIECE ? from + SCAN_PIECE : tr->lanes[i].n;
            k++;
        }
    tt_parallel_run(n, threads, scan_one, &j);
    for (k = 0; k < n; k++) {
        const scan_piece *p = &j.p[k];
        if (p->bad != SIZE_MAX) {
            const tt_event *e = &tr->lanes[p->lane].ev[p->bad];
            char safe[96];
            free(j.p);
            tt_error_set(err, TT_ERR_FORMAT,
                         "'%s': time out of range (start %lld ns, duration %lld ns)",
                         tt_text_safe(tt_str(tr, e->name), safe, sizeof safe),
                         (long long)e->start, (long long)e->dur);
            return -2;
        }
        if (p->t0 < *t0)
            *t0 = p->t0;
        if (p->t1 > *t1)
            *t1 = p->t1;
    }
    free(j.p);
    return 0;
}

/* The jobs of finalize's parallel part: each lane's sort, nesting and
 * index, and the flow points' two sorts, which read only the points (and
 * the lanes' numbers, final by then), so they need not wait for the
 * lanes. The flows' job comes last: its scratch is the biggest, and
 * beside the last (smallest) lanes' sorts it adds least to the load's
 * peak (beside the biggest lane's, a 1M-event JSON load peaked 10 MB
 * higher). */
enum { JOB_FLOWS = 0, JOB_LANE = 1 };   /* JOB_LANE + lane index */

typedef struct lanes_job {
    tt_trace   *tr;
    uint32_t   *order;   /* jobs, the costliest first */
    tt_scratch *pool;    /* the sorts' scratch, shared by the threads */
    flow_prep  *flows;
    atomic_int  failed;
} lanes_job;

/* Sort, nest and index one lane, and give back its growth slack. */
static int finish_lane(tt_lane *l, tt_scratch *pool)
{
    lane_pass pass;
    int rc;
    if (lane_pass_init(&pass, l))
        return -1;
    rc = lane_sort_events(l, pool, &pass);
    lane_pass_end(&pass, l, rc == 0);
    if (rc)
        return -1;
    /* give back the growth slack of big lanes */
    if (l->cap > l->n + 64) {
        tt_event *ne = realloc(l->ev, (l->n ? l->n : 1) * sizeof *ne);
        if (ne) {
            l->ev = ne;
            l->cap = l->n;
        }
    }
    return 0;
}

static void finish_job(void *ctx, size_t job)
{
    lanes_job *j = ctx;
    const tt_trace *tr = j->tr;
    uint32_t what = j->order[job];
    int rc;
    if (atomic_load(&j->failed))
        return;
    if (what == JOB_FLOWS)
        rc = sort_flow_points(tr->flow_points, tr->n_flow_points, j->pool, &j->flows->ord) ||
             flow_bind_order(tr->flow_points, tr->n_flow_points, tr->n_lanes, j->pool,
                             &j->flows->order);
    else
        rc = finish_lane(&j->tr->lanes[what - JOB_LANE], j->pool);
    if (rc)
        atomic_store(&j->failed, 1);
}

static int cmp_lane_size(const void *pa, const void *pb, void *ctx)
{
    const tt_lane *lanes = ctx;
    size_t a = lanes[*(const uint32_t *)pa - JOB_LANE].n;
    size_t b = lanes[*(const uint32_t *)pb - JOB_LANE].n;
    return a > b ? -1 : a < b;
}

/* finish_lane() of every lane, the biggest handed out first so that the
 * threads end together, and the flow points' sorts into *flows. 0, or -1
 * out of memory (what flows holds is then the pool's again). */
static int finish_lanes(tt_trace *tr, unsigned threads, tt_scratch *pool, flow_prep *flows)
{
    lanes_job j;
    uint32_t n = 0;
    flows->ord = NULL;
    flows->order = NULL;
    if (tr->n_lanes > UINT32_MAX - JOB_LANE)
        return -1;
    if (!(j.order = malloc(((size_t)tr->n_lanes + JOB_LANE) * sizeof *j.order)))
        return -1;
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        j.order[n++] = JOB_LANE + i;
    if (tt_sort(j.order, n, sizeof *j.order, cmp_lane_size, tr->lanes)) {
        free(j.order);
        return -1;
    }
    if (tr->n_flow_points)
        j.order[n++] = JOB_FLOWS;
    j.tr = tr;
    j.pool = pool;
    j.flows = flows;
    atomic_init(&j.failed, 0);
    tt_parallel_run(n, threads, finish_job, &j);
    free(j.order);
    if (atomic_load(&j.failed)) {
        tt_scratch_put(pool, flows->ord, tr->n_flow_points * sizeof *flows->ord);
        tt_scratch_put(pool, flows->order, tr->n_flow_points * sizeof *flows->order);
        flows->ord = NULL;
        flows->order = NULL;
        return -1;
    }
    return 0;
}

int tt_trace_finalize(tt_trace *tr, tt_error *err)
{
    return tt_trace_finalize_threads(tr, 0, err);
}

int tt_trace_finalize_threads(tt_trace *tr, unsigned threads, tt_error *err)
{
    tt_ns t0, t1;
    uint64_t total = 0;
    tt_scratch *pool;
    flow_prep flows;
    int rc;

    if (tr->finalized)
        return 0;
    if (!threads)
        threads = tt_parallel_cores();
    if (tt_args_seal(tr->args))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory compressing arguments");

    /* Begins never closed run to the end of the trace, as in
     * chrome://tracing; they are marked and counted (and their lists kept
     * until the end is known). */
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        tt_lane *l = &tr->lanes[i];
        for (size_t k = 0; k < l->n_open; k++) {
            tt_event *e = &l->ev[l->open[k]];
            e->flags |= TT_EVF_UNCLOSED;
            tt_trace_problem(tr, TT_PROB_UNCLOSED_BEGIN, "'%s' begins at %lld us and never ends",
                             tt_str(tr, e->name), (long long)(e->start / 1000));
        }
        total += l->n;
    }
    if ((rc = scan_events(tr, threads, &t0, &t1, err)) != 0)
        return rc == -1 ? tt_error_set(err, TT_ERR_NOMEM, "out of memory") : -1;
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        tt_counter *c = &tr->counters[i];
        if (counter_finalize(c))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        if (c->n && (!tt_time_ok(c->t[0]) || !tt_time_ok(c->t[c->n - 1])))
            return tt_error_set(err, TT_ERR_FORMAT, "counter sample time out of range (%lld ns)",
                                (long long)(tt_time_ok(c->t[0]) ? c->t[c->n - 1] : c->t[0]));
        if (c->n) {
            if (c->t[0] < t0)
                t0 = c->t[0];
            if (c->t[c->n - 1] > t1)
                t1 = c->t[c->n - 1];
        }
    }
    if (t0 == INT64_MAX) {
        t0 = t1 = 0;
    }
    tr->t0 = t0;
    tr->t1 = t1;
    tr->n_events = total;
    /* the unclosed begins, from their lists rather than a walk of every
     * event */
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        tt_lane *l = &tr->lanes[i];
        for (size_t k = 0; k < l->n_open; k++) {
            tt_event *e = &l->ev[l->open[k]];
            e->dur = t1 > e->start ? t1 - e->start : 0;
        }
        free(l->open);
        l->open = NULL;
        l->n_open = l->cap_open = 0;
    }

    tt_laneix_free(tr);   /* order_lanes() renumbers lanes and groups */
    /* the sorts' scratch is reused from lane to lane and by the flows
     * (util/scratch.h), and unmapped before the load returns */
    pool = tt_scratch_new();
    rc = order_lanes(tr) || finish_lanes(tr, threads, pool, &flows) ||
         resolve_flows(tr, threads, pool, &flows);
    tt_scratch_free(pool);
    if (rc)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tr->finalized = true;
    return 0;
}
