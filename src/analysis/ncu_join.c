/* ncu_join.c - Nsight Compute metrics joined to a timeline's kernels (see
 * ncu_join.h). */
#include "config.h"

#include "analysis/ncu_join.h"

#include "analysis/argvals.h"
#include "analysis/attrib.h"
#include "analysis/kernels.h"
#include "analysis/ncu_kernels.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX 256

/* A matched event and its profiled kernel (index in kernels). */
typedef struct join_pair {
    tt_evref ev;
    uint32_t k;
} join_pair;

typedef struct ncu_join {
    tt_trace_aux      aux;        /* first: tr->aux_ncu points here */
    tt_trace         *ncu;        /* owned */
    const cJSON     **kernels;    /* ncu's kernels, by ID */
    size_t            n_kernels;
    join_pair        *pairs;      /* sorted by (lane, idx) */
    size_t            n_pairs;
    tt_ncu_join_stats st;
} ncu_join;

static void join_free(tt_trace_aux *aux)
{
    ncu_join *j = (ncu_join *)aux;
    tt_trace_free(j->ncu);
    free(j->kernels);
    free(j->pairs);
    free(j);
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Past the group opened at s[i] ('<', '(', '[', '{'): the index after its
 * closing bracket, or n when it never closes (a name cut short). Inside
 * parentheses '<' and '>' are not brackets (operator<, a -> b). */
static size_t skip_group(const char *s, size_t i, size_t n)
{
    char stack[64];
    size_t depth = 0;
    for (; i < n; i++) {
        char c = s[i], top = depth ? stack[depth - 1] : 0;
        if (c == '(' || c == '[' || c == '{' || (c == '<' && top != '(')) {
            if (depth == sizeof stack)
                return n;
            stack[depth++] = c;
        } else if ((c == ')' && top == '(') || (c == ']' && top == '[') ||
                   (c == '}' && top == '{') || (c == '>' && top == '<')) {
            if (--depth == 0)
                return i + 1;
        }
    }
    return n;
}

size_t tt_ncu_name_key(const char *name, char *out, size_t cap)
{
    size_t n = strlen(name), i = 0, ks = 0, kn = 0;
    while (i < n) {
        char c = name[i];
        if (ident_char(c)) {
            size_t s = i;
            while (i < n && ident_char(name[i]))
                i++;
            ks = s;
            kn = i - s;
        } else if (c == '<' || c == '[' || c == '{') {
            i = skip_group(name, i, n);
        } else if (c == '(') {
            size_t e = skip_group(name, i, n);
            /* "(anonymous namespace)::" is part of the qualified name */
            if (e + 1 < n && name[e] == ':' && name[e + 1] == ':') {
                i = e;
                continue;
            }
            break;   /* the parameter list */
        } else {
            i++;     /* spaces, "::", '*', a stray '>' ("unnamed>::") */
        }
    }
    if (cap) {
        size_t m = kn < cap - 1 ? kn : cap - 1;
        memcpy(out, name + ks, m);
        out[m] = '\0';
    }
    return kn;
}

/* Up to three sizes from "(256, 1, 1)" or "[256,1,1]" into v; how many. */
static int shape_parse(const char *t, long long v[3])
{
    int n = 0;
    if (!t)
        return 0;
    while (*t && n < 3) {
        if (*t >= '0' && *t <= '9') {
            char *end;
            v[n++] = strtoll(t, &end, 10);
            t = end;
        } else {
            t++;
        }
    }
    return n;
}

/* One side's launch: its key, its order and what it is. */
typedef struct launch {
    uint32_t key;        /* index into the keys table */
    uint64_t order;      /* position in launch order */
    uint32_t who;        /* ncu: kernel index; timeline: index into evs */
    bool     has_shape;
    long long shape[6];  /* grid xyz, block xyz */
} launch;

static int cmp_launch(const void *pa, const void *pb, void *ctx)
{
    const launch *a = pa, *b = pb;
    (void)ctx;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    /* ties of start: lane, then position (the order kernels were collected) */
    return a->who < b->who ? -1 : a->who > b->who;
}

static int cmp_pair(const void *pa, const void *pb)
{
    const join_pair *a = pa, *b = pb;
    if (a->ev.lane != b->ev.lane)
        return a->ev.lane < b->ev.lane ? -1 : 1;
    return a->ev.idx < b->ev.idx ? -1 : a->ev.idx > b->ev.idx;
}

static int cmp_kernel_id(const void *pa, const void *pb)
{
    const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
    double ia = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "id"));
    double ib = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "id"));
    return ia < ib ? -1 : ia > ib;
}

