/* collectives.c - collective matching across ranks (see collectives.h). */
#include "config.h"

#include "multi/collectives.h"

#include "analysis/classify.h"
#include "util/sort.h"

#include <cjson/cJSON.h>
#include <stdio.h>
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
    if (rank + 1 > c->n_ranks)
        c->n_ranks = rank + 1;
    {
        /* Kineto: "distributedInfo": {"rank": 0, "world_size": 128, ...} */
        const cJSON *di = tr->meta ? cJSON_GetObjectItemCaseSensitive(tr->meta, "distributedInfo")
                                   : NULL;
        const cJSON *ws = di ? cJSON_GetObjectItemCaseSensitive(di, "world_size") : NULL;
        if (cJSON_IsNumber(ws) && ws->valuedouble > (double)c->world_size &&
            ws->valuedouble < 9e15)
            c->world_size = (int64_t)ws->valuedouble;
    }
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
        size_t last = i;
        for (size_t k = i; k < j; k++) {
            c->v[k].ranks = (uint32_t)(j - i);
            c->v[k].offset = c->v[k].start - first;
            c->v[k].wait = c->v[k].dur - shortest;
            c->v[k].last = false;
            /* least wait; ties: the later start (entries are in rank
             * order, so among full ties the lower rank stays) */
            if (c->v[k].wait < c->v[last].wait ||
                (c->v[k].wait == c->v[last].wait && c->v[k].start > c->v[last].start))
                last = k;
        }
        if (j - i > 1)
            c->v[last].last = true;
        for (size_t k = i; k < j; k++) {
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

bool tt_coll_name_is_p2p(const char *name)
{
    static const char *const prefixes[] = {"ncclDevKernel_", "ncclKernel_"};
    static const char *const kinds[] = {"SendRecv", "Send", "Recv"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t pl = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], pl) != 0)
            continue;
        name += pl;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            size_t kl = strlen(kinds[k]);
            if (strncmp(name, kinds[k], kl) == 0 &&
                (name[kl] == '\0' || name[kl] == '_' || name[kl] == '('))
                return true;
        }
        return false;
    }
    return false;
}

void tt_colls_facts_of(const tt_colls *c, tt_colls_facts *f)
{
    tt_colls_facts_range(c, 0, c->n, f);
}

void tt_colls_facts_range(const tt_colls *c, size_t from, size_t to, tt_colls_facts *f)
{
    memset(f, 0, sizeof *f);
    f->ranks = c->n_ranks;
    f->world_size = c->world_size;
    for (size_t i = from; i < to;) {
        size_t j = i, last = i;
        tt_ns latest_start, earliest_end;
        while (j < to && c->v[j].name == c->v[i].name && c->v[j].seq == c->v[i].seq)
            j++;
        f->total++;
        if (tt_coll_name_is_p2p(c->names[c->v[i].name]))
            f->p2p++;
        if (j - i > 1) {
            f->matched++;
            latest_start = c->v[i].start;
            earliest_end = c->v[i].start + c->v[i].dur;
            for (size_t k = i; k < j; k++) {
                if (c->v[k].last)
                    last = k;
                if (c->v[k].start > latest_start)
                    latest_start = c->v[k].start;
                if (c->v[k].start + c->v[k].dur < earliest_end)
                    earliest_end = c->v[k].start + c->v[k].dur;
            }
            if (latest_start > c->v[last].start)
                f->contradict++;
            if (latest_start >= earliest_end)
                f->disjoint++;
        }
        i = j;
    }
}

/* Append one sentence to buf (a '\n' before all but the first). */
static void note_add(char *buf, size_t cap, size_t *n, const char *text)
{
    size_t o = strlen(buf);
    if (o + 2 >= cap)
        return;
    snprintf(buf + o, cap - o, "%s%s", *n ? "\n" : "", text);
    (*n)++;
}

size_t tt_colls_notes(const tt_colls_facts *f, char *buf, size_t cap)
{
    char s[512];
    size_t n = 0;
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (f->contradict || f->disjoint) {
        char also[160] = "";
        if (f->disjoint)
            snprintf(also, sizeof also, "; at %zu the ranks' kernels do not even overlap in time",
                     f->disjoint);
        snprintf(s, sizeof s,
                 "start offsets contradict the in-kernel waits at %zu of %zu collectives (a rank "
                 "starts after the one that waits least)%s: the clocks are %s aligned, so the last "
                 "to arrive is the rank with the least in-kernel wait, and Start Offset is not "
                 "an arrival time",
                 f->contradict, f->matched, also, f->disjoint ? "not" : "probably not");
        note_add(buf, cap, &n, s);
    }
    if (f->world_size > 0 && (uint64_t)f->world_size > f->ranks) {
        snprintf(s, sizeof s,
                 "the traces' world_size is %lld but %zu rank%s loaded: waits and the last to "
                 "arrive are among the loaded ranks only",
                 (long long)f->world_size, f->ranks, f->ranks == 1 ? " is" : "s are");
        note_add(buf, cap, &n, s);
    }
    if (f->p2p) {
        snprintf(s, sizeof s,
                 "%zu of %zu collectives are point-to-point (SendRecv, Send, Recv): a rank waits "
                 "there for its peer only, so \"last to arrive\" means little, and the straggler "
                 "rule does not count them",
                 f->p2p, f->total);
        note_add(buf, cap, &n, s);
    }
    return n;
}
