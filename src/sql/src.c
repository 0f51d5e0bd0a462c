/* src.c - the sources a query reads (sql/sqltab.h): values, the window and
 * lane test, and the per-source cache of table state.
 *
 * Ownership: a source's cache slots belong to the source; each is freed
 * with the free function its table gave when the source is finished.
 */
#include "sql/sqltab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void tt_sql_set_text(tt_sql_val *v, const char *s)
{
    if (!s) {
        v->type = TT_SQL_NULL;
        return;
    }
    tt_sql_set_textn(v, s, strlen(s));
}

void tt_sql_set_textn(tt_sql_val *v, const char *s, size_t n)
{
    v->type = TT_SQL_TEXT;
    v->s = s;
    v->n = n;
}

void tt_sql_set_str(tt_sql_val *v, const tt_trace *tr, uint32_t id, bool null0)
{
    if (id == TT_STR_NONE && null0) {
        v->type = TT_SQL_NULL;
        return;
    }
    tt_sql_set_textn(v, tt_str(tr, id), tt_strtab_len(tr->strings, id));
}

void tt_sql_set_intkey(tt_sql_val *v, const char *s)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*s && !*end && errno == 0)
        tt_sql_set_int(v, x);
    else
        tt_sql_set_null(v);
}

bool tt_sql_src_keeps(const tt_sql_src *s, uint32_t lane, const tt_event *e)
{
    if (s->lane_on && !s->lane_on[lane])
        return false;
    if (s->from == INT64_MIN && s->to == INT64_MAX)
        return true;
    tt_ns end = tt_event_end(e);
    if (e->dur == 0)
        return e->start >= s->from && e->start < s->to;
    return e->start < s->to && end > s->from;
}

void *tt_sql_src_cache(const tt_sql_src *s, const tt_sql_table *t,
                       void *(*build)(const tt_sql_src *s, tt_error *err),
                       void (*free_fn)(void *state), tt_error *err)
{
    size_t row;
    if (!tt_sql_table_find(t->name, &row)) {
        tt_error_set(err, TT_ERR_USAGE, "sql: table %s is not registered", t->name);
        return NULL;
    }
    if (s->cache[row])
        return s->cache[row];
    void *state = build(s, err);
    if (!state)
        return NULL;
    /* The source is const for the tables; its cache slots are the one
     * thing they fill, through here. */
    s->cache[row] = state;
    s->cache_free[row] = free_fn;
    return state;
}

int tt_sql_src_init(tt_sql_src *s, const tt_trace *tr, const char *path, tt_error *err)
{
    size_t n;
    tt_sql_tables(&n);
    memset(s, 0, sizeof *s);
    s->tr = tr;
    s->rank = tr->rank;
    s->path = path;
    s->from = INT64_MIN;
    s->to = INT64_MAX;
    s->cache = calloc(n ? n : 1, sizeof *s->cache);
    s->cache_free = calloc(n ? n : 1, sizeof *s->cache_free);
    s->lane_first = malloc((tr->n_lanes + 1) * sizeof *s->lane_first);
    s->counter_first = malloc((tr->n_counters + 1) * sizeof *s->counter_first);
    if (!s->cache || !s->cache_free || !s->lane_first || !s->counter_first) {
        tt_sql_src_fini(s);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    s->lane_first[0] = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        s->lane_first[l + 1] = s->lane_first[l] + (int64_t)tr->lanes[l].n;
    s->counter_first[0] = 0;
    for (uint32_t c = 0; c < tr->n_counters; c++)
        s->counter_first[c + 1] = s->counter_first[c] + (int64_t)tr->counters[c].n;
    return 0;
}

void tt_sql_cons_narrow_eq(const tt_sql_cons *cons, size_t n, int col, int64_t base,
                           size_t *pos, size_t *end)
{
    for (size_t i = 0; i < n; i++) {
        if (cons[i].col != col || cons[i].op != TT_SQLOP_EQ)
            continue;
        /* v - base without overflow: v below base is no row */
        if (cons[i].v < base || (uint64_t)(cons[i].v - base) < *pos ||
            (uint64_t)(cons[i].v - base) >= *end) {
            *pos = *end;
        } else {
            *pos = (size_t)(cons[i].v - base);
            *end = *pos + 1;
        }
    }
}

bool tt_sql_slice_ref(const tt_sql_src *s, int64_t v, tt_evref *out)
{
    uint32_t n = s->tr->n_lanes;
    if (v < 0 || v >= s->lane_first[n])
        return false;
    /* the last lane whose first id is <= v (lanes may be empty) */
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->lane_first[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    out->lane = lo;
    out->idx = (uint32_t)(v - s->lane_first[lo]);
    return true;
}

void tt_sql_src_fini(tt_sql_src *s)
{
    size_t n;
    tt_sql_tables(&n);
    if (s->cache && s->cache_free)
        for (size_t i = 0; i < n; i++)
            if (s->cache[i] && s->cache_free[i])
                s->cache_free[i](s->cache[i]);
    free(s->cache);
    free(s->cache_free);
    free(s->lane_first);
    free(s->counter_first);
    s->cache = NULL;
    s->cache_free = NULL;
    s->lane_first = NULL;
    s->counter_first = NULL;
}