/* Interned name keys: a hash of the text to an index, texts kept. */
typedef struct keytab {
    tt_u64map by_hash;   /* FNV-1a of the key -> index + 1 */
    char    (*text)[KEY_MAX];
    size_t    n, cap;
} keytab;

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* Index of key text k (added when new; a hash collision is resolved by
 * probing the next hash), or -1 on OOM. add false: -2 when absent. */
static int64_t keytab_get(keytab *t, const char *k, bool add)
{
    uint64_t h = fnv(k);
    for (;; h++) {
        uint32_t *slot = tt_u64map_get(&t->by_hash, h);
        if (slot && strcmp(t->text[*slot - 1], k) == 0)
            return (int64_t)*slot - 1;
        if (slot)
            continue;
        if (!add)
            return -2;
        if (t->n == t->cap) {
            size_t nc = t->cap ? t->cap * 2 : 64;
            void *nt = realloc(t->text, nc * sizeof *t->text);
            if (!nt)
                return -1;
            t->text = nt;
            t->cap = nc;
        }
        snprintf(t->text[t->n], KEY_MAX, "%s", k);
        if (tt_u64map_put(&t->by_hash, h, (uint32_t)(t->n + 1)))
            return -1;
        return (int64_t)t->n++;
    }
}

/* Grid and block of the i-th kernel asked (keys of timeline_launches):
 * Kineto's "grid" and "block" [x, y, z], else nsys' gridX ... blockZ. */
static bool timeline_shape(const tt_argvals *av, size_t i, long long s[6])
{
    long long v[3];
    if (shape_parse(tt_argvals_get(av, i, 0, NULL), s) == 3 &&
        shape_parse(tt_argvals_get(av, i, 1, NULL), s + 3) == 3)
        return true;
    for (size_t d = 0; d < 6; d++) {
        if (shape_parse(tt_argvals_get(av, i, 2 + d, NULL), v) != 1)
            return false;
        s[d] = v[0];
    }
    return true;
}

/* The timeline's launches with a key the ncu file has (*tl, *n_tl), and
 * how many kernels the timeline has. 0, or -1 with err set. */
static int timeline_launches(const tt_trace *tr, keytab *kt, launch **tl, size_t *n_tl,
                             size_t *n_kernels, tt_evref **evs_out, tt_error *err)
{
    static const char *const keys[] = {"grid",  "block",  "gridX",  "gridY",
                                       "gridZ", "blockX", "blockY", "blockZ"};
    const tt_attrib *a = tt_attrib_get(tr, err);
    tt_sel sel;
    tt_evref *ev = NULL;
    const tt_event **evp = NULL;
    tt_u64map name_key;   /* name string id -> key index + 2 (1: no such key) */
    tt_argvals av;
    size_t n = 0;
    bool by_corr = true;
    int rc = -1;

    *tl = NULL;
    *n_tl = 0;
    memset(&av, 0, sizeof av);
    tt_u64map_init(&name_key);
    if (!a)
        return -1;
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    if (tt_kernels_collect(tr, a, &sel, &ev, &n, err))
        return -1;
    *n_kernels = n;
    if (!(evp = malloc((n ? n : 1) * sizeof *evp)) || !(*tl = malloc((n ? n : 1) * sizeof **tl)))
        goto oom;
    for (size_t i = 0; i < n; i++) {
        evp[i] = tt_trace_event(tr, ev[i]);
        if (!evp[i]->corr)
            by_corr = false;
    }
    if (tt_argvals_fetch(tr, evp, n, keys, sizeof keys / sizeof keys[0], false, &av, err))
        goto out;
    for (size_t i = 0; i < n; i++) {
        const tt_event *e = evp[i];
        uint32_t *slot = tt_u64map_get(&name_key, e->name);
        int64_t k;
        launch *l;
        if (slot) {
            k = (int64_t)*slot - 2;
        } else {
            char key[KEY_MAX];
            tt_ncu_name_key(tt_str(tr, e->name), key, sizeof key);
            k = keytab_get(kt, key, false);
            if (k == -1 || tt_u64map_put(&name_key, e->name, (uint32_t)(k + 2)))
                goto oom;
        }
        if (k < 0)
            continue;   /* a kernel ncu did not profile */
        l = &(*tl)[(*n_tl)++];
        memset(l, 0, sizeof *l);
        l->key = (uint32_t)k;
        l->who = (uint32_t)i;
        /* launch order: the host's (correlation ids), else start, then lane
         * and position (cmp_launch) */
        l->order = by_corr ? e->corr : (uint64_t)(e->start - tr->t0);
        l->has_shape = timeline_shape(&av, i, l->shape);
    }
    rc = 0;
    goto out;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    tt_argvals_fini(&av);
    tt_u64map_fini(&name_key);
    free(evp);
    if (rc) {
        free(*tl);
        *tl = NULL;
        *n_tl = 0;
        free(ev);
        ev = NULL;
    }
    *evs_out = ev;
    return rc;
}

