/* evgroup.c - the events of a source grouped by name (sql/evgroup.h).
 *
 * The groups come in the order of their names' bytes (memcmp, then the
 * shorter first: SQLite's BINARY collation), so a GROUP BY name without
 * ORDER BY lists its groups as it did when SQLite sorted the rows.
 *
 * Ownership: the list and its array are owned by the caller (the
 * source's cache); the counts are freed before returning.
 */
#include "config.h"

#include "sql/evgroup.h"

#include <stdlib.h>
#include <string.h>

typedef struct name_key {
    const char *s;
    size_t      n;
    uint32_t    id;
} name_key;

static int cmp_key(const void *a, const void *b)
{
    const name_key *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    if (c)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

static bool kept(const tt_sql_src *s, uint32_t lane, const tt_event *e, unsigned kinds)
{
    return (kinds >> e->kind & 1u) && tt_sql_src_keeps(s, lane, e);
}

/* The bucket of e's name: its id, or n_ids (last) for an id the string
 * table does not hold (a broken trace: never out of bounds). */
static size_t bucket(const tt_event *e, size_t n_ids)
{
    return e->name < n_ids ? e->name : n_ids;
}

tt_sql_evgroup *tt_sql_evgroup_build(const tt_sql_src *s, unsigned kinds, tt_error *err)
{
    const tt_trace *tr = s->tr;
    size_t n_ids = tt_strtab_count(tr->strings), n = 0, n_keys = 0, pos = 0;
    tt_sql_evgroup *g = calloc(1, sizeof *g);
    /* at[b]: first the events in bucket b, then where they start in g->v */
    size_t *at = calloc(n_ids + 1, sizeof *at);
    name_key *keys = NULL;
    if (!g || !at)
        goto oom;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *e = &tr->lanes[l].ev[i];
            if (kept(s, l, e, kinds)) {
                at[bucket(e, n_ids)]++;
                n++;
            }
        }
    /* the names in use, by their bytes */
    for (size_t b = 0; b < n_ids; b++)
        n_keys += at[b] != 0;
    if (!(keys = malloc((n_keys ? n_keys : 1) * sizeof *keys)) ||
        !(g->v = malloc((n ? n : 1) * sizeof *g->v)))
        goto oom;
    n_keys = 0;
    for (size_t b = 0; b < n_ids; b++)
        if (at[b])
            keys[n_keys++] = (name_key){tt_str(tr, (uint32_t)b),
                                        tt_strtab_len(tr->strings, (uint32_t)b), (uint32_t)b};
    if (n_keys)
        qsort(keys, n_keys, sizeof *keys, cmp_key);
    for (size_t k = 0; k < n_keys; k++) {
        size_t c = at[keys[k].id];
        at[keys[k].id] = pos;
        pos += c;
    }
    at[n_ids] = pos;
    g->n = n;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *e = &tr->lanes[l].ev[i];
            if (kept(s, l, e, kinds))
                g->v[at[bucket(e, n_ids)]++] = (tt_evref){l, (uint32_t)i};
        }
    free(keys);
    free(at);
    return g;
oom:
    free(keys);
    free(at);
    tt_sql_evgroup_free(g);
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return NULL;
}

void tt_sql_evgroup_free(void *vg)
{
    tt_sql_evgroup *g = vg;
    if (!g)
        return;
    free(g->v);
    free(g);
}
