/* busy.c - union of intervals with running totals (see busy.h). */
#include "config.h"

#include "tui/busy.h"

#include <stdlib.h>
#include <string.h>

/* A list of disjoint sorted intervals being built. */
typedef struct ivl {
    tt_ns  *s, *e;
    size_t  n, cap;
} ivl;

static void ivl_free(ivl *v)
{
    free(v->s);
    free(v->e);
    memset(v, 0, sizeof *v);
}

static int ivl_grow(ivl *v, size_t want)
{
    size_t nc;
    tt_ns *ns, *ne;
    if (want <= v->cap)
        return 0;
    nc = v->cap ? v->cap * 2 : 64;
    while (nc < want)
        nc *= 2;
    ns = realloc(v->s, nc * sizeof *ns);
    if (!ns)
        return -1;
    v->s = ns;
    ne = realloc(v->e, nc * sizeof *ne);
    if (!ne)
        return -1;
    v->e = ne;
    v->cap = nc;
    return 0;
}

/* Add [s, e) after everything in v (s >= the last start): merged with the
 * last interval when they overlap or touch. */
static int ivl_add(ivl *v, tt_ns s, tt_ns e)
{
    if (v->n && s <= v->e[v->n - 1]) {
        if (e > v->e[v->n - 1])
            v->e[v->n - 1] = e;
        return 0;
    }
    if (ivl_grow(v, v->n + 1))
        return -1;
    v->s[v->n] = s;
    v->e[v->n] = e;
    v->n++;
    return 0;
}

/* The union of one lane's kept events: they come sorted by start (nested
 * ones too), so one sweep merges them. */
static int lane_union(const tt_trace *tr, uint32_t lane, tt_busy_keep_fn keep, void *ctx,
                      ivl *out)
{
    const tt_lane *ln = &tr->lanes[lane];
    for (size_t i = 0; i < ln->n; i++) {
        const tt_event *e = &ln->ev[i];
        if (e->dur <= 0 || (keep && !keep(ctx, lane, e)))
            continue;
        if (ivl_add(out, e->start, tt_event_end(e)))
            return -1;
    }
    return 0;
}

/* The union of two unions. */
static int merge(const ivl *a, const ivl *b, ivl *out)
{
    size_t i = 0, j = 0;
    out->n = 0;
    if (ivl_grow(out, a->n + b->n))
        return -1;
    while (i < a->n || j < b->n) {
        bool take_a = j >= b->n || (i < a->n && a->s[i] <= b->s[j]);
        if (take_a) {
            ivl_add(out, a->s[i], a->e[i]);   /* room reserved: cannot fail */
            i++;
        } else {
            ivl_add(out, b->s[j], b->e[j]);
            j++;
        }
    }
    return 0;
}

void tt_busy_init(tt_busy *b)
{
    memset(b, 0, sizeof *b);
}

void tt_busy_fini(tt_busy *b)
{
    free(b->s);
    free(b->e);
    free(b->cum);
    tt_busy_init(b);
}

int tt_busy_build(tt_busy *b, const tt_trace *tr, const uint32_t *lanes, size_t n,
                  tt_busy_keep_fn keep, void *ctx)
{
    ivl *parts = NULL;
    size_t np = n;
    int rc = -1;
    tt_busy_fini(b);
    if (n == 0)
        return 0;
    parts = calloc(n, sizeof *parts);
    if (!parts)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (lane_union(tr, lanes[i], keep, ctx, &parts[i]))
            goto out;
    /* merge pairwise, as a balanced tree: each event is copied log(lanes)
     * times */
    while (np > 1) {
        size_t k = 0;
        for (size_t i = 0; i + 1 < np; i += 2) {
            ivl m = {NULL, NULL, 0, 0};
            if (merge(&parts[i], &parts[i + 1], &m)) {
                ivl_free(&m);
                goto out;
            }
            ivl_free(&parts[i]);
            ivl_free(&parts[i + 1]);
            parts[k++] = m;
        }
        if (np % 2)
            parts[k++] = parts[np - 1];
        for (size_t i = k; i < np; i++)
            memset(&parts[i], 0, sizeof parts[i]);
        np = k;
    }
    b->n = parts[0].n;
    b->s = parts[0].s;
    b->e = parts[0].e;
    memset(&parts[0], 0, sizeof parts[0]);
    b->cum = malloc((b->n ? b->n : 1) * sizeof *b->cum);
    if (!b->cum)
        goto out;
    for (size_t i = 0; i < b->n; i++) {
        b->cum[i] = b->total;
        b->total += b->e[i] - b->s[i];
    }
    rc = 0;
out:
    for (size_t i = 0; i < n; i++)
        ivl_free(&parts[i]);
    free(parts);
    if (rc)
        tt_busy_fini(b);
    return rc;
}

tt_ns tt_busy_before(const tt_busy *b, tt_ns t)
{
    /* k = the number of intervals starting before t */
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->s[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    /* every interval before lo-1 ends before t; lo-1 may reach past it */
    return b->cum[lo - 1] + ((b->e[lo - 1] < t ? b->e[lo - 1] : t) - b->s[lo - 1]);
}
