/* srcset.c - the sources of a query, loaded on demand and a bounded
 * number at a time (sql/srcset.h).
 *
 * Ownership: each slot owns its trace, its tt_sql_src (and through it the
 * tables' per-source caches) and its lane mask while loaded.
 */
#include "config.h"

#include "sql/srcset.h"

#include "multi/rankset.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#define KEEP_DEFAULT 4

typedef struct slot {
    const char    *path;
    tt_trace      *tr;          /* NULL: not loaded */
    tt_sql_src     src;
    unsigned char *lane_on;
    unsigned       skip;        /* what its load left out */
    unsigned       pins;
    uint64_t       used;        /* tick of its last acquire (LRU) */
    int64_t        rank;
    bool           rank_known;
    bool           borrowed;    /* the caller's trace: never unloaded */
} slot;

struct tt_sql_srcset {
    slot              *v;
    size_t             n;
    int64_t           *fallback;   /* ranks of last resort; NULL for one trace */
    tt_sql_srcset_opts o;
    unsigned           needs;
    uint64_t           tick;
    size_t             loaded, loads;
    void             **cache;        /* per registry row: a table's whole-set state */
    void            (**cache_free)(void *);
};

tt_sql_srcset *tt_sql_srcset_new(char *const *paths, size_t n, const tt_sql_srcset_opts *o,
                                 tt_error *err)
{
    tt_sql_srcset *s = calloc(1, sizeof *s);
    if (!s || !(s->v = calloc(n ? n : 1, sizeof *s->v)) ||
        (n > 1 && !(s->fallback = tt_report_fallback_ranks(paths, n)))) {
        tt_sql_srcset_free(s);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->n = n;
    s->o = *o;
    if (!s->o.keep)
        s->o.keep = KEEP_DEFAULT;
    for (size_t i = 0; i < n; i++) {
        s->v[i].path = paths[i];
        s->v[i].rank = tt_rank_from_name(paths[i]);
        s->v[i].rank_known = s->v[i].rank >= 0;
    }
    return s;
}

static void unload(tt_sql_srcset *s, slot *sl)
{
    if (!sl->tr)
        return;
    tt_sql_src_fini(&sl->src);
    if (!sl->borrowed)
        tt_trace_free(sl->tr);
    free(sl->lane_on);
    sl->tr = NULL;
    sl->lane_on = NULL;
    s->loaded--;
}

void tt_sql_srcset_free(tt_sql_srcset *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->v && i < s->n; i++)
        unload(s, &s->v[i]);
    if (s->cache) {
        size_t n;
        tt_sql_tables(&n);
        for (size_t i = 0; i < n; i++)
            if (s->cache[i])
                s->cache_free[i](s->cache[i]);
    }
    free(s->cache);
    free(s->cache_free);
    free(s->v);
    free(s->fallback);
    free(s);
}

size_t tt_sql_srcset_count(const tt_sql_srcset *s)
{
    return s->n;
}

bool tt_sql_srcset_rank(const tt_sql_srcset *s, size_t i, int64_t *rank)
{
    *rank = s->v[i].rank;
    return s->v[i].rank_known;
}

void tt_sql_srcset_need(tt_sql_srcset *s, unsigned needs)
{
    s->needs |= needs;
}

size_t tt_sql_srcset_loads(const tt_sql_srcset *s)
{
    return s->loads;
}

void *tt_sql_srcset_cache(tt_sql_srcset *s, const tt_sql_table *t,
                          void *(*build)(tt_sql_srcset *s, tt_error *err),
                          void (*free_fn)(void *state), tt_error *err)
{
    size_t row, n;
    void *state;
    if (!tt_sql_table_find(t->name, &row)) {
        tt_error_set(err, TT_ERR_USAGE, "sql: table %s is not registered", t->name);
        return NULL;
    }
    tt_sql_tables(&n);
    if (!s->cache) {
        s->cache = calloc(n ? n : 1, sizeof *s->cache);
        s->cache_free = calloc(n ? n : 1, sizeof *s->cache_free);
        if (!s->cache || !s->cache_free) {
            free(s->cache);
            free(s->cache_free);
            s->cache = NULL;
            s->cache_free = NULL;
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            return NULL;
        }
    }
    if (s->cache[row])
        return s->cache[row];
    if (!(state = build(s, err)))
        return NULL;
    s->cache[row] = state;
    s->cache_free[row] = free_fn;
    return state;
}

