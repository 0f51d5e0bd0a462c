/* argvals.c - argument values of many events in storage order (see
 * argvals.h). */
#include "config.h"

#include "analysis/argvals.h"

#include "analysis/key.h"
#include "analysis/stats.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

static int cmp_handle(const void *pa, const void *pb, void *ctx)
{
    const tt_event *const *ev = ctx;
    uint32_t a = ev[*(const uint32_t *)pa]->args, b = ev[*(const uint32_t *)pb]->args;
    return a < b ? -1 : a > b;
}

/* Whether a record may hold one of the keys, from its raw text: a JSON
 * key K can only be there as the bytes "K" unless the text escapes
 * something (a backslash anywhere) or K holds a byte JSON must escape. So
 * most records of a trace can be passed over without parsing them when
 * the keys are rare (tensor-reload's addresses in a Kineto trace, where
 * every copy has a byte count but none has an address). */
static bool may_hold(const char *t, size_t n, const char *const *needle, size_t n_keys)
{
    if (n == 0)
        return false;
    if (memchr(t, '\\', n))
        return true;
    for (size_t k = 0; k < n_keys; k++)
        if (!needle[k] || memmem(t, n, needle[k], strlen(needle[k])))
            return true;
    return false;
}

/* A snapshot's records are rebuilt a chunk at a time when first read
 * (model/args.h): rebuild the chunks this fetch reads on every core first,
 * rather than one after the other as the walk below reaches them (most of
 * a whole snapshot reopen's `summary`, whose rules read the arguments of
 * every transfer). ev[order[0..m)] ascend by handle. Best effort: without
 * memory for the list, the reads rebuild the chunks themselves. */
static void prefetch(const tt_trace *tr, const tt_event *const *ev, const uint32_t *order,
                     size_t m)
{
    uint32_t *h = malloc((m ? m : 1) * sizeof *h);
    size_t k = 0;
    if (!h)
        return;
    for (size_t j = 0; j < m; j++)
        if (k == 0 || h[k - 1] != ev[order[j]]->args)
            h[k++] = ev[order[j]]->args;
    tt_args_prefetch(tr->args, h, k, 0);
    free(h);
}

/* Leave out of ev[order[0..*m)] (ascending by handle) the events whose
 * records the store can tell hold none of the keys without reading them
 * (model/args.h: a loaded trace's blocks, from their key summaries; a
 * snapshot's chunks, from their templates): a record holds a key only as
 * its needle, or escaped (a backslash), and one without the key as an
 * object key has no value for it (may_hold() passes over fewer, parsing
 * them to find none). Keys JSON must escape (no needle) are looked for in
 * every record. Best effort: without memory, or when the store fails (the
 * reads below then fail the same way), nothing is left out. */
static void pass_over(const tt_trace *tr, const tt_event *const *ev, uint32_t *order, size_t *m,
                     const char *const *needle, size_t n_keys)
{
    const char **nd = malloc((n_keys + 1) * sizeof *nd);
    uint32_t *h = malloc((*m ? *m : 1) * sizeof *h);
    unsigned char *maybe = malloc(*m ? *m : 1);
    size_t k = 0;
    bool all = nd && h && maybe;
    for (size_t i = 0; all && i < n_keys; i++)
        all = (nd[i] = needle[i]) != NULL;
    if (all) {
        nd[n_keys] = "\\";
        for (size_t j = 0; j < *m; j++)
            h[j] = ev[order[j]]->args;
        if (tt_args_filter(tr->args, h, *m, nd, n_keys + 1, maybe) == 0) {
            for (size_t j = 0; j < *m; j++)
                if (maybe[j])
                    order[k++] = order[j];
            *m = k;
        }
    }
    free(nd);
    free(h);
    free(maybe);
}

void tt_argvals_fini(tt_argvals *v)
{
    free(v->val);
    tt_strtab_free(v->text);
    memset(v, 0, sizeof *v);
}