int tt_ncu_join_attach(tt_trace *tr, tt_trace *ncu, tt_error *err)
{
    const cJSON *top = ncu && ncu->meta ? cJSON_GetObjectItemCaseSensitive(ncu->meta, "ncu") : NULL;
    const cJSON *ks = top ? cJSON_GetObjectItemCaseSensitive(top, "kernels") : NULL, *k;
    ncu_join *j = NULL;
    keytab kt;
    launch *nl = NULL, *tl = NULL;
    tt_evref *evs = NULL;
    size_t n_tl = 0, i, t;
    char key[KEY_MAX];

    memset(&kt, 0, sizeof kt);
    tt_u64map_init(&kt.by_hash);
    if (!ncu || !tt_ncu_present(ncu)) {
        tt_error_set(err, TT_ERR_FORMAT,
                     "--metrics: not an Nsight Compute table (ncu --csv, details or raw page)");
        goto fail;
    }
    if (!(j = calloc(1, sizeof *j)))
        goto oom;
    j->aux.free_fn = join_free;
    j->ncu = ncu;
    ncu = NULL;
    j->st.profiled = (size_t)cJSON_GetArraySize(ks);
    if (!(j->kernels = malloc((j->st.profiled ? j->st.profiled : 1) * sizeof *j->kernels)) ||
        !(nl = calloc(j->st.profiled ? j->st.profiled : 1, sizeof *nl)))
        goto oom;
    cJSON_ArrayForEach(k, ks) j->kernels[j->n_kernels++] = k;
    /* ncu's ID order is the order it met the launches */
    qsort(j->kernels, j->n_kernels, sizeof *j->kernels, cmp_kernel_id);
    for (i = 0; i < j->n_kernels; i++) {
        const cJSON *kk = j->kernels[i];
        const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(kk, "name"));
        int64_t ki;
        tt_ncu_name_key(nm ? nm : "", key, sizeof key);
        if ((ki = keytab_get(&kt, key, true)) < 0)
            goto oom;
        nl[i].key = (uint32_t)ki;
        nl[i].order = i;
        nl[i].who = (uint32_t)i;
        nl[i].has_shape =
            shape_parse(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(kk, "grid")),
                        nl[i].shape) == 3 &&
            shape_parse(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(kk, "block")),
                        nl[i].shape + 3) == 3;
    }
    j->st.names = kt.n;
    if (timeline_launches(tr, &kt, &tl, &n_tl, &j->st.timeline, &evs, err))
        goto fail;
    if (tt_sort(nl, j->n_kernels, sizeof *nl, cmp_launch, NULL) ||
        tt_sort(tl, n_tl, sizeof *tl, cmp_launch, NULL) ||
        !(j->pairs = malloc((j->n_kernels ? j->n_kernels : 1) * sizeof *j->pairs)))
        goto oom;
    /* walk both, key by key: the k-th launch of a key with the k-th */
    for (i = 0, t = 0; i < j->n_kernels;) {
        uint32_t key_i = nl[i].key;
        size_t i_end = i;
        while (i_end < j->n_kernels && nl[i_end].key == key_i)
            i_end++;
        while (t < n_tl && tl[t].key < key_i)
            t++;
        if (t >= n_tl || tl[t].key != key_i)
            j->st.names_unmatched++;
        for (; i < i_end; i++) {
            if (t >= n_tl || tl[t].key != key_i) {
                j->st.beyond++;
                continue;
            }
            if (nl[i].has_shape && tl[t].has_shape &&
                memcmp(nl[i].shape, tl[t].shape, sizeof nl[i].shape) != 0) {
                j->st.shape_mismatch++;
            } else {
                j->pairs[j->n_pairs].ev = evs[tl[t].who];
                j->pairs[j->n_pairs].k = nl[i].who;
                j->n_pairs++;
            }
            t++;
        }
    }
    j->st.matched = j->n_pairs;
    qsort(j->pairs, j->n_pairs, sizeof *j->pairs, cmp_pair);
    if (tr->aux_ncu)
        tr->aux_ncu->free_fn(tr->aux_ncu);
    tr->aux_ncu = &j->aux;
    free(nl);
    free(tl);
    free(evs);
    free(kt.text);
    tt_u64map_fini(&kt.by_hash);
    return 0;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