const tt_sql_src *tt_sql_srcset_peek(const tt_sql_srcset *s, size_t i)
{
    return s->v[i].tr ? &s->v[i].src : NULL;
}

/* The parts no statement reads. */
static unsigned skip_of(unsigned needs)
{
    unsigned skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS;
    if (needs & TT_SQLNEED_ARGS)
        skip &= ~(unsigned)TT_TRACE_NO_ARGS;
    if (needs & TT_SQLNEED_FLOWS)
        skip &= ~(unsigned)TT_TRACE_NO_FLOWS;
    if (needs & TT_SQLNEED_COUNTERS)
        skip &= ~(unsigned)TT_TRACE_NO_COUNTERS;
    return skip;
}

/* The window and lanes of source i, as report resolves them. */
static int resolve(tt_sql_srcset *s, size_t i, slot *sl, tt_error *err)
{
    const tt_window_spec *w = s->o.between ? &s->o.between[i] : s->o.window;
    sl->src.markers = s->o.markers ? s->o.markers[i] : NULL;
    if (w) {
        tt_sel sel;
        memset(&sel, 0, sizeof sel);
        tt_sel_window(sl->tr, w, &sel);
        sl->src.from = sel.from;
        /* [from, to) with the instants at an inclusive end kept: only an
         * open end (the trace's last end) is inclusive, and no event of
         * positive length starts there */
        sl->src.to = sel.to_inclusive && sel.to < INT64_MAX ? sel.to + 1 : sel.to;
    }
    if (s->o.lanes) {
        tt_laneset ls;
        tt_laneset_init(&ls);
        if (tt_laneset_match(sl->tr, s->o.lanes, &ls, err)) {
            tt_laneset_fini(&ls);
            return -1;
        }
        sl->lane_on = calloc(sl->tr->n_lanes ? sl->tr->n_lanes : 1, 1);
        if (!sl->lane_on) {
            tt_laneset_fini(&ls);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
        for (size_t k = 0; k < ls.n; k++)
            sl->lane_on[ls.v[k]] = 1;
        sl->src.lane_on = sl->lane_on;
        tt_laneset_fini(&ls);
    }
    return 0;
}

/* Unload the least recently used unpinned sources beyond limit. */
static void evict_to(tt_sql_srcset *s, size_t limit)
{
    while (s->loaded > limit) {
        slot *lru = NULL;
        for (size_t i = 0; i < s->n; i++)
            if (s->v[i].tr && !s->v[i].pins && !s->v[i].borrowed && (!lru || s->v[i].used < lru->used))
                lru = &s->v[i];
        if (!lru)
            return;   /* every loaded source is in use: go beyond keep */
        unload(s, lru);
    }
}

static void evict(tt_sql_srcset *s)
{
    evict_to(s, s->o.keep);
}

/* Does slot i need a load (again) for what the statements read? */
static bool must_load(tt_sql_srcset *s, size_t i, unsigned skip)
{
    slot *sl = &s->v[i];
    /* loaded without a part a statement reads: load it again */
    if (sl->tr && !sl->pins && !sl->borrowed && (sl->skip & ~skip))
        unload(s, sl);
    return !sl->tr;
}

/* Make tr (taken) the loaded trace of slot i. 0, or -1 with err set (tr
 * is then freed). */
static int adopt(tt_sql_srcset *s, size_t i, tt_trace *tr, unsigned skip, tt_error *err)
{
    slot *sl = &s->v[i];
    s->loads++;
    s->loaded++;
    sl->tr = tr;
    sl->skip = skip;
    sl->used = ++s->tick;
    if (tt_sql_src_init(&sl->src, tr, sl->path, err) || resolve(s, i, sl, err)) {
        if (sl->src.cache)
            tt_sql_src_fini(&sl->src);
        if (!sl->borrowed)
            tt_trace_free(tr);
        free(sl->lane_on);
        sl->tr = NULL;
        sl->lane_on = NULL;
        s->loaded--;
        return -1;
    }
    sl->src.ordinal = (uint32_t)i;
    sl->src.set = s;
    sl->src.rank = tt_report_rank(tr, sl->path, s->fallback ? s->fallback[i] : -1);
    sl->rank = sl->src.rank;
    sl->rank_known = true;
    return 0;
}

/* Load source i with those of ahead[0..n) that are not loaded, in one
 * batch of at most `keep` minus the sources in use. 0, or -1. */
static int load_batch(tt_sql_srcset *s, size_t i, const size_t *ahead, size_t n, unsigned skip,
                      tt_error *err)
{
    size_t busy = 0, m = 0, cap;
    size_t *idx;
    char **paths;
    tt_trace **out;
    int rc = 0;
    for (size_t k = 0; k < s->n; k++)
        busy += s->v[k].tr && s->v[k].pins;
    cap = s->o.keep > busy + 1 ? s->o.keep - busy : 1;
    idx = calloc(cap, sizeof *idx);
    paths = calloc(cap, sizeof *paths);
    out = calloc(cap, sizeof *out);
    if (!idx || !paths || !out) {
        free(idx);
        free(paths);
        free(out);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    idx[m++] = i;
    for (size_t k = 0; k < n && m < cap; k++)
        if (ahead[k] != i && must_load(s, ahead[k], skip))
            idx[m++] = ahead[k];
    for (size_t k = 0; k < m; k++)
        paths[k] = (char *)s->v[idx[k]].path;
    /* room first: at most `keep` loaded once the batch is in */
    evict_to(s, s->o.keep > m ? s->o.keep - m : 0);
    if (m == 1) {
        out[0] = s->o.load(s->o.load_ctx, i, paths[0], skip, err);
        rc = out[0] ? 0 : -1;
    } else {
        rc = s->o.load_many(s->o.load_ctx, paths, m, skip, out, err);
    }
    /* adopted in reverse, so that source i is the most recently used and
     * the batch's last the first to go */
    for (size_t k = m; rc == 0 && k-- > 0;)
        if (adopt(s, idx[k], out[k], skip, err)) {
            rc = -1;
            while (k-- > 0)
                tt_trace_free(out[k]);
        }
    free(idx);
    free(paths);
    free(out);
    return rc;
}

tt_sql_srcset *tt_sql_srcset_new_loaded(const tt_sql_loaded *v, size_t n,
                                        const tt_sql_srcset_opts *o, tt_error *err)
{
    tt_sql_srcset_opts lo = *o;
    tt_sql_srcset *s;
    lo.keep = n;   /* nothing is ever unloaded */
    lo.load = NULL;
    lo.load_many = NULL;
    if (!(s = calloc(1, sizeof *s)) || !(s->v = calloc(n ? n : 1, sizeof *s->v))) {
        tt_sql_srcset_free(s);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->n = n;
    s->o = lo;
    for (size_t i = 0; i < n; i++) {
        slot *sl = &s->v[i];
        sl->path = v[i].path;
        sl->borrowed = true;
        /* the trace is the caller's; a slot only frees it when not
         * borrowed, so dropping const here is safe */
        if (adopt(s, i, (tt_trace *)v[i].tr, 0, err)) {
            tt_sql_srcset_free(s);
            return NULL;
        }
        sl->src.rank = sl->rank = v[i].rank;
    }
    return s;
}

tt_sql_src *tt_sql_srcset_acquire_ahead(tt_sql_srcset *s, size_t i, const size_t *ahead,
                                        size_t n, tt_error *err)
{
    slot *sl = &s->v[i];
    unsigned skip = skip_of(s->needs);
    if (must_load(s, i, skip) &&
        load_batch(s, i, ahead, s->o.load_many ? n : 0, skip, err))
        return NULL;
    sl->pins++;
    sl->used = ++s->tick;
    evict(s);
    return &sl->src;
}

tt_sql_src *tt_sql_srcset_acquire(tt_sql_srcset *s, size_t i, tt_error *err)
{
    return tt_sql_srcset_acquire_ahead(s, i, NULL, 0, err);
}

void tt_sql_srcset_release(tt_sql_srcset *s, size_t i)
{
    if (s->v[i].pins)
        s->v[i].pins--;
    evict(s);
}