int tt_argvals_fetch(const tt_trace *tr, const tt_event *const *ev, size_t n,
                     const char *const *keys, size_t n_keys, bool strict, tt_argvals *v,
                     tt_error *err)
{
    uint32_t *order = NULL;
    size_t m = 0;
    tt_argcache ac;
    char **needle = NULL;   /* "key" per key; NULL: a key JSON must escape */
    uint32_t passed = 0;    /* a record may_hold() said holds none of the keys */
    uint64_t parsed = 0;
    int rc = 0;

    memset(v, 0, sizeof *v);
    if (n > UINT32_MAX || (n_keys && n > SIZE_MAX / sizeof *v->val / n_keys))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    v->n = n;
    v->n_keys = n_keys;
    v->val = calloc(n * n_keys > 0 ? n * n_keys : 1, sizeof *v->val);
    v->text = tt_strtab_new();
    order = malloc((n ? n : 1) * sizeof *order);
    needle = calloc(n_keys ? n_keys : 1, sizeof *needle);
    for (size_t k = 0; needle && k < n_keys; k++) {
        size_t kl = strlen(keys[k]);
        bool plain = true;
        for (size_t i = 0; i < kl; i++)
            plain &= (unsigned char)keys[k][i] >= 0x20 && keys[k][i] != '"' && keys[k][i] != '\\';
        if (plain && (needle[k] = malloc(kl + 3)) != NULL) {
            needle[k][0] = '"';
            memcpy(needle[k] + 1, keys[k], kl);
            memcpy(needle[k] + 1 + kl, "\"", 2);
        }
    }
    if (!v->val || !v->text || !order || !needle) {
        free(needle);
        free(order);
        tt_argvals_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    /* events without arguments have none of the keys: leave them out */
    for (size_t i = 0; i < n; i++)
        if (ev[i]->args)
            order[m++] = (uint32_t)i;
    if (tt_sort(order, m, sizeof *order, cmp_handle, (void *)ev)) {
        free(order);
        tt_argvals_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    pass_over(tr, ev, order, &m, (const char *const *)needle, n_keys);
    prefetch(tr, ev, order, m);
    /* one cache: events of the same record (consecutive now) share the
     * parsed copy, and the reader resumes inside its block */
    tt_argcache_init(&ac, tr);
    for (size_t j = 0; j < m && rc == 0; j++) {
        const tt_event *e = ev[order[j]];
        uint32_t *cell = v->val + (size_t)order[j] * n_keys;
        if (e->args == passed)
            continue;
        if (e->args != ac.handle) {
            /* a new record: its raw text first, parsed only when it may
             * hold a key (same reader, so no block is read twice) */
            const char *a, *x;
            size_t an, xn;
            if (tt_args_read(&ac.rd, e->args, &a, &an, &x, &xn)) {
                tt_error why;
                /* a corrupt snapshot section fails even a lenient fetch:
                 * it is the file's error, which its reopen used to give */
                if (strict || tt_args_error(tr->args, &why)) {
                    tt_argcache_unreadable(tr->args, e->args, err);
                    rc = err && err->code == TT_ERR_NOMEM ? -1 : -2;
                }
                continue;   /* lenient: an unreadable record has no arguments */
            }
            if (!may_hold(a, an, (const char *const *)needle, n_keys) &&
                !may_hold(x, xn, (const char *const *)needle, n_keys)) {
                passed = e->args;
                continue;
            }
            tt_argcache_take(&ac, e->args, a, an, x, xn);
            parsed++;
        }
        for (size_t k = 0; k < n_keys; k++) {
            const char *s;
            bool number;
            uint32_t id;
            tt_error rerr = {.code = TT_OK};
            int r = tt_argcache_get_typed(&ac, e, keys[k], &s, &number, &rerr);
            if (r < 0) {
                if (rerr.code == TT_ERR_NOMEM || strict) {
                    if (err)
                        *err = rerr;
                    rc = rerr.code == TT_ERR_NOMEM ? -1 : -2;
                }
                break;   /* lenient: an unreadable record has no arguments */
            }
            if (r == 0)
                continue;
            id = tt_strtab_intern(v->text, s, strlen(s));
            if (id == TT_STR_ERROR || id >= UINT32_MAX / 2 - 1) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                rc = -1;
                break;
            }
            cell[k] = (id + 1) << 1 | (number ? 1u : 0u);
        }
    }
    v->blocks_read = ac.rd.loads;
    v->parsed = parsed;
    tt_argcache_fini(&ac);
    for (size_t k = 0; k < n_keys; k++)
        free(needle[k]);
    free(needle);
    free(order);
    if (rc)
        tt_argvals_fini(v);
    return rc;
}

int tt_argvals_sel_events(const tt_trace *tr, const tt_sel *sel, bool transfers_only,
                          const tt_event ***ev, size_t *n, tt_error *err)
{
    tt_evref *refs;
    const tt_event **v;
    size_t nr, m = 0;
    *ev = NULL;
    *n = 0;
    /* the walk order is tt_sel_events()'s: the same lanes, the same events */
    if (tt_sel_events(tr, sel, &refs, &nr, err))
        return -1;
    if (!(v = malloc((nr ? nr : 1) * sizeof *v))) {
        free(refs);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    for (size_t i = 0; i < nr; i++) {
        const tt_event *e = tt_trace_event(tr, refs[i]);
        if (!transfers_only || e->bytes >= 0)
            v[m++] = e;
    }
    free(refs);
    *ev = v;
    *n = m;
    return 0;
}