fail:
    tt_trace_free(ncu);
    if (j)
        join_free(&j->aux);
    free(nl);
    free(tl);
    free(evs);
    free(kt.text);
    tt_u64map_fini(&kt.by_hash);
    return -1;
}

static const ncu_join *join_of(const tt_trace *tr)
{
    return tr->aux_ncu ? (const ncu_join *)tr->aux_ncu : NULL;
}

const tt_ncu_join_stats *tt_ncu_join_stats_of(const tt_trace *tr)
{
    const ncu_join *j = join_of(tr);
    return j ? &j->st : NULL;
}

const cJSON *tt_ncu_join_kernel(const tt_trace *tr, tt_evref ev)
{
    const ncu_join *j = join_of(tr);
    join_pair key = {ev, 0};
    const join_pair *p;
    if (!j || !j->n_pairs)
        return NULL;
    p = bsearch(&key, j->pairs, j->n_pairs, sizeof *p, cmp_pair);
    return p ? j->kernels[p->k] : NULL;
}

/* Add "key": text (printf) to o; false on OOM. */
static bool add_text(cJSON *o, const char *key, const char *fmt, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return cJSON_AddStringToObject(o, key, buf) != NULL;
}

cJSON *tt_ncu_join_details(const tt_trace *tr, tt_evref ev)
{
    static const struct {
        int         v;
        const char *key, *fmt;
    } shown[] = {
        {TT_NCU_DURATION, "Duration", "%.1f ns"},
        {TT_NCU_SM_PCT, "Compute (SM) Throughput", "%.2f %%"},
        {TT_NCU_MEM_PCT, "Memory Throughput", "%.2f %%"},
        {TT_NCU_OCCUPANCY, "Achieved Occupancy", "%.2f %%"},
        {TT_NCU_REGISTERS, "Registers Per Thread", "%.0f"},
        {TT_NCU_DRAM_BYTES, "DRAM Bytes", "%.0f bytes"},
        {TT_NCU_DRAM_BW, "DRAM Bandwidth", "%.2f GB/s"},
    };
    const cJSON *k = tt_ncu_join_kernel(tr, ev), *m, *units;
    tt_ncu_row row;
    cJSON *o;
    const char *s;
    bool ok = true;
    if (!k || !(o = cJSON_CreateObject()))
        return NULL;
    memset(&row, 0, sizeof row);
    tt_ncu_kernel_values(k, &row, NULL, 0);
    ok = add_text(o, "ncu ID", "%.0f",
                  cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(k, "id")));
    if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "name"))))
        ok = ok && cJSON_AddStringToObject(o, "ncu name", s);
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (tt_ncu_has(&row.v[shown[i].v]))
            ok = ok && add_text(o, shown[i].key, shown[i].fmt, tt_ncu_mean(&row.v[shown[i].v]));
    if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "block"))) && *s)
        ok = ok && cJSON_AddStringToObject(o, "Block Size", s);
    if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "grid"))) && *s)
        ok = ok && cJSON_AddStringToObject(o, "Grid Size", s);
    /* then every metric the file has: its value as ncu wrote it, and unit */
    units = cJSON_GetObjectItemCaseSensitive(k, "units");
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(k, "metrics")) {
        const char *u = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(units, m->string));
        char val[200], name[520];
        if (cJSON_IsNumber(m))
            snprintf(val, sizeof val, "%.15g%s%s", m->valuedouble, u && *u ? " " : "",
                     u ? u : "");
        else
            snprintf(val, sizeof val, "%s", cJSON_IsString(m) ? m->valuestring : "n/a");
        /* the key values above already hold some names: "ncu: NAME" then */
        snprintf(name, sizeof name, "%s%s",
                 cJSON_GetObjectItemCaseSensitive(o, m->string) ? "ncu: " : "", m->string);
        if (!cJSON_GetObjectItemCaseSensitive(o, name))
            ok = ok && cJSON_AddStringToObject(o, name, val);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
