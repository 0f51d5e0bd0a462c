/* diff.c - two name -> (count, total) tables and what changed between them
 * (see diff.h). A side keeps its names interned in a string table of its
 * own, its sums in an array indexed by the name's id, and the "(none)" row
 * apart (an empty name is a name, not the none row); a diff interns the
 * (mapped) names of both sides in one more table that its rows point into.
 */
#include "config.h"

#include "analysis/diff.h"

#include "analysis/attrib.h"
#include "analysis/kernels.h"
#include "analysis/operators.h"
#include "analysis/stats.h"
#include "util/sort.h"
#include "util/strtab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct side_sum {
    uint64_t count;
    int64_t  total;
    bool     used;      /* a side's row exists (it may add up to zero) */
} side_sum;

struct tt_diff_side {
    tt_strtab *names;
    side_sum  *sums;        /* indexed by name id */
    size_t     cap;
    uint32_t  *order;       /* ids in first-added order */
    size_t     n, cap_order;
    bool       has_none;
    side_sum   none;
    int64_t    total;
    bool       device;      /* operators: totals are device totals */
};

static const char *const status_names[TT_DIFF_N_STATUS] = {"added", "deleted", "increased",
                                                           "decreased", "unchanged"};
static const char *const kind_names[] = {"ops", "kernels", "operators"};

const char *tt_diff_status_name(tt_diff_status s)
{
    return (unsigned)s < TT_DIFF_N_STATUS ? status_names[s] : "?";
}

const char *tt_diff_kind_name(tt_diff_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

int tt_diff_kind_parse(const char *s, tt_diff_kind *k)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (!strcmp(s, kind_names[i])) {
            *k = (tt_diff_kind)i;
            return 0;
        }
    return -1;
}

/* ---------------------------------------------------------------- sides */

tt_diff_side *tt_diff_side_new(void)
{
    tt_diff_side *s = calloc(1, sizeof *s);
    if (s && !(s->names = tt_strtab_new())) {
        free(s);
        return NULL;
    }
    return s;
}

void tt_diff_side_free(tt_diff_side *s)
{
    if (!s)
        return;
    tt_strtab_free(s->names);
    free(s->sums);
    free(s->order);
    free(s);
}

/* The sums of name id `id`, the array grown to hold it; NULL on OOM. */
static side_sum *sum_at(tt_diff_side *s, uint32_t id)
{
    if (id >= s->cap) {
        size_t nc = s->cap ? s->cap : 64;
        side_sum *ns;
        while (nc <= id)
            nc *= 2;
        if (!(ns = realloc(s->sums, nc * sizeof *ns)))
            return NULL;
        memset(ns + s->cap, 0, (nc - s->cap) * sizeof *ns);
        s->sums = ns;
        s->cap = nc;
    }
    return &s->sums[id];
}

/* The row of a name given by its bytes (NULL: the none row), made on
 * first use, its name id in *id (unless NULL). NULL on OOM. */
static side_sum *side_row(tt_diff_side *s, const char *name, size_t len, uint32_t *id_out)
{
    side_sum *r;
    uint32_t id;
    if (!name) {
        s->has_none = true;
        return &s->none;
    }
    /* id 0 is the table's empty string: a real name here */
    if ((id = tt_strtab_intern(s->names, name, len)) == TT_STR_ERROR || !(r = sum_at(s, id)))
        return NULL;
    if (id_out)
        *id_out = id;
    if (!r->used) {
        /* first time: keep the order rows came in */
        if (s->n == s->cap_order) {
            size_t nc = s->cap_order ? s->cap_order * 2 : 64;
            uint32_t *no = realloc(s->order, nc * sizeof *no);
            if (!no)
                return NULL;
            s->order = no;
            s->cap_order = nc;
        }
        s->order[s->n++] = id;
        r->used = true;
    }
    return r;
}

/* Add to a name given by its bytes. 0, or -1 on OOM. */
static int side_add_n(tt_diff_side *s, const char *name, size_t len, uint64_t count,
                      int64_t total)
{
    side_sum *r = side_row(s, name, len, NULL);
    if (!r)
        return -1;
    r->count += count;
    r->total += total;
    s->total += total;
    return 0;
}

