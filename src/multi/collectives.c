/* collectives.c - collective matching across ranks (see collectives.h). */
#include "config.h"

#include "multi/collectives.h"

#include "analysis/classify.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

void tt_colls_init(tt_colls *c)
{
    memset(c, 0, sizeof *c);
}

void tt_colls_fini(tt_colls *c)
{
    for (size_t i = 0; i < c->n_names; i++)
        free(c->names[i]);
    free(c->names);
    free(c->v);
    tt_colls_init(c);
}

/* Index of a kernel name in the list's own table (names are shared across
 * ranks, whose string ids differ). */
static int name_index(tt_colls *c, const char *s, uint32_t *out)
{
    for (size_t i = c->n_names; i-- > 0;)
        if (strcmp(c->names[i], s) == 0) {
            *out = (uint32_t)i;
            return 0;
        }
    if (c->n_names == c->cap_names) {
        size_t nc = c->cap_names ? c->cap_names * 2 : 16;
        char **nn = realloc(c->names, nc * sizeof *nn);
        if (!nn)
            return -1;
        c->names = nn;
        c->cap_names = nc;
    }
    if (!(c->names[c->n_names] = strdup(s)))
        return -1;
    *out = (uint32_t)c->n_names++;
    return 0;
}

static int cmp_start(const void *pa, const void *pb, void *ctx)
{
    const tt_coll *a = pa, *b = pb;
    (void)ctx;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->ev.lane != b->ev.lane)
        return a->ev.lane < b->ev.lane ? -1 : 1;
    return a->ev.idx < b->ev.idx ? -1 : a->ev.idx > b->ev.idx;
}

int tt_colls_add(tt_colls *c, const tt_trace *tr, size_t rank, tt_ns offset, tt_error *err)
{
    tt_classifier cls;
    size_t first = c->n;
    uint32_t *seq = NULL;
    int rc = -1;
    if (tt_classifier_init(&cls, tr))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            tt_coll *x;
            if (tt_classifier_gpu(&cls, &ln->ev[i]) != TT_GPU_COMM)
                continue;
            if (c->n == c->cap) {
                size_t nc = c->cap ? c->cap * 2 : 256;
                tt_coll *nv = realloc(c->v, nc * sizeof *nv);
                if (!nv)
                    goto out;
                c->v = nv;
                c->cap = nc;
            }
            x = &c->v[c->n++];
            memset(x, 0, sizeof *x);
            if (name_index(c, tt_str(tr, ln->ev[i].name), &x->name))
                goto out;
            x->rank = rank;
            x->start = ln->ev[i].start + offset;
            x->dur = ln->ev[i].dur;
            x->ev.lane = l;
            x->ev.idx = (uint32_t)i;
        }
    }
    /* number each name's occurrences on this rank in time order */
    if (tt_sort(c->v + first, c->n - first, sizeof *c->v, cmp_start, NULL))
        goto out;
    seq = calloc(c->n_names + 1, sizeof *seq);
    if (!seq)
        goto out;
    for (size_t i = first; i < c->n; i++)
        c->v[i].seq = seq[c->v[i].name]++;
    rc = 0;
out:
    free(seq);
    tt_classifier_fini(&cls);
    if (rc)
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return rc;
}

static int cmp_key(const void *pa, const void *pb, void *ctx)
{
    const tt_coll *a = pa, *b = pb;
    (void)ctx;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* Order of the final list: by the collective's earliest start, then name
 * and sequence, then rank; the earliest start is kept in `offset` of the
 * sort key while sorting. */
typedef struct coll_sort {
    tt_ns   first;
    tt_coll c;
} coll_sort;

static int cmp_final(const void *pa, const void *pb, void *ctx)
{
    const coll_sort *a = pa, *b = pb;
    const tt_colls *c = ctx;
    int k;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    /* by name text, not table position: the order must not depend on the
     * order the ranks were read in (merge-reports recomputes it) */
    if (a->c.name != b->c.name && (k = strcmp(c->names[a->c.name], c->names[b->c.name])) != 0)
        return k;
    if (a->c.seq != b->c.seq)
        return a->c.seq < b->c.seq ? -1 : 1;
    return a->c.rank < b->c.rank ? -1 : a->c.rank > b->c.rank;
}

int tt_colls_match(tt_colls *c, tt_error *err)
{
    coll_sort *s;
    if (tt_sort(c->v, c->n, sizeof *c->v, cmp_key, NULL))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    s = malloc((c->n ? c->n : 1) * sizeof *s);
    if (!s)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < c->n;) {
        size_t j = i;
        tt_ns first = c->v[i].start, shortest = c->v[i].dur;
        while (j < c->n && c->v[j].name == c->v[i].name && c->v[j].seq == c->v[i].seq) {
            if (c->v[j].start < first)
                first = c->v[j].start;
            if (c->v[j].dur < shortest)
                shortest = c->v[j].dur;
            j++;
        }
        for (size_t k = i; k < j; k++) {
            c->v[k].ranks = (uint32_t)(j - i);
            c->v[k].offset = c->v[k].start - first;
            c->v[k].wait = c->v[k].dur - shortest;
            s[k].first = first;
            s[k].c = c->v[k];
        }
        i = j;
    }
    if (tt_sort(s, c->n, sizeof *s, cmp_final, c)) {
        free(s);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < c->n; i++)
        c->v[i] = s[i].c;
    free(s);
    return 0;
}