int tt_diff_side_add(tt_diff_side *s, const char *name, uint64_t count, int64_t total,
                     tt_error *err)
{
    if (side_add_n(s, name, name ? strlen(name) : 0, count, total))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

size_t tt_diff_side_count(const tt_diff_side *s)
{
    return s->n + (s->has_none ? 1 : 0);
}

int64_t tt_diff_side_total(const tt_diff_side *s)
{
    return s->total;
}

bool tt_diff_side_device(const tt_diff_side *s)
{
    return s->device;
}

/* ops: the breakdown by key (name by default), as report --kind ops. */
static int side_ops(const tt_trace *tr, const tt_sel *sel, const tt_key *key, tt_diff_side *s,
                    tt_error *err)
{
    tt_key name_key;
    tt_breakdown *b;
    int rc = 0;
    if (!key) {
        memset(&name_key, 0, sizeof name_key);
        name_key.kind = TT_KEY_NAME;
        key = &name_key;
    }
    if (tt_breakdown_compute(tr, sel, key, &b, err))
        return -1;
    for (size_t i = 0; i < b->n && !rc; i++) {
        const tt_brk_row *r = &b->rows[i];
        rc = tt_diff_side_add(s, r->none ? NULL : r->label, r->d.n, r->d.total, err);
    }
    tt_breakdown_free(b);
    return rc;
}

/* kernels: the per-name sums of report --kind kernels (analysis/kernels.h). */
static int side_kernels(const tt_trace *tr, const tt_sel *sel, tt_diff_side *s, tt_error *err)
{
    const tt_attrib *a = tt_attrib_get(tr, err);
    tt_kernel_sums ks;
    int rc = 0;
    if (!a || tt_kernel_sums_compute(tr, a, sel, &ks, err))
        return -1;
    for (size_t i = 0; i < ks.n && !rc; i++) {
        const tt_kernel_sum *k = &ks.by_name[ks.names[i]];
        rc = tt_diff_side_add(s, tt_str(tr, ks.names[i]), k->calls, k->total, err);
    }
    tt_kernel_sums_fini(&ks);
    return rc;
}

/* operators: calls and Device Total (Host Total without launch links) by
 * name, the sums of report --kind operators (analysis/operators.h). */
static int side_operators(const tt_trace *tr, const tt_sel *sel, tt_diff_side *s, tt_error *err)
{
    const tt_attrib *a = tt_attrib_get(tr, err);
    tt_op_inst *ops = NULL;
    tt_op_times *t = NULL;
    uint32_t *seen = NULL;
    size_t n = 0, n_seen = 0;
    uint32_t n_str = tt_strtab_count(tr->strings);
    int rc = -1;
    if (!a)
        return -1;
    s->device = tt_attrib_has_links(a);
    if (tt_operators_collect(tr, a, sel, &ops, &n, err))
        return -1;
    if (!(t = calloc(n_str ? n_str : 1, sizeof *t)) ||
        !(seen = malloc((n ? n : 1) * sizeof *seen))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t name = tt_trace_event(tr, ops[i].ev)->name;
        if (!t[name].calls)
            seen[n_seen++] = name;
        tt_op_times_add(&t[name], tr, &ops[i]);
    }
    rc = 0;
    for (size_t i = 0; i < n_seen && !rc; i++) {
        const tt_op_times *o = &t[seen[i]];
        rc = tt_diff_side_add(s, tt_str(tr, seen[i]), o->calls, s->device ? o->dtotal : o->htotal,
                              err);
    }
out:
    free(ops);
    free(t);
    free(seen);
    return rc;
}

int tt_diff_side_compute(const tt_trace *tr, const tt_sel *sel, tt_diff_kind kind,
                         const tt_key *key, tt_diff_side **out, tt_error *err)
{
    tt_diff_side *s;
    int rc;
    *out = NULL;
    if (kind != TT_DIFF_OPS && key && key->kind != TT_KEY_NAME)
        return tt_error_set(err, TT_ERR_USAGE, "--by applies to --kind ops only"), -1;
    if (!(s = tt_diff_side_new()))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    switch (kind) {
    case TT_DIFF_OPS: rc = side_ops(tr, sel, key, s, err); break;
    case TT_DIFF_KERNELS: rc = side_kernels(tr, sel, s, err); break;
    case TT_DIFF_OPERATORS: rc = side_operators(tr, sel, s, err); break;
    default: rc = (tt_error_set(err, TT_ERR_USAGE, "unknown diff kind"), -1); break;
    }
    if (rc) {
        tt_diff_side_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* ----------------------------------------------------------------- diff */

/* Merging: the (mapped) names of both sides are rows of one more side, u;
 * ids[i] is the row in u of side s's i-th name. 0, or -1 on OOM. */
static int merge_names(tt_diff_side *u, const tt_diff_side *s, tt_diff_name_map map,
                       uint32_t *ids)
{
    char small[512], *buf = small;
    size_t cap = sizeof small;
    int rc = 0;
    if (s->has_none && !side_row(u, NULL, 0, NULL))
        return -1;
    for (size_t i = 0; i < s->n && !rc; i++) {
        const char *nm = tt_strtab_get(s->names, s->order[i]);
        size_t len = tt_strtab_len(s->names, s->order[i]);
        if (map) {
            size_t want = map(nm, buf, cap);
            if (want >= cap) {
                char *nb = malloc(want + 1);
                if (!nb) {
                    rc = -1;
                    break;
                }
                if (buf != small)
                    free(buf);
                buf = nb;
                cap = want + 1;
                want = map(nm, buf, cap);
                if (want >= cap)
                    want = cap - 1;   /* a map that keeps growing: take what it wrote */
            }
            nm = buf;
            len = want;
        }
        if (!side_row(u, nm, len, &ids[i]))
            rc = -1;
    }
    if (buf != small)
        free(buf);
    return rc;
}

/* Add side s's sums into sums (indexed by u's ids). */
static void merge_sums(const tt_diff_side *s, const uint32_t *ids, side_sum *sums,
                       side_sum *none)
{
    for (size_t i = 0; i < s->n; i++) {
        sums[ids[i]].count += s->sums[s->order[i]].count;
        sums[ids[i]].total += s->sums[s->order[i]].total;
    }
    *none = s->none;
}

static void row_fill(tt_diff_row *r, const char *name, side_sum a, side_sum b)
{
    r->name = name;
    r->count_a = a.count;
    r->count_b = b.count;
    r->total_a = a.total;
    r->total_b = b.total;
    r->delta = b.total - a.total;
    r->delta_pct = a.total != 0 ? 100.0 * (double)r->delta / (double)a.total : NAN;
    r->avg_a = a.count ? (double)a.total / (double)a.count : NAN;
    r->avg_b = b.count ? (double)b.total / (double)b.count : NAN;
    if (a.count == 0)
        r->status = TT_DIFF_ADDED;
    else if (b.count == 0)
        r->status = TT_DIFF_DELETED;
    else if (b.count > a.count)
        r->status = TT_DIFF_INCREASED;
    else if (b.count < a.count)
        r->status = TT_DIFF_DECREASED;
    else
        r->status = TT_DIFF_UNCHANGED;
}

static uint64_t abs64(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const tt_diff_row *a = pa, *b = pb;
    uint64_t x = abs64(a->delta), y = abs64(b->delta);
    (void)ctx;
    if (x != y)
        return x < y ? 1 : -1;
    if (!a->name || !b->name)
        return (a->name == NULL) - (b->name == NULL);
    return strcmp(a->name, b->name);
}

int tt_diff_compute(const tt_diff_side *a, const tt_diff_side *b, tt_diff_name_map map,
                    tt_diff **out, tt_error *err)
{
    tt_diff_side *u = tt_diff_side_new();
    uint32_t *ida = malloc((a->n ? a->n : 1) * sizeof *ida);
    uint32_t *idb = malloc((b->n ? b->n : 1) * sizeof *idb);
    side_sum *sa = NULL, *sb = NULL, na, nb;
    tt_diff *d = NULL;
    int rc = -1;
    *out = NULL;
    if (!u || !ida || !idb || merge_names(u, a, map, ida) || merge_names(u, b, map, idb) ||
        !(sa = calloc(u->cap ? u->cap : 1, sizeof *sa)) ||
        !(sb = calloc(u->cap ? u->cap : 1, sizeof *sb)) || !(d = calloc(1, sizeof *d)) ||
        !(d->rows = malloc((u->n + 1) * sizeof *d->rows)))
        goto out;
    merge_sums(a, ida, sa, &na);
    merge_sums(b, idb, sb, &nb);
    for (size_t i = 0; i < u->n; i++) {
        uint32_t id = u->order[i];
        row_fill(&d->rows[d->n++], tt_strtab_get(u->names, id), sa[id], sb[id]);
    }
    if (u->has_none)
        row_fill(&d->rows[d->n++], NULL, na, nb);
    for (size_t i = 0; i < d->n; i++) {
        const tt_diff_row *r = &d->rows[i];
        d->sum_a += r->total_a;
        d->sum_b += r->total_b;
        d->count_a += r->count_a;
        d->count_b += r->count_b;
        d->n_status[r->status]++;
    }
    if (tt_sort(d->rows, d->n, sizeof *d->rows, cmp_rows, NULL))
        goto out;
    d->names = u->names;   /* the rows' names live on in the diff */
    u->names = NULL;
    *out = d;
    d = NULL;
    rc = 0;
out:
    if (rc)
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tt_diff_free(d);
    tt_diff_side_free(u);
    free(ida);
    free(idb);
    free(sa);
    free(sb);
    return rc;
}

void tt_diff_free(tt_diff *d)
{
    if (!d)
        return;
    free(d->rows);
    tt_strtab_free(d->names);
    free(d);
}

size_t tt_diff_common(const tt_diff *d)
{
    return d->n_status[TT_DIFF_INCREASED] + d->n_status[TT_DIFF_DECREASED] +
           d->n_status[TT_DIFF_UNCHANGED];
}
